import Foundation
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Values from flags that reached arithmetic traps at start (issues 28 and 38): the node answers with an error naming
/// the limit, or starts with amounts that fit.
@Suite(.timeLimit(.minutes(2))) struct NodeLimitTests {
    @Test(arguments: [
        (
            ["--faucet-cooldown", "99999999999999999d"],
            "--faucet-cooldown: duration '99999999999999999d' is longer than the limit of 3155760000 seconds (100 years)"
        ),
        (
            ["--faucet-cooldown", "213503982334601d"],
            "--faucet-cooldown: duration '213503982334601d' is longer than the limit of 3155760000 seconds (100 years)"
        ),
        (
            ["--icp-balance", "184467440737.09551616"],
            "--icp-balance: amount '184467440737.09551616' is larger than the limit of 184467440737.09551615"
        ),
        (
            ["--icp-faucet-amount", "1" + String(repeating: "0", count: 90)],
            "--icp-faucet-amount: amount '1\(String(repeating: "0", count: 90))' is larger than the limit of 184467440737.09551615"
        ),
        (
            ["--faucet-amount", "1" + String(repeating: "0", count: 80) + " ether"],
            "--faucet-amount: amount '1\(String(repeating: "0", count: 80)) ether' is larger than the limit of 2^256-1 base units"
        ),
        (["--balance", "1.5 banana"], "--balance: invalid amount '1.5 banana': unknown unit 'banana'"),
        (["--port", "70000"], "--port must be between 0 and 65535"),
        (["--port=-1"], "--port must be between 0 and 65535"),
        (["--max-request-bytes", "0"], "--max-request-bytes must be at least 1"),
        (["--block-time", "18446744073709551615"], "--block-time must be at most one year (31536000 seconds)"),
        (["--empty-block-interval", "31536001"], "--empty-block-interval must be at most one year (31536000 seconds)"),
        (["--nft", "garbage"], "--nft garbage: expected ADDRESS:SYMBOL:STANDARD[:STYLE[:NAME]]"),
        (
            ["--nft", "0x00000000000000000000000000000000000000c1:ART:erc20"],
            "--nft 0x00000000000000000000000000000000000000c1:ART:erc20: standard must be erc721 or erc1155"
        ),
        (["--nft-style", "bogus"], "--nft-style: unknown style 'bogus'"),
    ])
    func flagsOverALimitNameIt(flags: [String], message: String) throws {
        let r = try SandnetProcess.run(["node", "--in-memory", "--port", "0"] + flags)
        #expect(r.status != 0)
        #expect(r.stderr.hasPrefix("Error: \(message)"), "\(r.stderr)")
    }

    /// `--token ADDRESS:SYMBOL:69` (and 70, 77: decimals validation accepts) trapped at start: the default holdings,
    /// whole tokens × 10^decimals, overflowed 256 bits. The default amounts now shrink by powers of ten until the
    /// token's genesis supply fits: with 10 dev accounts (1,000,000 whole tokens each) and the faucet's 1,000,000,000,
    /// a holding of 10^6 units at 10^68, the same for each of these tokens.
    @Test func tokensWithManyDecimalsStart() async throws {
        let tokens = [("B69", 69), ("C70", 70), ("D77", 77), ("E67", 67)]
        var flags: [String] = []
        for (i, (symbol, decimals)) in tokens.enumerated() {
            flags += ["--token", "0x00000000000000000000000000000000000000b\(i):\(symbol):\(decimals)"]
        }
        let (process, url) = try await NodeServerFlagsTests.startNode(flags)
        defer {
            process.terminate()
            process.waitUntilExit()
        }
        let dev0 = "f39fd6e51aad88f6f4ce6ab8827279cfffb92266"
        for (i, (symbol, decimals)) in tokens.enumerated() {
            let call =
                #"{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x00000000000000000000000000000000000000b\#(i)","data":"0x70a08231000000000000000000000000\#(dev0)"},"latest"]}"#
            let (_, body) = try await NodeServerFlagsTests.post(url, call)
            // 67 decimals fit unchanged: 10^6 × 10^67 = 10^73 units; the others hold 10^6 × 10^68 = 10^74.
            let word = decimals == 67 ? Self.tenToThe73 : Self.tenToThe74
            #expect(body.contains(#""result":"0x\#(word)""#), "\(symbol): \(body)")
        }
        let (data, _) = try await URLSession.shared.data(from: URL(string: url + "/api/info")!)
        let info = String(decoding: data, as: UTF8.self)
        // A claim pays 1,000 whole tokens at the same scale: 10^71 units of D77 (0.000001), 1000 E67.
        #expect(Self.entry(of: "D77", in: info).contains(#""payout":"0.000001""#), "\(info)")
        #expect(Self.entry(of: "E67", in: info).contains(#""payout":"1000""#), "\(info)")
    }

    static let tenToThe73 = "0005a8e89d75252446eb5d5d5b1cc5edf20a1a059e10ca000000000000000000"
    static let tenToThe74 = "003899162693736ac531a5a58f1fbb4b746504382ca7e4000000000000000000"

    /// The JSON object of one token in `/api/info`'s list, as text.
    static func entry(of symbol: String, in info: String) -> Substring {
        guard let start = info.range(of: #""symbol":"\#(symbol)""#) else { return "" }
        return info[start.lowerBound...].prefix { $0 != "}" }
    }
}
