import ByteCoding
import HDWallet
import JSONCoding

/// BIP-32 test vectors 1–4 (17 derivations: the path string parses to the listed indices and both the xprv
/// and xpub match) and vector 5 (16 extended keys that must be rejected for the reason the BIP gives).
public struct BIP32Suite: VectorSuite {
    public let name = "bip32"

    public init() {}

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        do {
            let file = try store.json("bip32/bip32_test_vectors.json")
            for vector in file["valid"]?.arrayValue ?? [] {
                let vectorName = vector["name"]?.stringValue ?? "vector"
                guard let seedHex = vector["seed_hex"]?.stringValue else {
                    report.fail(vectorName, input: vector.compactText, expected: "seed_hex", actual: "missing")
                    continue
                }
                for chain in vector["chains"]?.arrayValue ?? [] {
                    checkDerivation(vectorName, seedHex: seedHex, chain: chain, into: &report)
                }
            }
            for (index, test) in (file["invalid"]?.arrayValue ?? []).enumerated() {
                let key = test["key"]?.stringValue ?? ""
                let reason = test["reason"]?.stringValue ?? ""
                let id = "invalid #\(index) (\(reason))"
                do {
                    let parsed = try ExtendedKey(serialized: key)
                    report.fail(id, input: key, expected: "rejected: \(reason)", actual: "accepted: \(parsed)")
                } catch {
                    let expected = Self.expectedError(for: reason)
                    report.check(id, input: key, expected: expected, actual: Self.category(of: error))
                }
            }
        } catch {
            report.fail("load", input: store.root, expected: "readable vector files", actual: "\(error)")
        }
        return report
    }

    func checkDerivation(_ vectorName: String, seedHex: String, chain: JSON, into report: inout SuiteReport) {
        let pathText = chain["path"]?.stringValue ?? ""
        let id = "\(vectorName) \(pathText)"
        let indices = (chain["path_indices"]?.arrayValue ?? []).compactMap { $0.compactText }.compactMap { UInt32($0) }
        do {
            let path = try DerivationPath(parsing: pathText)
            guard path.indices == indices else {
                return report.fail(id, input: pathText, expected: "\(indices)", actual: "\(path.indices)")
            }
            let key = try ExtendedKey(seed: try Hex.decode(seedHex)).derived(path)
            let expected = (chain["xprv"]?.stringValue ?? "") + " " + (chain["xpub"]?.stringValue ?? "")
            let actual = key.serialized + " " + key.serializedPublic
            guard actual == expected else { return report.fail(id, input: seedHex, expected: expected, actual: actual) }
            // The serialized forms parse back to the same keys, and public derivation agrees where allowed.
            let reparsed = try ExtendedKey(serialized: key.serialized)
            let reparsedPublic = try ExtendedKey(serialized: key.serializedPublic)
            guard reparsed == key, reparsedPublic == key.neutered else {
                return report.fail(id, input: key.serialized, expected: "round trip", actual: "different key")
            }
            report.pass(id)
        } catch {
            report.fail(id, input: seedHex, expected: "no error", actual: "\(error)")
        }
    }

    /// The error category each vector-5 reason calls for.
    static func expectedError(for reason: String) -> String {
        switch reason {
        case let r where r.hasPrefix("pubkey version / prvkey mismatch"): return "publicVersionWithPrivateKey"
        case let r where r.hasPrefix("prvkey version / pubkey mismatch"): return "privateVersionWithPublicKey"
        case let r where r.hasPrefix("invalid pubkey prefix"): return "invalidPublicKeyPrefix"
        case let r where r.hasPrefix("invalid prvkey prefix"): return "invalidPrivateKeyPrefix"
        case let r where r.hasPrefix("zero depth with non-zero parent fingerprint"):
            return "zeroDepthWithParentFingerprint"
        case let r where r.hasPrefix("zero depth with non-zero index"): return "zeroDepthWithChildIndex"
        case let r where r.hasPrefix("unknown extended key version"): return "unknownVersion"
        case let r where r.hasPrefix("private key"): return "invalidPrivateKey"
        case let r where r.hasPrefix("invalid pubkey"): return "invalidPublicKey"
        case let r where r.hasPrefix("invalid checksum"): return "checksumMismatch"
        default: return "unmapped reason: \(reason)"
        }
    }

    static func category(of error: ExtendedKeyError) -> String {
        switch error {
        case .publicVersionWithPrivateKey: return "publicVersionWithPrivateKey"
        case .privateVersionWithPublicKey: return "privateVersionWithPublicKey"
        case .invalidPublicKeyPrefix: return "invalidPublicKeyPrefix"
        case .invalidPrivateKeyPrefix: return "invalidPrivateKeyPrefix"
        case .zeroDepthWithParentFingerprint: return "zeroDepthWithParentFingerprint"
        case .zeroDepthWithChildIndex: return "zeroDepthWithChildIndex"
        case .unknownVersion: return "unknownVersion"
        case .invalidPrivateKey: return "invalidPrivateKey"
        case .invalidPublicKey: return "invalidPublicKey"
        case .base58(.checksumMismatch): return "checksumMismatch"
        default: return "\(error)"
        }
    }
}
