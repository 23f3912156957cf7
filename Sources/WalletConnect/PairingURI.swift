import ByteCoding
import Foundation

/// A WalletConnect v2 pairing URI (EIP-1328; WalletConnect specs, clients/core/pairing/pairing-uri.md):
/// `wc:{topic}@2?symKey={hex}&relay-protocol=irn&expiryTimestamp={s}[&relay-data=…][&methods=…]`.
public struct PairingURI: Sendable, Equatable {
    /// The pairing topic (64 hex digits, random, not derived from the key).
    public var topic: String
    /// The pairing's symmetric key (32 bytes).
    public var symKey: [UInt8]
    public var relayProtocol: String
    public var relayData: String?
    /// Seconds since 1970; nil when the URI carries none (older SDKs).
    public var expiryTimestamp: Int64?
    /// The `methods` parameter as written (e.g. `[wc_sessionPropose],[wc_authRequest,wc_authBatchRequest]`).
    public var methods: String?

    /// How the parsed text was encoded (the wallet emulator reports it: deep links break on encoding).
    public enum Encoding: String, Sendable, Equatable {
        case raw
        case percentEncodedOnce = "percent-encoded once"
        case percentEncodedTwice = "percent-encoded twice"
    }

    /// Longest URI accepted.
    public static let maxLength = 2_048

    public init(
        topic: String, symKey: [UInt8], relayProtocol: String = "irn", relayData: String? = nil,
        expiryTimestamp: Int64?, methods: String? = nil
    ) {
        self.topic = topic
        self.symKey = symKey
        self.relayProtocol = relayProtocol
        self.relayData = relayData
        self.expiryTimestamp = expiryTimestamp
        self.methods = methods
    }

    /// A new pairing: random topic and key, expiring `ttl` seconds after `now`.
    public static func random(now: Int64, ttl: Int64 = 300) -> PairingURI {
        PairingURI(
            topic: Hex.encode(SessionCrypto.randomBytes()), symKey: SessionCrypto.randomBytes(),
            expiryTimestamp: now + ttl)
    }

    /// Parses `text`: `wc:` or `wc://`, raw or percent-encoded once or twice, or a deep link `…?uri=<encoded>`.
    /// - Parameter now: seconds since 1970; an expired URI throws ``WalletConnectError/expiredURI(expiry:now:)``
    ///   (nil: no expiry check).
    public init(parsing text: String, now: Int64? = nil) throws(WalletConnectError) {
        self = try Self.parse(text, now: now).uri
    }

    /// Parses `text` and says how it was encoded.
    public static func parse(_ text: String, now: Int64? = nil) throws(WalletConnectError) -> (
        uri: PairingURI, encoding: Encoding
    ) {
        let result = try Self.parsed(text, now: now)
        return (result.uri, result.encoding)
    }

    private struct Parsed {
        var uri: PairingURI
        var encoding: Encoding
    }

    private static func parsed(_ input: String, now: Int64?) throws(WalletConnectError) -> Parsed {
        guard input.utf8.count <= maxLength else { throw .invalidURI("longer than \(maxLength) bytes") }
        var text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        // A deep link: <scheme>://wc?uri=<encoded wc: URI>
        if !text.lowercased().hasPrefix("wc"), let range = text.range(of: "uri=") {
            text = String(text[range.upperBound...])
            if let amp = text.firstIndex(of: "&") { text = String(text[..<amp]) }
        }
        var encoding = Encoding.raw
        for next in [Encoding.percentEncodedOnce, .percentEncodedTwice] where text.contains("%") {
            guard let decoded = text.removingPercentEncoding else { throw .invalidURI("bad percent-encoding") }
            text = decoded
            encoding = next
        }
        if text.hasPrefix("wc://") {
            text = String(text.dropFirst(5))
        } else if text.hasPrefix("wc:") {
            text = String(text.dropFirst(3))
        } else {
            throw .invalidURI("does not start with wc:")
        }
        guard let at = text.firstIndex(of: "@") else { throw .invalidURI("no @version") }
        let topic = String(text[..<at]).lowercased()
        let rest = text[text.index(after: at)...]
        let question = rest.firstIndex(of: "?") ?? rest.endIndex
        let version = rest[..<question]
        guard version == "2" else {
            throw .invalidURI("version \(version) is not WalletConnect v2 (@2)")
        }
        guard topic.utf8.count == 64, (try? Hex.decode(topic)) != nil else {
            throw .invalidURI("topic must be 64 hex digits")
        }
        var parameters: [String: String] = [:]
        if question < rest.endIndex {
            for pair in rest[rest.index(after: question)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                parameters[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
        }
        guard let keyText = parameters["symKey"] else { throw .invalidURI("no symKey") }
        guard keyText.utf8.count == 64, let symKey = try? Hex.decode(keyText) else {
            throw .invalidURI("symKey must be 64 hex digits")
        }
        guard let relayProtocol = parameters["relay-protocol"], !relayProtocol.isEmpty else {
            throw .invalidURI("no relay-protocol")
        }
        var expiry: Int64?
        if let e = parameters["expiryTimestamp"] {
            guard let value = Int64(e) else { throw .invalidURI("expiryTimestamp \(e) is not an integer") }
            expiry = value
        }
        if let now, let expiry, expiry <= now { throw .expiredURI(expiry: expiry, now: now) }
        let uri = PairingURI(
            topic: topic, symKey: symKey, relayProtocol: relayProtocol, relayData: parameters["relay-data"],
            expiryTimestamp: expiry, methods: parameters["methods"])
        return Parsed(uri: uri, encoding: encoding)
    }

    /// The URI text (raw, as an SDK prints it).
    public var text: String {
        var out = "wc:\(topic)@2?symKey=\(Hex.encode(symKey))&relay-protocol=\(relayProtocol)"
        if let relayData { out += "&relay-data=\(relayData)" }
        if let expiryTimestamp { out += "&expiryTimestamp=\(expiryTimestamp)" }
        if let methods { out += "&methods=\(methods)" }
        return out
    }

    /// A deep link `<scheme>://wc?uri=<RFC 3986-encoded URI>` (reown-swift's `deeplinkUri`).
    public func deepLink(scheme: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return "\(scheme)://wc?uri=" + (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)
    }
}
