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

    /// Hashes `bytes`.
    /// - Returns: the digest held inline (no allocation); `Array(digest)` equals ``hash(_:)-([UInt8])``.
    @inlinable
    public static func digest(_ bytes: [UInt8]) -> Keccak256Digest {
        bytes.withUnsafeBytes { digest($0) }
    }

    /// Hashes `bytes`.
    /// - Returns: the digest held inline (no allocation).
    @inlinable
    public static func digest(_ bytes: ArraySlice<UInt8>) -> Keccak256Digest {
        bytes.withUnsafeBytes { digest($0) }
    }

    /// Hashes `buffer`.
    /// - Returns: the digest held inline (no allocation).
    public static func digest(_ buffer: UnsafeRawBufferPointer) -> Keccak256Digest {
        if buffer.count < rate { return Keccak256Digest(lanes: singleBlock(buffer)) }
        var digest = Keccak256Digest(words: (0, 0, 0, 0))
        withUnsafeMutableBytes(of: &digest.words) { absorb(buffer, into: $0) }
        return digest
    }

    /// Hashes `buffer` and writes the 32-byte digest to the start of `output`.
    /// - Precondition: `output.count >= 32`.
    public static func hash(_ buffer: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
        precondition(output.count >= 32, "Keccak256 output buffer shorter than 32 bytes")
        if buffer.count < rate {
            let lanes = singleBlock(buffer)
            output.storeBytes(of: lanes.0.littleEndian, toByteOffset: 0, as: UInt64.self)
            output.storeBytes(of: lanes.1.littleEndian, toByteOffset: 8, as: UInt64.self)
            output.storeBytes(of: lanes.2.littleEndian, toByteOffset: 16, as: UInt64.self)
            output.storeBytes(of: lanes.3.littleEndian, toByteOffset: 24, as: UInt64.self)
        } else {
            absorb(buffer, into: output)
        }
    }

    /// A message shorter than the rate (the 20-, 32- and 64-byte keys and most trie leaves): its one padded block is
    /// built in 17 lanes on the stack and permuted from the zero state, returning digest lanes 0–3.
    @inline(__always)
    static func singleBlock(_ buffer: UnsafeRawBufferPointer) -> (UInt64, UInt64, UInt64, UInt64) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 17) { lanes in
            let block = lanes.baseAddress!
            block.initialize(repeating: 0, count: 17)
            let padded = UnsafeMutableRawPointer(block)
            let count = buffer.count
            if count > 0 { padded.copyMemory(from: buffer.baseAddress!, byteCount: count) }
            padded.storeBytes(of: 0x01, toByteOffset: count, as: UInt8.self)
            let last = padded.load(fromByteOffset: rate - 1, as: UInt8.self)
            padded.storeBytes(of: last | 0x80, toByteOffset: rate - 1, as: UInt8.self)
            return keccakSingleBlock(block)
        }
    }

    /// Any message: whole blocks through the absorb loop, then the padded last block (empty but for the padding when
    /// the message fills its last block); writes the 32-byte digest to the start of `output` (≥ 32 bytes).
    static func absorb(_ buffer: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) {
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
