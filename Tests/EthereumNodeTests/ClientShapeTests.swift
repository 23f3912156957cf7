import JSONCoding
import JSONRPC
import Testing

@testable import EthereumNode

/// Shapes clients at their default settings send and expect (issue 19's first items).
@Suite struct ClientShapeTests {
    /// A storage key is 32 bytes of data (geth's `decodeHash`), not a quantity: the zero-padded form everyone sends
    /// used to be refused as "hex number with leading zero digits".
    @Test func storageKeysAreDataWithGethsErrors() throws {
        let (node, _) = try makeNode()
        let account = JSON.string(node.devAccounts[0].address.lowercased)
        let zero = JSON.string("0x" + String(repeating: "0", count: 64))
        for key in ["0x" + String(repeating: "0", count: 64), "0x00", "0x01", "0x1", "1", "0X0f"] {
            #expect(try node.call("eth_getStorageAt", [account, .string(key), .string("latest")]) == zero, "\(key)")
        }
        func refusal(_ key: JSON) -> RPCError? {
            do {
                _ = try node.call("eth_getStorageAt", [account, key, .string("latest")])
                return nil
            } catch { return error as? RPCError }
        }
        #expect(
            refusal(.string("0xzz"))
                == RPCError(code: -32000, message: "unable to decode storage key: hex string invalid"))
        #expect(
            refusal(.string("0x0x12"))
                == RPCError(code: -32000, message: "unable to decode storage key: hex string invalid"))
        #expect(
            refusal(.string("0x" + String(repeating: "1", count: 66)))
                == RPCError(
                    code: -32000, message: "unable to decode storage key: hex string too long, want at most 32 bytes"))
        #expect(
            refusal(.number("1"))
                == RPCError(
                    code: -32602,
                    message: "invalid argument 1: json: cannot unmarshal number into Go value of type string"))
    }

    /// Transaction objects carry `blockTimestamp` (execution-apis, geth): the block's timestamp, null while pending.
    @Test func transactionsCarryTheirBlockTimestamp() throws {
        let (node, _) = try makeNode()
        let from = JSON.string(node.devAccounts[0].address.lowercased)
        let to = JSON.string(node.devAccounts[1].address.lowercased)
        let request = JSON.object([("from", from), ("to", to), ("value", .string("0x1"))])
        let mined = try node.call("eth_sendTransaction", [request])
        let tx = try node.call("eth_getTransactionByHash", [mined])
        let block = try node.call("eth_getBlockByNumber", [tx["blockNumber"]!, .bool(false)])
        #expect(tx["blockTimestamp"] == block["timestamp"])
        #expect(tx["blockTimestamp"]?.stringValue?.hasPrefix("0x") == true)
        _ = try node.call("evm_setAutomine", [.bool(false)])
        let pending = try node.call("eth_sendTransaction", [request])
        let waiting = try node.call("eth_getTransactionByHash", [pending])
        #expect(waiting["blockTimestamp"] == .null)
        #expect(waiting["blockHash"] == .null)
    }

    /// Methods without parameters refuse extra ones as geth's server does for every method (`eth_chainId` used to
    /// answer while others refused).
    @Test(arguments: [
        "web3_clientVersion", "net_version", "net_listening", "net_peerCount", "eth_chainId", "eth_syncing",
        "eth_mining", "eth_hashrate", "eth_coinbase", "eth_accounts", "eth_blockNumber", "eth_gasPrice",
        "eth_maxPriorityFeePerGas", "eth_blobBaseFee", "txpool_status", "txpool_content", "txpool_inspect",
        "evm_snapshot", "anvil_getAutomine", "anvil_dumpState", "anvil_nodeInfo",
    ])
    func parameterlessMethodsRefuseExtraParameters(method: String) throws {
        let (node, _) = try makeNode()
        _ = try node.call(method, [])
        #expect {
            _ = try node.call(method, [.string("0x1")])
        } throws: { error in
            error as? RPCError == RPCError(code: -32602, message: "too many arguments, want at most 0")
        }
    }
}
