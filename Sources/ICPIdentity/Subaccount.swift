import ByteCoding

/// A 32-byte subaccount of a principal (ICP ledger `Subaccount`; ICRC-1 `Subaccount = blob` of 32 bytes).
public struct Subaccount: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// The default subaccount: 32 zero bytes.
    public static let `default` = Subaccount(unchecked: [UInt8](repeating: 0, count: 32))

    /// A subaccount from exactly 32 bytes.
    public init(bytes: [UInt8]) throws(SubaccountError) {
        guard bytes.count == 32 else { throw .invalidLength(bytes.count) }
        self.bytes = bytes
    }

    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// The subaccount numbered `index`, big-endian in the last 8 bytes (ic-py `to_account_id(sub_account:)`).
    public init(index: UInt64) {
        var bytes = [UInt8](repeating: 0, count: 24)
        BigEndian.append(index, to: &bytes)
        self.bytes = bytes
    }

    /// The subaccount a canister derives for a principal: its length, its bytes, then zeros
    /// (ICP ledger `From<&PrincipalId> for Subaccount`; ic-js `SubAccount.fromPrincipal`).
    public init(principal: Principal) {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes[0] = UInt8(principal.bytes.count)
        bytes.replaceSubrange(1..<(1 + principal.bytes.count), with: principal.bytes)
        self.bytes = bytes
    }

    public var isDefault: Bool { bytes.allSatisfy { $0 == 0 } }

    /// Lowercase hex, 64 digits.
    public var description: String { Hex.encode(bytes) }

    public static func < (lhs: Subaccount, rhs: Subaccount) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}

/// A subaccount that is not 32 bytes.
public enum SubaccountError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidLength(Int)
    public var description: String {
        switch self {
        case .invalidLength(let n): return "subaccount must be 32 bytes, got \(n)"
        }
    }
}
