/// Recursive descent over human-readable signatures as Foundry's `cast` takes them:
/// `name(inputs)` or `name(inputs)(outputs)`, types in canonical or short form (`uint` for `uint256`), optional
/// parameter names and spaces, nested tuples and arrays.
struct ABISignatureParser {
    let text: String
    let bytes: [UInt8]
    var position = 0

    init(_ text: String) {
        self.text = text
        bytes = Array(text.utf8)
    }

    var atEnd: Bool { position == bytes.count }

    func error(_ reason: String) -> ABISignatureError { ABISignatureError(reason, at: position, in: text) }

    mutating func skipSpaces() {
        while position < bytes.count, bytes[position] == 0x20 || bytes[position] == 0x09 { position += 1 }
    }

    mutating func expect(_ byte: UInt8) throws(ABISignatureError) {
        skipSpaces()
        guard position < bytes.count, bytes[position] == byte else {
            throw error("expected \"\(Character(Unicode.Scalar(byte)))\"")
        }
        position += 1
    }

    static func isIdentifierStart(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || b == 0x5F || b == 0x24
    }

    static func isIdentifierPart(_ b: UInt8) -> Bool { isIdentifierStart(b) || (b >= 0x30 && b <= 0x39) }

    mutating func identifier() -> String? {
        guard position < bytes.count, Self.isIdentifierStart(bytes[position]) else { return nil }
        let start = position
        while position < bytes.count, Self.isIdentifierPart(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// `(T1 name1, T2, …)`.
    mutating func list(depth: Int) throws(ABISignatureError) -> [ABIType] {
        try expect(0x28)
        var types: [ABIType] = []
        skipSpaces()
        if position < bytes.count, bytes[position] == 0x29 {
            position += 1
            return types
        }
        while true {
            guard types.count < ABISignature.maxComponents else {
                throw error("more than \(ABISignature.maxComponents) components in one tuple")
            }
            types.append(try parameter(depth: depth))
            skipSpaces()
            guard position < bytes.count else { throw error("expected \",\" or \")\"") }
            if bytes[position] == 0x29 {
                position += 1
                return types
            }
            try expect(0x2C)
        }
    }

    /// A type, optionally followed by a data location and a name (`bytes calldata data`).
    mutating func parameter(depth: Int = 0) throws(ABISignatureError) -> ABIType {
        let type = try self.type(depth: depth)
        skipSpaces()
        let mark = position
        if let word = identifier() {
            if ["memory", "calldata", "storage", "indexed"].contains(word) {
                skipSpaces()
                if identifier() == nil { position = mark + word.utf8.count }
            }
        }
        return type
    }

    mutating func type(depth: Int) throws(ABISignatureError) -> ABIType {
        guard depth < ABISignature.maxDepth else {
            throw error("type nests deeper than \(ABISignature.maxDepth) levels")
        }
        skipSpaces()
        let start = position
        var type: ABIType
        if position < bytes.count, bytes[position] == 0x28 {
            type = .tuple(try list(depth: depth + 1))
        } else if let word = identifier() {
            if word == "tuple", position < bytes.count, bytes[position] == 0x28 {
                type = .tuple(try list(depth: depth + 1))
            } else {
                guard let elementary = Self.elementary(word) else {
                    position = start
                    throw error("unknown type \"\(word)\"")
                }
                type = elementary
            }
        } else {
            throw error("expected a type")
        }
        var levels = depth + 1
        while position < bytes.count, bytes[position] == 0x5B {
            levels += 1
            guard levels <= ABISignature.maxDepth else {
                throw error("type nests deeper than \(ABISignature.maxDepth) levels")
            }
            position += 1
            let digitsStart = position
            var count = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                count = count * 10 + Int(bytes[position] - 0x30)
                position += 1
                guard count <= ABISignature.maxFixedArrayLength else {
                    throw error("fixed array length over \(ABISignature.maxFixedArrayLength)")
                }
            }
            let hasCount = position > digitsStart
            guard position < bytes.count, bytes[position] == 0x5D else { throw error("expected \"]\"") }
            position += 1
            type = hasCount ? .fixedArray(type, count: count) : .array(type)
        }
        guard type.staticSizeIsBounded else {
            throw error("static type larger than \(ABISignature.maxStaticSize) bytes")
        }
        return type
    }

    static func elementary(_ word: String) -> ABIType? {
        switch word {
        case "address": return .address
        case "bool": return .bool
        case "string": return .string
        case "bytes": return .bytes
        case "uint": return .uint256
        case "int": return .int256
        case "byte": return .fixedBytes(1)
        case "function": return .fixedBytes(24)
        default: break
        }
        for (prefix, make) in [("uint", { ABIType.uint(bits: $0) }), ("int", { ABIType.int(bits: $0) })] {
            if word.hasPrefix(prefix), let bits = Int(word.dropFirst(prefix.count)), bits >= 8, bits <= 256,
                bits % 8 == 0, !word.dropFirst(prefix.count).hasPrefix("0")
            {
                return make(bits)
            }
        }
        if word.hasPrefix("bytes"), let n = Int(word.dropFirst(5)), n >= 1, n <= 32, !word.dropFirst(5).hasPrefix("0") {
            return .fixedBytes(n)
        }
        return nil
    }
}

extension ABIType {
    /// Whether the head of this type stays within ``ABISignature/maxStaticSize`` (computed without overflow).
    var staticSizeIsBounded: Bool { boundedHeadSize != nil }

    private var boundedHeadSize: Int? {
        if isDynamic { return 32 }
        switch self {
        case .fixedArray(let element, let count):
            guard let size = element.boundedHeadSize else { return nil }
            let (total, overflow) = size.multipliedReportingOverflow(by: count)
            return overflow || total > ABISignature.maxStaticSize ? nil : total
        case .tuple(let components):
            var total = 0
            for component in components {
                guard let size = component.boundedHeadSize else { return nil }
                total += size
                if total > ABISignature.maxStaticSize { return nil }
            }
            return total
        default: return 32
        }
    }
}
