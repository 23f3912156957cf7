/// The execution-layer forks whose transaction rules Sandnet models (all after EIP-3860, Shanghai).
public enum Fork: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// EIP-3860 init-code limit and word cost.
    case shanghai
    /// Same transaction rules as Shanghai for types 0–2 (EIP-4844 blob transactions are not modelled).
    case cancun
    /// EIP-7623 calldata floor.
    case prague
    /// EIP-7825 per-transaction gas cap of 2^24.
    case osaka

    public static func < (a: Fork, b: Fork) -> Bool { a.rawValue < b.rawValue }

    /// The name ethereum/tests and execution-specs use ("Shanghai", "Cancun", "Prague", "Osaka").
    public var description: String {
        switch self {
        case .shanghai: return "Shanghai"
        case .cancun: return "Cancun"
        case .prague: return "Prague"
        case .osaka: return "Osaka"
        }
    }
}

/// What stateless validation needs to know about the chain.
public struct ValidationRules: Sendable, Hashable {
    /// The chain id every replay-protected signature must commit to (EIP-155).
    public var chainID: UInt64
    public var fork: Fork

    public init(chainID: UInt64, fork: Fork) {
        self.chainID = chainID
        self.fork = fork
    }
}
