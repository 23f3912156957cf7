import ByteCoding
import EthereumTypes
import Foundation

extension Keystore {
    /// Parses a v3 keystore file. Accepts `crypto` or geth's old `Crypto`, hex with or without `0x`, and an
    /// optional `address`.
    /// - Throws: ``KeystoreError`` naming the field at fault.
    public init(json: Data) throws(KeystoreError) {
        let file: KeystoreFile
        do {
            file = try JSONDecoder().decode(KeystoreFile.self, from: json)
        } catch let error as DecodingError {
            throw .invalidJSON(Self.describe(error))
        } catch {
            throw .invalidJSON("\(error)")
        }
        guard file.version == 3 else { throw .unsupportedVersion(file.version) }
        guard let section = file.crypto ?? file.legacyCrypto else { throw .invalidJSON("missing 'crypto'") }
        let crypto = try KeystoreCrypto(section: section, path: "crypto")
        var address: Address?
        if let text = file.address {
            do {
                address = try Address(parsing: text.hasPrefix("0x") ? text : "0x" + text)
            } catch {
                throw .invalidField("address", reason: "\(error)")
            }
        }
        self.init(id: file.id ?? "", address: address, crypto: crypto)
    }

    /// The file contents: pretty-printed JSON with sorted keys, `version` 3, lowercase hex without `0x`, the
    /// keystore's cipher.
    public func jsonData() -> Data {
        let file = KeystoreFile(
            version: 3, id: id, address: address.map { Hex.encode($0.bytes) }, crypto: CryptoSection(crypto),
            legacyCrypto: nil)
        return Self.encodePretty(file)
    }

    /// Pretty-printed JSON with sorted keys.
    static func encodePretty(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(value)
        } catch {
            preconditionFailure("encoding plain strings and integers cannot fail: \(error)")
        }
    }

    static func hex(_ text: String, field: String) throws(KeystoreError) -> [UInt8] {
        do {
            return try Hex.decode(text.hasPrefix("0x") ? String(text.dropFirst(2)) : text)
        } catch {
            throw .invalidField(field, reason: "\(error)")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context)
            return "missing '\(at.isEmpty ? "" : at + ".")\(key.stringValue)'"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "wrong type at '\(path(context))'"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "invalid JSON" : "invalid value at '\(path(context))'"
        @unknown default:
            return "invalid JSON"
        }
    }
}

extension KeystoreCrypto {
    /// Reads a `crypto` object; `path` prefixes the field names in errors (`crypto`, `keyring[1][0]`).
    init(section: CryptoSection, path: String) throws(KeystoreError) {
        guard let cipher = KeystoreCipher(rawValue: section.cipher) else { throw .unsupportedCipher(section.cipher) }
        let params = section.kdfparams
        let salt = try Keystore.hex(params.salt, field: path + ".kdfparams.salt")
        let kdf: KeystoreKDF
        switch section.kdf {
        case "scrypt":
            guard let n = params.n, let r = params.r, let p = params.p else {
                throw .invalidJSON("scrypt kdfparams need n, r and p")
            }
            kdf = .scrypt(n: n, r: r, p: p, keyLength: params.dklen, salt: salt)
        case "pbkdf2":
            guard let c = params.c else { throw .invalidJSON("pbkdf2 kdfparams need c") }
            let prf = params.prf ?? "hmac-sha256"
            guard prf == "hmac-sha256" else { throw .unsupportedPRF(prf) }
            kdf = .pbkdf2(iterations: c, keyLength: params.dklen, salt: salt)
        default:
            throw .unsupportedKDF(section.kdf)
        }
        let iv = try Keystore.hex(section.cipherparams.iv, field: path + ".cipherparams.iv")
        guard iv.count == 16 else { throw .invalidField(path + ".cipherparams.iv", reason: "must be 16 bytes") }
        let mac = try Keystore.hex(section.mac, field: path + ".mac")
        guard mac.count == 32 else { throw .invalidField(path + ".mac", reason: "must be 32 bytes") }
        self.init(
            cipher: cipher, iv: iv, ciphertext: try Keystore.hex(section.ciphertext, field: path + ".ciphertext"),
            kdf: kdf, mac: mac)
    }
}

extension CryptoSection {
    /// The JSON form of `crypto`: lowercase hex without `0x`.
    init(_ crypto: KeystoreCrypto) {
        let params: KDFParams
        let kdfName: String
        switch crypto.kdf {
        case .scrypt(let n, let r, let p, let keyLength, let salt):
            kdfName = "scrypt"
            params = KDFParams(dklen: keyLength, salt: Hex.encode(salt), n: n, r: r, p: p, c: nil, prf: nil)
        case .pbkdf2(let iterations, let keyLength, let salt):
            kdfName = "pbkdf2"
            params = KDFParams(
                dklen: keyLength, salt: Hex.encode(salt), n: nil, r: nil, p: nil, c: iterations, prf: "hmac-sha256")
        }
        self.init(
            cipher: crypto.cipher.rawValue, cipherparams: CipherParams(iv: Hex.encode(crypto.iv)),
            ciphertext: Hex.encode(crypto.ciphertext), kdf: kdfName, kdfparams: params, mac: Hex.encode(crypto.mac))
    }
}

/// The JSON shape of a v3 file (field names as the spec spells them).
struct KeystoreFile: Codable {
    var version: Int
    var id: String?
    var address: String?
    var crypto: CryptoSection?
    var legacyCrypto: CryptoSection?

    enum CodingKeys: String, CodingKey {
        case version, id, address, crypto
        case legacyCrypto = "Crypto"
    }
}

struct CryptoSection: Codable {
    var cipher: String
    var cipherparams: CipherParams
    var ciphertext: String
    var kdf: String
    var kdfparams: KDFParams
    var mac: String
}

struct CipherParams: Codable {
    var iv: String
}

struct KDFParams: Codable {
    var dklen: Int
    var salt: String
    var n: UInt64?
    var r: UInt32?
    var p: UInt32?
    var c: Int?
    var prf: String?
}
