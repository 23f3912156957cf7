/// Reads values of wire types and coerces them to expected types in one pass.
///
/// Candid spec, "Deserialisation" and "Coercion". The reader meters its work against a budget, caps nesting depth,
/// and never reads outside the input. A coercion failure below an `opt` rewinds the cursor, skips the value at its
/// wire type (so malformed bytes still fail) and yields `null`.
struct CandidValueReader {
    var cursor: CandidByteCursor
    let wire: CandidTypeTable
    let expected: CandidTypeTable
    var budget: Int
    var multiplier = 1
    var depth = 0
    let maximumDepth: Int
    /// Created on first use: only function and service references need a subtype check.
    var subtypes: CandidSubtypeChecker?

    init(cursor: CandidByteCursor, wire: CandidTypeTable, expected: CandidTypeTable, options: CandidDecodingOptions) {
        self.cursor = cursor
        self.wire = wire
        self.expected = expected
        self.budget = options.budget
        self.maximumDepth = options.maximumDepth
    }

    // MARK: Metering

    /// Cost of one decoded vec element: its in-memory size (at least the reference decoder's 3).
    static let elementCost = max(3, MemoryLayout<CandidValue>.stride)

    @inline(__always)
    mutating func charge(_ cost: Int) throws(CandidDecodingError) {
        let (total, overflow) = cost.multipliedReportingOverflow(by: multiplier)
        if overflow || total > budget {
            budget = 0
            throw cursor.fail(.budgetExceeded, "decoding cost exceeds the budget")
        }
        budget &-= total
    }

    @inline(__always)
    mutating func charge(count: Int, each: Int, plus: Int) throws(CandidDecodingError) {
        let (product, overflow) = count.multipliedReportingOverflow(by: each)
        guard !overflow else { throw cursor.fail(.budgetExceeded, "decoding cost exceeds the budget") }
        try charge(product &+ plus)
    }

    @inline(__always)
    mutating func enter() throws(CandidDecodingError) {
        depth &+= 1
        if depth > maximumDepth {
            throw cursor.fail(.depthExceeded, "value nesting exceeds the depth limit \(maximumDepth)")
        }
    }

    func mismatch(_ wireRef: Int32, _ expectedRef: Int32) -> CandidDecodingError {
        cursor.fail(
            .typeMismatch,
            "a value of wire type \(wire.summary(wireRef)) cannot be read at type \(expected.summary(expectedRef))")
    }

    // MARK: Arguments

    /// Reads all argument values, fills missing trailing null-accepting arguments and skips extra ones.
    mutating func readArguments(wireArguments: [Int32], expectedArguments: [Int32]) throws(CandidDecodingError)
        -> [CandidValue]
    {
        var values: [CandidValue] = []
        values.reserveCapacity(expectedArguments.count)
        for (index, expectedRef) in expectedArguments.enumerated() {
            if index < wireArguments.count {
                values.append(try read(wireArguments[index], as: expectedRef))
            } else if expected.acceptsNull(expectedRef) {
                values.append(expected.nullValue(expectedRef))
            } else {
                throw cursor.fail(
                    .typeMismatch, "missing argument \(index) of type \(expected.summary(expectedRef))")
            }
        }
        if wireArguments.count > expectedArguments.count {
            for wireRef in wireArguments[expectedArguments.count...] { try skip(wireRef) }
        }
        guard cursor.isAtEnd else {
            throw cursor.fail(.trailingBytes, "\(cursor.remaining) bytes remain after the last argument value")
        }
        return values
    }

    /// Reads all arguments of a message whose header equals the expected header.
    mutating func readExactArguments(_ arguments: [Int32]) throws(CandidDecodingError) -> [CandidValue] {
        if arguments.count == 1 {
            // An array literal allocates exactly once, without the generic reserve path.
            let values = [try readExact(arguments[0])]
            guard cursor.isAtEnd else {
                throw cursor.fail(.trailingBytes, "\(cursor.remaining) bytes remain after the last argument value")
            }
            return values
        }
        var values: [CandidValue] = []
        values.reserveCapacity(arguments.count)
        for ref in arguments { values.append(try readExact(ref)) }
        guard cursor.isAtEnd else {
            throw cursor.fail(.trailingBytes, "\(cursor.remaining) bytes remain after the last argument value")
        }
        return values
    }

    // MARK: Typed reading

    mutating func read(_ wireRef: Int32, as expectedRef: Int32) throws(CandidDecodingError) -> CandidValue {
        if expectedRef < 0 {
            if wireRef == expectedRef { return try readPrimitive(wireRef) }
            return try readCoercedPrimitive(wireRef, as: expectedRef)
        }
        try enter()
        defer { depth &-= 1 }
        switch expected.nodes[Int(expectedRef)] {
        case .opt(let expectedInner):
            return try readOption(wireRef, expectedInner)
        case .vec(let expectedInner):
            guard wireRef >= 0, case .vec(let wireInner) = wire.nodes[Int(wireRef)] else {
                throw mismatch(wireRef, expectedRef)
            }
            return try readVector(wireInner, expectedInner)
        case .record(let expectedFields):
            guard wireRef >= 0, case .record(let wireFields) = wire.nodes[Int(wireRef)] else {
                throw mismatch(wireRef, expectedRef)
            }
            return try readRecord(wireFields, expectedFields)
        case .variant(let expectedFields):
            guard wireRef >= 0, case .variant(let wireFields) = wire.nodes[Int(wireRef)] else {
                throw mismatch(wireRef, expectedRef)
            }
            try charge(6)
            let indexOffset = cursor.position
            let index = try cursor.readLEB("variant index")
            guard index < UInt64(wireFields.count) else {
                throw CandidDecodingError(
                    .invalidValue, at: indexOffset, "variant index \(index) is outside the \(wireFields.count) tags")
            }
            let wireField = wireFields[Int(index)]
            guard let expectedField = expectedFields.binarySearch(id: wireField.id) else {
                throw cursor.fail(
                    .typeMismatch, "variant tag \(wireField.id) is not in the expected \(expected.summary(expectedRef))"
                )
            }
            let value = try read(wireField.type, as: expectedField.type)
            return .variant(CandidField(CandidLabel(id: expectedField.id, name: expectedField.name), value))
        case .function:
            guard wireRef >= 0, case .function = wire.nodes[Int(wireRef)] else { throw mismatch(wireRef, expectedRef) }
            let reference = try readFunctionReference()
            try charge(wire.nodes.count)
            guard try isSubtype(wireRef, expectedRef) else {
                throw cursor.fail(
                    .typeMismatch,
                    "function type \(wire.summary(wireRef)) is not a subtype of \(expected.summary(expectedRef))")
            }
            return .function(reference)
        case .service:
            guard wireRef >= 0, case .service = wire.nodes[Int(wireRef)] else { throw mismatch(wireRef, expectedRef) }
            let principal = try readPrincipal()
            try charge(wire.nodes.count)
            guard try isSubtype(wireRef, expectedRef) else {
                throw cursor.fail(
                    .typeMismatch,
                    "service type \(wire.summary(wireRef)) is not a subtype of \(expected.summary(expectedRef))")
            }
            return .service(principal)
        case .future:
            throw mismatch(wireRef, expectedRef)
        }
    }

    private mutating func isSubtype(_ wireRef: Int32, _ expectedRef: Int32) throws(CandidDecodingError) -> Bool {
        var checker =
            subtypes ?? CandidSubtypeChecker(wire: wire, expected: expected, maximumDepth: maximumDepth)
        defer { subtypes = checker }
        return try checker.isSubtype(wireRef, expectedRef, cursor: cursor)
    }

    private mutating func readOption(_ wireRef: Int32, _ expectedInner: Int32) throws(CandidDecodingError)
        -> CandidValue
    {
        try charge(1)
        if wireRef == CandidTypeTable.null || wireRef == CandidTypeTable.reserved { return CandidValue.optNull }
        if wireRef >= 0 {
            switch wire.nodes[Int(wireRef)] {
            case .opt(let wireInner):
                let tagOffset = cursor.position
                switch try cursor.readByte("opt tag") {
                case 0: return CandidValue.optNull
                case 1: return .opt(try readRecovering(wireInner, expectedInner))
                case let tag:
                    throw CandidDecodingError(.invalidValue, at: tagOffset, "opt tag \(tag) is out of range")
                }
            case .future:
                try skip(wireRef)
                return CandidValue.optNull
            default:
                break
            }
        }
        return .opt(try readRecovering(wireRef, expectedInner))
    }

    /// Reads at the expected type; a coercion failure rewinds, skips the value and yields nil.
    private mutating func readRecovering(_ wireRef: Int32, _ expectedRef: Int32) throws(CandidDecodingError)
        -> CandidValue?
    {
        let start = cursor.position
        let savedDepth = depth
        do {
            return try read(wireRef, as: expectedRef)
        } catch {
            guard error.isRecoverable else { throw error }
            cursor.position = start
            depth = savedDepth
            try charge(10)
            try skip(wireRef)
            return nil
        }
    }

    private mutating func readVector(_ wireInner: Int32, _ expectedInner: Int32) throws(CandidDecodingError)
        -> CandidValue
    {
        let lengthOffset = cursor.position
        let count = try cursor.readLength("vec length")
        if wireInner == CandidTypeTable.nat8 && expectedInner == CandidTypeTable.nat8 {
            try charge(count: 1, each: count, plus: 1)
            let range = try cursor.readRange(count, "blob")
            return .blob(cursor.copyBytes(range))
        }
        let elementSize = wire.minimumSize(wireInner)
        if elementSize > 0, count > cursor.remaining / elementSize {
            throw CandidDecodingError(
                .limitExceeded, at: lengthOffset,
                "vec length \(count) needs at least \(count * elementSize) bytes but \(cursor.remaining) remain")
        }
        if wireInner == expectedInner, let fixed = CandidTypeTable.fixedSize(wireInner) {
            try charge(count: count, each: 3 + fixed, plus: 1)
            return .vec(try readFixedVector(wireInner, count))
        }
        // Each materialized element costs its in-memory size, so zero-sized wire elements cannot
        // make the decoder allocate more than about `budget` bytes.
        try charge(count: count, each: Self.elementCost, plus: 1)
        var elements: [CandidValue] = []
        elements.reserveCapacity(elementSize > 0 ? count : min(count, 4096))
        for _ in 0..<count { elements.append(try read(wireInner, as: expectedInner)) }
        return .vec(elements)
    }

    mutating func readFixedVector(_ ref: Int32, _ count: Int) throws(CandidDecodingError) -> [CandidValue] {
        var elements: [CandidValue] = []
        elements.reserveCapacity(count)
        let base = cursor.base
        var position = cursor.position
        switch ref {
        case CandidTypeTable.nat64:
            for _ in 0..<count {
                elements.append(
                    .nat64(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))))
                position &+= 8
            }
            cursor.position = position
        default:
            for _ in 0..<count { elements.append(try readPrimitive(ref)) }
        }
        return elements
    }

    private mutating func readRecord(_ wireFields: [CandidTypeTable.Field], _ expectedFields: [CandidTypeTable.Field])
        throws(CandidDecodingError) -> CandidValue
    {
        try charge(1)
        var values: [CandidField] = []
        values.reserveCapacity(expectedFields.count)
        var expectedIndex = 0
        for wireField in wireFields {
            while expectedIndex < expectedFields.count, expectedFields[expectedIndex].id < wireField.id {
                values.append(try missingField(expectedFields[expectedIndex]))
                expectedIndex &+= 1
            }
            try charge(7)
            if expectedIndex < expectedFields.count, expectedFields[expectedIndex].id == wireField.id {
                let field = expectedFields[expectedIndex]
                let value = try read(wireField.type, as: field.type)
                values.append(CandidField(CandidLabel(id: field.id, name: field.name), value))
                expectedIndex &+= 1
            } else {
                try skip(wireField.type)
            }
        }
        while expectedIndex < expectedFields.count {
            values.append(try missingField(expectedFields[expectedIndex]))
            expectedIndex &+= 1
        }
        return .record(values)
    }

    private func missingField(_ field: CandidTypeTable.Field) throws(CandidDecodingError) -> CandidField {
        guard expected.acceptsNull(field.type) else {
            throw cursor.fail(
                .typeMismatch,
                "record field \(field.name ?? String(field.id)) of type "
                    + "\(expected.summary(field.type)) is missing")
        }
        return CandidField(CandidLabel(id: field.id, name: field.name), expected.nullValue(field.type))
    }

    // MARK: Primitives

    mutating func readPrimitive(_ ref: Int32) throws(CandidDecodingError) -> CandidValue {
        switch ref {
        case CandidTypeTable.null:
            try charge(1)
            return .null
        case CandidTypeTable.bool:
            try charge(1)
            let offset = cursor.position
            switch try cursor.readByte("bool") {
            case 0: return .bool(false)
            case 1: return .bool(true)
            case let byte: throw CandidDecodingError(.invalidValue, at: offset, "bool byte \(byte) is out of range")
            }
        case CandidTypeTable.nat:
            let start = cursor.position
            let value = try cursor.readNat()
            try charge(cursor.position &- start)
            return .nat(value)
        case CandidTypeTable.int:
            let start = cursor.position
            let value = try cursor.readInt()
            try charge(cursor.position &- start)
            return .int(value)
        case CandidTypeTable.nat8:
            try charge(1)
            return .nat8(try cursor.readByte("nat8"))
        case CandidTypeTable.nat16:
            try charge(2)
            return .nat16(try cursor.readFixed(UInt16.self, "nat16"))
        case CandidTypeTable.nat32:
            try charge(4)
            return .nat32(try cursor.readFixed(UInt32.self, "nat32"))
        case CandidTypeTable.nat64:
            try charge(8)
            return .nat64(try cursor.readFixed(UInt64.self, "nat64"))
        case CandidTypeTable.int8:
            try charge(1)
            return .int8(Int8(bitPattern: try cursor.readByte("int8")))
        case CandidTypeTable.int16:
            try charge(2)
            return .int16(try cursor.readFixed(Int16.self, "int16"))
        case CandidTypeTable.int32:
            try charge(4)
            return .int32(try cursor.readFixed(Int32.self, "int32"))
        case CandidTypeTable.int64:
            try charge(8)
            return .int64(try cursor.readFixed(Int64.self, "int64"))
        case CandidTypeTable.float32:
            try charge(4)
            return .float32(Float(bitPattern: try cursor.readFixed(UInt32.self, "float32")))
        case CandidTypeTable.float64:
            try charge(8)
            return .float64(Double(bitPattern: try cursor.readFixed(UInt64.self, "float64")))
        case CandidTypeTable.text:
            return .text(try readText("text"))
        case CandidTypeTable.reserved:
            try charge(1)
            return .reserved
        case CandidTypeTable.principal:
            return .principal(try readPrincipal())
        default:
            throw cursor.fail(.invalidValue, "type empty has no values")
        }
    }

    private mutating func readCoercedPrimitive(_ wireRef: Int32, as expectedRef: Int32) throws(CandidDecodingError)
        -> CandidValue
    {
        switch expectedRef {
        case CandidTypeTable.reserved:
            try skip(wireRef)
            return .reserved
        case CandidTypeTable.int where wireRef == CandidTypeTable.nat:
            let start = cursor.position
            let value = try cursor.readNat()
            try charge(cursor.position &- start)
            return .int(CandidInt(value))
        case CandidTypeTable.principal where wireRef >= 0:
            guard case .service = wire.nodes[Int(wireRef)] else { throw mismatch(wireRef, expectedRef) }
            return .principal(try readPrincipal())
        default:
            throw mismatch(wireRef, expectedRef)
        }
    }

    mutating func readText(_ what: String) throws(CandidDecodingError) -> String {
        let offset = cursor.position
        let length = try cursor.readLength("\(what) length")
        try charge(count: 1, each: length, plus: 1)
        let range = try cursor.readRange(length, what)
        guard let string = String(validating: cursor.base[range], as: UTF8.self) else {
            throw CandidDecodingError(.invalidValue, at: offset, "\(what) is not valid UTF-8")
        }
        return string
    }

    mutating func readPrincipal() throws(CandidDecodingError) -> CandidPrincipal {
        let offset = cursor.position
        let tag = try cursor.readByte("principal tag")
        guard tag == 1 else {
            throw CandidDecodingError(
                .invalidValue, at: offset, "principal tag \(tag) is not 1 (opaque references are unsupported)")
        }
        let lengthOffset = cursor.position
        let length = try cursor.readLength("principal length")
        guard length <= CandidPrincipal.maximumLength else {
            throw CandidDecodingError(.invalidValue, at: lengthOffset, "principal length \(length) exceeds 29 bytes")
        }
        try charge(max(30, length))
        let range = try cursor.readRange(length, "principal")
        return CandidPrincipal(bytes: cursor.copyBytes(range))
    }

    mutating func readFunctionReference() throws(CandidDecodingError) -> CandidFunctionReference {
        let offset = cursor.position
        let tag = try cursor.readByte("func tag")
        guard tag == 1 else {
            throw CandidDecodingError(
                .invalidValue, at: offset, "func tag \(tag) is not 1 (opaque references are unsupported)")
        }
        try charge(2)
        let principal = try readPrincipal()
        let method = try readText("method name")
        return CandidFunctionReference(service: principal, method: method)
    }
}

extension Array where Element == CandidTypeTable.Field {
    /// Finds a field by id in a list sorted by id.
    @inline(__always)
    func binarySearch(id: UInt32) -> CandidTypeTable.Field? {
        var low = 0
        var high = count
        while low < high {
            let middle = (low &+ high) >> 1
            let candidate = self[middle].id
            if candidate == id { return self[middle] }
            if candidate < id { low = middle &+ 1 } else { high = middle }
        }
        return nil
    }
}
