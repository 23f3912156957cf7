/// A Wadler-style document laid out to a width, with the layout rules of the Rust `pretty` crate (0.12) that the
/// Candid tools print with, so `.did` text prints as theirs does.
indirect enum PrettyDocument: Sendable {
    case empty
    /// Text without line breaks and its display width.
    case text(String, Int)
    case append(PrettyDocument, PrettyDocument)
    /// Laid out flat when it fits, else broken.
    case group(PrettyDocument)
    case nest(Int, PrettyDocument)
    /// The first when broken, the second when flat.
    case flatAlternative(PrettyDocument, PrettyDocument)
    case hardline

    static func text(_ string: String) -> PrettyDocument {
        string.isEmpty ? .empty : .text(string, displayWidth(string))
    }
    static let space = PrettyDocument.text(" ", 1)
    /// A newline, or a space when flat.
    static let line = PrettyDocument.flatAlternative(.hardline, .space)
    /// A newline, or nothing when flat.
    static let lineOrNothing = PrettyDocument.flatAlternative(.hardline, .empty)

    var isEmpty: Bool {
        switch self {
        case .empty: return true
        case .flatAlternative(let broken, let flat): return flat.isEmpty || broken.isEmpty
        case .group(let inner), .nest(_, let inner): return inner.isEmpty
        default: return false
        }
    }

    func appending(_ other: PrettyDocument) -> PrettyDocument {
        if case .empty = self { return other }
        if case .empty = other { return self }
        return .append(self, other)
    }

    func appending(_ string: String) -> PrettyDocument { appending(.text(string)) }

    func grouped() -> PrettyDocument {
        switch self {
        case .group, .text, .empty: return self
        default: return .group(self)
        }
    }

    func nested(_ indent: Int) -> PrettyDocument {
        if case .empty = self { return self }
        return indent == 0 ? self : .nest(indent, self)
    }

    static func concatenation(_ documents: [PrettyDocument]) -> PrettyDocument {
        documents.reduce(PrettyDocument.empty) { $0.appending($1) }
    }

    static func interspersed(_ documents: [PrettyDocument], _ separator: PrettyDocument) -> PrettyDocument {
        var result = PrettyDocument.empty
        for (index, document) in documents.enumerated() {
            if index > 0 { result = result.appending(separator) }
            result = result.appending(document)
        }
        return result
    }

    // MARK: Layout

    private enum Mode { case broken, flat }
    private typealias Command = (indent: Int, mode: Mode, document: PrettyDocument)

    /// Lays the document out within `width` columns.
    func rendered(width: Int) -> String {
        var output = ""
        var position = 0
        var commands: [Command] = [(0, .broken, self)]
        while var command = commands.popLast() {
            loop: while true {
                switch command.document {
                case .empty: break loop
                case .append(let left, let right):
                    commands.append((command.indent, command.mode, right))
                    command.document = left
                case .flatAlternative(let broken, let flat):
                    command.document = command.mode == .broken ? broken : flat
                case .group(let inner):
                    if command.mode == .broken,
                        Self.fits(inner, position: position, width: width, rest: commands)
                    {
                        command.mode = .flat
                    }
                    command.document = inner
                case .nest(let offset, let inner):
                    command.indent = max(0, command.indent + offset)
                    command.document = inner
                case .hardline:
                    if let next = commands.popLast() {
                        output += "\n" + String(repeating: " ", count: next.indent)
                        position = next.indent
                        command = next
                    } else {
                        output += "\n" + String(repeating: " ", count: command.indent)
                        position = command.indent
                        break loop
                    }
                case .text(let string, let width):
                    output += string
                    position += width
                    break loop
                }
            }
        }
        return output
    }

    private static func fits(_ document: PrettyDocument, position: Int, width: Int, rest: [Command]) -> Bool {
        var position = position
        var remaining = rest.count
        var pending: [PrettyDocument] = [document]
        var mode = Mode.flat
        while true {
            var current: PrettyDocument
            if let next = pending.popLast() {
                current = next
            } else {
                guard remaining > 0 else { return true }
                remaining -= 1
                mode = .broken
                current = rest[remaining].document
            }
            inner: while true {
                switch current {
                case .empty: break inner
                case .append(let left, let right):
                    pending.append(right)
                    current = left
                case .hardline: return mode == .broken
                case .text(_, let length):
                    position += length
                    if position > width { return false }
                    break inner
                case .flatAlternative(let broken, let flat): current = mode == .broken ? broken : flat
                case .nest(_, let inner), .group(let inner): current = inner
                }
            }
        }
    }

    /// Columns a string takes in a terminal: 2 for wide East Asian characters and emoji, 0 for combining marks and
    /// variation selectors (an approximation of Unicode's East Asian Width that the `unicode-width` crate follows).
    static func displayWidth(_ string: String) -> Int {
        var width = 0
        for scalar in string.unicodeScalars {
            let value = scalar.value
            if value < 0x7f {
                width += value >= 0x20 ? 1 : 0
                continue
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format: continue
            default: break
            }
            if (0xfe00...0xfe0f).contains(value) || (0x200b...0x200f).contains(value) { continue }
            let wide: [ClosedRange<UInt32>] = [
                0x1100...0x115f, 0x2e80...0x303e, 0x3041...0x33ff, 0x3400...0x4dbf, 0x4e00...0x9fff, 0xa000...0xa4cf,
                0xac00...0xd7a3, 0xf900...0xfaff, 0xfe30...0xfe4f, 0xff00...0xff60, 0xffe0...0xffe6,
                0x1f300...0x1f64f, 0x1f900...0x1f9ff, 0x1f680...0x1f6ff, 0x20000...0x3fffd,
            ]
            width += wide.contains { $0.contains(value) } ? 2 : 1
        }
        return width
    }
}
