/// Splits a `.did` file into tokens the way dfinity's `candid_parser` does (its `token.rs`), keeping byte spans,
/// line and column, and the doc comments (`//` lines directly above a token, none after a blank line; a trailing
/// comment on a token's line is not a doc comment).
struct DIDTokenizer {
    enum Kind: Equatable {
        case identifier(String)
        /// A keyword or a punctuation symbol (`type`, `record`, `->`, `;`, ...).
        case symbol(String)
        /// Decimal digits, `_` removed.
        case decimal(String)
        /// Hex digits after `0x`, `_` removed.
        case hex(String)
        case float(String)
        case bool(Bool)
        case sign(Character)
        /// A string literal's bytes (escapes decoded).
        case text([UInt8])
        case end
    }

    struct Token: Equatable {
        var kind: Kind
        var start: Int
        var end: Int
        var line: Int
        var column: Int
        /// Doc comment lines attached to this token.
        var docs: [String] = []
    }

    static let keywords: Set<String> = [
        "null", "vec", "record", "variant", "func", "service", "oneway", "query", "composite_query", "blob", "type",
        "import", "opt", "principal",
    ]

    private let bytes: [UInt8]
    private let file: String
    private var index = 0
    private var line = 1
    private var column = 1
    private var commentBuffer: [String] = []
    private var lastCommentEnd: Int?
    private var lastTokenEnd: Int?

    init(_ text: String, file: String) {
        self.bytes = Array(text.utf8)
        self.file = file
    }

    /// Every token of the text, ending with `.end`.
    static func tokenize(_ text: String, file: String) throws(CandidTextError) -> [Token] {
        var tokenizer = DIDTokenizer(text, file: file)
        var tokens: [Token] = []
        while true {
            let token = try tokenizer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    private mutating func advance() {
        guard index < bytes.count else { return }
        let byte = bytes[index]
        index += 1
        if byte == 0x0a {
            line += 1
            column = 1
        } else if byte & 0xc0 != 0x80 {
            column += 1
        }
    }

    private var position: DIDPosition { DIDPosition(file: file, line: line, column: column, offset: index) }

    private func error(at start: DIDPosition, _ message: String, end: Int) -> CandidTextError {
        CandidTextError(at: start, message, span: start.offset..<end, syntax: true)
    }

    private func newlines(from start: Int, to end: Int) -> Int {
        guard start < end, end <= bytes.count else { return 0 }
        return bytes[start..<end].reduce(0) { $0 + ($1 == 0x0a ? 1 : 0) }
    }

    private func hasBlankLine(before offset: Int) -> Bool {
        lastCommentEnd.map { newlines(from: $0, to: offset) >= 2 } ?? false
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte == 0x5f
    }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
    }

    mutating func next() throws(CandidTextError) -> Token {
        while true {
            while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d { advance() }
            let start = position
            guard let byte = peek() else {
                return Token(kind: .end, start: index, end: index, line: line, column: column)
            }
            if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while let next = peek(), next != 0x0a { advance() }
                let isTrailing = lastTokenEnd.map { newlines(from: $0, to: start.offset) == 0 } ?? false
                if !isTrailing {
                    if hasBlankLine(before: start.offset) { commentBuffer.removeAll() }
                    let body = String(decoding: bytes[(start.offset + 2)..<index], as: UTF8.self)
                    commentBuffer.append(Self.trimmed(body))
                    lastCommentEnd = index
                }
                continue
            }
            if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                advance()
                advance()
                var nesting = 1
                var lastDelimiterEnd = index
                var closingStart = index
                while nesting > 0 {
                    guard let next = peek() else {
                        throw error(at: start, "Unclosed comment", end: lastDelimiterEnd)
                    }
                    if next == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                        closingStart = index
                        advance()
                        advance()
                        lastDelimiterEnd = index
                        nesting -= 1
                    } else if next == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                        advance()
                        advance()
                        lastDelimiterEnd = index
                        nesting += 1
                    } else {
                        advance()
                    }
                }
                lastCommentEnd = closingStart
                continue
            }
            if byte == UInt8(ascii: "\"") {
                let text = try scanString(start)
                return Token(kind: .text(text), start: start.offset, end: index, line: start.line, column: start.column)
            }
            let kind = try scanToken(start)
            var token = Token(kind: kind, start: start.offset, end: index, line: start.line, column: start.column)
            let blank = hasBlankLine(before: start.offset)
            if !commentBuffer.isEmpty {
                if !blank { token.docs = commentBuffer }
                commentBuffer.removeAll()
            }
            lastCommentEnd = nil
            lastTokenEnd = index
            return token
        }
    }

    private static func trimmed(_ text: String) -> String {
        var scalars = Substring(text).unicodeScalars
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.properties.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }

    private mutating func scanToken(_ start: DIDPosition) throws(CandidTextError) -> Kind {
        guard let byte = peek() else { return .end }
        if Self.isIdentifierStart(byte) {
            while let next = peek(), Self.isIdentifierStart(next) || Self.isDigit(next) { advance() }
            let word = String(decoding: bytes[start.offset..<index], as: UTF8.self)
            if word == "true" || word == "false" { return .bool(word == "true") }
            return Self.keywords.contains(word) ? .symbol(word) : .identifier(word)
        }
        if byte == UInt8(ascii: "0"), peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X"),
            let digit = peek(2), Self.isHexDigit(digit)
        {
            advance()
            advance()
            var digits = ""
            while let next = peek(), Self.isHexDigit(next) || next == UInt8(ascii: "_") {
                if next != UInt8(ascii: "_") { digits.append(Character(UnicodeScalar(next))) }
                advance()
            }
            return .hex(digits)
        }
        if Self.isDigit(byte) || (byte == UInt8(ascii: ".") && peek(1).map(Self.isDigit) == true) {
            var digits = ""
            var isFloat = false
            while let next = peek() {
                if Self.isDigit(next) || (next == UInt8(ascii: "_") && !isFloat) {
                    if next != UInt8(ascii: "_") { digits.append(Character(UnicodeScalar(next))) }
                    advance()
                } else if next == UInt8(ascii: "."), !isFloat {
                    isFloat = true
                    digits.append(".")
                    advance()
                } else if next == UInt8(ascii: "e") || next == UInt8(ascii: "E"),
                    let after = peek(1),
                    Self.isDigit(after)
                        || ((after == UInt8(ascii: "+") || after == UInt8(ascii: "-"))
                            && peek(2).map(Self.isDigit) == true)
                {
                    isFloat = true
                    digits.append("e")
                    advance()
                    if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                        digits.append(Character(UnicodeScalar(sign)))
                        advance()
                    }
                } else {
                    break
                }
            }
            return isFloat ? .float(digits) : .decimal(digits)
        }
        let pairs: [(String, String)] = [("->", "->"), ("==", "=="), ("!=", "!="), ("!:", "!:")]
        for (text, symbol) in pairs {
            let utf8 = Array(text.utf8)
            if peek() == utf8[0], peek(1) == utf8[1] {
                advance()
                advance()
                return .symbol(symbol)
            }
        }
        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
            advance()
            return .sign(Character(UnicodeScalar(byte)))
        }
        if "=(){};,.:".utf8.contains(byte) {
            advance()
            return .symbol(String(UnicodeScalar(byte)))
        }
        advance()
        while let next = peek(), next & 0xc0 == 0x80 { advance() }
        let text = String(decoding: bytes[start.offset..<index], as: UTF8.self)
        throw error(at: start, "Unknown token \(text)", end: index)
    }

    private mutating func scanString(_ start: DIDPosition) throws(CandidTextError) -> [UInt8] {
        advance()
        var output: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error(at: start, "Unclosed string", end: index) }
            if byte == UInt8(ascii: "\"") {
                advance()
                return output
            }
            if byte != UInt8(ascii: "\\") {
                output.append(byte)
                advance()
                continue
            }
            let escape = position
            advance()
            guard let next = peek() else { throw error(at: start, "Unclosed string", end: index) }
            if next == UInt8(ascii: "u"), peek(1) == UInt8(ascii: "{"), let first = peek(2), Self.isHexDigit(first) {
                var length = 3
                var closed = false
                while let digit = peek(length) {
                    if digit == UInt8(ascii: "}") {
                        closed = true
                        break
                    }
                    guard Self.isHexDigit(digit) || digit == UInt8(ascii: "_") else { break }
                    length += 1
                }
                if closed {
                    let hexText = String(decoding: bytes[(index + 2)..<(index + length)], as: UTF8.self)
                        .filter { $0 != "_" }
                    for _ in 0...length { advance() }
                    guard let value = UInt32(hexText, radix: 16) else {
                        throw error(at: escape, "Not a valid hex escape", end: index)
                    }
                    guard let scalar = Unicode.Scalar(value) else {
                        throw error(at: escape, "Unicode escape out of range \(hexText)", end: index)
                    }
                    output += Array(String(Character(scalar)).utf8)
                    continue
                }
            }
            if Self.isHexDigit(next), let low = peek(1), Self.isHexDigit(low) {
                let value = UInt8(String(decoding: [next, low], as: UTF8.self), radix: 16) ?? 0
                output.append(value)
                advance()
                advance()
                continue
            }
            switch next {
            case UInt8(ascii: "n"): output.append(0x0a)
            case UInt8(ascii: "r"): output.append(0x0d)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): output.append(next)
            default:
                advance()
                while let more = peek(), more & 0xc0 == 0x80 { advance() }
                let character = String(decoding: bytes[(escape.offset + 1)..<index], as: UTF8.self)
                throw error(at: escape, "Unknown escape character \(character)", end: index)
            }
            advance()
        }
    }
}
