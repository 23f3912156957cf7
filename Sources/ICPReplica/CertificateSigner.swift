import BLS12381
import Synchronization

/// Signs state-tree roots with the development replica's BLS12-381 key, the IC's way: the 48-byte G1 signature of
/// `"\x0Dic-state-root" ‖ root hash` under `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_` (interface spec
/// §Certification), verifiable against ``publicKey`` (96-byte compressed G2).
///
/// A signature is computed once per root and kept in a bounded cache (``cacheLimit`` roots, 1,024 by default, the
/// oldest dropped first):
/// the certified `/time` advances in ticks, so repeated reads and polls of one state within a tick cost one
/// signature. Signing runs outside the lock, so concurrent readers never wait on each other's signing.
public final class CertificateSigner: Sendable {
    /// At most this many root signatures are kept (48 bytes each plus the 32-byte root).
    public let cacheLimit: Int

    struct State {
        var signatures: [[UInt8]: [UInt8]] = [:]
        /// Roots in insertion order; `signatures` drops `order[start]` first.
        var order: [[UInt8]] = []
        var start = 0
        /// BLS signatures computed (cache misses), for tests and benchmarks.
        var signed = 0
    }

    let secretKey: SecretKey
    /// The 96-byte compressed G2 public key.
    public let publicKey: [UInt8]
    let state = Mutex(State())

    /// The message domain of a state root signature: `domain_sep("ic-state-root")`.
    public static let stateRootDomain: [UInt8] = [0x0D] + Array("ic-state-root".utf8)

    public init(secretKey: SecretKey, cacheLimit: Int = 1024) {
        precondition(cacheLimit > 0, "CertificateSigner: cacheLimit must be positive")
        self.secretKey = secretKey
        self.cacheLimit = cacheLimit
        publicKey = secretKey.publicKey
    }

    /// The signature of the state tree whose root hash is `rootHash`, from the cache when this root was signed
    /// before.
    public func signature(ofRoot rootHash: [UInt8]) -> [UInt8] {
        if let cached = state.withLock({ $0.signatures[rootHash] }) { return cached }
        let signature = secretKey.sign(Self.stateRootDomain + rootHash)
        let cacheLimit = self.cacheLimit
        state.withLock { state in
            state.signed += 1
            guard state.signatures.updateValue(signature, forKey: rootHash) == nil else { return }
            state.order.append(rootHash)
            if state.order.count - state.start > cacheLimit {
                state.signatures[state.order[state.start]] = nil
                state.start += 1
                if state.start > cacheLimit {
                    state.order.removeFirst(state.start)
                    state.start = 0
                }
            }
        }
        return signature
    }

    /// How many BLS signatures were computed (each cache miss signs once).
    public var signaturesComputed: Int { state.withLock { $0.signed } }
}
