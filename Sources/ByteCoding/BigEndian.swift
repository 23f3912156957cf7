/// Fixed-width unsigned integers as big-endian bytes (most significant byte first), the order of storage keys,
/// checksums, BIP-32 serialization and subaccount numbers.
public enum BigEndian {
    /// The `T.bitWidth / 8` bytes of `value`, most significant first.
    @inlinable
    public static func bytes<T: FixedWidthInteger & UnsignedInteger>(_ value: T) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    /// Appends the `T.bitWidth / 8` bytes of `value`, most significant first.
    @inlinable
    public static func append<T: FixedWidthInteger & UnsignedInteger>(_ value: T, to bytes: inout [UInt8]) {
        var shift = T.bitWidth
        bytes.reserveCapacity(bytes.count + shift / 8)
        while shift > 0 {
            shift -= 8
            bytes.append(UInt8(truncatingIfNeeded: value >> shift))
        }
    }

    /// The integer `bytes` hold, most significant first; nil unless there are exactly `T.bitWidth / 8` of them.
    @inlinable
    public static func integer<T: FixedWidthInteger & UnsignedInteger>(
        _: T.Type = T.self, from bytes: some Collection<UInt8>
    ) -> T? {
        guard bytes.count == T.bitWidth / 8 else { return nil }
        return bytes.reduce(T.zero) { $0 << 8 | T($1) }
    }

    /// The integer in the `T.bitWidth / 8` bytes of `bytes` from `offset`, most significant first.
    ///
    /// - Precondition: those bytes exist (check the length of untrusted input first).
    @inlinable
    public static func read<T: FixedWidthInteger & UnsignedInteger>(
        _: T.Type = T.self, from bytes: [UInt8], at offset: Int
    ) -> T {
        let width = T.bitWidth / 8
        precondition(offset >= 0 && offset <= bytes.count - width, "BigEndian.read past the end of the bytes")
        var value = T.zero
        for index in offset..<offset + width { value = value << 8 | T(bytes[index]) }
        return value
    }
}
