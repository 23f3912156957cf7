import EthereumLedger
import EthereumTypes
import Testing

@Suite struct PoolAdmissionTests {
    let now: UInt64 = 1_800_000_000

    func rejection(_ ledger: inout Ledger, _ tx: LedgerTransaction) -> String? {
        do {
            _ = try ledger.submit(tx, now: now)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func gethErrorTexts() throws {
        var ledger = Fixtures.ledger()
        _ = try ledger.submit(Fixtures.transfer(from: Fixtures.alice, nonce: 0), now: now)
        #expect(
            rejection(&ledger, Fixtures.transfer(from: Fixtures.alice, nonce: 0, salt: 9))
                == "nonce too low: next nonce 1, tx nonce 0")
        #expect(
            rejection(&ledger, Fixtures.transfer(from: Fixtures.carol, nonce: 0, value: Fixtures.ether))
                == "insufficient funds for gas * price + value: balance 0, tx cost 1000063000000000000, overshot 1000063000000000000"
        )
        #expect(
            rejection(&ledger, Fixtures.transfer(from: Fixtures.alice, nonce: 1, gas: 20_000))
                == "intrinsic gas too low: gas 20000, minimum needed 21000")
        #expect(
            rejection(
                &ledger,
                Fixtures.transfer(from: Fixtures.alice, nonce: 1, gas: 22_000, intrinsic: 21_500, floor: 23_000))
                == "insufficient gas for floor data gas cost: gas 22000, minimum needed 23000")
        #expect(
            rejection(
                &ledger,
                Fixtures.transfer(from: Fixtures.alice, nonce: 1, maxFee: Fixtures.gwei, tip: Fixtures.gwei * 2))
                == "max priority fee per gas higher than max fee per gas")
        #expect(
            rejection(&ledger, Fixtures.transfer(from: Fixtures.alice, nonce: 1, gas: 70_000_000))
                == "exceeds block gas limit")
        #expect(
            rejection(&ledger, Fixtures.transfer(from: Fixtures.alice, nonce: 1, gas: 20_000_000))
                == "transaction gas limit too high (cap: 16777216, tx: 20000000)")
        #expect(
            rejection(&ledger, Fixtures.transfer(from: Fixtures.alice, nonce: 1, chainID: 1))
                == "invalid sender: invalid chain id for signer: have 1 want 11155111")
        #expect(
            rejection(&ledger, Fixtures.transfer(from: Fixtures.alice, nonce: 1, tip: .zero))
                == "transaction gas price below minimum: gas tip cap 0, minimum needed 1")
    }

    /// geth 1.17's `ValidateTransactionWithState`: the sender's pending costs count (`queued cost`), a replacement
    /// counts its cost difference (`tx bumped`, negative when cheaper), and every amount is printed exactly.
    @Test func insufficientFundsTextsCountPendingCosts() throws {
        var ledger = Fixtures.ledger(.manual)
        // Alice holds 100 ether; a 60-ether transfer is pending, a second one cannot be paid next to it.
        let first = Fixtures.transfer(from: Fixtures.alice, nonce: 0, value: Fixtures.ether * 60)
        _ = try ledger.submit(first, now: now)
        let cost = "60000063000000000000"
        #expect(
            rejection(&ledger, Fixtures.transfer(from: Fixtures.alice, nonce: 1, value: Fixtures.ether * 50))
                == "insufficient funds for gas * price + value: balance 100000000000000000000, queued cost \(cost), "
                + "tx cost 50000063000000000000, overshot 10000126000000000000")
        // Replacing nonce 0 with a 101-ether transfer: the bump is the cost difference.
        #expect(
            rejection(
                &ledger,
                Fixtures.transfer(
                    from: Fixtures.alice, nonce: 0, value: Fixtures.ether * 101,
                    maxFee: Fixtures.gwei * 4, tip: Fixtures.gwei * 2))
                == "insufficient funds for gas * price + value: balance 100000000000000000000, tx cost 101000084000000000000, "
                + "overshot 1000084000000000000")
        _ = try ledger.submit(Fixtures.transfer(from: Fixtures.alice, nonce: 1, value: Fixtures.ether * 39), now: now)
        // A replacement of nonce 0 that costs 2 ether more than the original: 60 + 39 + 2 > 100.
        #expect(
            rejection(
                &ledger,
                Fixtures.transfer(
                    from: Fixtures.alice, nonce: 0, value: Fixtures.ether * 62,
                    maxFee: Fixtures.gwei * 4, tip: Fixtures.gwei * 2))
                == "insufficient funds for gas * price + value: balance 100000000000000000000, queued cost 99000126000000000000, "
                + "tx bumped 2000021000000000000, overshot 1000147000000000000")
        // A cost above 2^256 - 1 is printed exactly (gas 21,000 x a fee cap of 2^256 - 1, plus the value).
        #expect(
            rejection(&ledger, Fixtures.transfer(from: Fixtures.carol, nonce: 0, maxFee: .max, tip: Fixtures.gwei))
                == "insufficient funds for gas * price + value: balance 0, tx cost "
                + "2431633873983640103894990685182446064918669677978451844828609264166175723438635000, overshot "
                + "2431633873983640103894990685182446064918669677978451844828609264166175723438635000")
    }

    @Test func replacementNeedsTenPercentOnBothFees() throws {
        var ledger = Fixtures.ledger(.manual)
        let original = Fixtures.transfer(
            from: Fixtures.alice, nonce: 0, maxFee: Fixtures.gwei * 10, tip: Fixtures.gwei * 2)
        _ = try ledger.submit(original, now: now)
        #expect(rejection(&ledger, original) == "already known")
        let tooCheap = Fixtures.transfer(
            from: Fixtures.alice, nonce: 0, maxFee: Fixtures.gwei * 11, tip: Fixtures.gwei * 2 + 1, salt: 1)
        #expect(rejection(&ledger, tooCheap) == "replacement transaction underpriced")
        let bumped = Fixtures.transfer(
            from: Fixtures.alice, nonce: 0, maxFee: Fixtures.gwei * 11, tip: Fixtures.gwei * 22 / 10, salt: 2)
        let result = try ledger.submit(bumped, now: now)
        #expect(result.replaced == original.hash)
        #expect(ledger.transaction(original.hash) == nil)
        _ = try ledger.mine(now: now)
        #expect(ledger.receipt(bumped.hash) != nil)
    }

    @Test func nonceGapWaitsThenPromotes() throws {
        var ledger = Fixtures.ledger()
        let later = Fixtures.transfer(from: Fixtures.alice, nonce: 1)
        #expect(try ledger.submit(later, now: now).minedBlocks.isEmpty)
        #expect(ledger.pool.split { ledger.account($0).nonce }.queued.map(\.hash) == [later.hash])
        #expect(ledger.pendingNonce(Fixtures.alice) == 0)
        let first = Fixtures.transfer(from: Fixtures.alice, nonce: 0)
        let mined = try ledger.submit(first, now: now).minedBlocks
        #expect(mined.flatMap(\.transactions).map(\.hash) == [first.hash, later.hash])
        #expect(ledger.account(Fixtures.alice).nonce == 2)
    }

    @Test func feeCapBelowBaseFeeWaits() throws {
        var ledger = Fixtures.ledger(.manual)
        ledger.setNextBaseFee(Fixtures.gwei * 50)
        let tx = Fixtures.transfer(from: Fixtures.alice, nonce: 0, maxFee: Fixtures.gwei * 3)
        _ = try ledger.submit(tx, now: now)
        let block = try #require(try ledger.mine(now: now).first)
        #expect(block.transactions.isEmpty)
        #expect(ledger.pool.contains(tx.hash))
        // The base fee decays over empty blocks until the transaction fits.
        var included = false
        for _ in 0..<40 where !included {
            _ = try ledger.mine(now: now)
            included = ledger.receipt(tx.hash) != nil
        }
        #expect(included)
    }

    @Test func blockOrderIsByEffectiveTip() throws {
        var ledger = Fixtures.ledger(.manual)
        let cheap = Fixtures.transfer(from: Fixtures.alice, nonce: 0, maxFee: Fixtures.gwei * 5, tip: Fixtures.gwei)
        let rich = Fixtures.transfer(
            from: Fixtures.bob, to: Fixtures.alice, nonce: 0, maxFee: Fixtures.gwei * 5, tip: Fixtures.gwei * 3)
        _ = try ledger.submit(cheap, now: now)
        _ = try ledger.submit(rich, now: now)
        let block = try #require(try ledger.mine(now: now).first)
        #expect(block.transactions.map(\.hash) == [rich.hash, cheap.hash])
        #expect(block.receipts.map(\.cumulativeGasUsed) == [21_000, 42_000])
    }

    @Test func perSenderLimit() throws {
        var config = Fixtures.config
        config.poolLimitPerSender = 3
        var ledger = Fixtures.ledger(.manual, config: config)
        for n in 0..<3 { _ = try ledger.submit(Fixtures.transfer(from: Fixtures.alice, nonce: UInt64(n)), now: now) }
        #expect(rejection(&ledger, Fixtures.transfer(from: Fixtures.alice, nonce: 3)) == "account limit exceeded")
        #expect(ledger.pool.count == 3)
    }
}

@Suite struct PoolEvictionTests {
    let now: UInt64 = 1_800_000_000

    /// Ties in price are broken by nonce, then by arrival, never by dictionary order (which differs per process).
    @Test func evictionTiesAreBrokenByNonceThenArrival() throws {
        var config = Fixtures.config
        config.poolLimitTotal = 16
        let senders = (1...17).map { Fixtures.address(UInt8($0)) }
        var ledger = Ledger(
            config: config, genesis: senders.map { GenesisAccount(address: $0, balance: Fixtures.ether) })
        ledger.miningMode = .manual
        let tied = senders.prefix(16).map { Fixtures.transfer(from: $0, nonce: 0) }
        for tx in tied { _ = try ledger.submit(tx, now: now) }
        let better = Fixtures.transfer(from: senders[16], nonce: 0, maxFee: Fixtures.gwei * 5, tip: Fixtures.gwei * 2)
        _ = try ledger.submit(better, now: now)
        // Sixteen transactions with the same tip and nonce: the last to arrive goes.
        #expect(ledger.pool.count == 16)
        #expect(ledger.pool.all.map(\.hash) == tied.prefix(15).map(\.hash) + [better.hash])

        // A higher nonce goes before an earlier arrival.
        config.poolLimitTotal = 3
        var small = Ledger(
            config: config, genesis: senders.map { GenesisAccount(address: $0, balance: Fixtures.ether) })
        small.miningMode = .manual
        let a0 = Fixtures.transfer(from: senders[0], nonce: 0)
        let a1 = Fixtures.transfer(from: senders[0], nonce: 1)
        let b0 = Fixtures.transfer(from: senders[1], nonce: 0)
        for tx in [a0, a1, b0] { _ = try small.submit(tx, now: now) }
        let c0 = Fixtures.transfer(from: senders[2], nonce: 0, maxFee: Fixtures.gwei * 5, tip: Fixtures.gwei * 2)
        _ = try small.submit(c0, now: now)
        #expect(small.pool.all.map(\.hash) == [a0.hash, b0.hash, c0.hash])
    }
}

@Suite struct DevControlTests {
    let now: UInt64 = 1_800_000_000

    @Test func nestedSnapshotsRevert() throws {
        var ledger = Fixtures.ledger()
        let s1 = ledger.snapshot()
        _ = try ledger.submit(Fixtures.transfer(from: Fixtures.alice, nonce: 0, value: Fixtures.ether), now: now)
        let s2 = ledger.snapshot()
        try ledger.setBalance(Fixtures.carol, Fixtures.ether * 7)
        _ = try ledger.submit(Fixtures.transfer(from: Fixtures.alice, nonce: 1, value: Fixtures.ether), now: now)
        #expect(ledger.blockNumber == 2)
        let revertedToS2 = try ledger.revert(to: s2)
        #expect(revertedToS2)
        #expect(ledger.blockNumber == 1)
        #expect(ledger.account(Fixtures.carol).balance.isZero)
        #expect(ledger.account(Fixtures.bob).balance == Fixtures.ether * 101)
        let revertedToS1 = try ledger.revert(to: s1)
        #expect(revertedToS1)
        #expect(ledger.blockNumber == 0)
        #expect(ledger.account(Fixtures.bob).balance == Fixtures.ether * 100)
        let revertedAgain = try ledger.revert(to: s2)
        #expect(!revertedAgain)
        #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
    }

    @Test func reorgRemovesAConfirmedTransaction() throws {
        var ledger = Fixtures.ledger()
        let tx = Fixtures.transfer(from: Fixtures.alice, nonce: 0, value: Fixtures.ether)
        _ = try ledger.submit(tx, now: now)
        _ = try ledger.mine(blocks: 2, now: now)
        let oldHash = ledger.block(number: 1)!.hash
        let replaced = try ledger.reorg(depth: 3, requeueTransactions: false, now: now)
        #expect(replaced.count == 3)
        #expect(ledger.blockNumber == 3)
        #expect(ledger.block(number: 1)!.hash != oldHash)
        #expect(ledger.receipt(tx.hash) == nil)
        #expect(ledger.account(Fixtures.bob).balance == Fixtures.ether * 100)
        #expect(ledger.account(Fixtures.alice).nonce == 0)
        #expect(ledger.world.sumOfBalances + ledger.burned == ledger.totalSupply)
    }

    @Test func reorgCanRequeue() throws {
        var ledger = Fixtures.ledger()
        let tx = Fixtures.transfer(from: Fixtures.alice, nonce: 0, value: Fixtures.ether)
        _ = try ledger.submit(tx, now: now)
        let blockBefore = ledger.receipt(tx.hash)!.1.hash
        _ = try ledger.reorg(depth: 1, requeueTransactions: true, now: now)
        let (_, block) = try #require(ledger.receipt(tx.hash))
        #expect(block.hash != blockBefore)
        #expect(ledger.account(Fixtures.bob).balance == Fixtures.ether * 101)
    }

    @Test func timeControls() throws {
        var ledger = Fixtures.ledger(.manual)
        #expect(throws: LedgerError.self) { try ledger.setNextTimestamp(ledger.head.header.timestamp) }
        try ledger.setNextTimestamp(2_000_000_000)
        #expect(try ledger.mine(now: now).first?.header.timestamp == 2_000_000_000)
        try ledger.increaseTime(3_600)
        let next = try ledger.mine(now: 2_000_000_100).first!.header.timestamp
        #expect(next == 2_000_003_700)
        // Blocks that ran ahead of the clock still move forward by the whole increase.
        let ahead = try ledger.mine(blocks: 50, now: 2_000_000_100).last!.header.timestamp
        try ledger.increaseTime(3_600)
        #expect(try ledger.mine(now: 2_000_000_100).first!.header.timestamp >= ahead + 3_600)
    }

    @Test func dropAndNonce() throws {
        var ledger = Fixtures.ledger(.manual)
        let tx = Fixtures.transfer(from: Fixtures.alice, nonce: 0)
        _ = try ledger.submit(tx, now: now)
        let first = ledger.dropTransaction(tx.hash)
        let second = ledger.dropTransaction(tx.hash)
        #expect(first && !second)
        try ledger.setNonce(Fixtures.alice, 5)
        #expect(ledger.pendingNonce(Fixtures.alice) == 5)
    }
}
