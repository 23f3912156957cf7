/// The parameters of one Etherscan-style request, from the query string and, for POST, the form body (the
/// body's values win). Names are case-sensitive as Etherscan's (`contractaddress`, `startblock`, …).
public struct EtherscanQuery: Sendable, Equatable {
    public var parameters: [String: String]

    /// Most parameters one request may carry, and the longest value (balancemulti's 20 addresses fit easily).
    public static let maxParameters = 64
    public static let maxValueBytes = 4_096

    public init(_ parameters: [String: String] = [:]) { self.parameters = parameters }

    public subscript(name: String) -> String? { parameters[name] }

    /// Parses `application/x-www-form-urlencoded` text (a POST body) into `parameters` (last value wins).
    public mutating func merge(form text: String) {
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            if !name.isEmpty { parameters[name] = value }
        }
    }

    /// Percent-decoding with `+` as a space; malformed escapes are kept as written.
    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let c = input.popFirst() {
            if c == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if c == UInt8(ascii: "%"), input.count >= 2, let h = hex(input[input.startIndex]),
                let l = hex(input[input.startIndex + 1])
            {
                bytes.append(h << 4 | l)
                input = input.dropFirst(2)
            } else {
                bytes.append(c)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
