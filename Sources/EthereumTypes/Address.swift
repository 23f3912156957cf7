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

    /// The 20 bytes held inline as big-endian words (bytes 0–7, 8–15, 16–19): no allocation per address, and
    /// hashing, equality and order work on three words. A `[UInt8]` here cost a heap block per account and a
    /// pointer chase per dictionary probe.
    @usableFromInline let high: UInt64
    @usableFromInline let middle: UInt64
    @usableFromInline let low: UInt32

    /// The 20 bytes.
    public var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 20) { out, count in
            let raw = UnsafeMutableRawBufferPointer(out)
            raw.storeBytes(of: high.bigEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: middle.bigEndian, toByteOffset: 8, as: UInt64.self)
            raw.storeBytes(of: low.bigEndian, toByteOffset: 16, as: UInt32.self)
            count = 20
        }
    }

    public static let zero = Address(high: 0, middle: 0, low: 0)

    @usableFromInline
    init(high: UInt64, middle: UInt64, low: UInt32) {
        self.high = high
        self.middle = middle
        self.low = low
    }

    /// Wraps exactly 20 bytes; nil otherwise.
    @inlinable
    public init?<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        guard bytes.count == 20 else { return nil }
        self.init(unchecked: bytes)
    }

    /// Exactly 20 bytes (the caller checked).
    @inlinable
    init<Bytes: Collection<UInt8>>(unchecked bytes: Bytes) {
        // Arrays and slices: three loads (the generic loop below cost a third of reopening a million accounts).
        if let words = bytes.withContiguousStorageIfAvailable({ buffer in
            let raw = UnsafeRawBufferPointer(buffer)
            return (
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
            )
        }) {
            self.init(high: words.0, middle: words.1, low: words.2)
            return
        }
        var words: (UInt64, UInt64, UInt32) = (0, 0, 0)
        for (i, byte) in bytes.enumerated() {
            switch i {
            case 0..<8: words.0 = words.0 << 8 | UInt64(byte)
            case 8..<16: words.1 = words.1 << 8 | UInt64(byte)
            default: words.2 = words.2 << 8 | UInt32(byte)
            }
        }
        self.init(high: words.0, middle: words.1, low: words.2)
    }

    /// Parses `0x` + 40 hex digits. Mixed case must carry a valid EIP-55 checksum; all-lowercase or
    /// all-uppercase digits are accepted without one (EIP-55).
    public init(parsing text: some StringProtocol) throws(ParseError) {
        guard text.hasPrefix("0x") || text.hasPrefix("0X") else { throw .missingPrefix }
        let digits = text.dropFirst(2)
        guard digits.utf8.count == 40 else { throw .wrongLength(digits.utf8.count) }
        guard let decoded = try? Hex.decode(digits) else { throw .invalidHex }
        self.init(unchecked: decoded)
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
        // Bytes 12–31 of the digest, read from the inline digest (no array for the hash).
        self = Keccak256.digest(xy).withUnsafeBytes { hash in
            Address(
                high: UInt64(bigEndian: hash.loadUnaligned(fromByteOffset: 12, as: UInt64.self)),
                middle: UInt64(bigEndian: hash.loadUnaligned(fromByteOffset: 20, as: UInt64.self)),
                low: UInt32(bigEndian: hash.loadUnaligned(fromByteOffset: 28, as: UInt32.self)))
        }
    }

    /// The EIP-55 mixed-case checksum form, with `0x`.
    public var checksummed: String {
        let lower = Array(Hex.encode(bytes).utf8)
        let hash = Keccak256.digest(lower)
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
        a.high != b.high ? a.high < b.high : a.middle != b.middle ? a.middle < b.middle : a.low < b.low
    }
}
