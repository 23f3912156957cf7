/// How a method is called: a query (`/api/v2/canister/<id>/query`, not replicated, state changes discarded) or an
/// update (`/call`, replicated, state changes kept). IC interface spec, "Canister interface" and "Query call".
public enum CallKind: Sendable, Hashable {
    case query
    case update
}

/// IC reject codes (IC interface spec, "Reject codes").
public enum RejectCode: UInt64, Sendable, Hashable {
    case sysFatal = 1
    case sysTransient = 2
    case destinationInvalid = 3
    case canisterReject = 4
    case canisterError = 5
}

/// What a canister call produced: a Candid reply, or a reject as the replica reports it.
public enum CanisterResponse: Sendable, Equatable {
    /// The Candid-encoded reply (`DIDL…`).
    case reply([UInt8])
    /// A reject: code, message and the replica's error code (`IC0503`, …), which the interface spec leaves optional.
    case reject(code: RejectCode, message: String, errorCode: String?)

    /// The reply bytes, nil for a reject.
    public var replyBytes: [UInt8]? {
        if case .reply(let bytes) = self { return bytes }
        return nil
    }
}
