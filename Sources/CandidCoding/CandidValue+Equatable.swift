extension CandidValue: Equatable {
    /// Structural equality: labels compare by id, `.blob` equals a `.vec` of `.nat8`, and NaN equals NaN.
    public static func == (lhs: CandidValue, rhs: CandidValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null), (.reserved, .reserved): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.nat(let a), .nat(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.nat8(let a), .nat8(let b)): return a == b
        case (.nat16(let a), .nat16(let b)): return a == b
        case (.nat32(let a), .nat32(let b)): return a == b
        case (.nat64(let a), .nat64(let b)): return a == b
        case (.int8(let a), .int8(let b)): return a == b
        case (.int16(let a), .int16(let b)): return a == b
        case (.int32(let a), .int32(let b)): return a == b
        case (.int64(let a), .int64(let b)): return a == b
        case (.float32(let a), .float32(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.float64(let a), .float64(let b)): return a == b || (a.isNaN && b.isNaN)
        case (.text(let a), .text(let b)): return a == b
        case (.principal(let a), .principal(let b)): return a == b
        case (.service(let a), .service(let b)): return a == b
        case (.opt(let a), .opt(let b)): return a == b
        case (.vec(let a), .vec(let b)): return a == b
        case (.blob(let a), .blob(let b)): return a == b
        case (.blob(let bytes), .vec(let values)), (.vec(let values), .blob(let bytes)):
            guard bytes.count == values.count else { return false }
            for (byte, value) in zip(bytes, values) where value != .nat8(byte) { return false }
            return true
        case (.record(let a), .record(let b)): return a == b
        case (.variant(let a), .variant(let b)): return a == b
        case (.function(let a), .function(let b)): return a == b
        default: return false
        }
    }
}
