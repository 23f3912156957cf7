import EthereumTypes

/// A signed transaction as the ledger sees it: decoded, its sender recovered and its intrinsic gas
/// computed by the transaction codec before it reaches the ledger.
public struct LedgerTransaction: Sendable, Equatable {
    /// An EIP-2930 access-list entry.
    public struct AccessListEntry: Sendable, Equatable {
        public var address: Address
        public var storageKeys: [[UInt8]]
        public init(address: Address, storageKeys: [[UInt8]]) {
            self.address = address
            self.storageKeys = storageKeys
        }
    }

    /// The fields, held once on the heap and never changed there: a transaction is copied into the pool, the seal's
    /// candidates, the block and the journal, and a copy is one reference to retain instead of ~330 bytes with four
    /// arrays (issue 17). Setting a property gives this value fields of its own.
    final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    struct Fields: Sendable, Equatable {
        var type: UInt8
        var chainID: UInt64?
        var nonce: UInt64
        var gasLimit: UInt64
        var maxFeePerGas: UInt256
        var maxPriorityFeePerGas: UInt256
        var to: Address?
        var value: UInt256
        var data: [UInt8]
        var accessList: [AccessListEntry]
        var intrinsicGas: UInt64
        var floorGas: UInt64
        var hash: [UInt8]
        var sender: Address
        var encoding: [UInt8]
        var v: UInt256
        var r: UInt256
        var s: UInt256
    }

    private var storage: Storage

    /// EIP-2718 type: 0 legacy, 1 EIP-2930, 2 EIP-1559.
    public var type: UInt8 {
        get { storage.fields.type }
        set { update { $0.type = newValue } }
    }
    /// nil for a pre-EIP-155 legacy transaction.
    public var chainID: UInt64? {
        get { storage.fields.chainID }
        set { update { $0.chainID = newValue } }
    }
    public var nonce: UInt64 {
        get { storage.fields.nonce }
        set { update { $0.nonce = newValue } }
    }
    public var gasLimit: UInt64 {
        get { storage.fields.gasLimit }
        set { update { $0.gasLimit = newValue } }
    }
    /// Legacy and EIP-2930 transactions: gasPrice. EIP-1559: maxFeePerGas.
    public var maxFeePerGas: UInt256 {
        get { storage.fields.maxFeePerGas }
        set { update { $0.maxFeePerGas = newValue } }
    }
    /// Legacy and EIP-2930 transactions: gasPrice. EIP-1559: maxPriorityFeePerGas.
    public var maxPriorityFeePerGas: UInt256 {
        get { storage.fields.maxPriorityFeePerGas }
        set { update { $0.maxPriorityFeePerGas = newValue } }
    }
    public var to: Address? {
        get { storage.fields.to }
        set { update { $0.to = newValue } }
    }
    public var value: UInt256 {
        get { storage.fields.value }
        set { update { $0.value = newValue } }
    }
    public var data: [UInt8] {
        get { storage.fields.data }
        set { update { $0.data = newValue } }
    }
    public var accessList: [AccessListEntry] {
        get { storage.fields.accessList }
        set { update { $0.accessList = newValue } }
    }
    /// Intrinsic gas (EIP-2028 calldata, EIP-2930 access list, creation) as the execution specs define it.
    public var intrinsicGas: UInt64 {
        get { storage.fields.intrinsicGas }
        set { update { $0.intrinsicGas = newValue } }
    }
    /// EIP-7623 calldata floor.
    public var floorGas: UInt64 {
        get { storage.fields.floorGas }
        set { update { $0.floorGas = newValue } }
    }
    /// keccak256 of the encoding.
    public var hash: [UInt8] {
        get { storage.fields.hash }
        set { update { $0.hash = newValue } }
    }
    public var sender: Address {
        get { storage.fields.sender }
        set { update { $0.sender = newValue } }
    }
    /// The canonical EIP-2718 encoding (legacy: the RLP list; typed: type ‖ payload).
    public var encoding: [UInt8] {
        get { storage.fields.encoding }
        set { update { $0.encoding = newValue } }
    }
    /// Signature as it appears on the wire: `v` (legacy: 27/28 or 35+2·chainId+parity; typed: yParity).
    public var v: UInt256 {
        get { storage.fields.v }
        set { update { $0.v = newValue } }
    }
    public var r: UInt256 {
        get { storage.fields.r }
        set { update { $0.r = newValue } }
    }
    public var s: UInt256 {
        get { storage.fields.s }
        set { update { $0.s = newValue } }
    }

    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    public init(
        type: UInt8, chainID: UInt64?, nonce: UInt64, gasLimit: UInt64, maxFeePerGas: UInt256,
        maxPriorityFeePerGas: UInt256, to: Address?, value: UInt256, data: [UInt8] = [],
        accessList: [AccessListEntry] = [], intrinsicGas: UInt64 = 21_000, floorGas: UInt64 = 21_000,
        hash: [UInt8], sender: Address, encoding: [UInt8] = [], v: UInt256 = .zero, r: UInt256 = .zero,
        s: UInt256 = .zero
    ) {
        storage = Storage(
            Fields(
                type: type,
                chainID: chainID,
                nonce: nonce,
                gasLimit: gasLimit,
                maxFeePerGas: maxFeePerGas,
                maxPriorityFeePerGas: maxPriorityFeePerGas,
                to: to,
                value: value,
                data: data,
                accessList: accessList,
                intrinsicGas: intrinsicGas,
                floorGas: floorGas,
                hash: hash,
                sender: sender,
                encoding: encoding,
                v: v,
                r: r,
                s: s))
    }

    /// Legacy and EIP-2930 transactions carry one gas price.
    public var usesGasPrice: Bool { type < 2 }

    /// Gas the transaction consumes: EVM-less, so the intrinsic cost or the EIP-7623 floor (Prague).
    public var gasUsed: UInt64 { max(intrinsicGas, floorGas) }

    /// The tip per gas the coinbase would receive at `baseFee`, or nil if the fee cap is below it.
    public func effectiveTip(baseFee: UInt256) -> UInt256? {
        guard maxFeePerGas >= baseFee else { return nil }
        return UInt256.min(maxPriorityFeePerGas, maxFeePerGas - baseFee)
    }

    /// The price per gas paid in a block with `baseFee` (the fee cap for legacy and EIP-2930 transactions,
    /// base fee + effective tip for EIP-1559), as receipts report it.
    public func effectiveGasPrice(baseFee: UInt256) -> UInt256 {
        usesGasPrice ? maxFeePerGas : baseFee + (effectiveTip(baseFee: baseFee) ?? .zero)
    }

    /// gasLimit × maxFee + value exactly, as geth's `tx.Cost()` (a `big.Int`).
    public var exactCost: WideAmount { WideAmount(gasLimit, times: maxFeePerGas, plus: value) }

    /// gasLimit × maxFee + value, or nil on overflow.
    public var maximumCost: UInt256? {
        let (gasCost, o1) = UInt256(gasLimit).multipliedReportingOverflow(by: maxFeePerGas)
        let (total, o2) = gasCost.addingReportingOverflow(value)
        return o1 || o2 ? nil : total
    }
}
