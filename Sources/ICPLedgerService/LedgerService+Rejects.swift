/// The rejects the replica produces for this canister, with its texts.
///
/// Sources (dfinity/ic):
/// - `rs/interfaces/src/execution_environment/errors.rs`, `HypervisorError::into_user_error`: the description is
///   `Error from Canister <id>: <error>.\n<help>` where `<help>` is `<suggestion> See documentation: <link>`.
///   `CalledTrap` displays as ``Canister called `ic0.trap` with message: '<message>'`` (error code
///   `CanisterCalledTrap` = IC0503); `MethodNotFound` displays as `Canister has no <update|query> method '<name>'.`
///   (error code `CanisterMethodNotFound` = IC0536). Because that text already ends with a full stop, the replica's
///   message really contains `'<name>'..` before the newline; we reproduce it.
/// - `rs/types/error_types/src/lib.rs`, `ErrorCode`: the hundreds digit is the reject code, so IC0503 and IC0536
///   are both reject code 5 (CANISTER_ERROR). IC0536 replaced IC0302 (`CanisterMethodNotFound` in the
///   DESTINATION_INVALID range, "302 (previously CanisterMethodNotFound)"); current replicas and PocketIC send 5.
/// - `rs/rust_wasm_types` `doc_ref`: links are `http://internetcomputer.org/docs/current/references/execution-errors#…`.
/// - Argument decoding in the ICP ledger (`rs/ledger_suite/icp/ledger/src/main.rs`, endpoints declared with ic-cdk's
///   `#[update]`/`#[query]`): ic-cdk's `arg_data` traps with `failed to decode call arguments: {candid error:?}`,
///   e.g. observed `'failed to decode call arguments: Custom(Fail to decode argument 0 …\n\nCaused by:\n    …)'`.
///   The prefix is the real one; the detail after `Caused by:` is our decoder's, not the Rust candid crate's.
extension LedgerService {
    static let documentation = "http://internetcomputer.org/docs/current/references/execution-errors#"

    /// A trap in canister code: reject code 5, IC0503.
    static func trapReject(_ message: String) -> CanisterResponse {
        .reject(
            code: .canisterError,
            message: "Error from Canister \(canisterID.text): Canister called `ic0.trap` with message: '\(message)'.\n"
                + "Consider gracefully handling failures from this canister or altering the canister to handle "
                + "exceptions. See documentation: \(documentation)trapped-explicitly",
            errorCode: "IC0503")
    }

    /// Arguments that do not decode at the method's types: ic-cdk's trap, so reject code 5, IC0503.
    static func argumentReject(method: String, expected: String, detail: String) -> CanisterResponse {
        trapReject(
            "failed to decode call arguments: Custom(Fail to decode argument 0 of \(method) to \(expected)\n\n"
                + "Caused by:\n    \(detail))")
    }

    /// No exported method of this name and kind: reject code 5, IC0536.
    static func methodNotFoundReject(_ method: String, kind: CallKind) -> CanisterResponse {
        let kindText = kind == .query ? "query" : "update"
        return .reject(
            code: .canisterError,
            message: "Error from Canister \(canisterID.text): Canister has no \(kindText) method '\(method)'..\n"
                + "Check that the method being called is exported by the target canister. "
                + "See documentation: \(documentation)method-not-found",
            errorCode: "IC0536")
    }
}

extension LedgerService {
    /// The ledger's storage failed to write a call's changes, so the call changed nothing: reject code 2
    /// (SYS_TRANSIENT: the call may succeed when retried), with no IC error code (no replica has this failure).
    public static func storageReject(_ detail: String) -> CanisterResponse {
        .reject(
            code: .sysTransient,
            message: "Error from Canister \(canisterID.text): the ledger's storage failed, so the call changed "
                + "nothing: \(detail)",
            errorCode: nil)
    }
}
