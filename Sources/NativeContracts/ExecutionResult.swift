import EthereumTypes

/// What a native call did: its outcome, the gas its execution used (beyond the transaction's intrinsic gas), and,
/// when it succeeded, the state changes for the owner to apply. A failed call changes nothing.
public struct ExecutionResult: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// The call returned `returnData`.
        case success(returnData: [UInt8])
        /// The call reverted (REVERT) with `data`: empty, `Error(string)`, `Panic(uint256)` or a custom error.
        case revert(data: [UInt8])
        /// The call hit INVALID (0xfe), as Solidity 0.4's `assert` does: all the gas given to it is consumed.
        case invalidOpcode
    }

    /// A storage word's value after the call.
    public struct StorageWrite: Sendable, Equatable {
        public var address: Address
        public var slot: UInt256
        public var value: UInt256

        public init(address: Address, slot: UInt256, value: UInt256) {
            self.address = address
            self.slot = slot
            self.value = value
        }
    }

    /// ETH moved by the call (its value, WETH's `withdraw`, Multicall3's `aggregate3Value`), in order.
    public struct ValueTransfer: Sendable, Equatable {
        public var from: Address
        public var to: Address
        public var amount: UInt256

        public init(from: Address, to: Address, amount: UInt256) {
            self.from = from
            self.to = to
            self.amount = amount
        }
    }

    public var outcome: Outcome
    /// Execution gas per the gas model (see `GasModel`), before the refund.
    public var gasUsed: UInt64
    /// EIP-3529 refund counter at the end (the owner caps it at gas used / 5).
    public var refund: UInt64
    /// Changed storage words in (address, slot) order; empty unless the call succeeded.
    public var storageWrites: [StorageWrite]
    public var valueTransfers: [ValueTransfer]
    public var logs: [ContractLog]
    /// The accounts and storage words (sorted) the call touched, failed frames included: what an EVM's access-list
    /// tracer would see (`eth_createAccessList`). The caller leaves out the sender, the target and precompiles.
    public var accessed: [Address: [UInt256]] = [:]

    public var succeeded: Bool {
        if case .success = outcome { return true }
        return false
    }

    /// The return data on success, the revert data on a revert, empty otherwise.
    public var output: [UInt8] {
        switch outcome {
        case .success(let data), .revert(let data): return data
        case .invalidOpcode: return []
        }
    }
}
