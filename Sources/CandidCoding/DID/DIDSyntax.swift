/// The syntax of a `.did` file as written (Candid spec, "Interface description"), before names are resolved.
///
/// Unlike ``CandidType`` it keeps what a reader of the file sees: fields and methods in source order, doc comments,
/// argument names and source positions. ``DIDProgram`` checks it and lowers it to a ``CandidInterface``.
public indirect enum DIDType: Sendable, Hashable {
    /// A primitive type (`nat`, `text`, `principal`, ...), as the equivalent ``CandidType``.
    case primitive(CandidType)
    /// A reference to a type definition.
    case name(String)
    case opt(DIDType)
    case vec(DIDType)
    /// Fields in source order (labels already numbered: an unnamed field gets the previous id + 1).
    case record([DIDField])
    /// Tags in source order.
    case variant([DIDField])
    case function(DIDFunction)
    /// Methods in source order.
    case service([DIDMethod])

    /// Whether a record's fields are numbered 0, 1, 2, ... (a tuple), in id order.
    public var isTuple: Bool {
        guard case .record(let fields) = self else { return false }
        return fields.map(\.label.id).sorted().enumerated().allSatisfy { UInt32($0.offset) == $0.element }
    }
}

/// A field label as written: a name (hashed), a number (`0x2a : nat`, `42 : nat`), or none (numbered by position).
public enum DIDLabel: Sendable, Hashable, CustomStringConvertible {
    case named(String)
    case id(UInt32)
    case unnamed(UInt32)

    /// The 32-bit field id (Candid spec, "Records": the hash of a name).
    public var id: UInt32 {
        switch self {
        case .named(let name): return CandidLabel.hash(name)
        case .id(let id), .unnamed(let id): return id
        }
    }

    /// The name, for a named label.
    public var name: String? {
        if case .named(let name) = self { return name }
        return nil
    }

    /// As the Candid tools print it: the name, or the number with `_` every three digits.
    public var description: String {
        switch self {
        case .named(let name): return name
        case .id(let id), .unnamed(let id): return DIDLabel.groupedDigits(id)
        }
    }

    static func groupedDigits(_ value: UInt32) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append("_") }
            out.append(digit)
        }
        return out
    }
}

/// A record field or variant tag with its doc comment.
public struct DIDField: Sendable, Hashable {
    public var label: DIDLabel
    public var type: DIDType
    /// `//` comment lines directly above the field, without the slashes.
    public var docs: [String]

    public init(label: DIDLabel, type: DIDType, docs: [String] = []) {
        self.label = label
        self.type = type
        self.docs = docs
    }
}

/// A function argument or result, with its optional name (documentation only).
public struct DIDArgument: Sendable, Hashable {
    public var name: String?
    public var type: DIDType

    public init(name: String? = nil, type: DIDType) {
        self.name = name
        self.type = type
    }
}

/// A function type as written.
public struct DIDFunction: Sendable, Hashable {
    public var arguments: [DIDArgument]
    public var results: [DIDArgument]
    /// Annotations in source order (`query`, `composite_query`, `oneway`).
    public var modes: [CandidFunctionMode]

    public init(arguments: [DIDArgument], results: [DIDArgument], modes: [CandidFunctionMode] = []) {
        self.arguments = arguments
        self.results = results
        self.modes = modes
    }
}

/// A service method: a function type or the name of one.
public struct DIDMethod: Sendable, Hashable {
    public var name: String
    /// `.function` or `.name`.
    public var type: DIDType
    public var docs: [String]
    public var position: DIDPosition

    public init(name: String, type: DIDType, docs: [String] = [], position: DIDPosition = .init()) {
        self.name = name
        self.type = type
        self.docs = docs
        self.position = position
    }
}

/// `type Name = T;`
public struct DIDDefinition: Sendable, Hashable {
    public var name: String
    public var type: DIDType
    public var docs: [String]
    public var position: DIDPosition

    public init(name: String, type: DIDType, docs: [String] = [], position: DIDPosition = .init()) {
        self.name = name
        self.type = type
        self.docs = docs
        self.position = position
    }
}

/// `import "file.did";` (its type definitions) or `import service "file.did";` (also its methods).
public struct DIDImport: Sendable, Hashable {
    public var path: String
    public var includesService: Bool
    public var position: DIDPosition
}

/// The main service: `service : { ... }`, `service : Name`, or the class form `service : (init) -> { ... }`.
public struct DIDActor: Sendable, Hashable {
    /// The init arguments of the class form, nil otherwise.
    public var initArguments: [DIDArgument]?
    /// `.service(methods)` or `.name`.
    public var body: DIDType
    public var docs: [String]
    public var position: DIDPosition
}

/// A place in a `.did` file: file (as given), 1-based line and column (Unicode scalars), byte offset.
public struct DIDPosition: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(file: String = "", line: Int = 1, column: Int = 1, offset: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { file.isEmpty ? "\(line):\(column)" : "\(file):\(line):\(column)" }
}

/// One parsed `.did` file.
public struct DIDFile: Sendable, Hashable {
    /// The name the file was opened under (used in positions and error messages).
    public var name: String
    public var definitions: [DIDDefinition]
    public var imports: [DIDImport]
    public var actor: DIDActor?

    public init(name: String, definitions: [DIDDefinition], imports: [DIDImport], actor: DIDActor?) {
        self.name = name
        self.definitions = definitions
        self.imports = imports
        self.actor = actor
    }
}
