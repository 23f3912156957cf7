import EthereumLedger
import EthereumNode
import JSONCoding
import JSONRPC

/// The `txpool` namespace (geth's shapes: per sender, by nonce, `pending` and `queued`).
enum TxPoolRPC {
    static func register(_ node: SandnetNode, into d: inout RPCDispatcher) {
        d.registerParameterless("txpool_status") {
            let content = node.pool.content
            return .object([("pending", Format.q(content.pending.count)), ("queued", Format.q(content.queued.count))])
        }
        d.registerParameterless("txpool_content") {
            grouped(node.pool.content) { Format.transaction($0, block: nil, index: nil, baseFee: nil) }
        }
        // geth's contentFrom: one sender's `{"pending": {nonce: tx}, "queued": …}`.
        d.register("txpool_contentFrom") { p in
            try p.atMost(1)
            let sender = try p.required(0, Arg.address)
            let content = node.pool.content
            func byNonce(_ txs: [LedgerTransaction]) -> JSON {
                .object(
                    txs.filter { $0.sender == sender }.sorted { $0.nonce < $1.nonce }.map {
                        (String($0.nonce), Format.transaction($0, block: nil, index: nil, baseFee: nil))
                    })
            }
            return .object([("pending", byNonce(content.pending)), ("queued", byNonce(content.queued))])
        }
        d.registerParameterless("txpool_inspect") {
            grouped(node.pool.content) { tx in
                .string(
                    "\(tx.to?.lowercased ?? "contract creation"): \(tx.value) wei + \(tx.gasLimit) gas × \(tx.maxFeePerGas) wei"
                )
            }
        }
    }

    /// `{"pending": {sender: {nonce: …}}, "queued": …}`, senders in checksummed form, sorted.
    static func grouped(_ content: PoolContent, _ render: (LedgerTransaction) -> JSON) -> JSON {
        func group(_ txs: [LedgerTransaction]) -> JSON {
            var bySender: [String: [(String, JSON)]] = [:]
            for tx in txs { bySender[tx.sender.checksummed, default: []].append((String(tx.nonce), render(tx))) }
            return .object(bySender.keys.sorted().map { ($0, .object(bySender[$0]!)) })
        }
        return .object([("pending", group(content.pending)), ("queued", group(content.queued))])
    }
}
