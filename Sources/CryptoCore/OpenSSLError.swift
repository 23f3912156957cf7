import COpenSSL

/// A failure reported by OpenSSL's libcrypto, with its error-queue text.
public struct OpenSSLError: Error, Sendable, Equatable, CustomStringConvertible {
    public let operation: String
    public let reason: String

    public var description: String { "\(operation) failed: \(reason)" }

    /// Drains OpenSSL's thread-local error queue into one error (the only place that reads it).
    static func drain(_ operation: String) -> OpenSSLError {
        var reasons: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            reasons.append(String(decoding: bytes, as: UTF8.self))
        }
        return OpenSSLError(
            operation: operation, reason: reasons.isEmpty ? "unknown error" : reasons.joined(separator: "; "))
    }
}
