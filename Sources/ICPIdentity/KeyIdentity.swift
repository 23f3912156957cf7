import CryptoCore
import HDWallet

/// A signing key with its DER public key and self-authenticating principal: what dfx, agent-js and ic-py call
/// an identity (IC interface spec §Authentication).
public struct KeyIdentity: Sendable, Equatable, CustomStringConvertible {
    public let privateKey: [UInt8]
    public let publicKey: DERPublicKey

    public var algorithm: DERPublicKey.Algorithm { publicKey.algorithm }
    public var principal: Principal { publicKey.principal }

    /// Never prints the private key.
    public var description: String { "KeyIdentity(\(algorithm.rawValue), \(principal))" }

    /// A secp256k1 identity from a 32-byte private key.
    public init(secp256k1PrivateKey privateKey: [UInt8]) throws(KeyIdentityError) {
        let point: [UInt8]
        do { point = try Secp256k1.publicKey(of: privateKey, compressed: false) } catch { throw .invalidPrivateKey }
        self.privateKey = privateKey
        do { self.publicKey = try DERPublicKey(secp256k1: point) } catch { throw .invalidPrivateKey }
    }

    /// An Ed25519 identity from a 32-byte private key (RFC 8032 seed).
    public init(ed25519PrivateKey privateKey: [UInt8]) throws(KeyIdentityError) {
        guard privateKey.count == 32 else { throw .invalidPrivateKey }
        let raw: [UInt8]
        do { raw = try Ed25519.publicKey(of: privateKey) } catch { throw .invalidPrivateKey }
        self.privateKey = privateKey
        do { self.publicKey = try DERPublicKey(ed25519: raw) } catch { throw .invalidPrivateKey }
    }

    /// The secp256k1 identity of a BIP-39 mnemonic at a BIP-32 path, by default `m/44'/223'/0'/0/0`
    /// (SLIP-44 coin type 223, as dfx, agent-js `Secp256k1KeyIdentity.fromSeedPhrase` and IcpKit derive it).
    ///
    /// - Throws: ``KeyIdentityError/invalidMnemonic(_:)`` or ``KeyIdentityError/derivationFailed(_:)``.
    public init(mnemonic phrase: String, passphrase: String = "", path: DerivationPath = .icp) throws(KeyIdentityError)
    {
        let mnemonic: Mnemonic
        do { mnemonic = try Mnemonic(phrase: phrase) } catch { throw .invalidMnemonic("\(error)") }
        let key: ExtendedKey
        do { key = try ExtendedKey(seed: mnemonic.seed(passphrase: passphrase)).derived(path) } catch {
            throw .derivationFailed("\(error)")
        }
        guard let privateKey = key.privateKey else { throw .derivationFailed("no private key at \(path)") }
        try self.init(secp256k1PrivateKey: privateKey)
    }
}

/// Why a key could not become an identity.
public enum KeyIdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a valid private key for the algorithm (wrong length, zero, or not below the group order).
    case invalidPrivateKey
    case invalidMnemonic(String)
    case derivationFailed(String)
    /// Not a PEM block this reader knows; the reason names what was found.
    case invalidPEM(String)
    /// A PEM key of an algorithm other than secp256k1 and Ed25519 (named by its OID).
    case unsupportedKeyAlgorithm(String)

    public var description: String {
        switch self {
        case .invalidPrivateKey: return "invalid private key"
        case .invalidMnemonic(let reason): return "invalid mnemonic: \(reason)"
        case .derivationFailed(let reason): return "key derivation failed: \(reason)"
        case .invalidPEM(let reason): return "invalid PEM: \(reason)"
        case .unsupportedKeyAlgorithm(let oid):
            return "unsupported key algorithm (OID \(oid)); need secp256k1 or Ed25519"
        }
    }
}
