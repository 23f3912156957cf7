/// A Keccak-256 digest: its 32 bytes held inline, so producing, copying or comparing one never allocates.
///
/// A collection of the 32 bytes in digest order; `Array(digest)` or ``bytes`` gives the `[UInt8]` that
/// ``Keccak256/hash(_:)-(UnsafeRawBufferPointer)`` returns, and ``description`` its `0x`-prefixed lowercase hex.
public struct Keccak256Digest: Hashable, Sendable {
    /// The digest as four words whose bytes in memory are the digest's bytes in order: each word is a state lane
    /// as Keccak leaves it (little-endian), so `withUnsafeBytes(of: words)` is the digest on any host.
    @usableFromInline var words: (UInt64, UInt64, UInt64, UInt64)

    /// The digest whose bytes in memory are those of `words` (see ``words``).
    @inlinable
    init(words: (UInt64, UInt64, UInt64, UInt64)) {
        self.words = words
    }

    /// The digest of the state lanes `lanes` (lanes 0–3 of the state after the last permutation).
    @inlinable
    init(lanes: (UInt64, UInt64, UInt64, UInt64)) {
        self.words = (lanes.0.littleEndian, lanes.1.littleEndian, lanes.2.littleEndian, lanes.3.littleEndian)
    }

    /// Wraps exactly 32 bytes (a digest computed elsewhere, or read back from storage); nil for any other count.
    public init?(_ bytes: some Collection<UInt8>) {
        guard bytes.count == 32 else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &words) { target in
            for (offset, byte) in bytes.enumerated() { target[offset] = byte }
        }
        self.init(words: words)
    }

    /// Calls `body` with the 32 bytes.
    @inlinable
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try Swift.withUnsafeBytes(of: words, body)
    }

    /// The 32 bytes as an array (one allocation).
    public var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { out, count in
            Swift.withUnsafeBytes(of: words) { UnsafeMutableRawBufferPointer(out).copyMemory(from: $0) }
            count = 32
        }
    }

    @inlinable
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1 && lhs.words.2 == rhs.words.2
            && lhs.words.3 == rhs.words.3
    }

    @inlinable
    public func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}

extension Keccak256Digest: RandomAccessCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { 32 }

    /// The byte at `position` (0 ..< 32).
    @inlinable
    public subscript(position: Int) -> UInt8 {
        precondition(position >= 0 && position < 32, "Keccak256Digest index out of range")
        return Swift.withUnsafeBytes(of: words) { $0[position] }
    }

    @inlinable
    public func withContiguousStorageIfAvailable<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result? {
        try Swift.withUnsafeBytes(of: words) { raw in try raw.withMemoryRebound(to: UInt8.self) { try body($0) } }
    }
}

extension Keccak256Digest: CustomStringConvertible {
    /// `0x` and 64 lowercase hex digits.
    public var description: String {
        let digits: StaticString = "0123456789abcdef"
        return String(unsafeUninitializedCapacity: 66) { out in
            out[0] = UInt8(ascii: "0")
            out[1] = UInt8(ascii: "x")
            digits.withUTF8Buffer { digits in
                for (offset, byte) in enumerated() {
                    out[2 + 2 * offset] = digits[Int(byte >> 4)]
                    out[3 + 2 * offset] = digits[Int(byte & 0x0f)]
                }
            }
            return 66
        }
    }
}
