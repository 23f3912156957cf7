import CBORCoding
import CryptoCore

/// The representation-independent hash of structured data and the request id built from it
/// (IC interface spec §Representation-independent hashing of structured data, §Request ids).
public enum RequestID {
    /// The request id of an envelope's `content` map: its representation-independent hash.
    public static func of(content: CBORValue) throws(RequestIDError) -> [UInt8] {
        try hashOfMap(content)
    }

    /// `H(concat(sorted(H(key) ‖ H(value))))` over the map's entries, H = SHA-256; the keys must be text.
    ///
    /// Values: blobs as is, text as UTF-8, naturals as unsigned LEB128, negative integers as signed LEB128,
    /// arrays as the concatenation of their elements' hashes, nested maps by this same hash. A self-describe
    /// tag is looked through; a tag-2 bignum counts as the natural it holds. Nulls, booleans and other tags
    /// have no representation-independent hash and are refused.
    public static func hashOfMap(_ value: CBORValue) throws(RequestIDError) -> [UInt8] {
        guard let entries = value.mapEntries else { throw .notAMap }
        var pairs: [[UInt8]] = []
        pairs.reserveCapacity(entries.count)
        for entry in entries {
            guard let key = entry.key.textValue else { throw .nonTextKey }
            pairs.append(Digest.sha256.hash(Array(key.utf8)) + (try hashOfValue(entry.value, field: key)))
        }
        pairs.sort { $0.lexicographicallyPrecedes($1) }
        return Digest.sha256.hash(pairs.flatMap { $0 })
    }

    static func hashOfValue(_ value: CBORValue, field: String) throws(RequestIDError) -> [UInt8] {
        switch value.untagged {
        case .bytes(let bytes): return Digest.sha256.hash(bytes)
        case .text(let text): return Digest.sha256.hash(Array(text.utf8))
        case .unsigned(let n): return Digest.sha256.hash(LEB128.unsigned(n))
        case .negative(let n): return Digest.sha256.hash(LEB128.signedNegative(n))
        case .array(let elements):
            var concatenated: [UInt8] = []
            for element in elements { concatenated += try hashOfValue(element, field: field) }
            return Digest.sha256.hash(concatenated)
        case .map: return try hashOfMap(value.untagged)
        case .tagged(CBORValue.unsignedBignumTag, .bytes(let magnitude)):
            return Digest.sha256.hash(LEB128.unsigned(bigEndian: magnitude))
        default: throw .unhashableValue(field: field)
        }
    }
}

/// Why a value has no representation-independent hash.
public enum RequestIDError: Error, Sendable, Equatable, CustomStringConvertible {
    case notAMap
    case nonTextKey
    /// A null, boolean or unknown tag under this field.
    case unhashableValue(field: String)

    public var description: String {
        switch self {
        case .notAMap: return "request content is not a CBOR map"
        case .nonTextKey: return "request content has a non-text key"
        case .unhashableValue(let field): return "field '\(field)' has no representation-independent hash"
        }
    }
}

/// LEB128 as the IC hashes integers and writes naturals into the state tree.
public enum LEB128 {
    public static func unsigned(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        repeat {
            var byte = UInt8(value & 0x7f)
            value >>= 7
            if value != 0 { byte |= 0x80 }
            out.append(byte)
        } while value != 0
        return out
    }

    /// Unsigned LEB128 of a big-endian magnitude of any length.
    static func unsigned(bigEndian magnitude: [UInt8]) -> [UInt8] {
        var bits = magnitude.drop { $0 == 0 }.reversed().flatMap { byte in (0..<8).map { byte >> $0 & 1 } }
        while bits.last == 0 { bits.removeLast() }
        if bits.isEmpty { return [0] }
        var out: [UInt8] = []
        var index = 0
        while index < bits.count {
            var byte: UInt8 = 0
            for bit in 0..<7 where index + bit < bits.count { byte |= bits[index + bit] << bit }
            index += 7
            if index < bits.count { byte |= 0x80 }
            out.append(byte)
        }
        return out
    }

    /// Signed LEB128 of the CBOR negative integer `-1 - n`.
    static func signedNegative(_ n: UInt64) -> [UInt8] {
        // -1 - n is the complement of n with ones above bit 63; shifting fills ones (an arithmetic shift of a
        // 65-bit negative number), so every n up to 2^64 - 1 works.
        var value = ~n
        var out: [UInt8] = []
        while true {
            let byte = UInt8(value & 0x7f)
            value = value >> 7 | 0xFE00_0000_0000_0000
            if value == UInt64.max && byte & 0x40 != 0 {
                out.append(byte)
                return out
            }
            out.append(byte | 0x80)
        }
    }
}
