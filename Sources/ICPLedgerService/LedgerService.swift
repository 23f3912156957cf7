// TEMPORARY STUB (replaced by the canister branch): the agreed API only.
import ICPIdentity
import ICPLedger

public enum CallKind: Sendable { case query, update }
public enum RejectCode: UInt64, Sendable {
    case sysFatal = 1, sysTransient = 2, destinationInvalid = 3, canisterReject = 4, canisterError = 5
}
public enum CanisterResponse: Sendable, Equatable {
    case reply([UInt8])
    case reject(code: RejectCode, message: String, errorCode: String?)
}
public struct LedgerService: Sendable {
    public var ledger: LedgerCanister
    public static let canisterID = try! Principal(text: "ryjl3-tyaaa-aaaaa-aaaba-cai")
    public static let candidInterface = "service : {}"
    public init(ledger: LedgerCanister) { self.ledger = ledger }
    public static func kind(of method: String) -> CallKind? {
        switch method {
        case "account_balance", "icrc1_balance_of": return .query
        case "transfer", "icrc1_transfer": return .update
        default: return nil
        }
    }
    public func query(method: String, arg: [UInt8], caller: Principal, now: TimestampNanos) -> CanisterResponse {
        .reject(code: .canisterError, message: "stub", errorCode: "IC0503")
    }
    public mutating func update(method: String, arg: [UInt8], caller: Principal, now: TimestampNanos) -> CanisterResponse {
        .reject(code: .canisterError, message: "stub", errorCode: "IC0503")
    }
}
