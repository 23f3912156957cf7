extension CandidValueReader {
    /// Skips a value of a wire type, validating it and charging 50 times the normal cost
    /// (reference decoder's penalty for skipped data).
    mutating func skip(_ wireRef: Int32) throws(CandidDecodingError) {
        let saved = multiplier
        multiplier = 50
        defer { multiplier = saved }
        try skipValue(wireRef)
    }

    private mutating func skipValue(_ wireRef: Int32) throws(CandidDecodingError) {
        if wireRef < 0 {
            switch wireRef {
            case CandidTypeTable.text: _ = try readText("text")
            case CandidTypeTable.empty: throw cursor.fail(.invalidValue, "type empty has no values")
            default: _ = try readPrimitive(wireRef)
            }
            return
        }
        try enter()
        defer { depth &-= 1 }
        switch wire.nodes[Int(wireRef)] {
        case .opt(let inner):
            try charge(1)
            let offset = cursor.position
            switch try cursor.readByte("opt tag") {
            case 0: return
            case 1: try skipValue(inner)
            case let tag: throw CandidDecodingError(.invalidValue, at: offset, "opt tag \(tag) is out of range")
            }
        case .vec(let inner):
            let offset = cursor.position
            let count = try cursor.readLength("vec length")
            if inner == CandidTypeTable.nat8 {
                try charge(count: 1, each: count, plus: 1)
                _ = try cursor.readRange(count, "blob")
                return
            }
            let elementSize = wire.minimumSize(inner)
            if elementSize > 0, count > cursor.remaining / elementSize {
                throw CandidDecodingError(
                    .limitExceeded, at: offset,
                    "vec length \(count) needs at least \(count * elementSize) bytes but \(cursor.remaining) remain")
            }
            try charge(count: count, each: 3, plus: 1)
            for _ in 0..<count { try skipValue(inner) }
        case .record(let fields):
            try charge(1)
            for field in fields {
                try charge(7)
                try skipValue(field.type)
            }
        case .variant(let fields):
            try charge(6)
            let offset = cursor.position
            let index = try cursor.readLEB("variant index")
            guard index < UInt64(fields.count) else {
                throw CandidDecodingError(
                    .invalidValue, at: offset, "variant index \(index) is outside the \(fields.count) tags")
            }
            try skipValue(fields[Int(index)].type)
        case .function:
            _ = try readFunctionReference()
        case .service:
            _ = try readPrincipal()
        case .future:
            let offset = cursor.position
            let size = try cursor.readLength("future value size")
            _ = try cursor.readLength("future value reference count")
            try charge(count: 1, each: size, plus: 1)
            guard size <= cursor.remaining else {
                throw CandidDecodingError(
                    .limitExceeded, at: offset, "future value size \(size) exceeds the remaining \(cursor.remaining)")
            }
            _ = try cursor.readRange(size, "future value")
        }
    }
}
