/// A value that does not fit the ABI type it is encoded as.
public struct ABIEncodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String
    /// Where in the values, e.g. `[0][2]` (empty: the top level).
    public let path: String

    public init(_ reason: String, path: String) {
        self.reason = reason
        self.path = path
    }

    public var description: String { "cannot ABI-encode value\(path.isEmpty ? "" : " " + path): \(reason)" }
}
