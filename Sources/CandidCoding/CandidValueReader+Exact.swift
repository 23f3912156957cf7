extension CandidValueReader {
    /// Reads a value whose wire type is known to be identical to the expected type (the message header matched
    /// the expected types byte for byte). No coercion is needed, so fields are read in order without merging.
    mutating func readExact(_ ref: Int32) throws(CandidDecodingError) -> CandidValue {
        if ref < 0 { return try readPrimitive(ref) }
        try enter()
        defer { depth &-= 1 }
        switch expected.nodes[Int(ref)] {
        case .opt(let inner):
            try charge(1)
            let offset = cursor.position
            switch try cursor.readByte("opt tag") {
            case 0: return CandidValue.optNull
            case 1: return .opt(try readExact(inner))
            case let tag: throw CandidDecodingError(.invalidValue, at: offset, "opt tag \(tag) is out of range")
            }
        case .vec(let inner):
            let offset = cursor.position
            let count = try cursor.readLength("vec length")
            if inner == CandidTypeTable.nat8 {
                try charge(count: 1, each: count, plus: 1)
                let range = try cursor.readRange(count, "blob")
                return .blob(cursor.copyBytes(range))
            }
            let elementSize = expected.minimumSize(inner)
            if elementSize > 0, count > cursor.remaining / elementSize {
                throw CandidDecodingError(
                    .limitExceeded, at: offset,
                    "vec length \(count) needs at least \(count * elementSize) bytes but \(cursor.remaining) remain")
            }
            if let fixed = CandidTypeTable.fixedSize(inner) {
                try charge(count: count, each: 3 + fixed, plus: 1)
                return .vec(try readFixedVector(inner, count))
            }
            try charge(count: count, each: Self.elementCost, plus: 1)
            var elements: [CandidValue] = []
            elements.reserveCapacity(elementSize > 0 ? count : min(count, 4096))
            for _ in 0..<count { elements.append(try readExact(inner)) }
            return .vec(elements)
        case .record(let fields):
            try charge(count: fields.count, each: 7, plus: 1)
            var values: [CandidField] = []
            values.reserveCapacity(fields.count)
            for index in fields.indices {
                let value = try readExact(fields[index].type)
                values.append(CandidField(CandidLabel(id: fields[index].id, name: fields[index].name), value))
            }
            return .record(values)
        case .variant(let fields):
            try charge(6)
            let offset = cursor.position
            let index = try cursor.readLEB("variant index")
            guard index < UInt64(fields.count) else {
                throw CandidDecodingError(
                    .invalidValue, at: offset, "variant index \(index) is outside the \(fields.count) tags")
            }
            let field = fields[Int(index)]
            return .variant(CandidField(CandidLabel(id: field.id, name: field.name), try readExact(field.type)))
        case .function:
            return .function(try readFunctionReference())
        case .service:
            return .service(try readPrincipal())
        case .future:
            throw cursor.fail(.invalidValue, "a future type has no readable values")
        }
    }
}
