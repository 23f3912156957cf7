import ByteCoding
import ICPIdentity
import ICPLedger
import ICPLedgerService
import JSONCoding
import JSONRPC

/// Why the ICP faucet refused a claim.
public struct ICPFaucetError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Replica {
    /// Reads an account as wallets write it: a 64-hex-digit account identifier (checksum verified), a principal, or
    /// an ICRC-1 account text (`principal-checksum.subaccount`).
    public static func parseAccount(_ text: String) throws(ICPFaucetError) -> AccountIdentifier {
        let trimmed = text.hasPrefix("0x") ? String(text.dropFirst(2)) : text
        if trimmed.count == 64, trimmed.allSatisfy(\.isHexDigit) {
            do { return try AccountIdentifier(hex: trimmed) } catch {
                throw ICPFaucetError("invalid account identifier: \(error)")
            }
        }
        do { return AccountIdentifier(try Account(text: text)) } catch {
            throw ICPFaucetError(
                "invalid account '\(text)': expected a principal, an ICRC-1 account or a 64-hex-digit account identifier (\(error))")
        }
    }

    /// Mints test ICP to `account` (the faucet): `e8s` or the configured amount, at most the configured maximum.
    ///
    /// - Returns: the account identifier, the block index and the amount.
    public func faucet(account text: String, e8s: UInt64? = nil) throws(ICPFaucetError)
        -> (account: AccountIdentifier, blockIndex: UInt64, e8s: UInt64)
    {
        let account = try Self.parseAccount(text)
        let amount = e8s ?? configuration.faucetE8s
        guard amount > 0, amount <= configuration.faucetMaxE8s else {
            throw ICPFaucetError("amount must be between 1 and \(configuration.faucetMaxE8s) e8s")
        }
        let now = ledgerNow
        let index: UInt64
        do { index = try withService { try $0.ledger.mint(to: account, amount: Tokens(e8s: amount), now: now) } } catch {
            throw ICPFaucetError("mint failed: \(error)")
        }
        return (account, index, amount)
    }

    /// The replica's JSON-RPC methods, served by the node next to `eth_*`:
    /// - `sandnet_icpFaucet [account, e8s?]` → `{account, blockIndex, e8s}`
    /// - `sandnet_icpBalance [account]` → e8s as a decimal string
    /// - `sandnet_icpIncreaseTime [seconds]` → the ledger clock's total offset in seconds
    /// - `sandnet_icpInfo []` → canister id, ledger parameters and the replica's URL paths
    public var rpcMethods: [String: RPCMethod] {
        [
            "sandnet_icpFaucet": { [self] params in
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
                    let result = try faucet(account: text, e8s: e8s)
                    return .object([
                        ("account", .string(result.account.hex)), ("blockIndex", .int(result.blockIndex)),
                        ("e8s", .string(String(result.e8s))),
                    ])
                } catch {
                    throw RPCError.invalidParams("\(error)")
                }
            },
            "sandnet_icpBalance": { [self] params in
                try params.atMost(1)
                let text = try params.required(0) { json throws(RPCError) -> String in
                    guard let s = json.stringValue else { throw RPCError.invalidParams("account must be a string") }
                    return s
                }
                let account: AccountIdentifier
                do { account = try Self.parseAccount(text) } catch { throw RPCError.invalidParams("\(error)") }
                return .string(String(withService { $0.ledger.balance(of: account).e8s }))
            },
            "sandnet_icpIncreaseTime": { [self] params in
                try params.atMost(1)
                let seconds = try params.required(0) { json throws(RPCError) -> UInt64 in
                    guard let s = json.stringValue ?? Self.numberText(json), let n = UInt64(s), n <= 10 * 365 * 86_400
                    else { throw RPCError.invalidParams("seconds must be a whole number of at most ten years") }
                    return n
                }
                guard let offset = increaseLedgerTime(by: seconds * 1_000_000_000) else {
                    throw RPCError.invalidParams(
                        "cannot increase the ledger time by \(seconds) seconds: its clock may not pass 2^64-1 ns "
                            + "after the epoch (2554-07-21T23:34:33Z)")
                }
                return .int(offset / 1_000_000_000)
            },
            "sandnet_icpInfo": { [self] params in
                try params.atMost(0)
                let (fee, symbol, blocks, minting) = withService {
                    (
                        $0.ledger.configuration.transferFee.e8s, $0.ledger.configuration.tokenSymbol,
                        $0.ledger.chainLength, $0.ledger.configuration.mintingAccount
                    )
                }
                return .object([
                    ("canisterId", .string(canisterID.text)), ("symbol", .string(symbol)),
                    ("feeE8s", .string(String(fee))), ("chainLength", .int(blocks)),
                    ("mintingAccount", .string(minting.text)), ("faucetE8s", .string(String(configuration.faucetE8s))),
                    ("rootKey", .string(Hex.encode(configuration.keys.rootKey))),
                    ("ledgerTimeNanos", .string(String(ledgerNow))),
                ])
            },
        ]
    }

    static func numberText(_ json: JSON) -> String? {
        if case .number(let text) = json { return text }
        return nil
    }
}
