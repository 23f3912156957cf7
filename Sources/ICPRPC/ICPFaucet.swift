import ICPIdentity
import ICPLedger
import ICPReplica
import JSONCoding

/// Why the ICP faucet refused a claim (or an account text could not be read).
public struct ICPFaucetError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The ICP faucet's rules in one place: which account texts it reads, what one claim mints (the payout, or a chosen
/// amount up to a maximum), and the answers of `POST /api/icp/claim`. `sandnet_icpFaucet` and the HTTP route both
/// claim through it. The faucet mints through the ledger's minting account, so it never runs dry, and it has no
/// cooldown.
public struct ICPFaucet: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// What one claim mints when it names no amount (100 ICP).
        public var payoutE8s: UInt64 = 100 * 100_000_000
        /// The most one claim may ask for (10,000 ICP).
        public var maxE8s: UInt64 = 10_000 * 100_000_000

        public init() {}
    }

    /// A successful claim.
    public struct Claim: Sendable, Equatable {
        public var account: AccountIdentifier
        public var blockIndex: UInt64
        public var e8s: UInt64

        /// `{account, blockIndex, e8s}`: the answer of both the RPC method and the HTTP route.
        public var json: JSON {
            .object([
                ("account", .string(account.hex)), ("blockIndex", .int(blockIndex)), ("e8s", .string(String(e8s))),
            ])
        }
    }

    /// An answer of `POST /api/icp/claim`: the HTTP status and the JSON body.
    public struct HTTPReply: Sendable, Equatable {
        public var status: Int
        public var body: JSON
    }

    /// The replica whose ledger the faucet mints on.
    public let replica: Replica
    public let configuration: Configuration

    public init(replica: Replica, configuration: Configuration = Configuration()) {
        self.replica = replica
        self.configuration = configuration
    }

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
                "invalid account '\(text)': expected a principal, an ICRC-1 account or a 64-hex-digit account identifier (\(error))"
            )
        }
    }

    /// Mints test ICP to `account`: `e8s` or the payout, at most ``Configuration/maxE8s``.
    ///
    /// - Throws: ``ICPFaucetError`` for an unreadable account, an amount out of range or a failed mint.
    public func claim(account text: String, e8s: UInt64? = nil) throws(ICPFaucetError) -> Claim {
        let account = try Self.parseAccount(text)
        let amount = e8s ?? configuration.payoutE8s
        guard amount > 0, amount <= configuration.maxE8s else {
            throw ICPFaucetError("amount must be between 1 and \(configuration.maxE8s) e8s")
        }
        let index: UInt64
        do { index = try replica.mint(to: account, amount: Tokens(e8s: amount)) } catch {
            throw ICPFaucetError("mint failed: \(error)")
        }
        return Claim(account: account, blockIndex: index, e8s: amount)
    }

    /// `POST /api/icp/claim` with `{"account": …, "e8s"?: N}`: 200 with the claim, or 400 with `{"msg": …}`.
    public func claim(httpBody: [UInt8]) -> HTTPReply {
        guard let json = try? JSON.parse(httpBody), case .object(let members) = json,
            members.allSatisfy({ $0.0 == "account" || $0.0 == "e8s" }), let account = json["account"]?.stringValue
        else {
            return .message(
                "invalid request body: expected {\"account\": \"<principal | ICRC-1 account | account id>\"}",
                status: 400)
        }
        var e8s: UInt64?
        if let amount = json["e8s"] {
            guard case .number(let text) = amount, let n = UInt64(text) else {
                return .message("e8s must be a whole number", status: 400)
            }
            e8s = n
        }
        do {
            return HTTPReply(status: 200, body: try claim(account: account, e8s: e8s).json)
        } catch {
            return .message("\(error)", status: 400)
        }
    }
}

extension ICPFaucet.HTTPReply {
    /// `{"msg": text}`, the shape of every faucet refusal.
    static func message(_ text: String, status: Int) -> Self {
        Self(status: status, body: .object([("msg", .string(text))]))
    }
}
