/// A function annotation (Candid spec, "Function references"): `query` = 1, `oneway` = 2, `composite_query` = 3.
public enum CandidFunctionMode: UInt8, Sendable, Hashable, CaseIterable {
    case query = 1
    case oneway = 2
    case compositeQuery = 3

    /// The keyword used in Candid text.
    public var keyword: String {
        switch self {
        case .query: return "query"
        case .oneway: return "oneway"
        case .compositeQuery: return "composite_query"
        }
    }
}

/// A function type: argument and result sequences plus annotations.
public struct CandidFunctionType: Sendable, Hashable {
    /// Argument types.
    public var arguments: [CandidType]
    /// Result types.
    public var results: [CandidType]
    /// Annotations, compared as a set.
    public var modes: [CandidFunctionMode]
    /// Optional argument names from a `.did` file (documentation only).
    public var argumentNames: [String?]
    /// Optional result names from a `.did` file (documentation only).
    public var resultNames: [String?]

    /// Creates a function type.
    public init(
        arguments: [CandidType],
        results: [CandidType],
        modes: [CandidFunctionMode] = [],
        argumentNames: [String?] = [],
        resultNames: [String?] = []
    ) {
        self.arguments = arguments
        self.results = results
        self.modes = modes
        self.argumentNames = argumentNames
        self.resultNames = resultNames
    }
}
