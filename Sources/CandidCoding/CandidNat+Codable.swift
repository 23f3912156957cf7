extension CandidNat: Codable {
    /// Decodes from a decimal string (for non-Candid coders; `CandidDecoder` reads `nat` directly).
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = CandidNat(decimal: Substring(text)) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a nat"))
        }
        self = value
    }

    /// Encodes as a decimal string (for non-Candid coders; `CandidEncoder` writes `nat` directly).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
