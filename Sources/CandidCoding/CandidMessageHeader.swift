/// The decoded header of a Candid message: the wire type table and the argument type references.
///
/// Candid spec, "Binary format": `B(kv* : <datatype>*) = i8('D') i8('I') i8('D') i8('L') T*(<datatype>*) I*(...)`.
struct CandidMessageHeader {
    var table: CandidTypeTable
    var arguments: [Int32]

    /// Parses `DIDL`, the type table and the argument list, validating every entry.
    static func parse(
        _ cursor: inout CandidByteCursor,
        options: CandidDecodingOptions
    ) throws(CandidDecodingError) -> CandidMessageHeader {
        guard cursor.remaining >= 4, cursor.base[0] == 0x44, cursor.base[1] == 0x49, cursor.base[2] == 0x44,
            cursor.base[3] == 0x4c
        else { throw CandidDecodingError(.badMagic, at: 0, "message does not start with DIDL") }
        cursor.position = 4
        let countOffset = cursor.position
        let count = try cursor.readLength("type table length")
        guard count <= options.maximumTypeTableLength else {
            throw CandidDecodingError(
                .limitExceeded, at: countOffset,
                "type table length \(count) exceeds the limit \(options.maximumTypeTableLength)")
        }
        guard count <= cursor.remaining / 2 else {
            throw CandidDecodingError(
                .limitExceeded, at: countOffset,
                "type table length \(count) is larger than the remaining \(cursor.remaining) bytes allow")
        }
        var table = CandidTypeTable()
        table.nodes.reserveCapacity(count)
        var serviceOffsets: [(Int, Int)] = []
        for _ in 0..<count {
            let entryOffset = cursor.position
            let opcode = try cursor.readSLEB("type opcode")
            switch opcode {
            case -18: table.nodes.append(.opt(try readReference(&cursor, count)))
            case -19: table.nodes.append(.vec(try readReference(&cursor, count)))
            case -20, -21:
                let kind = opcode == -20 ? "record" : "variant"
                let fieldCountOffset = cursor.position
                let fieldCount = try cursor.readLength("\(kind) field count")
                guard fieldCount <= cursor.remaining / 2 else {
                    throw CandidDecodingError(
                        .limitExceeded, at: fieldCountOffset,
                        "\(kind) field count \(fieldCount) is larger than the remaining input allows")
                }
                var fields: [CandidTypeTable.Field] = []
                fields.reserveCapacity(fieldCount)
                var previous: Int64 = -1
                for _ in 0..<fieldCount {
                    let idOffset = cursor.position
                    let id = try cursor.readLEB("field id")
                    guard id <= UInt64(UInt32.max) else {
                        throw CandidDecodingError(.invalidTypeTable, at: idOffset, "field id \(id) is larger than u32")
                    }
                    guard Int64(id) > previous else {
                        throw CandidDecodingError(
                            .invalidTypeTable, at: idOffset,
                            "\(kind) field ids must be strictly increasing (id \(id) after \(previous))")
                    }
                    previous = Int64(id)
                    fields.append(.init(id: UInt32(id), name: nil, type: try readReference(&cursor, count)))
                }
                table.nodes.append(opcode == -20 ? .record(fields) : .variant(fields))
            case -22:
                let arguments = try readReferenceList(&cursor, count, "function argument count")
                let results = try readReferenceList(&cursor, count, "function result count")
                let modeCountOffset = cursor.position
                let modeCount = try cursor.readLength("function annotation count")
                guard modeCount <= cursor.remaining else {
                    throw CandidDecodingError(.limitExceeded, at: modeCountOffset, "annotation count too large")
                }
                var modes: [UInt8] = []
                for _ in 0..<modeCount {
                    let modeOffset = cursor.position
                    let mode = try cursor.readByte("function annotation")
                    guard (1...3).contains(mode) else {
                        throw CandidDecodingError(
                            .invalidTypeTable, at: modeOffset, "unknown function annotation \(mode)")
                    }
                    modes.append(mode)
                }
                table.nodes.append(
                    .function(.init(arguments: arguments, results: results, modes: Array(Set(modes)).sorted())))
            case -23:
                let methodCountOffset = cursor.position
                let methodCount = try cursor.readLength("service method count")
                guard methodCount <= cursor.remaining / 2 else {
                    throw CandidDecodingError(.limitExceeded, at: methodCountOffset, "method count too large")
                }
                var methods: [CandidTypeTable.Method] = []
                for _ in 0..<methodCount {
                    let nameOffset = cursor.position
                    let length = try cursor.readLength("method name length")
                    let range = try cursor.readRange(length, "method name")
                    guard let name = String(validating: cursor.base[range], as: UTF8.self) else {
                        throw CandidDecodingError(.invalidTypeTable, at: nameOffset, "method name is not valid UTF-8")
                    }
                    if let last = methods.last, !last.name.utf8.lexicographicallyPrecedes(name.utf8) {
                        throw CandidDecodingError(
                            .invalidTypeTable, at: nameOffset,
                            "service methods must be sorted by name and unique (\(name) after \(last.name))")
                    }
                    methods.append(.init(name: name, type: try readReference(&cursor, count)))
                }
                serviceOffsets.append((table.nodes.count, entryOffset))
                table.nodes.append(.service(methods))
            default:
                if opcode < -24 {
                    let length = try cursor.readLength("future type length")
                    _ = try cursor.readRange(length, "future type data")
                    table.nodes.append(.future)
                } else {
                    throw CandidDecodingError(
                        .invalidTypeTable, at: entryOffset,
                        "opcode \(opcode) is not a composite type and cannot be a type table entry")
                }
            }
        }
        for (index, offset) in serviceOffsets {
            guard case .service(let methods) = table.nodes[index] else { continue }
            for method in methods {
                guard method.type >= 0, case .function = table.nodes[Int(method.type)] else {
                    throw CandidDecodingError(
                        .invalidTypeTable, at: offset, "service method \(method.name) does not have a function type")
                }
            }
        }
        let arguments = try readReferenceList(&cursor, count, "argument count")
        return CandidMessageHeader(table: table, arguments: arguments)
    }

    @inline(__always)
    private static func readReference(_ cursor: inout CandidByteCursor, _ count: Int) throws(CandidDecodingError)
        -> Int32
    {
        let offset = cursor.position
        let reference = try cursor.readSLEB("type reference")
        if reference >= 0 {
            guard reference < Int64(count) else {
                throw CandidDecodingError(
                    .invalidTypeTable, at: offset, "type reference \(reference) is outside the table of \(count)")
            }
            return Int32(reference)
        }
        guard reference >= -24, CandidTypeTable.isPrimitive(Int32(reference)) else {
            throw CandidDecodingError(
                .invalidTypeTable, at: offset, "type reference \(reference) is not a primitive type or table index")
        }
        return Int32(reference)
    }

    private static func readReferenceList(_ cursor: inout CandidByteCursor, _ count: Int, _ what: String)
        throws(CandidDecodingError) -> [Int32]
    {
        let offset = cursor.position
        let length = try cursor.readLength(what)
        guard length <= cursor.remaining else {
            throw CandidDecodingError(
                .limitExceeded, at: offset, "\(what) \(length) is larger than the remaining \(cursor.remaining) bytes")
        }
        var references: [Int32] = []
        references.reserveCapacity(length)
        for _ in 0..<length { references.append(try readReference(&cursor, count)) }
        return references
    }
}
