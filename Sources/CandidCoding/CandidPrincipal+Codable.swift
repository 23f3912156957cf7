extension CandidPrincipal: Codable {
    /// Decodes from principal text (for non-Candid coders; `CandidDecoder` reads `principal` directly).
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            self = try CandidPrincipal(text: text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    /// Encodes as principal text (for non-Candid coders; `CandidEncoder` writes `principal` directly).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
