import ByteCoding

/// Serialises Candid values to the binary format (Candid spec, "Binary format", "Serialisation").
///
/// The output is `DIDL`, the type table, the argument types, then the values (memory `M`). Record fields are
/// written in increasing id order; a missing record field of type `null`, `opt` or `reserved` is written as `null`.
public enum CandidSerializer {
    /// Encodes values at precompiled argument types.
    ///
    /// - Parameters:
    ///   - values: One value per argument type.
    ///   - types: The compiled argument types.
    /// - Returns: The complete Candid message.
    /// - Throws: `CandidEncodingError` when a value does not match its type.
    public static func encode(_ values: [CandidValue], as types: CandidArgumentTypes) throws(CandidEncodingError)
        -> [UInt8]
    {
        guard values.count == types.arguments.count else {
            throw CandidEncodingError(path: "", "\(values.count) values for \(types.arguments.count) argument types")
        }
        var writer = CandidValueWriter(table: types.table)
        writer.bytes.reserveCapacity(types.header.count + 64)
        writer.bytes.append(contentsOf: types.header)
        for index in values.indices {
            do {
                try writer.write(values[index], at: types.arguments[index])
            } catch {
                throw error.within("arg \(index)")
            }
        }
        return writer.bytes
    }

    /// Encodes values at argument types given as `CandidType`.
    ///
    /// - Throws: `CandidEncodingError` for values that do not match, or for invalid types.
    public static func encode(
        _ values: [CandidValue],
        types: [CandidType],
        environment: CandidTypeEnvironment = .init()
    ) throws(CandidEncodingError) -> [UInt8] {
        let compiled: CandidArgumentTypes
        do {
            compiled = try CandidArgumentTypes(types, environment: environment)
        } catch {
            throw CandidEncodingError(path: "", error.message)
        }
        return try encode(values, as: compiled)
    }
}

/// Appends values to a byte buffer according to a compiled type table.
struct CandidValueWriter {
    let table: CandidTypeTable
    var bytes: [UInt8] = []
    var depth = 0

    init(table: CandidTypeTable) { self.table = table }

    private func mismatch(_ value: CandidValue, _ ref: Int32) -> CandidEncodingError {
        CandidEncodingError(path: "", "value \(value.shortKind) does not match type \(typeName(ref))")
    }

    func typeName(_ ref: Int32) -> String {
        if let primitive = CandidTypeTable.primitiveType(ref) { return "\(primitive)" }
        switch table.nodes[Int(ref)] {
        case .opt: return "opt"
        case .vec: return "vec"
        case .record: return "record"
        case .variant: return "variant"
        case .function: return "func"
        case .service: return "service"
        case .future: return "future"
        }
    }

    mutating func write(_ value: CandidValue, at ref: Int32) throws(CandidEncodingError) {
        if ref < 0 {
            try writePrimitive(value, ref)
            return
        }
        depth += 1
        defer { depth -= 1 }
        guard depth < 1000 else { throw CandidEncodingError(path: "", "value nesting deeper than 1000") }
        switch table.nodes[Int(ref)] {
        case .opt(let inner):
            switch value {
            case .opt(.none), .null: bytes.append(0)
            case .opt(.some(let wrapped)):
                bytes.append(1)
                try write(wrapped, at: inner)
            default: throw mismatch(value, ref)
            }
        case .vec(let inner):
            switch value {
            case .blob(let data) where inner == CandidTypeTable.nat8:
                LEB128.append(UInt64(data.count), to: &bytes)
                bytes.append(contentsOf: data)
            case .vec(let elements):
                LEB128.append(UInt64(elements.count), to: &bytes)
                if let size = CandidTypeTable.fixedSize(inner) {
                    bytes.reserveCapacity(bytes.count + elements.count * size)
                }
                if inner == CandidTypeTable.nat64 {
                    for (index, element) in elements.enumerated() {
                        guard case .nat64(let number) = element else {
                            throw mismatch(element, inner).within("[\(index)]")
                        }
                        appendFixed(number)
                    }
                    return
                }
                for (index, element) in elements.enumerated() {
                    do { try write(element, at: inner) } catch { throw error.within("[\(index)]") }
                }
            default: throw mismatch(value, ref)
            }
        case .record(let fields):
            guard case .record(let values) = value else { throw mismatch(value, ref) }
            var cursor = 0
            for field in fields {
                var found: CandidValue?
                if cursor < values.count, values[cursor].label.id == field.id {
                    found = values[cursor].value
                    cursor += 1
                } else if let match = values.first(where: { $0.label.id == field.id }) {
                    found = match.value
                }
                if let found {
                    do {
                        try write(found, at: field.type)
                    } catch {
                        throw error.within("field \(field.name ?? String(field.id))")
                    }
                } else if table.acceptsNull(field.type) {
                    if field.type >= 0 { bytes.append(0) }
                } else {
                    throw CandidEncodingError(path: "", "missing record field \(field.name ?? String(field.id))")
                }
            }
        case .variant(let fields):
            guard case .variant(let selected) = value,
                let index = fields.firstIndex(where: { $0.id == selected.label.id })
            else { throw mismatch(value, ref) }
            LEB128.append(UInt64(index), to: &bytes)
            do {
                try write(selected.value, at: fields[index].type)
            } catch {
                throw error.within("tag \(selected.label)")
            }
        case .function:
            guard case .function(let reference) = value else { throw mismatch(value, ref) }
            bytes.append(1)
            appendPrincipal(reference.service)
            LEB128.append(UInt64(reference.method.utf8.count), to: &bytes)
            bytes.append(contentsOf: reference.method.utf8)
        case .service:
            switch value {
            case .service(let principal), .principal(let principal): appendPrincipal(principal)
            default: throw mismatch(value, ref)
            }
        case .future:
            throw CandidEncodingError(path: "", "cannot encode a value of a future type")
        }
    }

    @inline(__always)
    private mutating func appendPrincipal(_ principal: CandidPrincipal) {
        bytes.append(1)
        LEB128.append(UInt64(principal.bytes.count), to: &bytes)
        bytes.append(contentsOf: principal.bytes)
    }

    @inline(__always)
    private mutating func appendFixed<T: FixedWidthInteger>(_ value: T) {
        var remaining = value
        for _ in 0..<MemoryLayout<T>.size {
            bytes.append(UInt8(truncatingIfNeeded: remaining))
            remaining >>= 8
        }
    }

    private mutating func writePrimitive(_ value: CandidValue, _ ref: Int32) throws(CandidEncodingError) {
        switch ref {
        case CandidTypeTable.reserved: return
        case CandidTypeTable.null:
            guard case .null = value else { throw mismatch(value, ref) }
        case CandidTypeTable.bool:
            guard case .bool(let flag) = value else { throw mismatch(value, ref) }
            bytes.append(flag ? 1 : 0)
        case CandidTypeTable.text:
            guard case .text(let string) = value else { throw mismatch(value, ref) }
            LEB128.append(UInt64(string.utf8.count), to: &bytes)
            bytes.append(contentsOf: string.utf8)
        case CandidTypeTable.float32:
            switch value {
            case .float32(let number): appendFixed(number.bitPattern)
            case .float64(let number): appendFixed(Float(number).bitPattern)
            default: throw mismatch(value, ref)
            }
        case CandidTypeTable.float64:
            switch value {
            case .float64(let number): appendFixed(number.bitPattern)
            case .float32(let number): appendFixed(Double(number).bitPattern)
            default: throw mismatch(value, ref)
            }
        case CandidTypeTable.principal:
            switch value {
            case .principal(let principal), .service(let principal): appendPrincipal(principal)
            default: throw mismatch(value, ref)
            }
        case CandidTypeTable.empty:
            throw CandidEncodingError(path: "", "type empty has no values")
        default:
            try writeInteger(value, ref)
        }
    }

    private mutating func writeInteger(_ value: CandidValue, _ ref: Int32) throws(CandidEncodingError) {
        // Fast paths for exact matches.
        switch (ref, value) {
        case (CandidTypeTable.nat64, .nat64(let number)):
            appendFixed(number)
            return
        case (CandidTypeTable.nat8, .nat8(let number)):
            bytes.append(number)
            return
        case (CandidTypeTable.nat, .nat(let number)):
            CandidLEB128.append(number, to: &bytes)
            return
        case (CandidTypeTable.int, .int(let number)):
            CandidLEB128.append(number, to: &bytes)
            return
        default: break
        }
        guard let integer = value.integerValue else { throw mismatch(value, ref) }
        func outOfRange() -> CandidEncodingError {
            CandidEncodingError(path: "", "\(integer) is out of range for \(typeName(ref))")
        }
        switch ref {
        case CandidTypeTable.nat:
            guard let nat = integer.natValue else { throw outOfRange() }
            CandidLEB128.append(nat, to: &bytes)
        case CandidTypeTable.int:
            CandidLEB128.append(integer, to: &bytes)
        case CandidTypeTable.nat8, CandidTypeTable.nat16, CandidTypeTable.nat32, CandidTypeTable.nat64:
            guard let number = integer.natValue?.uint64Value else { throw outOfRange() }
            switch ref {
            case CandidTypeTable.nat8:
                guard let narrow = UInt8(exactly: number) else { throw outOfRange() }
                bytes.append(narrow)
            case CandidTypeTable.nat16:
                guard let narrow = UInt16(exactly: number) else { throw outOfRange() }
                appendFixed(narrow)
            case CandidTypeTable.nat32:
                guard let narrow = UInt32(exactly: number) else { throw outOfRange() }
                appendFixed(narrow)
            default: appendFixed(number)
            }
        case CandidTypeTable.int8, CandidTypeTable.int16, CandidTypeTable.int32, CandidTypeTable.int64:
            guard let number = integer.int64Value else { throw outOfRange() }
            switch ref {
            case CandidTypeTable.int8:
                guard let narrow = Int8(exactly: number) else { throw outOfRange() }
                appendFixed(narrow)
            case CandidTypeTable.int16:
                guard let narrow = Int16(exactly: number) else { throw outOfRange() }
                appendFixed(narrow)
            case CandidTypeTable.int32:
                guard let narrow = Int32(exactly: number) else { throw outOfRange() }
                appendFixed(narrow)
            default: appendFixed(number)
            }
        default:
            throw mismatch(value, ref)
        }
    }
}

extension CandidValue {
    /// The value as an unbounded integer, for any integer case.
    var integerValue: CandidInt? {
        switch self {
        case .nat(let number): return CandidInt(number)
        case .int(let number): return number
        case .nat8(let number): return CandidInt(CandidNat(UInt64(number)))
        case .nat16(let number): return CandidInt(CandidNat(UInt64(number)))
        case .nat32(let number): return CandidInt(CandidNat(UInt64(number)))
        case .nat64(let number): return CandidInt(CandidNat(number))
        case .int8(let number): return CandidInt(Int64(number))
        case .int16(let number): return CandidInt(Int64(number))
        case .int32(let number): return CandidInt(Int64(number))
        case .int64(let number): return CandidInt(number)
        default: return nil
        }
    }

    /// A short name of the value's kind for error messages.
    var shortKind: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .nat: return "nat"
        case .int: return "int"
        case .nat8: return "nat8"
        case .nat16: return "nat16"
        case .nat32: return "nat32"
        case .nat64: return "nat64"
        case .int8: return "int8"
        case .int16: return "int16"
        case .int32: return "int32"
        case .int64: return "int64"
        case .float32: return "float32"
        case .float64: return "float64"
        case .text: return "text"
        case .reserved: return "reserved"
        case .principal: return "principal"
        case .opt: return "opt"
        case .vec: return "vec"
        case .blob: return "blob"
        case .record: return "record"
        case .variant: return "variant"
        case .function: return "func"
        case .service: return "service"
        }
    }
}
