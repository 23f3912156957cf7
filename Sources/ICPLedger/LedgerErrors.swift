/// Legacy `transfer` errors: ledger.did `TransferError`.
public enum TransferError: Error, Hashable, Sendable {
    case badFee(expectedFee: Tokens)
    case insufficientFunds(balance: Tokens)
    case txTooOld(allowedWindowNanos: UInt64)
    case txCreatedInFuture
    case txDuplicate(duplicateOf: UInt64)
}

/// `icrc1_transfer` errors: ICRC-1 `TransferError` (amounts are Candid `nat`).
public enum ICRC1TransferError: Error, Hashable, Sendable {
    case badFee(expectedFee: UInt64)
    case badBurn(minBurnAmount: UInt64)
    case insufficientFunds(balance: UInt64)
    case tooOld
    case createdInFuture(ledgerTime: TimestampNanos)
    case temporarilyUnavailable
    case duplicate(duplicateOf: UInt64)
    case genericError(errorCode: UInt64, message: String)
}

/// `icrc2_approve` errors: ICRC-2 `ApproveError`.
public enum ApproveError: Error, Hashable, Sendable {
    case badFee(expectedFee: UInt64)
    case insufficientFunds(balance: UInt64)
    case allowanceChanged(currentAllowance: UInt64)
    case expired(ledgerTime: TimestampNanos)
    case tooOld
    case createdInFuture(ledgerTime: TimestampNanos)
    case duplicate(duplicateOf: UInt64)
    case temporarilyUnavailable
    case genericError(errorCode: UInt64, message: String)
}

/// `icrc2_transfer_from` errors: ICRC-2 `TransferFromError`.
public enum TransferFromError: Error, Hashable, Sendable {
    case badFee(expectedFee: UInt64)
    case badBurn(minBurnAmount: UInt64)
    case insufficientFunds(balance: UInt64)
    case insufficientAllowance(allowance: UInt64)
    case tooOld
    case createdInFuture(ledgerTime: TimestampNanos)
    case duplicate(duplicateOf: UInt64)
    case temporarilyUnavailable
    case genericError(errorCode: UInt64, message: String)
}

/// A call the real ledger answers by trapping (a reject with code 5, CANISTER_ERROR, and this message)
/// rather than with an `Err` value.
public struct LedgerTrap: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The failures every state-changing call shares, mapped into each endpoint's error type.
enum CommonFailure: Error, Hashable {
    case tooOld
    case createdInFuture(now: TimestampNanos)
    case duplicate(of: UInt64)
    case insufficientFunds(balance: UInt64)
    case insufficientAllowance(allowance: UInt64)
    case allowanceChanged(current: UInt64)
    case expired(now: TimestampNanos)
}
