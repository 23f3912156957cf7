extension CandidTypeTable {
    /// A short description of a type reference for error messages.
    func summary(_ ref: Int32, depth: Int = 0) -> String {
        if ref < 0 { return CandidTypeTable.primitiveType(ref).map { "\($0)" } ?? "type \(ref)" }
        guard Int(ref) < nodes.count else { return "type \(ref)" }
        guard depth < 2 else { return "…" }
        switch nodes[Int(ref)] {
        case .opt(let inner): return "opt \(summary(inner, depth: depth + 1))"
        case .vec(let inner): return "vec \(summary(inner, depth: depth + 1))"
        case .record(let fields):
            return "record {" + fields.prefix(4).map { "\($0.name ?? String($0.id))" }.joined(separator: "; ")
                + (fields.count > 4 ? "; …}" : "}")
        case .variant(let fields):
            return "variant {" + fields.prefix(4).map { "\($0.name ?? String($0.id))" }.joined(separator: "; ")
                + (fields.count > 4 ? "; …}" : "}")
        case .function(let function):
            return "func (\(function.arguments.count) args) -> (\(function.results.count) results)"
        case .service(let methods): return "service {\(methods.count) methods}"
        case .future: return "future type"
        }
    }

    /// Size in bytes of a fixed-size primitive, or nil.
    @inline(__always)
    static func fixedSize(_ ref: Int32) -> Int? {
        switch ref {
        case nat8, int8, bool: return 1
        case nat16, int16: return 2
        case nat32, int32, float32: return 4
        case nat64, int64, float64: return 8
        default: return nil
        }
    }

    /// A lower bound on the number of bytes any value of this type occupies (0 when unknown).
    func minimumSize(_ ref: Int32) -> Int {
        if let fixed = Self.fixedSize(ref) { return fixed }
        switch ref {
        case Self.nat, Self.int, Self.text: return 1
        case Self.principal: return 2
        default: break
        }
        guard ref >= 0 else { return 0 }
        switch nodes[Int(ref)] {
        case .opt, .vec, .variant: return 1
        case .function: return 4
        case .service: return 2
        case .future: return 2
        case .record: return 0
        }
    }
}
