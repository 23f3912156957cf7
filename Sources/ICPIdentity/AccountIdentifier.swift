import ByteCoding
import CryptoCore

/// An ICP ledger account identifier: `CRC32(h) ‖ h` with `h = SHA-224("\x0Aaccount-id" ‖ principal ‖ subaccount)`,
/// 32 bytes, written as 64 hex digits (dfinity/ic `rs/ledger_suite/icp/src/account_identifier.rs`).
public struct AccountIdentifier: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 28-byte SHA-224 hash (what the ledger keys balances by).
    public let hash: [UInt8]

    static let domainSeparator: [UInt8] = [0x0A] + Array("account-id".utf8)

    /// The account identifier of `principal`'s `subaccount` (the default subaccount when nil).
    public init(principal: Principal, subaccount: Subaccount? = nil) {
        hash = Digest.sha224.hash(Self.domainSeparator + principal.bytes + (subaccount ?? .default).bytes)
    }

    /// The account identifier of an ICRC-1 account (the ICP ledger maps every ICRC-1 account this way).
    public init(_ account: Account) { self.init(principal: account.owner, subaccount: account.subaccount) }

    /// Reads the 32-byte form (checksum verified) or the bare 28-byte hash, as the ledger's `from_slice` does.
    ///
    /// - Throws: ``AccountIdentifierError/invalidLength(_:)`` or ``AccountIdentifierError/checksumMismatch(expected:found:)``.
    public init(bytes: [UInt8]) throws(AccountIdentifierError) {
        switch bytes.count {
        case 28:
            hash = bytes
        case 32:
            let hash = Array(bytes[4...])
            let expected = CRC32.checksum(hash)
            let found = BigEndian.read(UInt32.self, from: bytes, at: 0)
            guard expected == found else { throw .checksumMismatch(expected: expected, found: found) }
            self.hash = hash
        default:
            throw .invalidLength(bytes.count)
        }
    }

    /// Reads 64 hex digits (checksum verified) or 56 (the bare hash), either case.
    public init(hex: String) throws(AccountIdentifierError) {
        let utf8 = Array(hex.utf8)
        guard utf8.count == 64 || utf8.count == 56 else { throw .invalidHexLength(utf8.count) }
        let bytes: [UInt8]
        do { bytes = try Hex.decode(hex) } catch {
            if case .invalidCharacter(let offset) = error { throw .invalidHexDigit(offset: offset) }
            throw .invalidHexLength(utf8.count)
        }
        try self.init(bytes: bytes)
    }

    /// The big-endian CRC-32 of the hash.
    public var checksum: [UInt8] { CRC32.bigEndianChecksum(hash) }

    /// The 32-byte form `CRC32(h) ‖ h` (what `account_balance` and legacy `transfer` take as `blob`).
    public var bytes: [UInt8] { checksum + hash }

    /// 64 lowercase hex digits.
    public var hex: String { Hex.encode(bytes) }

    public var description: String { hex }

    public static func < (lhs: AccountIdentifier, rhs: AccountIdentifier) -> Bool {
        lhs.hash.lexicographicallyPrecedes(rhs.hash)
    }
}

/// Why bytes or hex are not an account identifier.
public enum AccountIdentifierError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither 32 bytes nor 28.
    case invalidLength(Int)
    /// Neither 64 hex digits nor 56.
    case invalidHexLength(Int)
    case invalidHexDigit(offset: Int)
    /// The leading CRC-32 does not match the hash.
    case checksumMismatch(expected: UInt32, found: UInt32)

    public var description: String {
        switch self {
        case .invalidLength(let n): return "account identifier has \(n) bytes; expected 32 (or a 28-byte hash)"
        case .invalidHexLength(let n): return "account identifier has \(n) hex digits; expected 64 (or 56)"
        case .invalidHexDigit(let offset): return "invalid hex digit at offset \(offset) of the account identifier"
        case .checksumMismatch(let expected, let found):
            return "account identifier checksum mismatch: expected \(Hex.encode(BigEndian.bytes(expected))), "
                + "found \(Hex.encode(BigEndian.bytes(found)))"
        }
    }
}
