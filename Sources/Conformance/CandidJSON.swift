import CandidCoding
import JSONCoding

/// The adapter protocol's JSON form of Candid types and values (docs/adapters.md, "Candid").
///
/// Types: primitive names (`"nat"`, `"text"`, …), `{"opt": T}`, `{"vec": T}`, `{"record": [F]}`,
/// `{"variant": [F]}` with fields `{"name": "a", "type": T}` or `{"id": 3, "type": T}`. Values: `null` (null,
/// reserved), booleans, JSON numbers (nat8…nat32, int8…int32, floats), decimal strings (nat, int, nat64, int64),
/// strings (text, principal text), `[]`/`[v]` (opt), arrays (vec, blob), objects keyed by field name or `_<id>`
/// (record; a variant has exactly one key). Recursive, function and service types have no JSON form.
enum CandidJSON {
    struct Unsupported: Error, CustomStringConvertible {
        var description: String
    }

    static let primitives: [String: CandidType] = [
        "null": .null, "bool": .bool, "nat": .nat, "int": .int, "nat8": .nat8, "nat16": .nat16, "nat32": .nat32,
        "nat64": .nat64, "int8": .int8, "int16": .int16, "int32": .int32, "int64": .int64, "float32": .float32,
        "float64": .float64, "text": .text, "reserved": .reserved, "empty": .empty, "principal": .principal,
    ]

    /// The JSON form of a type, with names resolved through `environment`.
    static func json(
        _ type: CandidType, environment: CandidTypeEnvironment, resolving: Set<String> = []
    ) throws(Unsupported) -> JSON {
        switch type {
        case .named(let name):
            guard !resolving.contains(name) else { throw Unsupported(description: "recursive type \(name)") }
            guard let definition = environment.definitions[name] else {
                throw Unsupported(description: "unknown type \(name)")
            }
            return try json(definition, environment: environment, resolving: resolving.union([name]))
        case .opt(let inner): return .object([("opt", try json(inner, environment: environment, resolving: resolving))])
        case .vec(let inner): return .object([("vec", try json(inner, environment: environment, resolving: resolving))])
        case .record(let fields), .variant(let fields):
            var list: [JSON] = []
            for field in fields {
                var entry: [String: JSON] = [
                    "type": try json(field.type, environment: environment, resolving: resolving)
                ]
                if let name = field.label.name {
                    entry["name"] = .string(name)
                } else {
                    entry["id"] = .integer(field.label.id)
                }
                list.append(.sortedObject(entry))
            }
            if case .record = type { return .object([("record", .array(list))]) }
            return .object([("variant", .array(list))])
        case .function: throw Unsupported(description: "function types")
        case .service: throw Unsupported(description: "service types")
        default:
            guard let name = primitives.first(where: { $0.value == type })?.key else {
                throw Unsupported(description: "type \(type.candidText)")
            }
            return .string(name)
        }
    }

    /// The type a JSON form denotes.
    static func type(_ json: JSON) throws(Unsupported) -> CandidType {
        if let name = json.stringValue, let type = primitives[name] { return type }
        if let inner = json["opt"] { return .opt(try type(inner)) }
        if let inner = json["vec"] { return .vec(try type(inner)) }
        if let list = json["record"]?.arrayValue ?? json["variant"]?.arrayValue {
            var fields: [CandidFieldType] = []
            for entry in list {
                guard let fieldType = entry["type"] else { throw Unsupported(description: "field without type") }
                fields.append(CandidFieldType(try label(entry), try type(fieldType)))
            }
            return json["record"] != nil ? .record(fields) : .variant(fields)
        }
        throw Unsupported(description: "not a Candid type: \(json.jsonText)")
    }

    static func label(_ entry: JSON) throws(Unsupported) -> CandidLabel {
        if let name = entry["name"]?.stringValue { return CandidLabel(name) }
        if let id = entry["id"]?.uint64, id <= UInt64(UInt32.max) { return CandidLabel(id: UInt32(id)) }
        throw Unsupported(description: "field without name or id")
    }

    static func key(_ label: CandidLabel) -> String { label.name ?? "_\(label.id)" }

    /// The JSON form of a value of a (resolved, JSON-representable) type.
    static func json(_ value: CandidValue, type: CandidType, environment: CandidTypeEnvironment) throws(Unsupported)
        -> JSON
    {
        let type = try resolved(type, environment)
        switch (value, type) {
        case (.null, _), (.reserved, _): return .null
        case (.bool(let b), _): return .bool(b)
        case (.nat(let n), _): return .string(n.description)
        case (.int(let i), _): return .string(i.description)
        case (.nat8(let n), _): return .integer(n)
        case (.nat16(let n), _): return .integer(n)
        case (.nat32(let n), _): return .integer(n)
        case (.nat64(let n), _): return .string(String(n))
        case (.int8(let n), _): return .integer(n)
        case (.int16(let n), _): return .integer(n)
        case (.int32(let n), _): return .integer(n)
        case (.int64(let n), _): return .string(String(n))
        case (.float32(let f), _): return float(Double(f))
        case (.float64(let f), _): return float(f)
        case (.text(let s), _): return .string(s)
        case (.principal(let p), _): return .string(p.text)
        case (.opt(let inner), .opt(let innerType)):
            guard let inner else { return .array([]) }
            return .array([try json(inner, type: innerType, environment: environment)])
        case (.blob(let bytes), _): return .array(bytes.map { .integer($0) })
        case (.vec(let items), .vec(let innerType)):
            var out: [JSON] = []
            for item in items { out.append(try json(item, type: innerType, environment: environment)) }
            return .array(out)
        case (.record(let fields), .record(let fieldTypes)):
            var out: [String: JSON] = [:]
            for fieldType in fieldTypes {
                guard let field = fields.first(where: { $0.label.id == fieldType.label.id }) else { continue }
                out[key(fieldType.label)] = try json(field.value, type: fieldType.type, environment: environment)
            }
            return .sortedObject(out)
        case (.variant(let field), .variant(let fieldTypes)):
            guard let fieldType = fieldTypes.first(where: { $0.label.id == field.label.id }) else {
                throw Unsupported(description: "variant case \(field.label) not in type")
            }
            return .object([
                (key(fieldType.label), try json(field.value, type: fieldType.type, environment: environment))
            ])
        default:
            throw Unsupported(description: "value \(value.candidText) at type \(type.candidText)")
        }
    }

    static func resolved(_ type: CandidType, _ environment: CandidTypeEnvironment) throws(Unsupported) -> CandidType {
        do { return try environment.resolve(type) } catch { throw Unsupported(description: "\(error)") }
    }

    static func float(_ value: Double) -> JSON {
        if value.isNaN { return .string("nan") }
        if value.isInfinite { return .string(value < 0 ? "-inf" : "inf") }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number("\(value)")
    }

    /// The value a JSON form denotes at a type.
    static func value(_ json: JSON, type: CandidType) throws(Unsupported) -> CandidValue {
        func bad() -> Unsupported { Unsupported(description: "\(json.jsonText) is not a \(type.candidText)") }
        func number<T: FixedWidthInteger>(_: T.Type) throws(Unsupported) -> T {
            switch json {
            case .number(let n), .string(let n):
                guard let v = T(n) else { throw bad() }
                return v
            default: throw bad()
            }
        }
        func double() throws(Unsupported) -> Double {
            switch json {
            case .number(let n):
                guard let v = Double(n) else { throw bad() }
                return v
            case .string("nan"): return .nan
            case .string("inf"): return .infinity
            case .string("-inf"): return -.infinity
            default: throw bad()
            }
        }
        func digits() throws(Unsupported) -> Substring {
            switch json {
            case .number(let n), .string(let n): return Substring(n)
            default: throw bad()
            }
        }
        switch type {
        case .null: return .null
        case .reserved: return .reserved
        case .bool:
            guard case .bool(let b) = json else { throw bad() }
            return .bool(b)
        case .nat:
            guard let n = CandidNat(decimal: try digits()) else { throw bad() }
            return .nat(n)
        case .int:
            guard let i = CandidInt(decimal: try digits()) else { throw bad() }
            return .int(i)
        case .nat8: return .nat8(try number(UInt8.self))
        case .nat16: return .nat16(try number(UInt16.self))
        case .nat32: return .nat32(try number(UInt32.self))
        case .nat64: return .nat64(try number(UInt64.self))
        case .int8: return .int8(try number(Int8.self))
        case .int16: return .int16(try number(Int16.self))
        case .int32: return .int32(try number(Int32.self))
        case .int64: return .int64(try number(Int64.self))
        case .float32: return .float32(Float(try double()))
        case .float64: return .float64(try double())
        case .text:
            guard let s = json.stringValue else { throw bad() }
            return .text(s)
        case .principal:
            guard let s = json.stringValue, let p = try? CandidPrincipal(text: s) else { throw bad() }
            return .principal(p)
        case .opt(let inner):
            guard let list = json.arrayValue, list.count <= 1 else { throw bad() }
            return .opt(try list.first.map { v throws(Unsupported) in try value(v, type: inner) })
        case .vec(.nat8):
            guard let list = json.arrayValue else { throw bad() }
            var bytes: [UInt8] = []
            for item in list {
                guard let b = item.uint64, b < 256 else { throw bad() }
                bytes.append(UInt8(b))
            }
            return .blob(bytes)
        case .vec(let inner):
            guard let list = json.arrayValue else { throw bad() }
            var items: [CandidValue] = []
            for item in list { items.append(try value(item, type: inner)) }
            return .vec(items)
        case .record(let fieldTypes):
            guard let object = json.dictionary else { throw bad() }
            var fields: [CandidField] = []
            for fieldType in fieldTypes {
                guard let v = object[key(fieldType.label)] else { throw bad() }
                fields.append(CandidField(fieldType.label, try value(v, type: fieldType.type)))
            }
            return .makeRecord(fields)
        case .variant(let fieldTypes):
            guard let object = json.dictionary, object.count == 1, let (k, v) = object.first,
                let fieldType = fieldTypes.first(where: { key($0.label) == k })
            else { throw bad() }
            return .variant(CandidField(fieldType.label, try value(v, type: fieldType.type)))
        default:
            throw Unsupported(description: "type \(type.candidText) has no JSON form")
        }
    }
}
