import EthereumTypes
import NativeContracts

/// A plain state for the native contracts: storage words, balances, code flags and block hashes, changed only by
/// applying a successful result (as the ledger does).
struct MemoryState: ContractStateReading {
    var words: [Address: [UInt256: UInt256]] = [:]
    var balances: [Address: UInt256] = [:]
    var withCode: Set<Address> = []
    var hashes: [UInt64: [UInt8]] = [:]

    func storage(_ address: Address, slot: UInt256) -> UInt256 { words[address]?[slot] ?? .zero }
    func balance(_ address: Address) -> UInt256 { balances[address] ?? .zero }
    func hasCode(_ address: Address) -> Bool { withCode.contains(address) }
    func blockHash(_ number: UInt64) -> [UInt8]? { hashes[number] }

    mutating func apply(_ result: ExecutionResult) {
        for write in result.storageWrites { words[write.address, default: [:]][write.slot] = write.value }
        for t in result.valueTransfers {
            balances[t.from] = balance(t.from) - t.amount
            balances[t.to] = balance(t.to) + t.amount
        }
    }

    /// A state holding `registry`'s genesis storage.
    init(registry: NativeContractRegistry) {
        for token in registry.tokens {
            words[token.address] = token.genesisStorage
            withCode.insert(token.address)
            if token.profile == .weth9 { balances[token.address] = token.genesisSupply }
        }
    }
}
