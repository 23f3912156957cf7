import ByteCoding

/// A compiled type graph in the shape of a Candid type table (Candid spec, "Type table").
///
/// A type reference is an `Int32`: negative values are primitive opcodes, non-negative values index `nodes`.
/// Wire types decoded from a message and expected types compiled from `CandidType` share this representation, so the
/// deserializer and the subtype check work on two tables of the same kind.
struct CandidTypeTable: Sendable {
    enum Node: Sendable, Equatable {
        case opt(Int32)
        case vec(Int32)
        case record([Field])
        case variant([Field])
        case function(Function)
        case service([Method])
        /// A future type (opcode below -24) whose type data was skipped.
        case future
    }

    struct Field: Sendable, Equatable {
        var id: UInt32
        var name: String?
        var type: Int32
    }

    struct Function: Sendable, Equatable {
        var arguments: [Int32]
        var results: [Int32]
        var modes: [UInt8]
    }

    struct Method: Sendable, Equatable {
        var name: String
        var type: Int32
    }

    var nodes: [Node] = []

    static let null: Int32 = -1
    static let bool: Int32 = -2
    static let nat: Int32 = -3
    static let int: Int32 = -4
    static let nat8: Int32 = -5
    static let nat16: Int32 = -6
    static let nat32: Int32 = -7
    static let nat64: Int32 = -8
    static let int8: Int32 = -9
    static let int16: Int32 = -10
    static let int32: Int32 = -11
    static let int64: Int32 = -12
    static let float32: Int32 = -13
    static let float64: Int32 = -14
    static let text: Int32 = -15
    static let reserved: Int32 = -16
    static let empty: Int32 = -17
    static let principal: Int32 = -24

    /// Whether `code` is a valid primitive type reference.
    @inline(__always)
    static func isPrimitive(_ code: Int32) -> Bool { (code >= -17 && code <= -1) || code == -24 }

    /// Whether `null <: t` (t is null, opt or reserved).
    func acceptsNull(_ ref: Int32) -> Bool {
        if ref == Self.null || ref == Self.reserved { return true }
        if ref >= 0, case .opt = nodes[Int(ref)] { return true }
        return false
    }

    /// The value that fills a missing field or argument of a null-accepting type.
    func nullValue(_ ref: Int32) -> CandidValue {
        if ref == Self.null { return .null }
        if ref == Self.reserved { return .reserved }
        return CandidValue.optNull
    }

    // MARK: Conversion back to CandidType

    /// Converts a reference back to a `CandidType`; every composite node becomes a `.named("tN")` definition in
    /// `environment`. Works breadth-first without recursion, so hostile tables cannot exhaust the stack.
    func candidType(_ ref: Int32, environment: inout CandidTypeEnvironment) -> CandidType {
        var pending: [Int32] = [ref]
        while let next = pending.popLast() {
            guard next >= 0, environment.definitions[Self.name(next)] == nil else { continue }
            let (type, children) = shallowType(nodes[Int(next)])
            environment.definitions[Self.name(next)] = type
            pending += children.filter { $0 >= 0 }
        }
        return shallowReference(ref)
    }

    static func name(_ ref: Int32) -> String { "t\(ref)" }

    private func shallowReference(_ ref: Int32) -> CandidType {
        ref < 0 ? (Self.primitiveType(ref) ?? .empty) : .named(Self.name(ref))
    }

    private func shallowType(_ node: Node) -> (CandidType, [Int32]) {
        switch node {
        case .opt(let inner): return (.opt(shallowReference(inner)), [inner])
        case .vec(let inner): return (.vec(shallowReference(inner)), [inner])
        case .record(let fields), .variant(let fields):
            let types = fields.map { CandidFieldType(CandidLabel(id: $0.id, name: $0.name), shallowReference($0.type)) }
            if case .record = node { return (.record(types), fields.map(\.type)) }
            return (.variant(types), fields.map(\.type))
        case .function(let function):
            let type = CandidFunctionType(
                arguments: function.arguments.map(shallowReference),
                results: function.results.map(shallowReference),
                modes: function.modes.compactMap { CandidFunctionMode(rawValue: $0) })
            return (.function(type), function.arguments + function.results)
        case .service(let methods):
            let type = CandidServiceType(
                methods: methods.map { CandidMethod(name: $0.name, type: shallowReference($0.type)) })
            return (.service(type), methods.map(\.type))
        case .future:
            return (.reserved, [])
        }
    }

    static func primitiveType(_ code: Int32) -> CandidType? {
        switch code {
        case -1: return .null
        case -2: return .bool
        case -3: return .nat
        case -4: return .int
        case -5: return .nat8
        case -6: return .nat16
        case -7: return .nat32
        case -8: return .nat64
        case -9: return .int8
        case -10: return .int16
        case -11: return .int32
        case -12: return .int64
        case -13: return .float32
        case -14: return .float64
        case -15: return .text
        case -16: return .reserved
        case -17: return .empty
        case -24: return .principal
        default: return nil
        }
    }

    // MARK: Serialisation of the table

    /// Appends the type table (count and entries) in the binary format.
    func append(to bytes: inout [UInt8]) {
        LEB128.append(UInt64(nodes.count), to: &bytes)
        for node in nodes {
            switch node {
            case .opt(let inner):
                bytes.append(0x6e)
                LEB128.append(signed: Int64(inner), to: &bytes)
            case .vec(let inner):
                bytes.append(0x6d)
                LEB128.append(signed: Int64(inner), to: &bytes)
            case .record(let fields), .variant(let fields):
                if case .record = node { bytes.append(0x6c) } else { bytes.append(0x6b) }
                LEB128.append(UInt64(fields.count), to: &bytes)
                for field in fields {
                    LEB128.append(UInt64(field.id), to: &bytes)
                    LEB128.append(signed: Int64(field.type), to: &bytes)
                }
            case .function(let function):
                bytes.append(0x6a)
                LEB128.append(UInt64(function.arguments.count), to: &bytes)
                for ref in function.arguments { LEB128.append(signed: Int64(ref), to: &bytes) }
                LEB128.append(UInt64(function.results.count), to: &bytes)
                for ref in function.results { LEB128.append(signed: Int64(ref), to: &bytes) }
                LEB128.append(UInt64(function.modes.count), to: &bytes)
                bytes.append(contentsOf: function.modes)
            case .service(let methods):
                bytes.append(0x69)
                LEB128.append(UInt64(methods.count), to: &bytes)
                for method in methods {
                    LEB128.append(UInt64(method.name.utf8.count), to: &bytes)
                    bytes.append(contentsOf: method.name.utf8)
                    LEB128.append(signed: Int64(method.type), to: &bytes)
                }
            case .future:
                // Never produced for encoding: future types only come from the wire. Encode as an empty record.
                bytes.append(0x6c)
                bytes.append(0x00)
            }
        }
    }
}
