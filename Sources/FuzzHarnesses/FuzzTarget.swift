/// One libFuzzer target: a name, a harness that must never trap on any input (except when a checked property
/// is violated), and the seeds it starts from.
///
/// The same table drives the libFuzzer binary (`Fuzz/`), its corpus replayer, and the reproducer tests
/// (`Tests/FuzzReproducerTests`), so each harness exists once.
public struct FuzzTarget: Sendable {
    /// The name used on the command line (`Fuzz/run.sh NAME`) and as the folder under `Fuzz/Reproducers/`.
    public let name: String
    /// What the harness exercises and which properties it checks.
    public let summary: String
    /// Largest input worth generating (libFuzzer's `-max_len`).
    public let maximumLength: Int
    /// Runs one input. Returns normally for accepted and rejected input alike; traps on a violated property.
    public let run: @Sendable ([UInt8]) -> Void
    /// Small valid inputs built with the project's own encoders (no official vectors needed).
    public let syntheticSeeds: @Sendable () -> [[UInt8]]

    public init(
        name: String, summary: String, maximumLength: Int, run: @escaping @Sendable ([UInt8]) -> Void,
        syntheticSeeds: @escaping @Sendable () -> [[UInt8]]
    ) {
        self.name = name
        self.summary = summary
        self.maximumLength = maximumLength
        self.run = run
        self.syntheticSeeds = syntheticSeeds
    }
}

extension FuzzTarget {
    /// Every target, in the order `Fuzz/run.sh all` runs them.
    public static let all: [FuzzTarget] = [
        FuzzTarget(
            name: "rlp", summary: "RLP.decode (strict); encode(decode(b)) == b", maximumLength: 4096,
            run: FuzzHarness.rlp, syntheticSeeds: FuzzSeeds.rlp),
        FuzzTarget(
            name: "transaction",
            summary: "SignedTransaction(decoding:) legacy/2930/1559; re-encoding == input, hex path agrees",
            maximumLength: 4096, run: FuzzHarness.transaction, syntheticSeeds: FuzzSeeds.transaction),
        FuzzTarget(
            name: "candid", summary: "CandidDeserializer.decodeUntyped; decode(encode(values)) == values",
            maximumLength: 4096, run: FuzzHarness.candidUntyped, syntheticSeeds: FuzzSeeds.candidUntyped),
        FuzzTarget(
            name: "candid-typed",
            summary: "`<type text> NUL <message>`: decode at the expected types; decode(encode(values)) == values",
            maximumLength: 4096, run: FuzzHarness.candidTyped, syntheticSeeds: FuzzSeeds.candidTyped),
        FuzzTarget(
            name: "keystore",
            summary: "Keystore(json:) + decrypt with clamped KDF cost; JSON round trip; re-encrypt == file",
            maximumLength: 4096, run: FuzzHarness.keystore, syntheticSeeds: FuzzSeeds.keystore),
        FuzzTarget(
            name: "jsonrpc",
            summary: "RPCDispatcher.handle: response is valid JSON; parse(serialize(v)) == v",
            maximumLength: 4096, run: FuzzHarness.jsonRPC, syntheticSeeds: FuzzSeeds.jsonRPC),
        FuzzTarget(
            name: "scenario", summary: "ScenarioParser.parse(yaml:file:) never traps", maximumLength: 8192,
            run: FuzzHarness.scenario, syntheticSeeds: FuzzSeeds.scenario),
        FuzzTarget(
            name: "cbor",
            summary: "CBORDecoder.decode; decode(encode(v)) == v; encode(decode(b)) == b for preferred heads",
            maximumLength: 4096, run: FuzzHarness.cbor, syntheticSeeds: FuzzSeeds.cbor),
        FuzzTarget(
            name: "mnemonic",
            summary: "Mnemonic(phrase:) with language detection; words -> entropy -> words round trip",
            maximumLength: 1024, run: FuzzHarness.mnemonic, syntheticSeeds: FuzzSeeds.mnemonic),
        FuzzTarget(
            name: "rpc",
            summary: "programs of JSON-RPC calls (dev methods, extreme numbers, deep and wrong-typed parameters) "
                + "against an in-process node: every call answered without -32603; Σ balances + burned = supply; "
                + "head consistent; ICP clock monotonic; filters, snapshots and pool within their limits",
            maximumLength: 4096, run: FuzzHarness.rpc, syntheticSeeds: FuzzSeeds.rpc),
        FuzzTarget(
            name: "native",
            summary: "native tokens and Multicall3 over a fixed state: calldata never traps; a failed call changes "
                + "nothing; Σ balances == totalSupply after a successful one",
            maximumLength: 4096, run: FuzzHarness.nativeCall, syntheticSeeds: FuzzSeeds.nativeCall),
    ]

    /// The target called `name`, if any.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}
