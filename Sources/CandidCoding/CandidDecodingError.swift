/// An error thrown while decoding a Candid binary message.
///
/// Candid spec, "Deserialisation": a message that is malformed, exceeds resource limits, or whose values cannot be
/// coerced to the expected types must be rejected. The error carries the byte offset in the message where it was
/// detected and a human-readable context.
public struct CandidDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    public enum Reason: Sendable, Equatable {
        /// The input ended before a complete item could be read.
        case unexpectedEnd
        /// The message does not start with `DIDL`.
        case badMagic
        /// A LEB128 number is malformed or exceeds its allowed range.
        case invalidNumber
        /// The type table is malformed (bad opcode, unsorted or duplicate fields, out-of-range reference).
        case invalidTypeTable
        /// A value is malformed (bad tag byte, bad bool, out-of-range variant index, invalid UTF-8).
        case invalidValue
        /// A value cannot be coerced to the expected type (Candid spec, "Coercion").
        case typeMismatch
        /// Bytes remain after the last argument value.
        case trailingBytes
        /// The decoding cost budget was exhausted (hostile input protection).
        case budgetExceeded
        /// Nesting is deeper than the configured limit.
        case depthExceeded
        /// A count, length or size is larger than allowed or than the remaining input.
        case limitExceeded
    }

    /// The class of failure.
    public var reason: Reason
    /// Byte offset in the message where the failure was detected.
    public var offset: Int
    /// What was being decoded and why it failed.
    public var context: String

    /// Creates an error.
    public init(_ reason: Reason, at offset: Int, _ context: String) {
        self.reason = reason
        self.offset = offset
        self.context = context
    }

    /// Whether the error is a coercion failure that an enclosing `opt` turns into `null`.
    var isRecoverable: Bool { reason == .typeMismatch }

    public var description: String { "Candid decoding failed at byte \(offset) (\(reason)): \(context)" }
}
