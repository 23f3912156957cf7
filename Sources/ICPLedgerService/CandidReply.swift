import CandidCoding
import ICPIdentity
import ICPLedger

/// Builds reply values in the shapes of the .did result types.
enum CandidReply {
    static func record(_ fields: [(String, CandidValue)]) -> CandidValue {
        .makeRecord(fields.map { CandidField($0.0, $0.1) })
    }

    static func variant(_ tag: String, _ value: CandidValue = .null) -> CandidValue {
        .variant(CandidField(tag, value))
    }

    static func nat(_ n: UInt64) -> CandidValue { .nat(CandidNat(n)) }

    static func opt(_ value: CandidValue?) -> CandidValue { .opt(value) }

    static func tokens(_ tokens: Tokens) -> CandidValue { record([("e8s", .nat64(tokens.e8s))]) }

    static func timestamp(_ nanos: TimestampNanos) -> CandidValue { record([("timestamp_nanos", .nat64(nanos))]) }

    static func account(_ account: Account) -> CandidValue {
        record([
            ("owner", .principal(CandidPrincipal(bytes: account.owner.bytes))),
            ("subaccount", opt(account.subaccount.map { .blob($0.bytes) })),
        ])
    }

    /// The 32-byte account identifier blob blocks carry (`AccountIdBlob`).
    static func accountID(_ id: AccountIdentifier) -> CandidValue { .blob(id.bytes) }

    // MARK: Results

    static func transferResult(_ result: Result<UInt64, TransferError>) -> CandidValue {
        switch result {
        case .success(let index): return variant("Ok", .nat64(index))
        case .failure(let error):
            let payload: CandidValue
            switch error {
            case .badFee(let fee): payload = variant("BadFee", record([("expected_fee", tokens(fee))]))
            case .insufficientFunds(let balance):
                payload = variant("InsufficientFunds", record([("balance", tokens(balance))]))
            case .txTooOld(let window):
                payload = variant("TxTooOld", record([("allowed_window_nanos", .nat64(window))]))
            case .txCreatedInFuture: payload = variant("TxCreatedInFuture")
            case .txDuplicate(let index): payload = variant("TxDuplicate", record([("duplicate_of", .nat64(index))]))
            }
            return variant("Err", payload)
        }
    }

    static func icrc1TransferResult(_ result: Result<UInt64, ICRC1TransferError>) -> CandidValue {
        switch result {
        case .success(let index): return variant("Ok", nat(index))
        case .failure(let error):
            let payload: CandidValue
            switch error {
            case .badFee(let fee): payload = variant("BadFee", record([("expected_fee", nat(fee))]))
            case .badBurn(let minimum): payload = variant("BadBurn", record([("min_burn_amount", nat(minimum))]))
            case .insufficientFunds(let balance):
                payload = variant("InsufficientFunds", record([("balance", nat(balance))]))
            case .tooOld: payload = variant("TooOld")
            case .createdInFuture(let time):
                payload = variant("CreatedInFuture", record([("ledger_time", .nat64(time))]))
            case .temporarilyUnavailable: payload = variant("TemporarilyUnavailable")
            case .duplicate(let index): payload = variant("Duplicate", record([("duplicate_of", nat(index))]))
            case .genericError(let code, let message): payload = genericError(code, message)
            }
            return variant("Err", payload)
        }
    }

    static func approveResult(_ result: Result<UInt64, ApproveError>) -> CandidValue {
        switch result {
        case .success(let index): return variant("Ok", nat(index))
        case .failure(let error):
            let payload: CandidValue
            switch error {
            case .badFee(let fee): payload = variant("BadFee", record([("expected_fee", nat(fee))]))
            case .insufficientFunds(let balance):
                payload = variant("InsufficientFunds", record([("balance", nat(balance))]))
            case .allowanceChanged(let current):
                payload = variant("AllowanceChanged", record([("current_allowance", nat(current))]))
            case .expired(let time): payload = variant("Expired", record([("ledger_time", .nat64(time))]))
            case .tooOld: payload = variant("TooOld")
            case .createdInFuture(let time):
                payload = variant("CreatedInFuture", record([("ledger_time", .nat64(time))]))
            case .duplicate(let index): payload = variant("Duplicate", record([("duplicate_of", nat(index))]))
            case .temporarilyUnavailable: payload = variant("TemporarilyUnavailable")
            case .genericError(let code, let message): payload = genericError(code, message)
            }
            return variant("Err", payload)
        }
    }

    static func transferFromResult(_ result: Result<UInt64, TransferFromError>) -> CandidValue {
        switch result {
        case .success(let index): return variant("Ok", nat(index))
        case .failure(let error):
            let payload: CandidValue
            switch error {
            case .badFee(let fee): payload = variant("BadFee", record([("expected_fee", nat(fee))]))
            case .badBurn(let minimum): payload = variant("BadBurn", record([("min_burn_amount", nat(minimum))]))
            case .insufficientFunds(let balance):
                payload = variant("InsufficientFunds", record([("balance", nat(balance))]))
            case .insufficientAllowance(let allowance):
                payload = variant("InsufficientAllowance", record([("allowance", nat(allowance))]))
            case .tooOld: payload = variant("TooOld")
            case .createdInFuture(let time):
                payload = variant("CreatedInFuture", record([("ledger_time", .nat64(time))]))
            case .duplicate(let index): payload = variant("Duplicate", record([("duplicate_of", nat(index))]))
            case .temporarilyUnavailable: payload = variant("TemporarilyUnavailable")
            case .genericError(let code, let message): payload = genericError(code, message)
            }
            return variant("Err", payload)
        }
    }

    static func genericError(_ code: UInt64, _ message: String) -> CandidValue {
        variant("GenericError", record([("error_code", nat(code)), ("message", .text(message))]))
    }

    // MARK: Blocks

    /// ledger.did `Block`. `created_at_time` is not optional there: a transaction without one shows the block
    /// time, as the ledger's `CandidBlock` conversion does.
    static func block(_ block: Block) -> CandidValue {
        let tx = block.transaction
        return record([
            ("parent_hash", opt(block.parentHash.map { .blob($0) })),
            (
                "transaction",
                record([
                    ("memo", .nat64(tx.memo)),
                    ("icrc1_memo", opt(tx.icrc1Memo.map { .blob($0) })),
                    ("operation", opt(operation(tx.operation))),
                    ("created_at_time", timestamp(tx.createdAtTime ?? block.timestamp)),
                ])
            ),
            ("timestamp", timestamp(block.timestamp)),
        ])
    }

    static func operation(_ operation: Operation) -> CandidValue {
        switch operation {
        case .mint(let to, let amount):
            return variant("Mint", record([("to", accountID(to)), ("amount", tokens(amount))]))
        case .burn(let from, let amount, let spender):
            return variant(
                "Burn",
                record([
                    ("from", accountID(from)), ("spender", opt(spender.map(accountID))), ("amount", tokens(amount)),
                ]))
        case .transfer(let from, let to, let amount, let fee, let spender):
            return variant(
                "Transfer",
                record([
                    ("from", accountID(from)), ("to", accountID(to)), ("amount", tokens(amount)),
                    ("fee", tokens(fee)), ("spender", opt(spender.map(accountID))),
                ]))
        case .approve(let from, let spender, let allowance, let expected, let expiresAt, let fee):
            return variant(
                "Approve",
                record([
                    ("from", accountID(from)), ("spender", accountID(spender)),
                    ("allowance_e8s", .int(CandidInt(CandidNat(allowance.e8s)))), ("allowance", tokens(allowance)),
                    ("fee", tokens(fee)), ("expires_at", opt(expiresAt.map(timestamp))),
                    ("expected_allowance", opt(expected.map(tokens))),
                ]))
        }
    }

    static func metadataValue(_ value: MetadataValue) -> CandidValue {
        switch value {
        case .nat(let n): return variant("Nat", nat(n))
        case .int(let n): return variant("Int", .int(CandidInt(n)))
        case .text(let s): return variant("Text", .text(s))
        case .blob(let b): return variant("Blob", .blob(b))
        }
    }
}
