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

extension SandnetNode {
    /// eth_config (EIP-7910): the current fork, the next scheduled one and the last one. Sandnet's chain runs Osaka
    /// rules from genesis and schedules no later fork, so `current` is Osaka with activation time 0 and `next` and
    /// `last` are nil (geth's answer for a chain without a future fork). Sandnet runs no EVM: no precompile or
    /// system contract executes, so both maps are empty.
    public var forkConfig: (current: ForkConfig, next: ForkConfig?, last: ForkConfig?) {
        let genesisHash = withLedger { $0.block(number: 0)?.hash ?? [] }
        let checksum = Self.crc32(genesisHash)
        let current = ForkConfig(
            activationTime: 0,
            blobSchedule: ForkConfig.BlobSchedule(target: 6, max: 9, baseFeeUpdateFraction: 5_007_716),
            chainID: chainID,
            forkID: [
                UInt8(checksum >> 24), UInt8(checksum >> 16 & 0xff), UInt8(checksum >> 8 & 0xff),
                UInt8(checksum & 0xff),
            ],
            precompiles: [:], systemContracts: [:])
        return (current, nil, nil)
    }

    /// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as EIP-2124's fork hash uses it.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
