import ByteCoding
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
        case .negative(let n): return Digest.sha256.hash(LEB128.signed(negativeOneMinus: n))
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
