import JSONCoding
import JSONRPC
import Testing

@Suite struct JSONTests {
    @Test func roundTrips() throws {
        let text = #"{"a":[1,-2.5e3,true,false,null],"b":"x\"y\\z\n\u00e9","c":{}}"#
        let value = try JSON.parse(text)
        #expect(value["a"]?.arrayValue?.count == 5)
        #expect(value["b"]?.stringValue == "x\"y\\z\né")
        #expect(try JSON.parse(value.serialized) == value)
        #expect(JSON.number("123456789012345678901234567890").serialized == "123456789012345678901234567890")
    }

    @Test func unpairedSurrogates() throws {
        // A high surrogate followed by an escape that is not a low surrogate: U+FFFD, then that escape on its own
        // (Go's encoding/json, which geth uses). The escape used to be swallowed ("\ud800\u0041" lost the "A").
        #expect(try JSON.parse(#""\ud800\u0041""#) == .string("\u{FFFD}A"))
        #expect(try JSON.parse(#""\ud800\ud800\udc00""#) == .string("\u{FFFD}\u{10000}"))
        #expect(try JSON.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSON.parse(#""\udc00x""#) == .string("\u{FFFD}x"))
        #expect(try JSON.parse(#""\ud800""#) == .string("\u{FFFD}"))
    }

    @Test func rejectsMalformed() {
        for bad in [
            "", "{", "[1,]", "{\"a\" 1}", "01", "1 2", "\"\u{01}\"", "tru", "[" + String(repeating: "[", count: 300),
        ] {
            #expect(throws: JSONParseError.self, "\(bad)") { try JSON.parse(bad) }
        }
    }
}

@Suite struct DispatcherTests {
    var dispatcher: RPCDispatcher {
        var d = RPCDispatcher()
        d.register("echo") { params in params[0] ?? .null }
        d.register("fail") { _ in throw RPCError.server("nonce too low") }
        d.register("crash") { _ in throw ArgumentError("boom") }
        d.batchLimit = 3
        return d
    }

    func call(_ text: String) throws -> JSON? {
        guard let out = dispatcher.handle(Array(text.utf8)) else { return nil }
        return try JSON.parse(out)
    }

    @Test func singleAndIDs() throws {
        #expect(try call(#"{"jsonrpc":"2.0","id":"abc","method":"echo","params":[5]}"#)?["result"] == .number("5"))
        #expect(try call(#"{"jsonrpc":"2.0","id":7,"method":"echo","params":[5]}"#)?["id"] == .number("7"))
        #expect(try call(#"{"jsonrpc":"2.0","id":null,"method":"echo"}"#)?["id"] == .null)
    }

    @Test func errorsAndCodes() throws {
        #expect(try call("{oops")?["error"]?["code"] == .number("-32700"))
        #expect(
            try call(#"{"jsonrpc":"2.0","id":1,"method":"nope"}"#)?["error"]?["message"]
                == .string("the method nope does not exist/is not available"))
        #expect(try call(#"{"jsonrpc":"1.0","id":1,"method":"echo"}"#)?["error"]?["code"] == .number("-32600"))
        #expect(try call(#"{"jsonrpc":"2.0","id":1,"method":"fail"}"#)?["error"]?["code"] == .number("-32000"))
        #expect(try call(#"{"jsonrpc":"2.0","id":1,"method":"crash"}"#)?["error"]?["code"] == .number("-32603"))
        #expect(
            try call(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":{"a":1}}"#)?["error"]?["code"]
                == .number("-32602"))
        #expect(try call("[]")?["error"]?["code"] == .number("-32600"))
        #expect(try call("[1,2]")?.arrayValue?.count == 2)
    }

    @Test func batchesAndNotifications() throws {
        let batch = try call(
            #"[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","id":2,"method":"nope"}]"#
        )
        #expect(batch?.arrayValue?.count == 2)
        #expect(try call(#"{"jsonrpc":"2.0","method":"echo"}"#) == nil)
        #expect(try call(#"[{"jsonrpc":"2.0","method":"echo"}]"#) == nil)
        let big =
            "[" + Array(repeating: #"{"jsonrpc":"2.0","id":1,"method":"echo"}"#, count: 4).joined(separator: ",") + "]"
        #expect(try call(big)?.arrayValue?.first?["error"]?["message"] == .string("batch too large"))
    }

    func raw(_ text: String, _ configure: (inout RPCDispatcher) -> Void = { _ in }) -> String? {
        var d = dispatcher
        configure(&d)
        return d.handle(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// geth rpc/testdata/invalid-batch-toolarge.js and invalid-batch.js, byte for byte.
    @Test func batchErrorsAsGethWritesThem() {
        let notification = #"{"jsonrpc":"2.0","method":"echo","params":["x",99]}"#
        #expect(
            raw("[" + Array(repeating: notification, count: 4).joined(separator: ",") + "]")
                == #"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"batch too large"}}]"#)
        let withCall = [
            notification, #"{"jsonrpc":"2.0","id":3,"method":"echo","params":["x",99]}"#, notification, notification,
        ]
        #expect(
            raw("[" + withCall.joined(separator: ",") + "]")
                == #"[{"jsonrpc":"2.0","id":3,"error":{"code":-32600,"message":"batch too large"}}]"#)
        #expect(raw("[]") == #"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}"#)
        #expect(raw("[1]") == #"[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}]"#)
        // 0: no limit.
        let many =
            "["
            + Array(repeating: #"{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}"#, count: 5).joined(
                separator: ",") + "]"
        #expect(raw(many) { $0.batchLimit = 0 }.map { (try? JSON.parse($0))?.arrayValue?.count } == 5)
    }

    /// geth rpc/handler.go: once the results and errors of a batch pass the limit, every call left gets -32003.
    @Test func batchResponseSizeLimit() {
        let calls = (1...4).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"echo","params":["abcd"]}"# }
        let text =
            "[" + calls[0] + "," + #"{"jsonrpc":"2.0","method":"echo"}"# + "," + calls[1...].joined(separator: ",")
            + ",7]"
        // Each result is "abcd" with its quotes: 6 bytes. After two (12 > 10) the rest are not run.
        #expect(
            raw(text) {
                $0.batchResponseMaxSize = 10
                $0.batchLimit = 0
            }
                == #"[{"jsonrpc":"2.0","id":1,"result":"abcd"},{"jsonrpc":"2.0","id":2,"result":"abcd"},"#
                + #"{"jsonrpc":"2.0","id":3,"error":{"code":-32003,"message":"response too large"}},"#
                + #"{"jsonrpc":"2.0","id":4,"error":{"code":-32003,"message":"response too large"}},"#
                + #"{"jsonrpc":"2.0","id":null,"error":{"code":-32003,"message":"response too large"}}]"#)
    }

    @Test func overlayMethodsComeFirst() {
        #expect(
            raw(#"{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}"#) == #"{"jsonrpc":"2.0","id":1,"result":1}"#)
        let overlaid = dispatcher.handle(
            Array(
                #"[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},{"jsonrpc":"2.0","id":2,"method":"mine"}]"#
                    .utf8),
            overlay: ["echo": { _ in .string("overlay") }, "mine": { _ in .bool(true) }])
        #expect(
            overlaid.map { String(decoding: $0, as: UTF8.self) }
                == #"[{"jsonrpc":"2.0","id":1,"result":"overlay"},{"jsonrpc":"2.0","id":2,"result":true}]"#)
    }
}
