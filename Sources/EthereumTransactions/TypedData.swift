import CryptoCore
import EthereumTypes
import JSONCoding
import KeccakHashing

/// EIP-712 typed structured data: the `eth_signTypedData_v4` document and its hashing.
///
/// `signingHash = keccak256(0x19 ‖ 0x01 ‖ domainSeparator ‖ hashStruct(primaryType, message))`, where
/// `hashStruct(T, v) = keccak256(typeHash(T) ‖ encodeData(T, v))` and `typeHash(T) = keccak256(encodeType(T))`.
/// Supports nested structs, recursive types, dynamic (`bytes`, `string`) and fixed arrays (`T[]`, `T[n]`) of
/// any member type, as the EIP and MetaMask's v4 encoder do.
public struct TypedData: Sendable, Hashable {
    /// One member of a struct type.
    public struct Member: Sendable, Hashable {
        public var name: String
        public var type: String

        public init(name: String, type: String) {
            self.name = name
            self.type = type
        }
    }

    public var types: [String: [Member]]
    public var primaryType: String
    public var domain: JSON
    public var message: JSON

    public init(types: [String: [Member]], primaryType: String, domain: JSON, message: JSON) {
        self.types = types
        self.primaryType = primaryType
        self.domain = domain
        self.message = message
    }

    /// Most struct types a document may declare. Hashing walks the types a struct references for every struct
    /// type the message uses, so the work grows with the square of this number; real documents declare a few.
    public static let maxTypes = 1_000
    /// Longest member type name (`Person[][3]` is 11): array suffixes are parsed once per value.
    public static let maxTypeNameLength = 1_024

    /// Parses the JSON document `{"types": …, "primaryType": …, "domain": …, "message": …}` with the package's one
    /// JSON reader: numbers keep their exact text (a uint256 written as a JSON number is not rounded through a
    /// `Double`).
    /// - Throws: ``TypedDataError/Kind/invalidDocument(_:)``, also when the document exceeds ``maxTypes`` or
    ///   ``maxTypeNameLength``.
    public init(json: [UInt8]) throws(TypedDataError) {
        let document: JSON
        do { document = try JSON.parse(json) } catch {
            throw TypedDataError(.invalidDocument("not valid JSON"), at: "$")
        }
        try self.init(document: document)
    }

    /// Reads an already parsed document (what `eth_signTypedData_v4` receives as a JSON-RPC parameter).
    /// - Throws: ``TypedDataError/Kind/invalidDocument(_:)`` for a missing or mistyped field, or a document over
    ///   the limits.
    public init(document: JSON) throws(TypedDataError) {
        func field(_ name: String) throws(TypedDataError) -> JSON {
            guard case .object = document else {
                throw TypedDataError(.invalidDocument("unexpected value at ''"), at: "$")
            }
            guard let value = document[name] else {
                throw TypedDataError(.invalidDocument("missing '\(name)'"), at: "$")
            }
            return value
        }
        guard case .object(let typeList) = try field("types") else {
            throw TypedDataError(.invalidDocument("unexpected value at 'types'"), at: "$")
        }
        guard typeList.count <= Self.maxTypes else {
            throw TypedDataError(
                .invalidDocument("\(typeList.count) types declared, at most \(Self.maxTypes) are supported"),
                at: "types")
        }
        var types: [String: [Member]] = [:]
        for (name, list) in typeList {
            guard case .array(let entries) = list else {
                throw TypedDataError(.invalidDocument("unexpected value at 'types.\(name)'"), at: "$")
            }
            var members: [Member] = []
            members.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() {
                guard case .string(let memberName)? = entry["name"], case .string(let memberType)? = entry["type"]
                else {
                    throw TypedDataError(.invalidDocument("unexpected value at 'types.\(name).\(index)'"), at: "$")
                }
                members.append(Member(name: memberName, type: memberType))
            }
            types[name] = members
        }
        guard case .string(let primaryType) = try field("primaryType") else {
            throw TypedDataError(.invalidDocument("unexpected value at 'primaryType'"), at: "$")
        }
        self.init(types: types, primaryType: primaryType, domain: try field("domain"), message: try field("message"))
        try checkLimits()
    }

    /// Refuses documents over ``maxTypes`` or ``maxTypeNameLength``.
    public func checkLimits() throws(TypedDataError) {
        guard types.count <= Self.maxTypes else {
            throw TypedDataError(
                .invalidDocument("\(types.count) types declared, at most \(Self.maxTypes) are supported"), at: "types")
        }
        for (name, members) in types {
            for member in members where member.type.utf8.count > Self.maxTypeNameLength {
                throw TypedDataError(
                    .invalidDocument(
                        "a member type name of \(member.type.utf8.count) bytes, at most \(Self.maxTypeNameLength) are supported"
                    ),
                    at: "types.\(name).\(member.name)")
            }
        }
    }

    // MARK: Types

    /// The domain's members: `types.EIP712Domain` if given, else the standard fields present in `domain`
    /// (name, version, chainId, verifyingContract, salt), in that order.
    public var domainMembers: [Member] {
        if let declared = types["EIP712Domain"] { return declared }
        let standard: [(String, String)] = [
            ("name", "string"), ("version", "string"), ("chainId", "uint256"), ("verifyingContract", "address"),
            ("salt", "bytes32"),
        ]
        return standard.compactMap { name, type in domain[name] == nil ? nil : Member(name: name, type: type) }
    }

    func members(of type: String) -> [Member]? {
        type == "EIP712Domain" ? domainMembers : types[type]
    }

    /// `Name(type1 name1,…)` followed by every struct type it references, sorted by name (EIP-712 `encodeType`).
    /// - Throws: ``TypedDataError/Kind/unknownType(_:)``.
    public func encodeType(_ type: String) throws(TypedDataError) -> String {
        var found = try dependencies(of: type)
        found.remove(type)
        var text = ""
        for name in [type] + found.sorted() {
            let members = members(of: name) ?? []
            text += name + "(" + members.map { "\($0.type) \($0.name)" }.joined(separator: ",") + ")"
        }
        return text
    }

    /// `type` and every struct type it references, directly or not. The walk is iterative (a chain of thousands
    /// of types must not exhaust the stack) and visits each type once; the path of an unknown type
    /// (`Mail.from.wallet`) is built only when one is found.
    func dependencies(of type: String) throws(TypedDataError) -> Set<String> {
        var found: Set<String> = []
        // trail[i]: the member name that reached a type, and the trail entry of the struct holding it (-1: root).
        var trail: [(member: String, parent: Int)] = []
        var stack: [(type: String, trail: Int)] = [(type, -1)]
        while let (next, at) = stack.popLast() {
            let base = Self.baseType(next)
            if found.contains(base) { continue }
            guard let members = members(of: base) else {
                if Self.isAtomicOrDynamic(base) { continue }
                var names: [String] = []
                var i = at
                while i >= 0 {
                    names.append(trail[i].member)
                    i = trail[i].parent
                }
                throw TypedDataError(.unknownType(base), at: ([type] + names.reversed()).joined(separator: "."))
            }
            found.insert(base)
            for member in members.reversed() {
                trail.append((member.name, at))
                stack.append((member.type, trail.count - 1))
            }
        }
        return found
    }

    /// keccak256(encodeType(type)).
    public func typeHash(_ type: String) throws(TypedDataError) -> [UInt8] {
        Keccak256.hash(Array(try encodeType(type).utf8))
    }

    // MARK: Hashing

    /// keccak256(typeHash ‖ encodeData(value)).
    public func hashStruct(_ type: String, _ value: JSON, path: String) throws(TypedDataError) -> [UInt8] {
        var typeHashes: [String: [UInt8]] = [:]
        return try hashStruct(type, value, path: path, typeHashes: &typeHashes)
    }

    /// As ``hashStruct(_:_:path:)``, with each struct type's hash computed once per document (`typeHashes`).
    func hashStruct(
        _ type: String, _ value: JSON, path: String, typeHashes: inout [String: [UInt8]]
    ) throws(TypedDataError) -> [UInt8] {
        guard let members = members(of: type) else { throw TypedDataError(.unknownType(type), at: path) }
        guard case .object = value, let fields = value.dictionary else {
            throw TypedDataError(.invalidValue(type: type, reason: "expected an object"), at: path)
        }
        var encoded: [UInt8]
        if let known = typeHashes[type] {
            encoded = known
        } else {
            encoded = try typeHash(type)
            typeHashes[type] = encoded
        }
        encoded.reserveCapacity(32 * (members.count + 1))
        for member in members {
            let memberPath = path + "." + member.name
            guard let field = fields[member.name] else { throw TypedDataError(.missingField(member.name), at: path) }
            encoded += try encodeValue(member.type, field, path: memberPath, typeHashes: &typeHashes)
        }
        return Keccak256.hash(encoded)
    }

    /// The 32-byte `encodeData` word of one member value.
    func encodeValue(
        _ type: String, _ value: JSON, path: String, typeHashes: inout [String: [UInt8]]
    ) throws(TypedDataError) -> [UInt8] {
        if type.hasSuffix("]"), let open = type.lastIndex(of: "[") {
            let element = String(type[..<open])
            let lengthText = type[type.index(after: open)..<type.index(before: type.endIndex)]
            guard case .array(let items) = value else {
                throw TypedDataError(.invalidValue(type: type, reason: "expected an array"), at: path)
            }
            if !lengthText.isEmpty {
                guard let length = Int(lengthText), length == items.count else {
                    throw TypedDataError(
                        .invalidValue(type: type, reason: "expected \(lengthText) elements, found \(items.count)"),
                        at: path)
                }
            }
            var concatenated: [UInt8] = []
            concatenated.reserveCapacity(32 * items.count)
            for (index, item) in items.enumerated() {
                concatenated += try encodeValue(element, item, path: "\(path)[\(index)]", typeHashes: &typeHashes)
            }
            return Keccak256.hash(concatenated)
        }
        if members(of: type) != nil { return try hashStruct(type, value, path: path, typeHashes: &typeHashes) }
        return try TypedDataAtom.encode(type, value, path: path)
    }

    /// hashStruct("EIP712Domain", domain).
    public func domainSeparator() throws(TypedDataError) -> [UInt8] {
        try hashStruct("EIP712Domain", domain, path: "domain")
    }

    /// hashStruct(primaryType, message).
    public func messageHash() throws(TypedDataError) -> [UInt8] {
        try hashStruct(primaryType, message, path: "message")
    }

    /// keccak256(0x19 ‖ 0x01 ‖ domainSeparator ‖ hashStruct(message)): the digest that is signed.
    /// When `primaryType` is `EIP712Domain` the message part is left out, as MetaMask's v4 and ethers do.
    public func signingHash() throws(TypedDataError) -> [UInt8] {
        try checkLimits()
        var typeHashes: [String: [UInt8]] = [:]
        let domainPart = try hashStruct("EIP712Domain", domain, path: "domain", typeHashes: &typeHashes)
        if primaryType == "EIP712Domain" { return Keccak256.hash([0x19, 0x01] + domainPart) }
        let messagePart = try hashStruct(primaryType, message, path: "message", typeHashes: &typeHashes)
        return Keccak256.hash([0x19, 0x01] + domainPart + messagePart)
    }

    /// Signs as `eth_signTypedData_v4` does.
    public func sign(privateKey: [UInt8]) throws -> EthereumSignature {
        try EthereumSignature.sign(digest: try signingHash(), privateKey: privateKey)
    }

    /// The address that signed this typed data.
    public func recover(signature: EthereumSignature) throws -> Address {
        try signature.recoverAddress(digest: try signingHash())
    }

    // MARK: Type names

    /// `Person[][3]` → `Person`.
    static func baseType(_ type: String) -> String {
        guard let open = type.firstIndex(of: "[") else { return type }
        return String(type[..<open])
    }

    static func isAtomicOrDynamic(_ type: String) -> Bool {
        if ["address", "bool", "string", "bytes"].contains(type) { return true }
        if let bits = TypedDataAtom.integerBits(type) { return bits.bits > 0 }
        if let width = TypedDataAtom.fixedBytesWidth(type) { return width > 0 }
        return false
    }
}
