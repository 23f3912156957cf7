import Foundation
import TestSupport
import Testing

/// `sandnet node` refuses bad flags before it binds anything: one line, non-zero exit.
@Suite struct NodeCLITests {
    @Test(arguments: [
        (["node", "--in-memory", "--faucet-cooldown", "3x"], "invalid duration '3x'"),
        (
            ["node", "--in-memory", "--block-time", "1", "--no-mining"],
            "--block-time and --no-mining exclude each other"
        ),
        (["node", "--in-memory", "--block-time", "0"], "--block-time must be at least 1 second"),
        (["node", "--in-memory", "--base-fee", "1.5"], "--base-fee must be a whole number of wei"),
        (["node", "--in-memory", "--faucet-amount", "1 banana"], "unknown unit 'banana'"),
        (["faucet", "0x1234"], "address must have 40 hex digits"),
        (
            ["node", "--in-memory", "--token", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238:USDX:6"],
            "tokens: two tokens at 0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
        ),
        (
            ["node", "--in-memory", "--token", "0x0000000000000000000000000000000000000B0b:B:1:evm"],
            "unknown profile 'evm' (one of openzeppelin5, openzeppelin4, fiattoken, weth9, tether)"
        ),
        (
            ["node", "--in-memory", "--token", "0x0000000000000000000000000000000000000B0b:B"],
            "expected ADDRESS:SYMBOL:DECIMALS"
        ),
        (["node", "--in-memory", "--tokens-file", "/nonexistent/tokens.json"], "cannot read --tokens-file"),
        (
            ["node", "--in-memory", "--fee-profile", "busy"],
            "--fee-profile: unknown profile 'busy'; known: dev, quiet, sepolia, daily-swell, spike, stall"
        ),
        (
            ["node", "--in-memory", "--chain-conditions", #"{"dropProbability":2}"#],
            "--chain-conditions: dropProbability: want a number in 0…1"
        ),
        (
            ["node", "--in-memory", "--faults", #"{"rules":[{"shape":"x"}]}"#],
            #"--faults: rules[0]: unknown fault shape "x""#
        ),
    ])
    func badFlagsAreOneLineErrors(arguments: [String], fragment: String) throws {
        let r = try SandnetProcess.run(arguments)
        #expect(r.status != 0, "\(arguments)")
        #expect(r.stderr.contains(fragment), "\(arguments): \(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: "), "\(arguments): \(r.stderr)")
    }

    /// A state file the node cannot load stops it with the reason (it used to start without the state, silently).
    @Test(arguments: [
        ("not json", "--load-state"),
        (#"{"block": "0x0"}"#, "state dump has no accounts object"),
        (#"{"accounts": {"0x1234": {"balance": "0x1"}}}"#, "hex string has length 4, want 40 for common.Address"),
        (
            #"{"accounts": {"0x00000000000000000000000000000000000000aa": {"balance": "lots"}}}"#,
            "0x00000000000000000000000000000000000000aa"
        ),
        (
            #"{"accounts": {"0x00000000000000000000000000000000000000aa": {"balance": "0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"}}}"#,
            "state dump balances are too large: the total supply would exceed 2^256-1 wei"
        ),
    ])
    func unloadableStateFileStopsTheNode(content: String, fragment: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "sandnet-state-\(UUID().uuidString).json")
        try Data(content.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let r = try SandnetProcess.run(["node", "--in-memory", "--port", "0", "--load-state", file.path])
        #expect(r.status != 0, "\(content)")
        #expect(r.stderr.hasPrefix("Error: --load-state \(file.path): "), "\(r.stderr)")
        #expect(r.stderr.contains(fragment), "\(r.stderr)")
    }
}
