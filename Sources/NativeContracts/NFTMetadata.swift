import ByteCoding
import EthereumTypes
import KeccakHashing

/// The metadata of a native NFT: its URI (`tokenURI`/`uri`), its JSON (the ERC-721 "Metadata JSON Schema" and the
/// ERC-1155 metadata schema, with OpenSea-style `attributes`) and its image, an SVG drawn from keccak256(collection ‖
/// id), so the same token always looks the same. Pure functions: the contract answers the URI, the node's HTTP server
/// serves the JSON and the image.
public enum NFTMetadata {
    /// How long the node holds an image of a `slow-image` collection before answering, in seconds.
    public static let slowImageDelay = 8

    static let shapes = ["Circle", "Square", "Triangle", "Diamond", "Ring", "Cross"]
    static let colors: [(name: String, hex: String)] = [
        ("Red", "e63946"), ("Orange", "f4a261"), ("Yellow", "e9c46a"), ("Green", "2a9d8f"), ("Blue", "457b9d"),
        ("Purple", "7b2cbf"), ("Pink", "ff70a6"), ("Black", "1d1d1d"),
    ]

    /// The id as ERC-1155's `{id}` substitution writes it: 64 lowercase hex digits, no prefix.
    public static func hexID(_ id: UInt256) -> String { Hex.encode(id.bigEndianBytes) }

    /// The id as it appears in a path: decimal for ERC-721 (OpenZeppelin's `baseURI + tokenId.toString()`), 64 hex
    /// digits for ERC-1155.
    public static func pathID(_ collection: NFTCollection, _ id: UInt256) -> String {
        collection.standard == .erc721 ? id.description : hexID(id)
    }

    /// The id in a metadata path: exactly 64 hex digits (ERC-1155's form), else decimal; nil when neither.
    public static func parseID(_ text: some StringProtocol) -> UInt256? {
        if text.utf8.count == 64 { return UInt256(hexDigits: text) }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return UInt256(decimal: text)
    }

    /// A deterministic stand-in for a content id (not the hash of the files): `bafkrei` + base32 of
    /// keccak256(address), 59 characters as a CIDv1 has.
    public static func ipfsCID(_ collection: NFTCollection) -> String {
        let digits = String(decoding: Base32.encode(Keccak256.hash(collection.address.bytes)), as: UTF8.self)
        return "bafkrei" + String(digits.lowercased().prefix(52))
    }

    /// The node's path of the collection's files (`/nft/<address>`), or the local IPFS gateway path.
    public static func directory(_ collection: NFTCollection) -> String {
        collection.style == .ipfs ? "/ipfs/\(ipfsCID(collection))" : "/nft/\(collection.address.lowercased)"
    }

    /// What `tokenURI(id)` (ERC-721) answers for the style.
    public static func tokenURI(_ collection: NFTCollection, _ id: UInt256) -> String {
        switch collection.style {
        case .data:
            return "data:application/json;base64," + Base64.encode(Array(json(collection, id).utf8))
        case .ipfs: return "ipfs://\(ipfsCID(collection))/\(pathID(collection, id)).json"
        case .http, .missing, .slowImage:
            return collection.metadataBase + directory(collection) + "/\(pathID(collection, id)).json"
        }
    }

    /// What `uri(id)` (ERC-1155) answers: the `{id}` template, except on-chain style, which is per token.
    public static func uri(_ collection: NFTCollection, _ id: UInt256) -> String {
        switch collection.style {
        case .data: return tokenURI(collection, id)
        case .ipfs: return "ipfs://\(ipfsCID(collection))/{id}.json"
        case .http, .missing, .slowImage: return collection.metadataBase + directory(collection) + "/{id}.json"
        }
    }

    /// The image URI inside the JSON.
    public static func imageURI(_ collection: NFTCollection, _ id: UInt256) -> String {
        switch collection.style {
        case .data: return "data:image/svg+xml;base64," + Base64.encode(Array(svg(collection, id).utf8))
        case .ipfs: return "ipfs://\(ipfsCID(collection))/\(pathID(collection, id)).svg"
        case .http, .missing, .slowImage:
            return collection.metadataBase + directory(collection) + "/\(pathID(collection, id)).svg"
        }
    }

    struct Traits {
        var shape: String
        var color: (name: String, hex: String)
        var background: String
        var generation: Int
    }

    static func traits(_ collection: NFTCollection, _ id: UInt256) -> Traits {
        let seed = Keccak256.hash(collection.address.bytes + id.bigEndianBytes)
        return Traits(
            shape: shapes[Int(seed[0]) % shapes.count], color: colors[Int(seed[1]) % colors.count],
            background: Hex.encode(seed[2..<5]), generation: Int(seed[5]) % 10 + 1)
    }

    /// The metadata JSON text: `name`, `description`, `image`, `external_url`, `background_color` and `attributes`
    /// (`trait_type`/`value`, one with `display_type` "number"); ERC-1155 adds `decimals` 0 and `properties`.
    public static func json(_ collection: NFTCollection, _ id: UInt256) -> String {
        let t = traits(collection, id)
        let standard = collection.standard == .erc721 ? "ERC-721" : "ERC-1155"
        var members: [String] = [
            "\"name\":" + quoted("\(collection.name) #\(id)"),
            "\"description\":"
                + quoted(
                    "\(t.color.name) \(t.shape.lowercased()) \(id) of \(collection.name), a native \(standard) "
                        + "collection of the Sandnet dev chain."),
            "\"image\":" + quoted(imageURI(collection, id)),
            "\"external_url\":" + quoted(collection.metadataBase + "/nft/\(collection.address.lowercased)"),
            "\"background_color\":" + quoted(t.background),
            "\"attributes\":[{\"trait_type\":\"Shape\",\"value\":" + quoted(t.shape)
                + "},{\"trait_type\":\"Color\",\"value\":" + quoted(t.color.name)
                + "},{\"display_type\":\"number\",\"trait_type\":\"Generation\",\"value\":\(t.generation)}]",
        ]
        if collection.standard == .erc1155 {
            members.append("\"decimals\":0")
            members.append("\"properties\":{\"collection\":" + quoted(collection.name) + ",\"standard\":\"ERC-1155\"}")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The image: a 512 × 512 SVG with the token's shape and colours and its id.
    public static func svg(_ collection: NFTCollection, _ id: UInt256) -> String {
        let t = traits(collection, id)
        let fill = "#" + t.color.hex
        let shape: String
        switch t.shape {
        case "Circle": shape = "<circle cx=\"256\" cy=\"230\" r=\"130\" fill=\"\(fill)\"/>"
        case "Square": shape = "<rect x=\"136\" y=\"110\" width=\"240\" height=\"240\" fill=\"\(fill)\"/>"
        case "Triangle": shape = "<polygon points=\"256,90 396,360 116,360\" fill=\"\(fill)\"/>"
        case "Diamond": shape = "<polygon points=\"256,80 406,230 256,380 106,230\" fill=\"\(fill)\"/>"
        case "Ring":
            shape = "<circle cx=\"256\" cy=\"230\" r=\"120\" fill=\"none\" stroke=\"\(fill)\" stroke-width=\"40\"/>"
        default:
            shape =
                "<rect x=\"216\" y=\"100\" width=\"80\" height=\"260\" fill=\"\(fill)\"/>"
                + "<rect x=\"126\" y=\"190\" width=\"260\" height=\"80\" fill=\"\(fill)\"/>"
        }
        let label = escapeXML("\(collection.symbol) #\(id)".prefix(40))
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"512\" height=\"512\" viewBox=\"0 0 512 512\">"
            + "<rect width=\"512\" height=\"512\" fill=\"#\(t.background)\"/>" + shape
            + "<text x=\"256\" y=\"460\" font-family=\"monospace\" font-size=\"32\" text-anchor=\"middle\" "
            + "fill=\"#ffffff\">\(label)</text></svg>"
    }

    /// A JSON string literal.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func escapeXML(_ text: some StringProtocol) -> String {
        var out = ""
        for c in text {
            switch c {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
