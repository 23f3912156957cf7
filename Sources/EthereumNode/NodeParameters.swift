import EthereumLedger
import EthereumTypes
import NativeContracts

/// The chain's run-time parameters as developer methods read and change them: coinbase, gas limit, chain id, the
/// clock's rules (offset, next timestamp, timestamp interval), the next base fee, and the native contracts.
///
/// Holds no state of its own (so no lock): every parameter lives in the ledger, read and changed under
/// ``NodeChain``'s lock and written with the ledger's other changes.
public final class NodeParameters: Sendable {
    let chain: NodeChain
    let configuration: NodeConfiguration
    let clock: @Sendable () -> UInt64

    init(chain: NodeChain, configuration: NodeConfiguration, clock: @escaping @Sendable () -> UInt64) {
        self.chain = chain
        self.configuration = configuration
        self.clock = clock
    }

    /// anvil_setCoinbase: the next blocks name `coinbase` and pay it their priority fees.
    public func setCoinbase(_ coinbase: Address) {
        chain.withLedger { $0.setCoinbase(coinbase) }
    }

    /// anvil_setBlockGasLimit: the next blocks' gas limit. Returns the pool transactions dropped for exceeding it.
    @discardableResult
    public func setBlockGasLimit(_ gasLimit: UInt64) throws(LedgerError) -> [[UInt8]] {
        try chain.withLedger { (chain) throws(LedgerError) in try chain.setGasLimit(gasLimit) }
    }

    /// anvil_setChainId: eth_chainId and net_version answer `chainID`, transactions must be signed for it. Returns the
    /// pool transactions dropped because they were signed for another chain id.
    @discardableResult
    public func setChainID(_ chainID: UInt64) throws(LedgerError) -> [[UInt8]] {
        try chain.withLedger { (chain) throws(LedgerError) in try chain.setChainID(chainID) }
    }

    /// The block gas limit of the next block.
    public var blockGasLimit: UInt64 { chain.withLedger { $0.config.gasLimit } }

    /// anvil_setNextBlockBaseFeePerGas: the next block's base fee.
    public func setNextBlockBaseFee(_ fee: UInt256) { chain.withLedger { $0.setNextBaseFee(fee) } }

    // MARK: The clock

    /// The chain's clock: the wall clock plus the offset `evm_increaseTime` and `evm_setTime` set (never below 0).
    /// The market follows it (README, "Markets").
    public var chainTime: UInt64 {
        let now = Int64(min(clock(), BlockSchedule.maxTimestamp))
        let offset = chain.withLedger { $0.schedule.timeOffset }
        return UInt64(max(0, now + offset))
    }

    /// evm_increaseTime: the total offset in seconds afterwards (at least 0).
    public func increaseTime(by seconds: UInt64) throws -> UInt64 {
        UInt64(max(0, try chain.withLedger { try $0.increaseTime(seconds) }))
    }

    /// anvil_setTime: the clock reads `timestamp` now. Returns Anvil's answer: the seconds from the next block's
    /// timestamp before the call to `timestamp` (0 when earlier).
    public func setTime(_ timestamp: UInt64) throws(LedgerError) -> UInt64 {
        let now = clock()
        return try chain.withLedger { (chain) throws(LedgerError) in try chain.setTime(timestamp, now: now) }
    }

    /// evm_setNextBlockTimestamp: the next block's timestamp.
    public func setNextBlockTimestamp(_ timestamp: UInt64) throws {
        try chain.withLedger { try $0.setNextTimestamp(timestamp) }
    }

    /// anvil_setBlockTimestampInterval: each next block is its parent's timestamp + `seconds`.
    public func setBlockTimestampInterval(_ seconds: UInt64) throws(LedgerError) {
        try chain.withLedger { (chain) throws(LedgerError) in try chain.setBlockTimestampInterval(seconds) }
    }

    /// anvil_removeBlockTimestampInterval: false when no interval was set.
    public func removeBlockTimestampInterval() -> Bool { chain.withLedger { $0.removeBlockTimestampInterval() } }

    /// anvil_getGenesisTime: the genesis block's timestamp (the stored one when a data directory was reopened).
    public var genesisTime: UInt64 {
        chain.withLedger { $0.block(number: 0)?.header.timestamp } ?? configuration.chain.genesisTimestamp
    }

    // MARK: Native contracts

    /// The chain's native contracts (tokens with their genesis holdings, Multicall3).
    public var nativeContracts: NativeContractRegistry { chain.withLedger { $0.nativeContracts } }

    /// A token by symbol (case-insensitive) or address.
    public func token(_ text: String) throws(NodeError) -> TokenDefinition {
        guard let token = nativeContracts.token(named: text) else { throw .unknownToken(text) }
        return token
    }
}
