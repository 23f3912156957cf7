/// Why TLS could not be set up: the file (if one is to blame) and the reason, as the node prints it at start.
public struct TLSSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The certificate, key or directory at fault; nil for a bad name.
    public var path: String?
    public var reason: String

    public init(path: String?, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { path.map { "\($0): \(reason)" } ?? reason }
}
