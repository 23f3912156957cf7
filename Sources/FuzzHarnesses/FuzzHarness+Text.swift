import EthereumTypes
import JSONCoding
import JSONRPC
import ScenarioRunner

extension FuzzHarness {
    /// A dispatcher with a few methods that read their parameters the way the node's methods do.
    static let dispatcher: RPCDispatcher = {
        var dispatcher = RPCDispatcher()
        dispatcher.batchLimit = 100
        dispatcher.register("echo") { params in .array(params.values) }
        dispatcher.register(["eth_getBalance", "anvil_setBalance"]) { params in
            try params.atMost(2)
            let address = try params.required(0) { json -> Address in
                guard let text = json.stringValue else { throw ArgumentError("not a string") }
                return try Address(parsing: text)
            }
            let block = try params.optional(1) { json -> UInt64 in
                guard let text = json.stringValue else { throw ArgumentError("not a string") }
                return try Quantity.parseUInt64(text)
            }
            return .array([.string(address.lowercased), .int(block ?? 0)])
        }
        dispatcher.register("fail") { _ in throw RPCError.server("nonce too low") }
        dispatcher.register("internal") { _ in throw ArgumentError("not mapped") }
        return dispatcher
    }()

    /// JSON-RPC 2.0 requests: every body gets a response that is valid JSON (or none, for notifications);
    /// a document that parses survives serialisation unchanged.
    @Sendable public static func jsonRPC(_ data: [UInt8]) {
        if let response = dispatcher.handle(data) {
            do {
                _ = try JSON.parse(response)
            } catch {
                violated(
                    "jsonrpc: the response is valid JSON", "\(error): \(String(decoding: response, as: UTF8.self))")
            }
        }
        guard let document = try? JSON.parse(data) else { return }
        let serialized = document.bytes
        do {
            let again = try JSON.parse(serialized)
            check(again == document, "jsonrpc: parse(serialize(v)) == v", String(decoding: serialized, as: UTF8.self))
            check(again.bytes == serialized, "jsonrpc: serialisation is a fixed point")
        } catch {
            violated("jsonrpc: serialised JSON parses", "\(error): \(String(decoding: serialized, as: UTF8.self))")
        }
    }

    /// Scenario YAML: any text either parses to a scenario or fails with a ScenarioFormatError; never a trap.
    /// The file name lives in a directory that does not exist, so relative keystore paths resolve to nothing.
    @Sendable public static func scenario(_ data: [UInt8]) {
        let text = String(decoding: data, as: UTF8.self)
        _ = try? ScenarioParser.parse(yaml: text, file: "/nonexistent-sandnet-fuzz/scenario.yaml")
    }
}
