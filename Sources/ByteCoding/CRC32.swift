/// CRC-32 as ISO 3309 / ITU-T V.42 / PNG define it (reflected polynomial 0xEDB88320, initial and final
/// XOR 0xFFFFFFFF; check value 0xCBF43926 for "123456789"): the check sequence of principal texts, account
/// identifiers and ICRC-1 account texts (IC interface spec §Textual representation of principals; ICRC-1
/// TextualEncoding.md).
public enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    /// The checksum of `bytes` as 4 big-endian bytes (the order every IC format uses).
    public static func bigEndianChecksum(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        BigEndian.bytes(checksum(bytes))
    }
}
