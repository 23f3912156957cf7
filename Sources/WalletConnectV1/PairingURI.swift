import ByteCoding

/// A WalletConnect v1 pairing URI, `wc:TOPIC@1?bridge=URL&key=HEX` (EIP-1328): the handshake topic, the bridge and
/// the 32-byte symmetric key. The bridge URL is accepted percent-encoded once (the spec), twice (some dApps encoded
/// an encoded URL) or not at all (others did not encode it), as wallets had to accept all three.
public struct PairingURI: Sendable, Equatable {
    public var topic: String
    public var bridge: String
    public var key: [UInt8]

    public init(topic: String, bridge: String, key: [UInt8]) {
        self.topic = topic
        self.bridge = bridge
        self.key = key
    }

    /// How the bridge URL is written into ``text(bridgeEncoding:)``.
    public enum BridgeEncoding: Sendable, CaseIterable {
        case none, once, twice
    }

    /// Parses a v1 URI.
    /// - Throws: ``WalletConnectV1Error/invalidURI(_:)`` naming the part that is missing or malformed.
    public init(parsing text: String) throws(WalletConnectV1Error) {
        guard text.hasPrefix("wc:") else { throw .invalidURI("does not start with 'wc:'") }
        let rest = text.dropFirst(3)
        guard let at = rest.firstIndex(of: "@") else { throw .invalidURI("no '@' before the version") }
        topic = String(rest[..<at])
        guard !topic.isEmpty else { throw .invalidURI("empty topic") }
        let afterAt = rest[rest.index(after: at)...]
        let version = afterAt.prefix { $0 != "?" }
        guard version == "1" else { throw .invalidURI("version '\(version)' is not 1") }
        guard afterAt.count > version.count else { throw .invalidURI("no parameters (bridge, key)") }
        let query = afterAt.dropFirst(version.count + 1)
        var bridge: String?
        var keyHex: String?
        // Split on '&' only before a known name: a bridge URL that was not encoded may hold '&' of its own.
        var parts: [Substring] = []
        var start = query.startIndex
        var index = query.startIndex
        while index < query.endIndex {
            if query[index] == "&" {
                let next = query[query.index(after: index)...]
                if next.hasPrefix("key=") || next.hasPrefix("bridge=") {
                    parts.append(query[start..<index])
                    start = query.index(after: index)
                }
            }
            index = query.index(after: index)
        }
        parts.append(query[start...])
        for part in parts {
            if part.hasPrefix("bridge=") {
                bridge = String(part.dropFirst("bridge=".count))
            } else if part.hasPrefix("key=") {
                keyHex = String(part.dropFirst("key=".count))
            }
        }
        guard let bridge, !bridge.isEmpty else { throw .invalidURI("no bridge parameter") }
        guard let keyHex else { throw .invalidURI("no key parameter") }
        guard keyHex.utf8.count == 64, let key = try? Hex.decode(keyHex) else {
            throw .invalidURI("key must be 64 hex characters (32 bytes)")
        }
        self.bridge = try Self.decodeBridge(bridge)
        self.key = key
    }

    /// The bridge URL, percent-decoded as many times (up to two) as it takes to show a scheme.
    static func decodeBridge(_ text: String) throws(WalletConnectV1Error) -> String {
        var url = text
        for _ in 0..<3 {
            if url.hasPrefix("http://") || url.hasPrefix("https://") || url.hasPrefix("ws://")
                || url.hasPrefix("wss://")
            {
                return url
            }
            guard let decoded = percentDecode(url), decoded != url else { break }
            url = decoded
        }
        throw .invalidURI("bridge '\(text)' is not an http(s) or ws(s) URL")
    }

    /// The URI's text with the bridge URL encoded as asked.
    public func text(bridgeEncoding: BridgeEncoding = .once) -> String {
        let bridgeText =
            switch bridgeEncoding {
            case .none: bridge
            case .once: Self.percentEncode(bridge)
            case .twice: Self.percentEncode(Self.percentEncode(bridge))
            }
        return "wc:\(topic)@1?bridge=\(bridgeText)&key=\(Hex.encode(key))"
    }

    /// encodeURIComponent's set: letters, digits and `-_.!~*'()` stay.
    static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            let keep =
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "-_.!~*'()".utf8.contains(byte)
            if keep {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + Hex.encode([byte]).uppercased()
            }
        }
        return out
    }

    static func percentDecode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                    let value = try? Hex.decode(String(decoding: [high, low], as: UTF8.self)).first
                else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
