import Foundation
import TestSupport
import Testing

/// `sandnet node` refuses bad flags before it binds anything: one line, non-zero exit.
@Suite struct NodeCLITests {
    @Test(arguments: [
        (["node", "--in-memory", "--faucet-cooldown", "3x"], "invalid duration '3x'"),
        (["node", "--in-memory", "--block-time", "1", "--no-mining"], "--block-time and --no-mining exclude each other"),
        (["node", "--in-memory", "--block-time", "0"], "--block-time must be at least 1 second"),
        (["node", "--in-memory", "--base-fee", "1.5"], "--base-fee must be a whole number of wei"),
        (["node", "--in-memory", "--faucet-amount", "1 banana"], "unknown unit 'banana'"),
        (["faucet", "0x1234"], "address must have 40 hex digits"),
    ])
    func badFlagsAreOneLineErrors(arguments: [String], fragment: String) throws {
        let r = try SandnetProcess.run(arguments)
        #expect(r.status != 0, "\(arguments)")
        #expect(r.stderr.contains(fragment), "\(arguments): \(r.stderr)")
        #expect(r.stderr.hasPrefix("Error: "), "\(arguments): \(r.stderr)")
    }
}
