import ByteCoding
import EthereumNode
import JSONCoding
import JSONRPC

/// What an `eth_subscribe` subscriber asked for, and the results of its notifications: the one code path the
/// WebSocket server and the in-process scenario runner both use, so both see the same shapes.
public enum SubscriptionTopic: Sendable, Equatable {
    case newHeads
    case newPendingTransactions
    case logs(LogFilter)

    /// `eth_subscribe(name, filter)`'s arguments, with geth's texts (`rpc/handler.go`).
    public init(name: String, filter: JSON?) throws {
        switch name {
        case "newHeads": self = .newHeads
        case "newPendingTransactions": self = .newPendingTransactions
        case "logs": self = .logs(try NodeFormat.subscriptionFilter(filter))
        default: throw RPCError(code: -32601, message: "no \"\(name)\" subscription in eth namespace")
        }
    }

    /// The `result` of each notification `event` causes for this topic, in order. `header` caches the `newHeads`
    /// shape of a new block across the subscriptions of one connection.
    public func results(for event: NodeEvent, header: inout JSON?) -> [JSON] {
        switch (event, self) {
        case (.newBlock(let block), .newHeads):
            let result = header ?? NodeFormat.header(block)
            header = result
            return [result]
        case (.pendingTransaction(let hash), .newPendingTransactions):
            return [.string(Hex.encodePrefixed(hash))]
        case (.newBlock(let block), .logs(let filter)):
            // Every matching log of the new block, one notification each, in block order (as geth sends them).
            var out: [JSON] = []
            for receipt in block.receipts {
                for (i, log) in receipt.logs.enumerated() where filter.matches(log) {
                    out.append(NodeFormat.log(LogEntry(log: log, receipt: receipt, block: block, index: i)))
                }
            }
            return out
        case (.removedBlocks(let blocks), .logs(let filter)):
            // A reorg: the logs of the removed blocks again, newest block first, with removed: true.
            return blocks.reversed().flatMap { block in
                LogEntry.removed(from: block).filter { filter.matches($0.log) }.map(NodeFormat.log)
            }
        default:
            return []
        }
    }
}
