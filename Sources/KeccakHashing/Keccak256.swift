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
        // The state (25 lanes) and the final padded block (17 lanes) in one stack buffer.
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 42) { lanes in
            let state = lanes.baseAddress!
            state.initialize(repeating: 0, count: 42)
            let count = buffer.count
            let fullBlocks = count / rate
            if fullBlocks > 0 { keccakAbsorb(state, buffer.baseAddress!, fullBlocks) }
            // Final, padded block.
            let padded = UnsafeMutableRawBufferPointer(start: UnsafeMutableRawPointer(state + 25), count: rate)
            let remaining = count - fullBlocks * rate
            if remaining > 0 {
                padded.baseAddress!.copyMemory(from: buffer.baseAddress! + fullBlocks * rate, byteCount: remaining)
            }
            padded[remaining] ^= 0x01
            padded[rate - 1] ^= 0x80
            keccakAbsorb(state, UnsafeRawPointer(padded.baseAddress!), 1)
            for i in 0..<4 {
                output.storeBytes(of: state[i].littleEndian, toByteOffset: i * 8, as: UInt64.self)
            }
        }
    }
}
