/// RFC 4648 base32 without padding, written lowercase and read in either case, as principal texts and the
/// ICRC-1 account checksum use it (IC interface spec §Textual representation of principals).
enum Base32 {
    static let alphabet: [UInt8] = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// The value of one base32 character, or nil.
    static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return character - UInt8(ascii: "a")
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return character - UInt8(ascii: "A")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): return character - UInt8(ascii: "2") + 26
        default: return nil
        }
    }

    /// Lowercase base32 of `bytes`, unpadded.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int(buffer >> UInt32(bits) & 0x1F)])
            }
            buffer &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 { out.append(alphabet[Int(buffer << UInt32(5 - bits) & 0x1F)]) }
        return out
    }

    /// Why ``decode(_:)`` refused its input.
    enum Failure: Error, Equatable {
        /// The n-th digit is not in the alphabet.
        case invalidCharacter(index: Int)
        /// A digit count no byte string encodes to (1, 3 or 6 modulo 8).
        case invalidLength(Int)
        /// The unused low bits of the last digit are not zero.
        case nonZeroPadding
    }

    /// Decodes unpadded base32 digits in either case.
    static func decode(_ digits: [UInt8]) -> Result<[UInt8], Failure> {
        switch digits.count % 8 {
        case 1, 3, 6: return .failure(.invalidLength(digits.count))
        default: break
        }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count * 5 / 8)
        var buffer: UInt32 = 0
        var bits = 0
        for (index, digit) in digits.enumerated() {
            guard let value = value(of: digit) else { return .failure(.invalidCharacter(index: index)) }
            buffer = buffer << 5 | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(buffer >> UInt32(bits) & 0xFF))
                buffer &= (1 << UInt32(bits)) - 1
            }
        }
        guard buffer == 0 else { return .failure(.nonZeroPadding) }
        return .success(out)
    }
}
