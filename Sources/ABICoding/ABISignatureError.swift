/// Why a human-readable signature or type could not be parsed.
public struct ABISignatureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, e.g. "unknown type uint7" or "type nests deeper than 32 levels".
    public let reason: String
    /// UTF-8 byte offset in the text.
    public let offset: Int
    public let text: String

    public init(_ reason: String, at offset: Int, in text: String) {
        self.reason = reason
        self.offset = offset
        self.text = text
    }

    public var description: String { "invalid ABI signature \"\(text)\" at byte \(offset): \(reason)" }
}
