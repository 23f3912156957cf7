import ByteCoding
import ICPIdentity
import ICPLedger
import ICPReplica
import JSONCoding
import JSONRPC

/// The ICP ledger's blocks as JSON, for the built-in explorer (README, "Explorer") and any script that wants them
/// without Candid:
/// - `sandnet_icpBlocks [start, length]` → `{chainLength, blocks: [{index, hash, parentHash, timestamp, operation,
///   from, to, spender, amount, fee, allowance, memo, icrc1Memo, createdAtTime}]}`; at most ``maxLength`` blocks a
///   call (`query_blocks` has the same shape of range, in Candid).
///
/// Amounts and times are decimal strings (e8s, nanoseconds); accounts are the 64-digit hex account identifiers;
/// `icrc1Memo` is hex (null when absent), and is never interpreted here.
public enum ICPBlockMethods {
    /// The most blocks one call returns.
    public static let maxLength: UInt64 = 100

    /// The method table over `replica`'s ledger.
    public static func table(_ replica: Replica) -> [String: RPCMethod] {
        [
            "sandnet_icpBlocks": { params in
                try params.atMost(2)
                let start = try params.required(0) { json throws(RPCError) -> UInt64 in try Self.whole(json, "start") }
                let length = try params.required(1) { json throws(RPCError) -> UInt64 in
                    let n = try Self.whole(json, "length")
                    guard n <= maxLength else {
                        throw RPCError.invalidParams("length \(n) is over the limit of \(maxLength) blocks a call")
                    }
                    return n
                }
                let (chainLength, blocks) = replica.readService { service -> (UInt64, [(UInt64, Block)]) in
                    let ledger = service.ledger
                    let end = start >= ledger.chainLength ? start : min(ledger.chainLength, start + length)
                    return (ledger.chainLength, (start..<end).compactMap { i in ledger.block(at: i).map { (i, $0) } })
                }
                return .object([
                    ("chainLength", .int(chainLength)),
                    ("blocks", .array(blocks.map { json(index: $0.0, block: $0.1) })),
                ])
            }
        ]
    }

    static func whole(_ json: JSON, _ name: String) throws(RPCError) -> UInt64 {
        let text: String?
        switch json {
        case .number(let n): text = n
        case .string(let s): text = s
        default: text = nil
        }
        guard let text, let n = UInt64(text) else {
            throw RPCError.invalidParams("\(name) must be a whole number from 0 to 2^64-1")
        }
        return n
    }

    /// One block as the explorer reads it.
    static func json(index: UInt64, block: Block) -> JSON {
        var from: AccountIdentifier?
        var to: AccountIdentifier?
        var spender: AccountIdentifier?
        var amount: Tokens?
        var fee: Tokens?
        var allowance: Tokens?
        switch block.transaction.operation {
        case .burn(let f, let a, let s): (from, amount, spender) = (f, a, s)
        case .mint(let t, let a): (to, amount) = (t, a)
        case .transfer(let f, let t, let a, let e, let s): (from, to, amount, fee, spender) = (f, t, a, e, s)
        case .approve(let f, let s, let a, _, _, let e): (from, spender, allowance, fee) = (f, s, a, e)
        }
        func text(_ account: AccountIdentifier?) -> JSON { account.map { .string($0.hex) } ?? .null }
        func e8s(_ tokens: Tokens?) -> JSON { tokens.map { .string(String($0.e8s)) } ?? .null }
        return .object([
            ("index", .int(index)), ("hash", .string(Hex.encode(block.hash))),
            ("parentHash", block.parentHash.map { .string(Hex.encode($0)) } ?? .null),
            ("timestamp", .string(String(block.timestamp))),
            ("operation", .string(block.transaction.operation.name)),
            ("from", text(from)), ("to", text(to)), ("spender", text(spender)),
            ("amount", e8s(amount)), ("fee", e8s(fee)), ("allowance", e8s(allowance)),
            ("memo", .string(String(block.transaction.memo))),
            ("icrc1Memo", block.transaction.icrc1Memo.map { .string(Hex.encode($0)) } ?? .null),
            ("createdAtTime", block.transaction.createdAtTime.map { .string(String($0)) } ?? .null),
        ])
    }
}
