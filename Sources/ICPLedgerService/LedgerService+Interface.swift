import CandidCoding

extension LedgerService {
    /// The Candid interface this service answers to: the wallet-facing methods of the ICP ledger (legacy ledger.did
    /// methods, ICRC-1, ICRC-2, ICRC-10, ICRC-21, ICRC-106). Written for Sandnet; each method's argument and result
    /// types are compatible with the official `rs/ledger_suite/icp/ledger.did` (checked by the tests). Also served
    /// as the `candid:service` metadata.
    public static let candidInterface: String = """
        // Sandnet's ICP ledger canister: the methods it serves and their types.
        // Amounts are e8s (10^-8 ICP); times are nanoseconds since the Unix epoch.

        type Tokens = record { e8s : nat64 };
        type TimeStamp = record { timestamp_nanos : nat64 };
        type AccountIdentifier = blob;              // CRC32 (big-endian) of the hash, then the 28-byte hash
        type TextAccountIdentifier = text;          // the same 32 bytes as 64 hex digits
        type SubAccount = blob;                     // 32 bytes
        type BlockIndex = nat64;
        type Memo = nat64;
        type Icrc1Tokens = nat;
        type Icrc1BlockIndex = nat;
        type Icrc1Timestamp = nat64;
        type Account = record { owner : principal; subaccount : opt SubAccount };

        // Legacy transfers.
        type TransferArgs = record {
            memo : Memo;
            amount : Tokens;
            fee : Tokens;
            from_subaccount : opt SubAccount;
            to : AccountIdentifier;
            created_at_time : opt TimeStamp;
        };
        type TransferError = variant {
            BadFee : record { expected_fee : Tokens };
            InsufficientFunds : record { balance : Tokens };
            TxTooOld : record { allowed_window_nanos : nat64 };
            TxCreatedInFuture : null;
            TxDuplicate : record { duplicate_of : BlockIndex };
        };
        type TransferResult = variant { Ok : BlockIndex; Err : TransferError };
        type SendArgs = record {
            memo : Memo;
            amount : Tokens;
            fee : Tokens;
            from_subaccount : opt SubAccount;
            to : TextAccountIdentifier;
            created_at_time : opt TimeStamp;
        };
        type AccountBalanceArgs = record { account : AccountIdentifier };
        type AccountBalanceArgsDfx = record { account : TextAccountIdentifier };
        type TransferFeeArg = record {};
        type TransferFee = record { transfer_fee : Tokens };

        // Blocks. This ledger never archives: archived_blocks is always empty.
        type GetBlocksArgs = record { start : BlockIndex; length : nat64 };
        type Operation = variant {
            Mint : record { to : AccountIdentifier; amount : Tokens };
            Burn : record { from : AccountIdentifier; spender : opt AccountIdentifier; amount : Tokens };
            Transfer : record {
                from : AccountIdentifier;
                to : AccountIdentifier;
                amount : Tokens;
                fee : Tokens;
                spender : opt vec nat8;
            };
            Approve : record {
                from : AccountIdentifier;
                spender : AccountIdentifier;
                allowance_e8s : int;                // the allowance again, kept for old clients
                allowance : Tokens;
                fee : Tokens;
                expires_at : opt TimeStamp;
                expected_allowance : opt Tokens;
            };
        };
        type Transaction = record {
            memo : Memo;
            icrc1_memo : opt blob;
            operation : opt Operation;
            created_at_time : TimeStamp;
        };
        type Block = record { parent_hash : opt blob; transaction : Transaction; timestamp : TimeStamp };
        type QueryArchiveError = variant {
            BadFirstBlockIndex : record { requested_index : BlockIndex; first_valid_index : BlockIndex };
            Other : record { error_code : nat64; error_message : text };
        };
        type BlockRange = record { blocks : vec Block };
        type QueryArchiveResult = variant { Ok : BlockRange; Err : QueryArchiveError };
        type QueryArchiveFn = func (GetBlocksArgs) -> (QueryArchiveResult) query;
        type ArchivedBlocksRange = record { start : BlockIndex; length : nat64; callback : QueryArchiveFn };
        type QueryBlocksResponse = record {
            chain_length : nat64;
            certificate : opt blob;
            blocks : vec Block;
            first_block_index : BlockIndex;
            archived_blocks : vec ArchivedBlocksRange;
        };
        type QueryArchiveEncodedResult = variant { Ok : vec blob; Err : QueryArchiveError };
        type ArchivedEncodedBlocksRange = record {
            callback : func (GetBlocksArgs) -> (QueryArchiveEncodedResult) query;
            start : nat64;
            length : nat64;
        };
        type QueryEncodedBlocksResponse = record {
            certificate : opt blob;
            blocks : vec blob;                      // protobuf-encoded blocks
            chain_length : nat64;
            first_block_index : nat64;
            archived_blocks : vec ArchivedEncodedBlocksRange;
        };
        type Archives = record { archives : vec record { canister_id : principal } };

        // ICRC-1.
        type TransferArg = record {
            from_subaccount : opt SubAccount;
            to : Account;
            amount : Icrc1Tokens;
            fee : opt Icrc1Tokens;
            memo : opt blob;
            created_at_time : opt Icrc1Timestamp;
        };
        type Icrc1TransferError = variant {
            BadFee : record { expected_fee : Icrc1Tokens };
            BadBurn : record { min_burn_amount : Icrc1Tokens };
            InsufficientFunds : record { balance : Icrc1Tokens };
            TooOld;
            CreatedInFuture : record { ledger_time : nat64 };
            TemporarilyUnavailable;
            Duplicate : record { duplicate_of : Icrc1BlockIndex };
            GenericError : record { error_code : nat; message : text };
        };
        type Icrc1TransferResult = variant { Ok : Icrc1BlockIndex; Err : Icrc1TransferError };
        type Value = variant { Nat : nat; Int : int; Text : text; Blob : blob };
        type StandardRecord = record { name : text; url : text };

        // ICRC-2.
        type ApproveArgs = record {
            from_subaccount : opt SubAccount;
            spender : Account;
            amount : Icrc1Tokens;
            expected_allowance : opt Icrc1Tokens;
            expires_at : opt Icrc1Timestamp;
            fee : opt Icrc1Tokens;
            memo : opt blob;
            created_at_time : opt Icrc1Timestamp;
        };
        type ApproveError = variant {
            BadFee : record { expected_fee : Icrc1Tokens };
            InsufficientFunds : record { balance : Icrc1Tokens };
            AllowanceChanged : record { current_allowance : Icrc1Tokens };
            Expired : record { ledger_time : nat64 };
            TooOld;
            CreatedInFuture : record { ledger_time : nat64 };
            Duplicate : record { duplicate_of : Icrc1BlockIndex };
            TemporarilyUnavailable;
            GenericError : record { error_code : nat; message : text };
        };
        type ApproveResult = variant { Ok : Icrc1BlockIndex; Err : ApproveError };
        type AllowanceArgs = record { account : Account; spender : Account };
        type Allowance = record { allowance : Icrc1Tokens; expires_at : opt Icrc1Timestamp };
        type TransferFromArgs = record {
            spender_subaccount : opt SubAccount;
            from : Account;
            to : Account;
            amount : Icrc1Tokens;
            fee : opt Icrc1Tokens;
            memo : opt blob;
            created_at_time : opt Icrc1Timestamp;
        };
        type TransferFromError = variant {
            BadFee : record { expected_fee : Icrc1Tokens };
            BadBurn : record { min_burn_amount : Icrc1Tokens };
            InsufficientFunds : record { balance : Icrc1Tokens };
            InsufficientAllowance : record { allowance : Icrc1Tokens };
            TooOld;
            CreatedInFuture : record { ledger_time : Icrc1Timestamp };
            Duplicate : record { duplicate_of : Icrc1BlockIndex };
            TemporarilyUnavailable;
            GenericError : record { error_code : nat; message : text };
        };
        type TransferFromResult = variant { Ok : Icrc1BlockIndex; Err : TransferFromError };
        type GetAllowancesArgs = record {
            from_account_id : TextAccountIdentifier;
            prev_spender_id : opt TextAccountIdentifier;   // start after this spender
            take : opt nat64;                              // at most 500
        };
        type Allowances = vec record {
            from_account_id : TextAccountIdentifier;
            to_spender_id : TextAccountIdentifier;
            allowance : Tokens;
            expires_at : opt nat64;
        };

        // ICRC-21 consent messages.
        type ConsentMessageMetadata = record { language : text; utc_offset_minutes : opt int16 };
        type DisplayMessageType = variant {
            GenericDisplay;
            LineDisplay : record { characters_per_line : nat16; lines_per_page : nat16 };
        };
        type ConsentMessageSpec = record { metadata : ConsentMessageMetadata; device_spec : opt DisplayMessageType };
        type ConsentMessageRequest = record { method : text; arg : blob; user_preferences : ConsentMessageSpec };
        type ConsentMessage = variant {
            GenericDisplayMessage : text;
            LineDisplayMessage : record { pages : vec record { lines : vec text } };
        };
        type ConsentInfo = record { consent_message : ConsentMessage; metadata : ConsentMessageMetadata };
        type ErrorInfo = record { description : text };
        type ConsentError = variant {
            UnsupportedCanisterCall : ErrorInfo;
            ConsentMessageUnavailable : ErrorInfo;
            InsufficientPayment : ErrorInfo;
            GenericError : record { error_code : nat; description : text };
        };
        type ConsentMessageResponse = variant { Ok : ConsentInfo; Err : ConsentError };

        // ICRC-106.
        type GetIndexPrincipalError = variant {
            IndexPrincipalNotSet;
            GenericError : record { error_code : nat; description : text };
        };
        type GetIndexPrincipalResult = variant { Ok : principal; Err : GetIndexPrincipalError };

        service : {
            transfer : (TransferArgs) -> (TransferResult);
            send_dfx : (SendArgs) -> (BlockIndex);
            account_balance : (AccountBalanceArgs) -> (Tokens) query;
            account_balance_dfx : (AccountBalanceArgsDfx) -> (Tokens) query;
            account_identifier : (Account) -> (AccountIdentifier) query;
            transfer_fee : (TransferFeeArg) -> (TransferFee) query;
            query_blocks : (GetBlocksArgs) -> (QueryBlocksResponse) query;
            query_encoded_blocks : (GetBlocksArgs) -> (QueryEncodedBlocksResponse) query;
            symbol : () -> (record { symbol : text }) query;
            name : () -> (record { name : text }) query;
            decimals : () -> (record { decimals : nat32 }) query;
            archives : () -> (Archives) query;

            icrc1_name : () -> (text) query;
            icrc1_symbol : () -> (text) query;
            icrc1_decimals : () -> (nat8) query;
            icrc1_metadata : () -> (vec record { text; Value }) query;
            icrc1_total_supply : () -> (Icrc1Tokens) query;
            icrc1_fee : () -> (Icrc1Tokens) query;
            icrc1_minting_account : () -> (opt Account) query;
            icrc1_balance_of : (Account) -> (Icrc1Tokens) query;
            icrc1_transfer : (TransferArg) -> (Icrc1TransferResult);
            icrc1_supported_standards : () -> (vec StandardRecord) query;

            icrc2_approve : (ApproveArgs) -> (ApproveResult);
            icrc2_allowance : (AllowanceArgs) -> (Allowance) query;
            icrc2_transfer_from : (TransferFromArgs) -> (TransferFromResult);
            get_allowances : (GetAllowancesArgs) -> (Allowances) query;

            icrc10_supported_standards : () -> (vec StandardRecord) query;
            icrc21_canister_call_consent_message : (ConsentMessageRequest) -> (ConsentMessageResponse);
            icrc106_get_index_principal : () -> (GetIndexPrincipalResult) query;
            is_ledger_ready : () -> (bool) query;
        }
        """

    /// Canister metadata sections (`/canister/<id>/metadata/<name>` in read_state): `candid:service`.
    public static var metadata: [String: [UInt8]] { ["candid:service": Array(candidInterface.utf8)] }

    /// A served method: its call kind and compiled argument and result types.
    struct MethodTable: Sendable {
        struct Entry: Sendable {
            var kind: CallKind
            var arguments: CandidArgumentTypes
            var results: CandidArgumentTypes
            /// `(T1, T2)` as written in the interface, for error messages.
            var argumentText: String
        }
        var entries: [String: Entry]
        var interface: CandidInterface
    }

    /// Compiled once from ``candidInterface``, so the .did text is the single source of the wire types.
    static let table: MethodTable = {
        let interface: CandidInterface
        do { interface = try CandidInterface(parsing: candidInterface) } catch {
            preconditionFailure("LedgerService.candidInterface does not parse: \(error)")
        }
        var entries: [String: MethodTable.Entry] = [:]
        for method in interface.service?.methods ?? [] {
            do {
                let function = try interface.method(method.name)
                entries[method.name] = MethodTable.Entry(
                    kind: function.modes.contains(.query) ? .query : .update,
                    arguments: try CandidArgumentTypes(function.arguments, environment: interface.environment),
                    results: try CandidArgumentTypes(function.results, environment: interface.environment),
                    argumentText: "(" + function.arguments.map(\.candidText).joined(separator: ", ") + ")")
            } catch {
                preconditionFailure("LedgerService.candidInterface method \(method.name) does not compile: \(error)")
            }
        }
        return MethodTable(entries: entries, interface: interface)
    }()
}
