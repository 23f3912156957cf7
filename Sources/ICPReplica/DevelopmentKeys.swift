import BLS12381
import CBORCoding
import CryptoCore
import ICPIdentity

/// The keys a development replica signs with: a BLS12-381 root key that certifies the state tree as the IC's does
/// (min-sig: 48-byte G1 signatures over `"\x0Dic-state-root" ‖ root hash`, the 96-byte G2 key served DER-wrapped in
/// `/api/v2/status`), so agents that verify certificates by default (agent-js, agent-rs after fetching the root key)
/// accept them; and an Ed25519 node key that signs query responses.
public struct DevelopmentKeys: Sendable {
    /// Signs state roots, once per root (a shared cache: copies of these keys share it).
    let signer: CertificateSigner
    let nodePrivateKey: [UInt8]
    /// `nodePrivateKey` imported into OpenSSL once: every query response is signed with it.
    let nodeSigningKey: Ed25519.SigningKey
    public let nodePublicKey: DERPublicKey
    public let rootKey: [UInt8]

    /// DER `SubjectPublicKeyInfo` prefix of an IC BLS12-381 G2 public key (interface spec §Certification).
    public static let blsDERPrefix: [UInt8] = [
        0x30, 0x81, 0x82, 0x30, 0x1d, 0x06, 0x0d, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0xdc, 0x7c, 0x05, 0x03, 0x01,
        0x02, 0x01, 0x06, 0x0c, 0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0xdc, 0x7c, 0x05, 0x03, 0x02, 0x01, 0x03, 0x61,
        0x00,
    ]
    public static let stateRootDomain: [UInt8] = CertificateSigner.stateRootDomain
    public static let responseDomain: [UInt8] = [0x0B] + Array("ic-response".utf8)

    /// The seed of ``standard``.
    public static let standardSeed = Array("sandnet development replica".utf8)

    /// The keys of ``standardSeed``, computed once per process (the G2 public key costs a scalar multiplication).
    public static let standard = DevelopmentKeys(seed: standardSeed)

    /// Keys derived from `seed` (the same seed gives the same root key across restarts): the BLS secret key is
    /// SHA-256(0x01 ‖ seed) mod r, the node key SHA-256(0x02 ‖ seed).
    public init(seed: [UInt8]) {
        signer = CertificateSigner(secretKey: SecretKey(seed: [0x01] + seed))
        nodePrivateKey = Digest.sha256.hash([0x02] + seed)
        do {
            nodePublicKey = try DERPublicKey(ed25519: Ed25519.publicKey(of: nodePrivateKey))
            nodeSigningKey = try Ed25519.SigningKey(nodePrivateKey)
        } catch {
            preconditionFailure("a SHA-256 digest is a valid Ed25519 seed: \(error)")
        }
        rootKey = Self.blsDERPrefix + signer.publicKey
    }

    /// The node id: the self-authenticating principal of the node key.
    public var nodeID: Principal { nodePublicKey.principal }

    /// The 48-byte BLS signature of a state tree root (cached per root).
    public func signStateRoot(_ rootHash: [UInt8]) -> [UInt8] { signer.signature(ofRoot: rootHash) }

    /// How many state roots were BLS-signed so far (cache misses).
    public var signaturesComputed: Int { signer.signaturesComputed }

    /// `{tree, signature}` in the self-describing CBOR the IC uses for certificates.
    public func certificate(for tree: HashTree) -> [UInt8] {
        CBOREncoder.encode(
            .map(["tree": tree.cbor, "signature": .bytes(signStateRoot(tree.rootHash))]), selfDescribed: true)
    }

    /// The node's Ed25519 signature of a query response: over `"\x0Bic-response" ‖ hash_of_map(response)`.
    func signResponse(_ responseHash: [UInt8]) -> [UInt8] {
        do { return try nodeSigningKey.sign(Self.responseDomain + responseHash) } catch {
            preconditionFailure("signing with a valid Ed25519 key cannot fail: \(error)")
        }
    }
}

extension DevelopmentKeys {
    /// The development subnet's id: the self-authenticating form of the root key, as the NNS subnet's id is.
    public static let defaultSubnetID: Principal = {
        // SHA-224 ‖ 0x02 is 29 bytes, always a valid principal.
        do { return try Principal(bytes: Digest.sha224.hash(DevelopmentKeys.standard.rootKey) + [0x02]) } catch {
            preconditionFailure("\(error)")
        }
    }()
}
