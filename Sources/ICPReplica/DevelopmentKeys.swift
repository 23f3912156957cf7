import CBORCoding
import CryptoCore
import ICPIdentity

/// The keys a development replica signs with. The IC signs certificates with BLS12-381 (min-sig); no BLS library
/// is available to this package, so the "root key" is a DER BLS public key *shape* derived from a development
/// secret and certificate signatures are 48 bytes of HMAC-SHA-512 over the spec's message
/// (`"\x0Dic-state-root" ‖ root hash`). Clients must skip certificate verification (ic-py 1.0.1 never verifies;
/// agent-js takes a `blsVerify` override). Query responses carry a real Ed25519 node signature.
public struct DevelopmentKeys: Sendable {
    let secret: [UInt8]
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
    public static let stateRootDomain: [UInt8] = [0x0D] + Array("ic-state-root".utf8)
    public static let responseDomain: [UInt8] = [0x0B] + Array("ic-response".utf8)

    /// Keys derived from `seed` (the same seed gives the same root key across restarts).
    public init(seed: [UInt8] = Array("sandnet development replica".utf8)) {
        secret = Digest.sha256.hash([0x01] + seed)
        nodePrivateKey = Digest.sha256.hash([0x02] + seed)
        do {
            nodePublicKey = try DERPublicKey(ed25519: Ed25519.publicKey(of: nodePrivateKey))
            nodeSigningKey = try Ed25519.SigningKey(nodePrivateKey)
        } catch {
            preconditionFailure("a SHA-256 digest is a valid Ed25519 seed: \(error)")
        }
        let g2 = Digest.sha512.hash([0x03] + seed) + Digest.sha256.hash([0x04] + seed)
        rootKey = Self.blsDERPrefix + g2
    }

    /// The node id: the self-authenticating principal of the node key.
    public var nodeID: Principal { nodePublicKey.principal }

    /// The 48-byte development signature of a state tree root.
    public func signStateRoot(_ rootHash: [UInt8]) -> [UInt8] {
        Array(HMAC.authenticate(Self.stateRootDomain + rootHash, key: secret, digest: .sha512).prefix(48))
    }

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
        do { return try Principal(bytes: Digest.sha224.hash(DevelopmentKeys().rootKey) + [0x02]) } catch {
            preconditionFailure("\(error)")
        }
    }()
}
