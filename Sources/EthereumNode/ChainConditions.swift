import EthereumLedger
import EthereumTypes
import SeededRandom

/// Chain-level conditions a wallet meets on a public network (README, "Chain conditions"), applied to raw
/// transactions (`eth_sendRawTransaction`) and timer blocks; each decision is seeded, so a failing test replays.
public struct ChainConditions: Sendable, Equatable {
    public var seed: UInt64 = 0
    /// A raw transaction is checked and its hash returned at once, but it reaches the pool only after this many
    /// more blocks (a slow propagation: meanwhile nodes answer `null` for it). 0: none.
    public var delayBlocks: UInt64 = 0
    /// Share of raw transactions accepted (hash returned) and then dropped, never mined; decided per transaction
    /// hash, so the same transaction always gets the same fate for a seed. 0: none.
    public var dropProbability: Double = 0
    /// Every this many timer blocks, a reorg of ``reorgDepth`` blocks (0: none), with the removed transactions put
    /// back in the pool when ``reorgRequeue``.
    public var reorgEvery: UInt64 = 0
    public var reorgDepth: UInt64 = 1
    public var reorgRequeue = true

    public init() {}

    /// Held transactions at most (a delayed one over the limit is refused with a clear error).
    public static let heldLimit = 4_096

    /// Whether the transaction with `hash` is dropped under these conditions.
    public func drops(_ hash: [UInt8]) -> Bool {
        guard dropProbability > 0 else { return false }
        var key: UInt64 = 0
        for byte in hash.prefix(8) { key = key << 8 | UInt64(byte) }
        var random = SplitMix64(seed: seed, stream: key)
        return random.chance(dropProbability)
    }
}
