import EthereumTransactions
import JSONCoding
import Testing

/// Hostile EIP-712 type graphs: a chain of 10,001 struct types once overflowed the stack.
@Suite struct TypedDataLimitTests {
    /// `T0 → T1 → … → T(n−1) → last`, each through one member `m`.
    static func chain(_ n: Int, last: String = "uint256") -> TypedData {
        var types: [String: [TypedData.Member]] = [:]
        for i in 0..<n { types["T\(i)"] = [TypedData.Member(name: "m", type: i + 1 < n ? "T\(i + 1)" : last)] }
        return TypedData(types: types, primaryType: "T0", domain: .object([]), message: .object([]))
    }

    @Test func typeWalkIsIterative() throws {
        let typed = Self.chain(20_000)
        let text = try typed.encodeType("T0")
        #expect(text.hasPrefix("T0(T1 m)T1(T2 m)T10(T11 m)"))
        #expect(text.hasSuffix("T9999(T10000 m)"))
        #expect(text.utf8.count > 200_000)
    }

    @Test func unknownTypeDeepInAChainNamesItsPath() {
        #expect(throws: TypedDataError(.unknownType("Missing"), at: "T0.m.m.m")) {
            try Self.chain(3, last: "Missing").encodeType("T0")
        }
        // A recursive type is walked once.
        #expect(throws: Never.self) { try Self.chain(5, last: "T0[]").encodeType("T0") }
    }

    @Test func documentsOverTheLimitsAreRefused() {
        #expect(
            throws: TypedDataError(.invalidDocument("1001 types declared, at most 1000 are supported"), at: "types")
        ) {
            try Self.chain(1_001).signingHash()
        }
        var long = Self.chain(2)
        long.types["T1"] = [TypedData.Member(name: "m", type: "uint8" + String(repeating: "[]", count: 600))]
        #expect(
            throws: TypedDataError(
                .invalidDocument("a member type name of 1205 bytes, at most 1024 are supported"), at: "types.T1.m")
        ) {
            try long.signingHash()
        }
    }
}
