import ICPIdentity

/// The query methods of ledger.did, ICRC-1 and ICRC-2.
extension LedgerCanister {
    /// `account_balance`: the balance of a 32-byte account identifier blob.
    ///
    /// - Throws: ``LedgerTrap`` when the blob is not 32 bytes or its checksum is wrong.
    public func accountBalance(account: [UInt8]) throws(LedgerTrap) -> Tokens {
        balance(of: try Self.accountIdentifier(blob: account))
    }

    /// `icrc1_balance_of`.
    public func icrc1BalanceOf(_ account: Account) -> UInt64 { balance(of: AccountIdentifier(account)).e8s }

    /// `icrc2_allowance`: zero and no expiry when there is no live approval.
    public func icrc2Allowance(account: Account, spender: Account, now: TimestampNanos) -> Allowance {
        allowance(from: AccountIdentifier(account), spender: AccountIdentifier(spender), now: now)
    }

    /// `account_identifier`: the 32-byte identifier of an ICRC-1 account.
    public func accountIdentifier(_ account: Account) -> [UInt8] { AccountIdentifier(account).bytes }

    /// `transfer_fee` and `icrc1_fee`.
    public var transferFee: Tokens { configuration.transferFee }

    /// `icrc1_total_supply`.
    public var icrc1TotalSupply: UInt64 { totalSupply }

    /// `icrc1_minting_account`.
    public var icrc1MintingAccount: Account? { configuration.mintingAccount }

    /// `symbol` and `icrc1_symbol`.
    public var symbol: String { configuration.tokenSymbol }
    /// `name` and `icrc1_name`.
    public var name: String { configuration.tokenName }
    /// `decimals` (nat32) and `icrc1_decimals` (nat8).
    public var decimals: UInt8 { configuration.decimals }

    /// `icrc1_metadata`: the four entries the ICP ledger reports.
    public var icrc1Metadata: [(key: String, value: MetadataValue)] {
        [
            ("icrc1:decimals", .nat(UInt64(configuration.decimals))),
            ("icrc1:name", .text(configuration.tokenName)),
            ("icrc1:symbol", .text(configuration.tokenSymbol)),
            ("icrc1:fee", .nat(configuration.transferFee.e8s)),
        ]
    }

    /// `icrc1_supported_standards`: the standards this mock implements (ICRC-21 consent messages and ICRC-10,
    /// which the mainnet ledger also lists, are not implemented and so not claimed).
    public var icrc1SupportedStandards: [StandardRecord] {
        [
            StandardRecord(name: "ICRC-1", url: "https://github.com/dfinity/ICRC-1/tree/main/standards/ICRC-1"),
            StandardRecord(name: "ICRC-2", url: "https://github.com/dfinity/ICRC-1/tree/main/standards/ICRC-2"),
        ]
    }

    /// `query_blocks`: at most 2000 blocks from `start`; this ledger never archives, so `archived_blocks` is
    /// empty and every existing block is local.
    public func queryBlocks(start: UInt64, length: UInt64) -> QueryBlocksResponse {
        let chainLength = self.chainLength
        let first = min(start, chainLength)
        let count = min(length, LedgerConfiguration.maxBlocksPerRequest, chainLength - first)
        let slice = blocks[Int(first)..<Int(first + count)]
        return QueryBlocksResponse(
            chainLength: chainLength, certificate: nil, blocks: Array(slice), firstBlockIndex: first)
    }

    /// The block at `index`, if any.
    public func block(at index: UInt64) -> Block? { index < chainLength ? blocks[Int(index)] : nil }

    /// `get_allowances`: the live approvals `from` has given, ordered by spender account identifier, starting
    /// after `previousSpender` when given, at most `take` of them (capped at ``maxTakeAllowances``, the default
    /// when `take` is nil). Expired approvals are skipped and not counted (ICP ledger `get_allowances_list`).
    public func allowances(
        from: AccountIdentifier, after previousSpender: AccountIdentifier?, take: UInt64?, now: TimestampNanos
    ) -> [AllowanceEntry] {
        let limit = Int(min(take ?? Self.maxTakeAllowances, Self.maxTakeAllowances))
        var entries: [AllowanceEntry] = []
        for (key, stored) in approvals where key.from == from {
            if let previousSpender, key.spender <= previousSpender { continue }
            if let expiresAt = stored.expiresAt, expiresAt <= now { continue }
            entries.append(
                AllowanceEntry(
                    from: key.from, spender: key.spender, allowance: Tokens(e8s: stored.amount),
                    expiresAt: stored.expiresAt))
        }
        entries.sort { $0.spender < $1.spender }
        return Array(entries.prefix(limit))
    }

    /// The ledger's default and largest `take` for `get_allowances` (`max_take_allowances`).
    public static let maxTakeAllowances: UInt64 = 500
}
