import ByteCoding
import EthereumLedger
import EthereumNode
import JSONCoding
import JSONRPC

/// What an `eth_subscribe` subscriber asked for, and the results of its notifications: the one code path the
/// WebSocket server and the in-process scenario runner both use, so both see the same shapes.
public enum SubscriptionTopic: Sendable, Equatable {
    case newHeads
    /// Hashes, or (`true` as the second argument) full transaction objects.
    case newPendingTransactions(full: Bool)
    case logs(LogFilter)
    /// The chain is always synced, and geth notifies nothing while synced.
    case syncing

    /// `eth_subscribe(name, argument)`'s arguments, with geth's texts (`rpc/handler.go`): `argument` is the log
    /// filter of `logs` and the full-objects flag of `newPendingTransactions`.
    public init(name: String, filter argument: JSON?) throws {
        switch name {
        case "newHeads": self = .newHeads
        case "newPendingTransactions": self = .newPendingTransactions(full: try Self.fullTransactionsFlag(argument))
        case "syncing": self = .syncing
        case "logs": self = .logs(try NodeFormat.subscriptionFilter(argument))
        default: throw RPCError(code: -32601, message: "no \"\(name)\" subscription in eth namespace")
        }
    }

    /// newPendingTransactions' optional second argument (geth's `*bool`, with its unmarshalling text).
    static func fullTransactionsFlag(_ value: JSON?) throws -> Bool {
        guard let value, !value.isNull else { return false }
        guard let flag = value.boolValue else {
            throw RPCError.invalidParams(
                "invalid argument 1: json: cannot unmarshal \(value.typeName) into Go value of type bool")
        }
        return flag
    }

    /// The `result` of each notification `event` causes for this topic, in order. `header` caches the `newHeads`
    /// shape of a new block across the subscriptions of one connection (full pending transactions are not looked
    /// up: see ``results(for:header:pendingTransaction:lookup:)``).
    public func results(for event: NodeEvent, header: inout JSON?) -> [JSON] {
        var pending: JSON?? = .some(nil)
        return results(for: event, header: &header, pendingTransaction: &pending, lookup: { _ in nil })
    }

    /// As ``results(for:header:)``; `lookup` finds a pending transaction for full `newPendingTransactions`
    /// subscribers, called at most once per event (`pendingTransaction` caches its shape across subscriptions).
    public func results(
        for event: NodeEvent, header: inout JSON?, pendingTransaction: inout JSON??,
        lookup: ([UInt8]) -> LedgerTransaction?
    ) -> [JSON] {
        switch (event, self) {
        case (.newBlock(let block), .newHeads):
            let result = header ?? NodeFormat.header(block)
            header = result
            return [result]
        case (.pendingTransaction(let hash), .newPendingTransactions(full: false)):
            return [.string(Hex.encodePrefixed(hash))]
        case (.pendingTransaction(let hash), .newPendingTransactions(full: true)):
            let result = pendingTransaction ?? lookup(hash).map(NodeFormat.pendingTransaction)
            pendingTransaction = result
            // A transaction already gone (dropped between admission and this event) is not announced.
            return result.map { [$0] } ?? []
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
