import ByteCoding
import CryptoCore
import JSONCoding

/// WalletConnect v1's payload encryption (WalletConnectSwift `AES_256_CBC_HMAC_SHA256_Codec`, pywalletconnect
/// `enc_tunnel`): AES-256-CBC with PKCS#7 padding under the URI's 32-byte key and a random 16-byte IV, and
/// HMAC-SHA256 under the same key over `ciphertext ‖ iv`, checked before anything is decrypted. On the wire the
/// payload is the JSON text `{"data": HEX, "hmac": HEX, "iv": HEX}`.
public enum PayloadCipher {
    /// Largest decrypted message accepted (the bridge's message limit bounds it before that).
    public static let maxPlaintextBytes = 4 << 20

    public struct Sealed: Sendable, Equatable {
        public var data: [UInt8]
        public var hmac: [UInt8]
        public var iv: [UInt8]

        public init(data: [UInt8], hmac: [UInt8], iv: [UInt8]) {
            self.data = data
            self.hmac = hmac
            self.iv = iv
        }

        /// The JSON text sent as a bridge message's `payload`.
        public var json: String {
            JSON.object([
                ("data", .string(Hex.encode(data))), ("hmac", .string(Hex.encode(hmac))),
                ("iv", .string(Hex.encode(iv))),
            ]).serialized
        }

        /// Reads a payload's JSON text.
        /// - Throws: ``WalletConnectV1Error/invalidPayload(_:)`` naming the field.
        public init(json text: String) throws(WalletConnectV1Error) {
            let value: JSON
            do { value = try JSON.parse(text) } catch { throw .invalidPayload("not JSON (\(error))") }
            func field(_ name: String) throws(WalletConnectV1Error) -> [UInt8] {
                guard let hex = value[name]?.stringValue else { throw .invalidPayload("no string field '\(name)'") }
                do { return try Hex.decode(hex) } catch { throw .invalidPayload("'\(name)' is not hex") }
            }
            self.init(data: try field("data"), hmac: try field("hmac"), iv: try field("iv"))
        }
    }

    /// Encrypts `message` (a JSON-RPC message's UTF-8 text).
    /// - Parameter iv: 16 bytes; random unless a test fixes it.
    public static func seal(_ message: [UInt8], key: [UInt8], iv: [UInt8] = SecureRandom.bytes(16))
        throws(WalletConnectV1Error) -> Sealed
    {
        try check(key: key, iv: iv)
        let data: [UInt8]
        do { data = try AESCBC.encrypt(key: key, iv: iv, plaintext: message, padding: .pkcs7) } catch {
            throw .invalidPayload("\(error)")
        }
        return Sealed(data: data, hmac: HMAC.authenticate(data + iv, key: key, digest: .sha256), iv: iv)
    }

    /// Checks the HMAC, then decrypts.
    /// - Throws: ``WalletConnectV1Error/hmacMismatch``, or ``WalletConnectV1Error/invalidPayload(_:)`` for a short IV,
    ///   a bad length or bad padding.
    public static func open(_ sealed: Sealed, key: [UInt8]) throws(WalletConnectV1Error) -> [UInt8] {
        try check(key: key, iv: sealed.iv)
        guard sealed.data.count <= maxPlaintextBytes + 16 else {
            throw .invalidPayload("data over \(maxPlaintextBytes) bytes")
        }
        let expected = HMAC.authenticate(sealed.data + sealed.iv, key: key, digest: .sha256)
        guard sealed.hmac.count == expected.count,
            zip(sealed.hmac, expected).reduce(UInt8(0), { $0 | ($1.0 ^ $1.1) }) == 0
        else { throw .hmacMismatch }
        do { return try AESCBC.decrypt(key: key, iv: sealed.iv, ciphertext: sealed.data, padding: .pkcs7) } catch {
            throw .invalidPayload("\(error)")
        }
    }

    static func check(key: [UInt8], iv: [UInt8]) throws(WalletConnectV1Error) {
        guard key.count == 32 else { throw .invalidPayload("the key must be 32 bytes, got \(key.count)") }
        guard iv.count == 16 else { throw .invalidPayload("the IV must be 16 bytes, got \(iv.count)") }
    }
}
