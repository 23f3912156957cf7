/// Keccak-256 as Ethereum uses it: the original Keccak submission's padding (`0x01 … 0x80`), not FIPS 202
/// SHA3-256 (`0x06 … 0x80`). Rate 136 bytes, capacity 512 bits, 32-byte output (Yellow Paper appendix F).
public enum Keccak256 {
    /// Bytes absorbed per permutation.
    public static let rate = 136

    /// Hashes `bytes` and returns the 32-byte digest.
    @inlinable
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// Hashes `bytes` and returns the 32-byte digest.
    @inlinable
    public static func hash(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.withUnsafeBytes { hash($0) }
    }

    /// Hashes the UTF-8 bytes of `string`.
    public static func hash(utf8 string: String) -> [UInt8] {
        var copy = string
        return copy.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
    }

    /// Hashes `buffer` and returns the 32-byte digest.
    public static func hash(_ buffer: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { out, count in
            hash(buffer, into: UnsafeMutableRawBufferPointer(out))
            count = 32
        }
    }

    /// Hashes `buffer` and writes the 32-byte digest to the start of `output`.
    /// - Precondition: `output.count >= 32`.
    public static func hash(_ buffer: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= 32, "Keccak256 output buffer shorter than 32 bytes")
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 25) { lanes in
            let state = lanes.baseAddress!
            state.initialize(repeating: 0, count: 25)
            var offset = 0
            let count = buffer.count
            if let base = buffer.baseAddress {
                while count - offset >= rate {
                    absorbFullBlock(base + offset, into: state)
                    offset += rate
                }
            }
            // Final, padded block.
            var block = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                         UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                         UInt64(0))
            withUnsafeMutableBytes(of: &block) { padded in
                let remaining = count - offset
                if remaining > 0, let base = buffer.baseAddress {
                    padded.baseAddress!.copyMemory(from: base + offset, byteCount: remaining)
                }
                padded[remaining] ^= 0x01
                padded[rate - 1] ^= 0x80
                absorbFullBlock(UnsafeRawPointer(padded.baseAddress!), into: state)
            }
            for i in 0..<4 {
                output.storeBytes(of: state[i].littleEndian, toByteOffset: i * 8, as: UInt64.self)
            }
        }
    }

    @inline(__always)
    static func absorbFullBlock(_ block: UnsafeRawPointer, into state: UnsafeMutablePointer<UInt64>) {
        for i in 0..<17 {
            state[i] ^= UInt64(littleEndian: block.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
        }
        keccakF1600(state)
    }
}
