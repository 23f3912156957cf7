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

    /// EIP-2718 type: 0 legacy, 1 EIP-2930, 2 EIP-1559.
    public var type: UInt8
    /// nil for a pre-EIP-155 legacy transaction.
    public var chainID: UInt64?
    public var nonce: UInt64
    public var gasLimit: UInt64
    /// Legacy and EIP-2930 transactions: gasPrice. EIP-1559: maxFeePerGas.
    public var maxFeePerGas: UInt256
    /// Legacy and EIP-2930 transactions: gasPrice. EIP-1559: maxPriorityFeePerGas.
    public var maxPriorityFeePerGas: UInt256
    public var to: Address?
    public var value: UInt256
    public var data: [UInt8]
    public var accessList: [AccessListEntry]
    /// Intrinsic gas (EIP-2028 calldata, EIP-2930 access list, creation) as the execution specs define it.
    public var intrinsicGas: UInt64
    /// EIP-7623 calldata floor.
    public var floorGas: UInt64
    /// keccak256 of the encoding.
    public var hash: [UInt8]
    public var sender: Address
    /// The canonical EIP-2718 encoding (legacy: the RLP list; typed: type ‖ payload).
    public var encoding: [UInt8]
    /// Signature as it appears on the wire: `v` (legacy: 27/28 or 35+2·chainId+parity; typed: yParity).
    public var v: UInt256
    public var r: UInt256
    public var s: UInt256

    public init(
        type: UInt8, chainID: UInt64?, nonce: UInt64, gasLimit: UInt64, maxFeePerGas: UInt256,
        maxPriorityFeePerGas: UInt256, to: Address?, value: UInt256, data: [UInt8] = [],
        accessList: [AccessListEntry] = [], intrinsicGas: UInt64 = 21_000, floorGas: UInt64 = 21_000,
        hash: [UInt8], sender: Address, encoding: [UInt8] = [], v: UInt256 = .zero, r: UInt256 = .zero,
        s: UInt256 = .zero
    ) {
        self.type = type
        self.chainID = chainID
        self.nonce = nonce
        self.gasLimit = gasLimit
        self.maxFeePerGas = maxFeePerGas
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.to = to
        self.value = value
        self.data = data
        self.accessList = accessList
        self.intrinsicGas = intrinsicGas
        self.floorGas = floorGas
        self.hash = hash
        self.sender = sender
        self.encoding = encoding
        self.v = v
        self.r = r
        self.s = s
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

    /// gasLimit × maxFee + value, or nil on overflow (geth's `tx.Cost()`).
    /// gasLimit × maxFee + value exactly, as geth's `tx.Cost()` (a `big.Int`).
    public var exactCost: WideAmount { WideAmount(gasLimit, times: maxFeePerGas, plus: value) }

    public var maximumCost: UInt256? {
        let (gasCost, o1) = UInt256(gasLimit).multipliedReportingOverflow(by: maxFeePerGas)
        let (total, o2) = gasCost.addingReportingOverflow(value)
        return o1 || o2 ? nil : total
    }
}
