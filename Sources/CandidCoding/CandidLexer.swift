/// Splits Candid text (values, types, `.did` files) into tokens (Candid spec, "Textual representation").
///
/// Handles `//` line comments, nested `/* */` block comments, identifiers, numbers with `_` separators, hex and float
/// literals, string literals with `\t \n \r \" \' \\`, `\XX` byte and `\u{...}` escapes, and punctuation.
struct CandidLexer {
    enum Kind: Equatable {
        case identifier(String)
        case number(String)
        /// The decoded bytes of a string literal (may not be valid UTF-8 when used as a blob).
        case string([UInt8])
        case symbol(String)
        case end
    }

    struct Token: Equatable {
        var kind: Kind
        var line: Int
        var column: Int
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1

    init(_ text: String) { self.bytes = Array(text.utf8) }

    /// Tokenizes the whole input.
    static func tokenize(_ text: String) throws(CandidTextError) -> [Token] {
        var lexer = CandidLexer(text)
        var tokens: [Token] = []
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

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

    private func error(_ message: String) -> CandidTextError { CandidTextError(line: line, column: column, message) }

    private mutating func skipTrivia() throws(CandidTextError) {
        while let byte = peek() {
            if byte == 0x20 || byte == 0x09 || byte == 0x0a || byte == 0x0d {
                advance()
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "/") {
                while let next = peek(), next != 0x0a { advance() }
            } else if byte == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                let start = error("unterminated block comment")
                advance()
                advance()
                var nesting = 1
                while nesting > 0 {
                    guard let next = peek() else { throw start }
                    if next == UInt8(ascii: "*"), peek(1) == UInt8(ascii: "/") {
                        nesting -= 1
                        advance()
                    } else if next == UInt8(ascii: "/"), peek(1) == UInt8(ascii: "*") {
                        nesting += 1
                        advance()
                    }
                    advance()
                }
            } else {
                return
            }
        }
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a) || byte == 0x5f
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    mutating func next() throws(CandidTextError) -> Token {
        try skipTrivia()
        let startLine = line
        let startColumn = column
        func token(_ kind: Kind) -> Token { Token(kind: kind, line: startLine, column: startColumn) }
        guard let byte = peek() else { return token(.end) }
        if Self.isIdentifierStart(byte) {
            var name: [UInt8] = []
            while let next = peek(), Self.isIdentifierStart(next) || Self.isDigit(next) {
                name.append(next)
                advance()
            }
            return token(.identifier(String(decoding: name, as: UTF8.self)))
        }
        if byte == UInt8(ascii: "-"), peek(1) == UInt8(ascii: ">") {
            advance()
            advance()
            return token(.symbol("->"))
        }
        if Self.isDigit(byte)
            || ((byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")) && peek(1).map(Self.isDigit) == true)
        {
            return token(.number(scanNumber()))
        }
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+"),
            peek(1) == UInt8(ascii: "i") && peek(2) == UInt8(ascii: "n") && peek(3) == UInt8(ascii: "f")
        {
            advance()
            advance()
            advance()
            advance()
            return token(.number(byte == UInt8(ascii: "-") ? "-inf" : "inf"))
        }
        if byte == UInt8(ascii: "\"") {
            return token(.string(try scanString()))
        }
        let symbols: Set<UInt8> = Set("(){};:,=.".utf8)
        if symbols.contains(byte) {
            advance()
            return token(.symbol(String(UnicodeScalar(byte))))
        }
        throw error("unexpected character \(String(decoding: [byte], as: UTF8.self))")
    }

    private mutating func scanNumber() -> String {
        var text: [UInt8] = []
        if let sign = peek(), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            text.append(sign)
            advance()
        }
        if peek() == UInt8(ascii: "0"), peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X") {
            text += [UInt8(ascii: "0"), UInt8(ascii: "x")]
            advance()
            advance()
            while let next = peek(), hexDigitValue(next) != nil || next == UInt8(ascii: "_") {
                text.append(next)
                advance()
            }
            return String(decoding: text, as: UTF8.self)
        }
        while let next = peek() {
            if Self.isDigit(next) || next == UInt8(ascii: "_") {
                text.append(next)
                advance()
            } else if next == UInt8(ascii: "."),
                peek(1).map(Self.isIdentifierStart) != true || peek(1) == UInt8(ascii: "e")
                    || peek(1) == UInt8(ascii: "E")
            {
                text.append(next)
                advance()
            } else if next == UInt8(ascii: "e") || next == UInt8(ascii: "E") {
                text.append(next)
                advance()
                if let sign = peek(), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                    text.append(sign)
                    advance()
                }
            } else {
                break
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private mutating func scanString() throws(CandidTextError) -> [UInt8] {
        let start = error("unterminated string literal")
        advance()
        var output: [UInt8] = []
        while true {
            guard let byte = peek() else { throw start }
            if byte == UInt8(ascii: "\"") {
                advance()
                return output
            }
            if byte != UInt8(ascii: "\\") {
                output.append(byte)
                advance()
                continue
            }
            advance()
            guard let escape = peek() else { throw start }
            switch escape {
            case UInt8(ascii: "n"):
                output.append(0x0a)
                advance()
            case UInt8(ascii: "t"):
                output.append(0x09)
                advance()
            case UInt8(ascii: "r"):
                output.append(0x0d)
                advance()
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"):
                output.append(escape)
                advance()
            case UInt8(ascii: "u"):
                advance()
                guard peek() == UInt8(ascii: "{") else { throw error("expected { after \\u") }
                advance()
                var scalar: UInt32 = 0
                var digits = 0
                while true {
                    guard let next = peek() else { throw error("unterminated \\u{...} escape") }
                    if next == UInt8(ascii: "}") {
                        advance()
                        break
                    }
                    if next == UInt8(ascii: "_") {
                        advance()
                        continue
                    }
                    guard let digit = hexDigitValue(next), digits < 6 else {
                        throw error("invalid \\u{...} escape")
                    }
                    scalar = scalar << 4 | UInt32(digit)
                    digits += 1
                    advance()
                }
                guard digits > 0, let unicode = Unicode.Scalar(scalar) else {
                    throw error("invalid Unicode scalar in \\u{...} escape")
                }
                output += Array(String(Character(unicode)).utf8)
            default:
                guard let high = hexDigitValue(escape), let next = peek(1), let low = hexDigitValue(next) else {
                    throw error("invalid escape sequence")
                }
                output.append(high << 4 | low)
                advance()
                advance()
            }
        }
    }
}
