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
        guard let crypto = file.crypto ?? file.legacyCrypto else { throw .invalidJSON("missing 'crypto'") }
        guard crypto.cipher == "aes-128-ctr" else { throw .unsupportedCipher(crypto.cipher) }
        let params = crypto.kdfparams
        let salt = try Self.hex(params.salt, field: "crypto.kdfparams.salt")
        let kdf: KeystoreKDF
        switch crypto.kdf {
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
            throw .unsupportedKDF(crypto.kdf)
        }
        var address: Address?
        if let text = file.address {
            do {
                address = try Address(parsing: text.hasPrefix("0x") ? text : "0x" + text)
            } catch {
                throw .invalidField("address", reason: "\(error)")
            }
        }
        let iv = try Self.hex(crypto.cipherparams.iv, field: "crypto.cipherparams.iv")
        guard iv.count == 16 else { throw .invalidField("crypto.cipherparams.iv", reason: "must be 16 bytes") }
        let mac = try Self.hex(crypto.mac, field: "crypto.mac")
        guard mac.count == 32 else { throw .invalidField("crypto.mac", reason: "must be 32 bytes") }
        self.init(
            id: file.id ?? "", address: address, iv: iv,
            ciphertext: try Self.hex(crypto.ciphertext, field: "crypto.ciphertext"), kdf: kdf, mac: mac)
    }

    /// The file contents: pretty-printed JSON with sorted keys, `version` 3, lowercase hex without `0x`.
    public func jsonData() -> Data {
        let params: KDFParams
        let kdfName: String
        switch kdf {
        case .scrypt(let n, let r, let p, let keyLength, let salt):
            kdfName = "scrypt"
            params = KDFParams(dklen: keyLength, salt: Hex.encode(salt), n: n, r: r, p: p, c: nil, prf: nil)
        case .pbkdf2(let iterations, let keyLength, let salt):
            kdfName = "pbkdf2"
            params = KDFParams(
                dklen: keyLength, salt: Hex.encode(salt), n: nil, r: nil, p: nil, c: iterations, prf: "hmac-sha256")
        }
        let file = KeystoreFile(
            version: 3, id: id, address: address.map { Hex.encode($0.bytes) },
            crypto: CryptoSection(
                cipher: "aes-128-ctr", cipherparams: CipherParams(iv: Hex.encode(iv)),
                ciphertext: Hex.encode(ciphertext), kdf: kdfName, kdfparams: params, mac: Hex.encode(mac)),
            legacyCrypto: nil)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(file)
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
