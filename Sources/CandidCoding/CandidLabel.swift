/// A record field or variant tag label: a 32-bit id, optionally with the name it was hashed from.
///
/// Candid spec, "Records": `hash(id) = (Σ_{i=0}^{k} utf8(id)[i] * 223^(k-i)) mod 2^32`. Labels compare and hash
/// by id only; the name is kept for printing.
public struct CandidLabel: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The field id.
    public var id: UInt32
    /// The textual name, if known.
    public var name: String?

    /// A label with a numeric id only.
    public init(id: UInt32) {
        self.id = id
        self.name = nil
    }

    /// A label from a name, hashed as the Candid spec prescribes.
    public init(_ name: String) {
        self.id = CandidLabel.hash(name)
        self.name = name
    }

    /// A label with a known id and name (the caller guarantees `id == hash(name)`; no hashing is done).
    public init(id: UInt32, name: String?) {
        self.id = id
        self.name = name
    }

    /// The Candid field-name hash.
    public static func hash(_ name: String) -> UInt32 {
        var hash: UInt32 = 0
        for byte in name.utf8 { hash = hash &* 223 &+ UInt32(byte) }
        return hash
    }

    public static func == (lhs: CandidLabel, rhs: CandidLabel) -> Bool { lhs.id == rhs.id }
    public static func < (lhs: CandidLabel, rhs: CandidLabel) -> Bool { lhs.id < rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    public var description: String { name ?? String(id) }
}
