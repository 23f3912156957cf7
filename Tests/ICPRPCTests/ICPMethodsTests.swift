import ICPIdentity
import ICPLedger
import ICPLedgerService
import ICPRPC
import ICPReplica
import JSONCoding
import JSONRPC
import Synchronization
import Testing

/// Nanoseconds since the epoch: a fixed time, so ledger times in answers are exact.
final class TestClock: Sendable {
    let nanos: Mutex<UInt64>
    init(_ start: UInt64) { nanos = Mutex(start) }
    var now: UInt64 { nanos.withLock { $0 } }
}

/// A replica over an in-memory ledger on a fixed clock, and its faucet.
final class FaucetFixture: Sendable {
    static let start: UInt64 = 1_700_000_000_000_000_000
    let time = TestClock(FaucetFixture.start)
    let replica: Replica
    let faucet: ICPFaucet
    let methods: [String: RPCMethod]

    init(_ configuration: ICPFaucet.Configuration = ICPFaucet.Configuration()) throws {
        let minting = Account(owner: try Principal(text: "aaaaa-aa"))
        let ledger = LedgerCanister(
            configuration: LedgerConfiguration(mintingAccount: minting), initialBalances: [], now: Self.start)
        let time = self.time
        replica = Replica(service: LedgerService(ledger: ledger)) { time.now }
        faucet = ICPFaucet(replica: replica, configuration: configuration)
        methods = ICPMethods.table(faucet)
    }

    func call(_ method: String, _ params: [JSON]) throws -> JSON {
        let handler = try #require(methods[method])
        return try handler(RPCParams(params))
    }
}

/// The anonymous principal's account identifier.
let anonymousAccount = "1c7a48ba6a562aa9eaa2481a9049cdf0433b9738c992d698c31d8abf89cadc79"

/// `sandnet_icp*`: the replica's JSON-RPC methods, outside the replica.
@Suite struct ICPMethodsTests {
    @Test func theTableHasTheFiveMethods() throws {
        #expect(
            try FaucetFixture().methods.keys.sorted() == [
                "sandnet_icpBalance", "sandnet_icpBlocks", "sandnet_icpFaucet", "sandnet_icpIncreaseTime",
                "sandnet_icpInfo",
            ])
    }

    @Test func faucetMintsToAnyAccountFormAndRefusesGarbage() throws {
        let fixture = try FaucetFixture()
        let minted = try fixture.call("sandnet_icpFaucet", [.string("2vxsx-fae"), .string("5")])
        #expect(minted["account"]?.stringValue == anonymousAccount)
        #expect(try fixture.call("sandnet_icpBalance", [.string(minted["account"]!.stringValue!)]) == .string("5"))
        let bad: [(String, [JSON], String)] = [
            ("sandnet_icpFaucet", [.string("not-an-account")], "invalid account 'not-an-account'"),
            ("sandnet_icpFaucet", [.number("7")], "account must be a string"),
            ("sandnet_icpFaucet", [.string("2vxsx-fae"), .string("-1")], "amount must be a whole number of e8s"),
            ("sandnet_icpFaucet", [.string("2vxsx-fae"), .string("0")], "amount must be between 1 and"),
            (
                "sandnet_icpFaucet", [.string("2vxsx-fae"), .string("1"), .string("x")],
                "too many arguments, want at most 2"
            ),
            ("sandnet_icpBalance", [.string("zz")], "invalid account 'zz'"),
            ("sandnet_icpIncreaseTime", [.string("forever")], "seconds must be a whole number"),
            ("sandnet_icpInfo", [.string("x")], "too many arguments, want at most 0"),
        ]
        for (method, params, fragment) in bad {
            do {
                _ = try fixture.call(method, params)
                Issue.record("\(method) \(params) was accepted")
            } catch let error as RPCError {
                #expect(error.code == -32602, "\(method): \(error)")
                #expect(error.message.contains(fragment), "\(method): \(error.message)")
            }
        }
    }

    @Test func increaseTimeMovesTheLedgerClockOnly() throws {
        let fixture = try FaucetFixture()
        let before = fixture.replica.now
        #expect(try fixture.call("sandnet_icpIncreaseTime", [.number("90000")]) == .number("90000"))
        #expect(fixture.replica.now == before)
        #expect(fixture.replica.ledgerNow == before + 90_000 * 1_000_000_000)
    }

    @Test func infoReportsTheFaucetsPayout() throws {
        var configuration = ICPFaucet.Configuration()
        configuration.payoutE8s = 42
        let fixture = try FaucetFixture(configuration)
        let info = try fixture.call("sandnet_icpInfo", [])
        #expect(info["faucetE8s"] == .string("42"))
        #expect(info["canisterId"] == .string("ryjl3-tyaaa-aaaaa-aaaba-cai"))
        #expect(info["feeE8s"] == .string("10000"))
        #expect(info["chainLength"] == .number("0"))
        #expect(info["ledgerTimeNanos"] == .string(String(FaucetFixture.start)))
    }
}

/// ``ICPFaucet``: one set of rules for `sandnet_icpFaucet` and `POST /api/icp/claim`.
@Suite struct ICPFaucetTests {
    @Test func theRPCMethodAndTheHTTPRouteMintThePayoutOnTheSameLedger() throws {
        var configuration = ICPFaucet.Configuration()
        configuration.payoutE8s = 250
        let fixture = try FaucetFixture(configuration)
        let rpc = try fixture.call("sandnet_icpFaucet", [.string("2vxsx-fae")])
        #expect(
            rpc
                == .object([
                    ("account", .string(anonymousAccount)), ("blockIndex", .number("0")), ("e8s", .string("250")),
                ]))
        let http = fixture.faucet.claim(httpBody: Array(#"{"account":"2vxsx-fae"}"#.utf8))
        #expect(http.status == 200)
        #expect(
            http.body
                == .object([
                    ("account", .string(anonymousAccount)), ("blockIndex", .number("1")), ("e8s", .string("250")),
                ]))
        let chosen = fixture.faucet.claim(httpBody: Array(#"{"account":"\#(anonymousAccount)","e8s":7}"#.utf8))
        #expect(chosen.body["e8s"] == .string("7"))
        #expect(try fixture.call("sandnet_icpBalance", [.string("2vxsx-fae")]) == .string("507"))
    }

    @Test func httpRefusalsKeepTheirTexts() throws {
        let fixture = try FaucetFixture()
        let shape = "invalid request body: expected {\"account\": \"<principal | ICRC-1 account | account id>\"}"
        let refusals: [(String, String)] = [
            ("[]", shape),
            (#"{"account":"2vxsx-fae","memo":1}"#, shape),
            (#"{"e8s":1}"#, shape),
            (#"{"account":"2vxsx-fae","e8s":"5"}"#, "e8s must be a whole number"),
            (#"{"account":"2vxsx-fae","e8s":-5}"#, "e8s must be a whole number"),
            (#"{"account":"2vxsx-fae","e8s":1000000000001}"#, "amount must be between 1 and 1000000000000 e8s"),
            (#"{"account":"2vxsx-fae","e8s":0}"#, "amount must be between 1 and 1000000000000 e8s"),
        ]
        for (body, text) in refusals {
            let reply = fixture.faucet.claim(httpBody: Array(body.utf8))
            #expect(reply.status == 400, "\(body)")
            #expect(reply.body == .object([("msg", .string(text))]), "\(body)")
        }
        let garbage = fixture.faucet.claim(httpBody: Array(#"{"account":"zz"}"#.utf8))
        #expect(
            garbage.body["msg"]?.stringValue?.hasPrefix("invalid account 'zz': expected a principal, an ICRC-1 account")
                == true)
        #expect(try fixture.call("sandnet_icpInfo", [])["chainLength"] == .number("0"))
    }

    @Test func accountsAreReadInEveryWalletForm() throws {
        let principal = try ICPFaucet.parseAccount("2vxsx-fae")
        #expect(principal.hex == anonymousAccount)
        #expect(try ICPFaucet.parseAccount(anonymousAccount) == principal)
        #expect(try ICPFaucet.parseAccount("0x" + anonymousAccount) == principal)
        #expect(throws: ICPFaucetError.self) { try ICPFaucet.parseAccount(String(anonymousAccount.dropLast()) + "a") }
    }
}
