#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The machine's own addresses, as a device on the LAN reaches it (for the server certificate's names).
public enum LocalAddresses {
    /// The IPv4 and IPv6 addresses of the interfaces that are up, without loopback (in the certificate anyway) and
    /// without IPv6 link-local addresses (`fe80::/10`, which need a zone and cannot stand in a certificate).
    public static func lan() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                let address = entry.pointee.ifa_addr
            else { continue }
            var bytes: [UInt8]
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                bytes = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
                }
            case AF_INET6:
                bytes = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
                }
                if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { continue }
            default:
                continue
            }
            let text = TLSNames.text(ip: bytes)
            if !addresses.contains(text) { addresses.append(text) }
        }
        return addresses
    }
}
