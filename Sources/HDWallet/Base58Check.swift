import CryptoCore

/// Base58Check (Bitcoin's alphabet; the last 4 bytes are SHA-256(SHA-256(payload))[0..<4]), as BIP-32
/// serializes extended keys.
public enum Base58Check {
    /// Why a string is not Base58Check.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The character at `offset` (0-based, in characters) is not in the Base58 alphabet.
        case invalidCharacter(offset: Int)
        /// Fewer than the 4 checksum bytes.
        case tooShort
        /// The checksum does not match the payload.
        case checksumMismatch

        public var description: String {
            switch self {
            case .invalidCharacter(let offset): return "invalid Base58 character at position \(offset)"
            case .tooShort: return "Base58Check string too short"
            case .checksumMismatch: return "Base58Check checksum mismatch"
            }
        }
    }

    static let alphabet: [UInt8] = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    static let digitValues: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = Int8(i) }
        return table
    }()

    /// Encodes `payload` followed by its 4-byte checksum.
    public static func encode(_ payload: [UInt8]) -> String {
        var data = payload
        data.append(contentsOf: Digest.sha256.hash(Digest.sha256.hash(payload))[0..<4])
        return encodeRaw(data)
    }

    /// Decodes and verifies the checksum; returns the payload without it.
    public static func decode(_ text: String) throws(Error) -> [UInt8] {
        let data = try decodeRaw(text)
        guard data.count >= 4 else { throw .tooShort }
        let payload = Array(data[0..<(data.count - 4)])
        let checksum = Digest.sha256.hash(Digest.sha256.hash(payload))[0..<4]
        guard constantTimeEqual(Array(checksum), Array(data[(data.count - 4)...])) else { throw .checksumMismatch }
        return payload
    }

    /// Plain Base58 (no checksum): leading zero bytes become '1'.
    static func encodeRaw(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        // Base-58 digits, least significant first; log(256)/log(58) < 1.37.
        var digits = [UInt8](repeating: 0, count: bytes.count * 137 / 100 + 1)
        var length = 0
        for byte in bytes[zeros...] {
            var carry = Int(byte)
            var i = 0
            while i < length || carry != 0 {
                if i < length { carry += Int(digits[i]) << 8 }
                digits[i] = UInt8(carry % 58)
                carry /= 58
                i += 1
            }
            length = i
        }
        var out = [UInt8](repeating: alphabet[0], count: zeros)
        out.reserveCapacity(zeros + length)
        for i in stride(from: length - 1, through: 0, by: -1) { out.append(alphabet[Int(digits[i])]) }
        return String(decoding: out, as: UTF8.self)
    }

    static func decodeRaw(_ text: String) throws(Error) -> [UInt8] {
        let chars = Array(text.utf8)
        var zeros = 0
        while zeros < chars.count, chars[zeros] == alphabet[0] { zeros += 1 }
        var bytes = [UInt8](repeating: 0, count: chars.count * 733 / 1000 + 1)  // log(58)/log(256) < 0.733
        var length = 0
        for (offset, c) in chars.enumerated().dropFirst(zeros) {
            guard c < 128, digitValues[Int(c)] >= 0 else {
                throw .invalidCharacter(offset: String(decoding: chars[0..<offset], as: UTF8.self).count)
            }
            var carry = Int(digitValues[Int(c)])
            var i = 0
            while i < length || carry != 0 {
                if i < length { carry += Int(bytes[i]) * 58 }
                bytes[i] = UInt8(carry & 0xff)
                carry >>= 8
                i += 1
            }
            length = i
        }
        var out = [UInt8](repeating: 0, count: zeros)
        out.reserveCapacity(zeros + length)
        for i in stride(from: length - 1, through: 0, by: -1) { out.append(bytes[i]) }
        return out
    }
}
