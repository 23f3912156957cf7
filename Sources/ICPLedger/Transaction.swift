import CBORCoding
import CryptoCore
import ICPIdentity

/// An operation with the metadata its caller supplied: ledger.did `Transaction`.
public struct Transaction: Hashable, Sendable {
    public var operation: Operation
    /// The legacy 64-bit memo (0 for ICRC-1/ICRC-2 calls).
    public var memo: UInt64
    /// The ICRC-1 memo bytes (at most 32), nil for legacy calls.
    public var icrc1Memo: [UInt8]?
    /// The caller's `created_at_time`; legacy `transfer` fills in the ledger time when the caller gave none.
    public var createdAtTime: TimestampNanos?

    public init(operation: Operation, memo: UInt64 = 0, icrc1Memo: [UInt8]? = nil, createdAtTime: TimestampNanos? = nil)
    {
        self.operation = operation
        self.memo = memo
        self.icrc1Memo = icrc1Memo
        self.createdAtTime = createdAtTime
    }

    /// The transaction hash the ledger deduplicates by and explorers show: SHA-256 of ``packedCBOR``
    /// (`Transaction::hash` in dfinity/ic `rs/ledger_suite/icp/src/lib.rs`).
    public var hash: [UInt8] { Digest.sha256.hash(packedCBOR) }

    /// `serde_cbor::to_vec_packed` of the Rust `Transaction`: structs as maps keyed by field index (skipped
    /// optional fields keep their index), enum variants as one-entry maps keyed by variant index, account
    /// identifiers as their 64-digit hex text, `Tokens` as `{0: e8s}`, `TimeStamp` as `{0: nanos}`.
    public var packedCBOR: [UInt8] { CBOREncoder.encode(packedValue) }

    var packedValue: CBORValue {
        var fields: [(UInt64, CBORValue)] = [
            (0, .map([CBORMapEntry(key: .unsigned(operation.variantIndex), value: Self.packedFields(operation))])),
            (1, .unsigned(memo)),
            (2, createdAtTime.map(Self.timestamp) ?? .null),
        ]
        if let icrc1Memo { fields.append((3, .bytes(icrc1Memo))) }
        return Self.packedMap(fields)
    }

    static func packedFields(_ operation: Operation) -> CBORValue {
        switch operation {
        case .burn(let from, let amount, let spender):
            var fields: [(UInt64, CBORValue)] = [(0, account(from)), (1, tokens(amount))]
            if let spender { fields.append((2, account(spender))) }
            return packedMap(fields)
        case .mint(let to, let amount):
            return packedMap([(0, account(to)), (1, tokens(amount))])
        case .transfer(let from, let to, let amount, let fee, let spender):
            var fields: [(UInt64, CBORValue)] = [
                (0, account(from)), (1, account(to)), (2, tokens(amount)), (3, tokens(fee)),
            ]
            if let spender { fields.append((4, account(spender))) }
            return packedMap(fields)
        case .approve(let from, let spender, let allowance, let expectedAllowance, let expiresAt, let fee):
            return packedMap([
                (0, account(from)), (1, account(spender)), (2, tokens(allowance)),
                (3, expectedAllowance.map(tokens) ?? .null), (4, expiresAt.map(timestamp) ?? .null), (5, tokens(fee)),
            ])
        }
    }

    static func packedMap(_ fields: [(UInt64, CBORValue)]) -> CBORValue {
        .map(fields.map { CBORMapEntry(key: .unsigned($0.0), value: $0.1) })
    }

    static func account(_ id: AccountIdentifier) -> CBORValue { .text(id.hex) }
    static func tokens(_ t: Tokens) -> CBORValue { packedMap([(0, .unsigned(t.e8s))]) }
    static func timestamp(_ nanos: TimestampNanos) -> CBORValue { packedMap([(0, .unsigned(nanos))]) }
}
