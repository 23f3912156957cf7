import EthereumLedger
import EthereumTypes
import KeccakHashing

/// Pre-verified transactions for ledger tests (the ledger trusts the codec for hash and sender).
enum Fixtures {
    static func address(_ n: UInt8) -> Address { Address([UInt8](repeating: n, count: 20))! }

    static let alice = address(0xa1)
    static let bob = address(0xb0)
    static let carol = address(0xc0)
    static let coinbase = address(0xcb)
    static let gwei = UInt256(1_000_000_000 as UInt64)
    static let ether = UInt256(1_000_000_000_000_000_000 as UInt64)

    static var config: ChainConfig {
        var c = ChainConfig()
        c.coinbase = coinbase
        return c
    }

    static func ledger(_ mode: MiningMode = .automatic, config: ChainConfig = Fixtures.config) -> Ledger {
        var l = Ledger(
            config: config,
            genesis: [
                GenesisAccount(address: alice, balance: ether * 100),
                GenesisAccount(address: bob, balance: ether * 100),
            ])
        l.miningMode = mode
        return l
    }

    static func transfer(
        from: Address, to: Address = bob, nonce: UInt64, value: UInt256 = gwei, maxFee: UInt256 = gwei * 3,
        tip: UInt256 = gwei, gas: UInt64 = 21_000, type: UInt8 = 2, chainID: UInt64? = 11_155_111,
        intrinsic: UInt64 = 21_000, floor: UInt64 = 21_000, salt: UInt64 = 0
    ) -> LedgerTransaction {
        let seed =
            from.bytes + to.bytes + [UInt8(truncatingIfNeeded: nonce), UInt8(truncatingIfNeeded: nonce >> 8), type]
            + maxFee.bigEndianBytes + tip.bigEndianBytes + value.bigEndianBytes
            + (0..<8).map { UInt8(truncatingIfNeeded: salt >> (UInt64($0) * 8)) }
        let hash = Keccak256.hash(seed)
        return LedgerTransaction(
            type: type, chainID: chainID, nonce: nonce, gasLimit: gas,
            maxFeePerGas: maxFee, maxPriorityFeePerGas: type == 2 ? tip : maxFee, to: to, value: value,
            intrinsicGas: intrinsic, floorGas: floor, hash: hash, sender: from, encoding: [type] + hash)
    }
}
