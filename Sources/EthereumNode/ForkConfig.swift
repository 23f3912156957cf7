import EthereumLedger
import EthereumTypes

/// One fork's configuration as EIP-7910's `eth_config` reports it.
public struct ForkConfig: Sendable, Equatable {
    /// EIP-4844/7691 blob parameters of the fork (Osaka: target 6, max 9, update fraction 5,007,716).
    public struct BlobSchedule: Sendable, Equatable {
        public var target: Int
        public var max: Int
        public var baseFeeUpdateFraction: UInt64
    }

    /// 0: active from genesis.
    public var activationTime: UInt64
    public var blobSchedule: BlobSchedule
    public var chainID: UInt64
    /// EIP-2124 fork hash: CRC32 of the genesis hash and the fork blocks and times after genesis.
    public var forkID: [UInt8]
    /// Precompiled contracts by geth's names; empty: Sandnet executes none.
    public var precompiles: [String: Address]
    /// System contracts by EIP-7910's names; empty: Sandnet deploys and calls none.
    public var systemContracts: [String: Address]
}
