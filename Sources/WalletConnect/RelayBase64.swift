import ByteCoding

/// Base64 as WalletConnect uses it: relay messages in the standard alphabet with padding, Link Mode and JWTs in
/// base64url (RFC 4648 §5) without padding. Decoding takes either alphabet, with or without `=` padding
/// (pywalletconnect strips the padding of relay messages).
public enum RelayBase64 {
    private static let standard = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    private static let url = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Standard alphabet, padded (relay transport).
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        encode(bytes, alphabet: standard, pad: true)
    }

    /// base64url without padding (JWT segments, Link Mode).
    public static func encodeURL(_ bytes: some Collection<UInt8>) -> String { encode(bytes, alphabet: url, pad: false) }

    /// Decodes either alphabet, padding optional; nil on any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        var mapped = text
        if text.utf8.contains(where: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) {
            mapped = String(
                decoding: text.utf8.map {
                    $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
                }, as: UTF8.self)
        }
        // A length of 1 modulo 4 cannot come from any byte string.
        guard mapped.utf8.filter({ $0 != UInt8(ascii: "=") }).count % 4 != 1 else { return nil }
        return Base64.decode(mapped)
    }

    private static func encode(_ bytes: some Collection<UInt8>, alphabet: [UInt8], pad: Bool) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let a = iterator.next() {
            let b = iterator.next()
            let c = b == nil ? nil : iterator.next()
            let n = UInt32(a) << 16 | UInt32(b ?? 0) << 8 | UInt32(c ?? 0)
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            if b != nil { out.append(alphabet[Int(n >> 6 & 63)]) } else if pad { out.append(UInt8(ascii: "=")) }
            if c != nil { out.append(alphabet[Int(n & 63)]) } else if pad { out.append(UInt8(ascii: "=")) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
