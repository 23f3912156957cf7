import ByteCoding
import EthereumLedger
import EthereumTypes
import MerkleTrie
import Testing

@Suite struct LedgerExecutionTests {
    let now: UInt64 = 1_800_000_000

    @Test func genesisBlock() {
        let ledger = Fixtures.ledger()
        #expect(ledger.blockNumber == 0)
        #expect(ledger.head.header.baseFeePerGas == Fixtures.gwei)
        #expect(ledger.head.header.transactionsRoot == PatriciaTrie.emptyRoot)
        #expect(
            Hex.encode(BlockHeader.emptyOmmersHash)
                == "1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347")
        #expect(ledger.totalSupply == Fixtures.ether * 200)
    }

    @Test func transferChargesExactly() throws {
        var ledger = Fixtures.ledger()
        let tx = Fixtures.transfer(
            from: Fixtures.alice, nonce: 0, value: Fixtures.ether, maxFee: Fixtures.gwei * 3, tip: Fixtures.gwei * 2)
        let result = try ledger.submit(tx, now: now)
        #expect(result.minedBlocks.count == 1)
        let block = try #require(result.minedBlocks.first)
        let baseFee = block.header.baseFeePerGas
        // Block 1's base fee: parent (genesis) used 0 of 60M → 1 gwei × (1 − 1/8) = 875,000,000.
        #expect(baseFee == UInt256(875_000_000 as UInt64))
        let tip = Fixtures.gwei * 2  // min(tip, maxFee − base) = min(2, 2.125) gwei
        let price = baseFee + tip
        #expect(ledger.account(Fixtures.alice).balance == Fixtures.ether * 100 - Fixtures.ether - price * 21_000)
        #expect(ledger.account(Fixtures.bob).balance == Fixtures.ether * 101)
        #expect(ledger.account(Fixtures.coinbase).balance == tip * 21_000)
        #expect(ledger.burned == baseFee * 21_000)
        #expect(ledger.account(Fixtures.alice).nonce == 1)
        let (receipt, _) = try #require(ledger.receipt(tx.hash))
        #expect(receipt.gasUsed == 21_000 && receipt.cumulativeGasUsed == 21_000 && receipt.effectiveGasPrice == price)
        #expect(receipt.status)
        #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
        // Next base fee after one 21k transfer in a 60M block (reference: 875,087,500 at 1 gwei parent).
        #expect(
            FeeMarket.nextBaseFee(parentBaseFee: Fixtures.gwei, parentGasUsed: 21_000, parentGasLimit: 60_000_000)
                == UInt256(875_087_500 as UInt64))
        #expect(
            FeeMarket.nextBaseFee(parentBaseFee: Fixtures.gwei, parentGasUsed: 30_000_000, parentGasLimit: 30_000_000)
                == UInt256(1_125_000_000 as UInt64))
    }

    @Test func legacyTransactionPaysItsGasPrice() throws {
        var ledger = Fixtures.ledger()
        let price = Fixtures.gwei * 2
        let tx = Fixtures.transfer(from: Fixtures.alice, nonce: 0, value: .zero, maxFee: price, type: 0)
        let block = try #require(try ledger.submit(tx, now: now).minedBlocks.first)
        let base = block.header.baseFeePerGas
        #expect(ledger.account(Fixtures.alice).balance == Fixtures.ether * 100 - price * 21_000)
        #expect(ledger.account(Fixtures.coinbase).balance == (price - base) * 21_000)
        #expect(ledger.receipt(tx.hash)?.0.effectiveGasPrice == price)
    }

    @Test func conservationOverThousandsOfRandomTransfers() throws {
        var ledger = Fixtures.ledger(.manual)
        var rng = SplitMix(seed: 42)
        let people = (1...20).map { Fixtures.address(UInt8($0)) }
        for p in people { try ledger.setBalance(p, Fixtures.ether * UInt256(rng.next() % 50 + 1)) }
        var nonces: [Address: UInt64] = [:]
        var accepted = 0
        var rejected = 0
        for round in 0..<3_000 {
            let from = people[Int(rng.next() % 20)]
            let to = people[Int(rng.next() % 20)]
            let fee = Fixtures.gwei * UInt256(rng.next() % 5 + 1)
            let tip = UInt256(rng.next() % 2_000_000_000 + 1)
            let value = UInt256(rng.next() % 3) * Fixtures.ether / 2
            let gas = rng.next() % 4 == 0 ? 21_000 + rng.next() % 50_000 : 21_000
            let tx = Fixtures.transfer(
                from: from, to: to, nonce: nonces[from, default: 0], value: value, maxFee: fee,
                tip: UInt256.min(tip, fee), gas: gas, type: rng.next() % 3 == 0 ? 0 : 2, salt: UInt64(round))
            do {
                _ = try ledger.submit(tx, now: now)
                nonces[from, default: 0] += 1
                accepted += 1
            } catch {
                rejected += 1
            }
            if round % 37 == 0 { _ = try ledger.mine(now: now) }
            #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
        }
        while ledger.pool.count > 0 {
            let before = ledger.pool.count
            _ = try ledger.mine(now: now)
            if ledger.pool.count == before { break }
        }
        #expect(accepted > 1_000)
        #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
        #expect(!ledger.burned.isZero)
    }

    @Test func historicalBalances() throws {
        var ledger = Fixtures.ledger()
        for n in 0..<3 {
            _ = try ledger.submit(
                Fixtures.transfer(from: Fixtures.alice, nonce: UInt64(n), value: Fixtures.ether), now: now)
        }
        #expect(ledger.blockNumber == 3)
        #expect(ledger.account(Fixtures.bob, atBlock: 0).balance == Fixtures.ether * 100)
        #expect(ledger.account(Fixtures.bob, atBlock: 1).balance == Fixtures.ether * 101)
        #expect(ledger.account(Fixtures.bob, atBlock: 2).balance == Fixtures.ether * 102)
        #expect(ledger.account(Fixtures.bob).balance == Fixtures.ether * 103)
        #expect(ledger.account(Fixtures.alice, atBlock: 1).nonce == 1)
    }

    @Test func deterministicBlockHashes() throws {
        func run() throws -> [[UInt8]] {
            var ledger = Fixtures.ledger()
            for n in 0..<5 {
                _ = try ledger.submit(Fixtures.transfer(from: Fixtures.alice, nonce: UInt64(n)), now: now)
            }
            return (0...5).map { ledger.block(number: $0)!.hash }
        }
        #expect(try run() == run())
    }

    @Test func manyEmptyBlocksQuickly() throws {
        var ledger = Fixtures.ledger(.manual)
        let blocks = try ledger.mine(blocks: 1_000, now: now)
        #expect(blocks.count == 1_000)
        #expect(ledger.blockNumber == 1_000)
        for i in 1..<blocks.count { #expect(blocks[i].header.timestamp > blocks[i - 1].header.timestamp) }
        // Empty blocks: the base fee decays by 1/8 each time to its 7-wei fixed point region.
        #expect(ledger.head.header.baseFeePerGas < Fixtures.gwei)
    }

    @Test func contractCreationAddress() {
        // The well-known first contract address of 0x6ac7ea33f8831ea9dcc53393aaa88b25a785dbf0.
        let sender = try! Address(parsing: "0x6ac7ea33f8831ea9dcc53393aaa88b25a785dbf0")
        #expect(
            Ledger.contractAddress(sender: sender, nonce: 0).lowercased == "0xcd234a471b72ba2f1ccf0a70fcaba648a5eecd8d")
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
