import ByteCoding
import KeccakHashing

/// A 20-byte Ethereum account address.
public struct Address: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Errors from ``Address/init(parsing:)``.
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        case missingPrefix
        case wrongLength(Int)
        case invalidHex
        case badChecksum(expected: String)

        public var description: String {
            switch self {
            case .missingPrefix: return "address must start with 0x"
            case .wrongLength(let n): return "address must have 40 hex digits, found \(n)"
            case .invalidHex: return "address contains a non-hex character"
            case .badChecksum(let expected): return "address has a bad EIP-55 checksum (expected \(expected))"
            }
        }
    }

    public let bytes: [UInt8]

    public static let zero = Address(unchecked: [UInt8](repeating: 0, count: 20))

    /// Wraps exactly 20 bytes; nil otherwise.
    public init?<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        guard bytes.count == 20 else { return nil }
        self.bytes = Array(bytes)
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// Parses `0x` + 40 hex digits. Mixed case must carry a valid EIP-55 checksum; all-lowercase or
    /// all-uppercase digits are accepted without one (EIP-55).
    public init(parsing text: some StringProtocol) throws(ParseError) {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { throw .missingPrefix }
        let digits = text.dropFirst(2)
        guard digits.utf8.count == 40 else { throw .wrongLength(digits.utf8.count) }
        guard let decoded = try? Hex.decode(digits) else { throw .invalidHex }
        self.bytes = decoded
        let hasLower = digits.utf8.contains { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f") }
        let hasUpper = digits.utf8.contains { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "F") }
        if hasLower && hasUpper {
            let expected = checksummed
            guard expected.dropFirst(2) == digits else { throw .badChecksum(expected: expected) }
        }
    }

    /// The address of an uncompressed secp256k1 public key: the last 20 bytes of keccak256(X ‖ Y).
    /// - Parameter publicKey: 64 bytes `X ‖ Y`, or 65 bytes starting with `0x04`.
    public init?(publicKey: [UInt8]) {
        let xy: ArraySlice<UInt8>
        if publicKey.count == 65, publicKey[0] == 0x04 {
            xy = publicKey[1...]
        } else if publicKey.count == 64 {
            xy = publicKey[...]
        } else {
            return nil
        }
        bytes = Array(Keccak256.hash(xy)[12...])
    }

    /// The EIP-55 mixed-case checksum form, with `0x`.
    public var checksummed: String {
        let lower = Array(Hex.encode(bytes).utf8)
        let hash = Keccak256.hash(lower)
        var out = [UInt8]()
        out.reserveCapacity(42)
        out.append(UInt8(ascii: "0"))
        out.append(UInt8(ascii: "x"))
        for (i, c) in lower.enumerated() {
            let nibble = i % 2 == 0 ? hash[i / 2] >> 4 : hash[i / 2] & 0x0f
            if c >= UInt8(ascii: "a") && nibble >= 8 { out.append(c - 32) } else { out.append(c) }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Lowercase `0x` form, as JSON-RPC returns addresses.
    public var lowercased: String { Hex.encodePrefixed(bytes) }

    public var description: String { checksummed }

    public static func < (a: Address, b: Address) -> Bool {
        a.bytes.withUnsafeBytes { x in
            b.bytes.withUnsafeBytes { y in
                // Both are 20 bytes: byte order is the order of two big-endian words and a 32-bit tail.
                let p0 = UInt64(bigEndian: x.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
                let q0 = UInt64(bigEndian: y.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
                if p0 != q0 { return p0 < q0 }
                let p1 = UInt64(bigEndian: x.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                let q1 = UInt64(bigEndian: y.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                if p1 != q1 { return p1 < q1 }
                return UInt32(bigEndian: x.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
                    < UInt32(bigEndian: y.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
            }
        }
    }

    /// The 20 bytes in one `combine(bytes:)` (the synthesized conformance fed the hasher one byte at a time).
    public func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }

    public static func == (a: Address, b: Address) -> Bool { a.bytes == b.bytes }
}
