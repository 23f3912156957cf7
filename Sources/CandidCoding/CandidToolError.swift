/// Any failure of the `CandidTextCodec` convenience API, wrapping the domain error.
public enum CandidToolError: Error, Sendable, Equatable, CustomStringConvertible {
    case text(CandidTextError)
    case type(CandidTypeError)
    case encoding(CandidEncodingError)
    case decoding(CandidDecodingError)

    public var description: String {
        switch self {
        case .text(let error): return error.description
        case .type(let error): return error.description
        case .encoding(let error): return error.description
        case .decoding(let error): return error.description
        }
    }
}
