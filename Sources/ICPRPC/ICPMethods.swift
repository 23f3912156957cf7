import ByteCoding
import ICPIdentity
import ICPReplica
import JSONCoding
import JSONRPC

/// ICP's JSON-RPC methods, served by the development network next to `eth_*` (README, "RPC methods"):
/// - `sandnet_icpFaucet [account, e8s?]` → `{account, blockIndex, e8s}` (``ICPFaucet``)
/// - `sandnet_icpBalance [account]` → e8s as a decimal string
/// - `sandnet_icpIncreaseTime [seconds]` → the ledger clock's total offset in seconds
/// - `sandnet_icpInfo []` → canister id, ledger parameters and the replica's URL paths
/// - `sandnet_icpBlocks [start, length]` → the ledger's blocks as JSON (``ICPBlockMethods``)
///
/// The replica itself knows nothing of JSON-RPC; these methods convert arguments and results only.
public enum ICPMethods {
    /// The method table for `faucet`'s replica.
    public static func table(_ faucet: ICPFaucet) -> [String: RPCMethod] {
        let replica = faucet.replica
        let methods: [String: RPCMethod] = [
            "sandnet_icpFaucet": { params in
                try params.atMost(2)
                let text = try params.required(0) { json throws(RPCError) -> String in
                    guard let s = json.stringValue else { throw RPCError.invalidParams("account must be a string") }
                    return s
                }
                let e8s = try params.optional(1) { json throws(RPCError) -> UInt64 in
                    guard let s = json.stringValue ?? Self.numberText(json), let n = UInt64(s) else {
                        throw RPCError.invalidParams("amount must be a whole number of e8s")
                    }
                    return n
                }
                do {
                    return try faucet.claim(account: text, e8s: e8s).json
                } catch {
                    throw RPCError.invalidParams("\(error)")
                }
            },
            "sandnet_icpBalance": { params in
                try params.atMost(1)
                let text = try params.required(0) { json throws(RPCError) -> String in
                    guard let s = json.stringValue else { throw RPCError.invalidParams("account must be a string") }
                    return s
                }
                let account: AccountIdentifier
                do { account = try ICPFaucet.parseAccount(text) } catch { throw RPCError.invalidParams("\(error)") }
                return .string(String(replica.readService { $0.ledger.balance(of: account).e8s }))
            },
            "sandnet_icpIncreaseTime": { params in
                try params.atMost(1)
                let seconds = try params.required(0) { json throws(RPCError) -> UInt64 in
                    guard let s = json.stringValue ?? Self.numberText(json), let n = UInt64(s), n <= 10 * 365 * 86_400
                    else { throw RPCError.invalidParams("seconds must be a whole number of at most ten years") }
                    return n
                }
                guard let offset = replica.increaseLedgerTime(by: seconds * 1_000_000_000) else {
                    throw RPCError.invalidParams(
                        "cannot increase the ledger time by \(seconds) seconds: its clock may not pass 2^64-1 ns "
                            + "after the epoch (2554-07-21T23:34:33Z)")
                }
                return .int(offset / 1_000_000_000)
            },
            "sandnet_icpInfo": { params in
                try params.atMost(0)
                let (fee, symbol, blocks, minting) = replica.readService {
                    (
                        $0.ledger.configuration.transferFee.e8s, $0.ledger.configuration.tokenSymbol,
                        $0.ledger.chainLength, $0.ledger.configuration.mintingAccount
                    )
                }
                return .object([
                    ("canisterId", .string(replica.canisterID.text)), ("symbol", .string(symbol)),
                    ("feeE8s", .string(String(fee))), ("chainLength", .int(blocks)),
                    ("mintingAccount", .string(minting.text)),
                    ("faucetE8s", .string(String(faucet.configuration.payoutE8s))),
                    ("rootKey", .string(Hex.encode(replica.configuration.keys.rootKey))),
                    ("ledgerTimeNanos", .string(String(replica.ledgerNow))),
                ])
            },
        ]
        return methods.merging(ICPBlockMethods.table(replica)) { own, _ in own }
    }

    static func numberText(_ json: JSON) -> String? {
        if case .number(let text) = json { return text }
        return nil
    }
}
