import EthereumTypes

/// The state a native contract reads: account storage words, ETH balances, code and recent block hashes.
/// The ledger implements it over its accounts (now, or at a past block).
public protocol ContractStateReading {
    /// The storage word at `slot` of `address` (zero when unset).
    func storage(_ address: Address, slot: UInt256) -> UInt256
    /// The ETH balance of `address` in wei.
    func balance(_ address: Address) -> UInt256
    /// True when `address` has code (a native contract's marker or genesis code).
    func hasCode(_ address: Address) -> Bool
    /// The hash of block `number`, or nil outside the last 256 blocks (as BLOCKHASH answers zero).
    func blockHash(_ number: UInt64) -> [UInt8]?
}

/// The block a call executes in (the EVM's block context).
public struct BlockEnvironment: Sendable, Equatable {
    public var number: UInt64
    public var timestamp: UInt64
    public var baseFee: UInt256
    public var chainID: UInt64
    public var coinbase: Address
    public var gasLimit: UInt64

    public init(
        number: UInt64, timestamp: UInt64, baseFee: UInt256, chainID: UInt64, coinbase: Address, gasLimit: UInt64
    ) {
        self.number = number
        self.timestamp = timestamp
        self.baseFee = baseFee
        self.chainID = chainID
        self.coinbase = coinbase
        self.gasLimit = gasLimit
    }
}

/// A message call into a native contract: the top-level call of a transaction or of `eth_call`.
public struct NativeCall: Sendable, Equatable {
    /// `msg.sender`.
    public var caller: Address
    public var target: Address
    /// `msg.value` in wei (moved from caller to target before the code runs).
    public var value: UInt256
    public var data: [UInt8]

    public init(caller: Address, target: Address, value: UInt256 = .zero, data: [UInt8]) {
        self.caller = caller
        self.target = target
        self.value = value
        self.data = data
    }
}
