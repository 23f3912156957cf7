import CandidCoding
import ICPIdentity
import ICPLedger

/// The ICP ledger canister's Candid interface over a ``LedgerCanister``: a method name and Candid argument bytes
/// in, Candid reply bytes (or a reject as the replica words it) out. Argument types, result types and call kinds
/// come from ``candidInterface``; decoding follows the Candid spec's subtyping and coercion rules (extra record
/// fields and extra arguments ignored, missing `opt` fields read as `null`), and anything that does not decode is
/// rejected as the ICP ledger rejects it.
///
/// A pure value like the ledger: it computes a call's response and, for an update that made a block, the
/// ``LedgerChanges`` to write and commit; the ledger's owner (`PersistentICPLedger`, held by the replica) does both,
/// so a query's changes are never kept (as on the IC) and a failed write changes nothing.
public struct LedgerService: Sendable {
    public var ledger: LedgerCanister

    /// `ryjl3-tyaaa-aaaaa-aaaba-cai`, the mainnet ICP ledger's canister id (bytes `00000000000000020101`).
    public static let canisterID: Principal = {
        do { return try Principal(bytes: [0, 0, 0, 0, 0, 0, 0, 2, 1, 1]) } catch {
            preconditionFailure("the ledger canister id is a valid principal: \(error)")
        }
    }()

    /// The replicated-call limit of `query_blocks`/`query_encoded_blocks` for self-authenticating callers
    /// (`MAX_BLOCKS_PER_INGRESS_REPLICATED_QUERY_REQUEST` in the ICP ledger); queries get 2000.
    public static let maxBlocksPerReplicatedRequest: UInt64 = 50

    public init(ledger: LedgerCanister) { self.ledger = ledger }

    /// Whether `method` is served and how: `.query` for methods declared `query`, `.update` for the rest, nil when
    /// the canister has no such method.
    public static func kind(of method: String) -> CallKind? { table.entries[method]?.kind }

    /// A query call (`/api/v2/canister/<id>/query`). Update methods are rejected as the replica rejects them
    /// (`Canister has no query method '…'`, IC0536); state changes a query makes are discarded.
    ///
    /// - Parameters:
    ///   - method: The method name.
    ///   - arg: The Candid-encoded argument tuple.
    ///   - caller: The sender.
    ///   - now: The ledger time in nanoseconds since the epoch.
    /// - Returns: The reply or the reject.
    public func query(method: String, arg: [UInt8], caller: Principal, now: TimestampNanos) -> CanisterResponse {
        guard let entry = Self.table.entries[method], entry.kind == .query else {
            return Self.methodNotFoundReject(method, kind: .query)
        }
        return execute(method, entry, arg: arg, caller: caller, now: now, replicated: false).answer
    }

    /// An update call (`/api/v2/canister/<id>/call`). Query methods may be called as updates, as on the IC.
    ///
    /// - Parameters:
    ///   - method: The method name.
    ///   - arg: The Candid-encoded argument tuple.
    ///   - caller: The sender.
    ///   - now: The ledger time in nanoseconds since the epoch.
    /// - Returns: The reply or the reject, with the changes to write and commit when the call made a block (never
    ///   with a reject: a trap changes nothing, as on the IC).
    public func update(
        method: String, arg: [UInt8], caller: Principal, now: TimestampNanos
    ) -> LedgerOutcome<CanisterResponse> {
        guard let entry = Self.table.entries[method] else {
            return LedgerOutcome(Self.methodNotFoundReject(method, kind: .update))
        }
        return execute(method, entry, arg: arg, caller: caller, now: now, replicated: true)
    }

    func execute(
        _ method: String, _ entry: MethodTable.Entry, arg: [UInt8], caller: Principal, now: TimestampNanos,
        replicated: Bool
    ) -> LedgerOutcome<CanisterResponse> {
        let arguments: [CandidValue]
        do { arguments = try CandidDeserializer.decode(arg, as: entry.arguments) } catch {
            return LedgerOutcome(
                Self.argumentReject(method: method, expected: entry.argumentText, detail: error.description))
        }
        var changes: LedgerChanges?
        let results: [CandidValue]
        do {
            results = try handle(method, arguments, caller: caller, now: now, replicated: replicated, changes: &changes)
        } catch {
            switch error {
            case .argument(let detail):
                return LedgerOutcome(Self.argumentReject(method: method, expected: entry.argumentText, detail: detail))
            case .trap(let message): return LedgerOutcome(Self.trapReject(message))
            }
        }
        do {
            return LedgerOutcome(.reply(try CandidSerializer.encode(results, as: entry.results)), changes: changes)
        } catch {
            return LedgerOutcome(Self.trapReject("failed to encode the reply of \(method): \(error)"))
        }
    }

    /// Runs one method on decoded arguments; a call that makes a block sets `changes`.
    func handle(
        _ method: String, _ arguments: [CandidValue], caller: Principal, now: TimestampNanos, replicated: Bool,
        changes: inout LedgerChanges?
    ) throws(ServiceFailure) -> [CandidValue] {
        func argument(_ index: Int = 0) throws(ServiceFailure) -> CandidArgument {
            guard index < arguments.count else { throw .argument("argument \(index) is missing") }
            return CandidArgument(arguments[index], path: "argument \(index)")
        }
        func ledgerCall<T>(_ body: (LedgerCanister) throws -> LedgerOutcome<T>) throws(ServiceFailure) -> T {
            do {
                let outcome = try body(ledger)
                changes = outcome.changes
                return outcome.answer
            } catch let trap as LedgerTrap {
                throw .trap(trap.message)
            } catch {
                throw .trap("\(error)")
            }
        }
        typealias R = CandidReply
        switch method {
        // MARK: Legacy ledger.did
        case "transfer":
            let args = try transferArgs(try argument(), to: try argument()["to"].blob)
            return [R.transferResult(try ledgerCall { try $0.transfer(caller: caller, args, now: now) })]

        case "send_dfx":
            let a = try argument()
            let to = try a["to"].textAccountIdentifier
            let args = try transferArgs(a, to: to.bytes)
            switch try ledgerCall({ try $0.transfer(caller: caller, args, now: now) }) {
            case .success(let index): return [.nat64(index)]
            case .failure(let error): throw .trap(Self.legacyErrorText(error))
            }

        case "account_balance":
            // The ledger reads a blob that is not 32 bytes as an unknown account (balance 0) and traps on a bad
            // checksum (`account_balance_candid_` in the ICP ledger's main.rs).
            let blob = try argument()["account"].blob
            guard blob.count == 32 else { return [R.tokens(.zero)] }
            return [R.tokens(try ledgerCall { LedgerOutcome(try $0.accountBalance(account: blob)) })]

        case "account_balance_dfx":
            return [R.tokens(ledger.balance(of: try argument()["account"].textAccountIdentifier))]

        case "account_identifier":
            return [.blob(ledger.accountIdentifier(try argument().account))]

        case "transfer_fee":
            return [R.record([("transfer_fee", R.tokens(ledger.transferFee))])]

        case "query_blocks", "query_encoded_blocks":
            let a = try argument()
            var length = try a["length"].nat64
            if replicated && caller.kind == .selfAuthenticating {
                length = min(length, Self.maxBlocksPerReplicatedRequest)
            }
            let response = ledger.queryBlocks(start: try a["start"].nat64, length: length)
            let blocks: [CandidValue] =
                method == "query_blocks"
                ? response.blocks.map(R.block) : response.blocks.map { .blob($0.protobufEncoding) }
            return [
                R.record([
                    ("chain_length", .nat64(response.chainLength)),
                    ("certificate", R.opt(response.certificate.map { .blob($0) })),
                    ("blocks", .vec(blocks)),
                    ("first_block_index", .nat64(response.firstBlockIndex)),
                    ("archived_blocks", .vec([])),
                ])
            ]

        case "symbol": return [R.record([("symbol", .text(ledger.symbol))])]
        case "name": return [R.record([("name", .text(ledger.name))])]
        case "decimals": return [R.record([("decimals", .nat32(UInt32(ledger.decimals)))])]
        case "archives": return [R.record([("archives", .vec([]))])]

        // MARK: ICRC-1
        case "icrc1_name": return [.text(ledger.name)]
        case "icrc1_symbol": return [.text(ledger.symbol)]
        case "icrc1_decimals": return [.nat8(ledger.decimals)]
        case "icrc1_fee": return [R.nat(ledger.transferFee.e8s)]
        case "icrc1_total_supply": return [R.nat(ledger.icrc1TotalSupply)]
        case "icrc1_minting_account": return [R.opt(ledger.icrc1MintingAccount.map(R.account))]
        case "icrc1_metadata":
            return [.vec(ledger.icrc1Metadata.map { .tuple([.text($0.key), R.metadataValue($0.value)]) })]
        case "icrc1_supported_standards", "icrc10_supported_standards":
            return [.vec(supportedStandards.map { R.record([("name", .text($0.name)), ("url", .text($0.url))]) })]
        case "icrc1_balance_of":
            return [R.nat(ledger.icrc1BalanceOf(try argument().account))]
        case "icrc1_transfer":
            let args = try Self.icrc1TransferArgs(try argument())
            return [R.icrc1TransferResult(try ledgerCall { try $0.icrc1Transfer(caller: caller, args, now: now) })]

        // MARK: ICRC-2
        case "icrc2_approve":
            let args = try Self.approveArgs(try argument())
            return [R.approveResult(try ledgerCall { try $0.icrc2Approve(caller: caller, args, now: now) })]
        case "icrc2_allowance":
            let a = try argument()
            let allowance = ledger.icrc2Allowance(
                account: try a["account"].account, spender: try a["spender"].account, now: now)
            return [
                R.record([
                    ("allowance", R.nat(allowance.allowance)),
                    ("expires_at", R.opt(allowance.expiresAt.map { .nat64($0) })),
                ])
            ]
        case "icrc2_transfer_from":
            let args = try Self.transferFromArgs(try argument())
            return [R.transferFromResult(try ledgerCall { try $0.icrc2TransferFrom(caller: caller, args, now: now) })]
        case "get_allowances":
            let a = try argument()
            let from = try a["from_account_id"].textAccountIdentifier
            let previous = try a["prev_spender_id"].optional?.textAccountIdentifier
            let take = try a["take"].optional?.nat64
            let entries = ledger.allowances(from: from, after: previous, take: take, now: now)
            return [
                .vec(
                    entries.map {
                        R.record([
                            ("from_account_id", .text($0.from.hex)), ("to_spender_id", .text($0.spender.hex)),
                            ("allowance", R.tokens($0.allowance)),
                            ("expires_at", R.opt($0.expiresAt.map { .nat64($0) })),
                        ])
                    })
            ]

        // MARK: ICRC-21, ICRC-106, readiness
        case "icrc21_canister_call_consent_message":
            return [try consentMessage(try argument(), caller: caller, now: now)]
        case "icrc106_get_index_principal":
            return [R.variant("Err", R.variant("IndexPrincipalNotSet"))]
        case "is_ledger_ready":
            return [.bool(true)]

        default:
            // Every method of the interface is handled above; reaching here is a programmer error, reported as a
            // trap rather than a crash.
            throw .trap("method \(method) is declared but not implemented")
        }
    }

    /// ICRC-1 and ICRC-2 from the ledger, plus the ICRC-10 and ICRC-21 endpoints this service adds (the
    /// mainnet ledger lists the same four).
    var supportedStandards: [StandardRecord] {
        var standards = ledger.icrc1SupportedStandards
        let names = Set(standards.map(\.name))
        for extra in [
            StandardRecord(name: "ICRC-10", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-10/ICRC-10.md"),
            StandardRecord(name: "ICRC-21", url: "https://github.com/dfinity/ICRC/blob/main/ICRCs/ICRC-21/ICRC-21.md"),
        ] where !names.contains(extra.name) {
            standards.append(extra)
        }
        return standards
    }

    // MARK: Arguments

    func transferArgs(_ a: CandidArgument, to: [UInt8]) throws(ServiceFailure) -> TransferArgs {
        TransferArgs(
            memo: try a["memo"].nat64, amount: try a["amount"].tokens, fee: try a["fee"].tokens,
            fromSubaccount: try a["from_subaccount"].subaccount, to: to,
            createdAtTime: try a["created_at_time"].optional?.timestamp)
    }

    static func icrc1TransferArgs(_ a: CandidArgument) throws(ServiceFailure) -> ICRC1TransferArgs {
        ICRC1TransferArgs(
            fromSubaccount: try a["from_subaccount"].subaccount, to: try a["to"].account, amount: try a["amount"].nat,
            fee: try a["fee"].optional?.nat, memo: try a["memo"].optional?.blob,
            createdAtTime: try a["created_at_time"].optional?.nat64)
    }

    static func approveArgs(_ a: CandidArgument) throws(ServiceFailure) -> ApproveArgs {
        ApproveArgs(
            fromSubaccount: try a["from_subaccount"].subaccount, spender: try a["spender"].account,
            amount: try a["amount"].nat, expectedAllowance: try a["expected_allowance"].optional?.nat,
            expiresAt: try a["expires_at"].optional?.nat64, fee: try a["fee"].optional?.nat,
            memo: try a["memo"].optional?.blob, createdAtTime: try a["created_at_time"].optional?.nat64)
    }

    static func transferFromArgs(_ a: CandidArgument) throws(ServiceFailure) -> TransferFromArgs {
        TransferFromArgs(
            spenderSubaccount: try a["spender_subaccount"].subaccount, from: try a["from"].account,
            to: try a["to"].account, amount: try a["amount"].nat, fee: try a["fee"].optional?.nat,
            memo: try a["memo"].optional?.blob, createdAtTime: try a["created_at_time"].optional?.nat64)
    }

    /// `send_dfx` traps with the legacy error's text (icp_ledger `TransferError`'s `Display`; `Tokens` display as
    /// `<whole>.<8 digits> Token`).
    static func legacyErrorText(_ error: TransferError) -> String {
        func tokens(_ t: Tokens) -> String {
            let fraction = String(t.e8s % Tokens.e8sPerToken)
            return "\(t.e8s / Tokens.e8sPerToken).\(String(repeating: "0", count: 8 - fraction.count))\(fraction) Token"
        }
        switch error {
        case .badFee(let fee): return "transaction fee should be \(tokens(fee))"
        case .insufficientFunds(let balance):
            return "the debit account doesn't have enough funds to complete the transaction, current balance: "
                + tokens(balance)
        case .txTooOld(let window): return "transaction is older than \(window / 1_000_000_000) seconds"
        case .txCreatedInFuture: return "transaction's created_at_time is in future"
        case .txDuplicate(let index): return "transaction is a duplicate of another transaction in block \(index)"
        }
    }
}
