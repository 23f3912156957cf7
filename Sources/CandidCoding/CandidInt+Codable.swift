extension CandidInt: Codable {
    /// Decodes from a decimal string (for non-Candid coders; `CandidDecoder` reads `int` directly).
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = CandidInt(decimal: Substring(text)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an int"))
        }
        self = value
    }

    /// Encodes as a decimal string (for non-Candid coders; `CandidEncoder` writes `int` directly).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
