/// Base58btc (the Bitcoin alphabet), as multibase `z` strings in did:key use it.
public enum Base58 {
    private static let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)

    /// Encodes `bytes`; each leading zero byte becomes a `1`.
    public static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        var digits: [UInt8] = []  // base 58, least significant first
        for byte in bytes.dropFirst(zeros) {
            var carry = Int(byte)
            for i in digits.indices {
                carry += Int(digits[i]) << 8
                digits[i] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        let text = [UInt8](repeating: alphabet[0], count: zeros) + digits.reversed().map { alphabet[Int($0)] }
        return String(decoding: text, as: UTF8.self)
    }

    /// Decodes base58btc; nil on a character outside the alphabet or text longer than `maxLength`.
    public static func decode(_ text: String, maxLength: Int = 256) -> [UInt8]? {
        guard text.utf8.count <= maxLength else { return nil }
        let zeros = text.utf8.prefix { $0 == alphabet[0] }.count
        var bytes: [UInt8] = []  // base 256, least significant first
        for character in text.utf8.dropFirst(zeros) {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            var carry = value
            for i in bytes.indices {
                carry += Int(bytes[i]) * 58
                bytes[i] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(carry & 0xff))
                carry >>= 8
            }
        }
        return [UInt8](repeating: 0, count: zeros) + bytes.reversed()
    }
}
