#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The names a server certificate is issued for: DNS names and IP addresses (its subject alternative names,
/// RFC 5280 §4.2.1.6). Kept sorted and without duplicates, so two sets compare equal whatever order they came in.
public struct TLSNames: Sendable, Equatable, CustomStringConvertible {
    /// Lower-cased DNS names, sorted.
    public private(set) var dnsNames: [String] = []
    /// IPv4 (4 bytes) then IPv6 (16 bytes) addresses, each sorted by their bytes.
    public private(set) var ipAddresses: [[UInt8]] = []

    /// Most names one certificate carries (a machine with many interfaces stays well below it).
    public static let maxNames = 100

    public init() {}

    /// The names every local node answers to: `localhost`, `127.0.0.1` and `::1`.
    public static var loopback: TLSNames {
        var names = TLSNames()
        // These three always parse.
        try? names.insert("localhost")
        try? names.insert("127.0.0.1")
        try? names.insert("::1")
        return names
    }

    /// Adds a name: an IPv4 or IPv6 address in text form, or a DNS name (letters, digits, `-`, `.`, a leading `*.`).
    /// - Throws: ``TLSSetupError`` naming the text when it is neither, or when there would be more than
    ///   ``maxNames`` names.
    public mutating func insert(_ text: String) throws(TLSSetupError) {
        if let ip = Self.ipAddress(text) {
            if !ipAddresses.contains(ip) { ipAddresses.append(ip) }
            ipAddresses.sort { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) }
        } else {
            let name = text.lowercased()
            guard Self.isDNSName(name) else {
                throw TLSSetupError(path: nil, reason: "'\(text)' is neither an IP address nor a DNS name")
            }
            if !dnsNames.contains(name) { dnsNames.append(name) }
            dnsNames.sort()
        }
        guard dnsNames.count + ipAddresses.count <= Self.maxNames else {
            throw TLSSetupError(path: nil, reason: "more than \(Self.maxNames) names for one certificate")
        }
    }

    /// The names as text: DNS names first, then addresses.
    public var texts: [String] { dnsNames + ipAddresses.map(Self.text(ip:)) }

    public var description: String { texts.joined(separator: ", ") }

    /// Binary form of an IPv4 or IPv6 address in text, or nil.
    static func ipAddress(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// An address's usual text form (`127.0.0.1`, `::1`).
    static func text(ip: [UInt8]) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = ip.count == 4 ? AF_INET : AF_INET6
        let ok = ip.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &buffer, socklen_t(buffer.count)) } != nil
        guard ok else { return ip.map { String($0) }.joined(separator: ".") }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func isDNSName(_ name: String) -> Bool {
        var labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        if labels.first == "*" && labels.count > 1 { labels.removeFirst() }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy {
                    $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0)
                }
        }
    }
}
