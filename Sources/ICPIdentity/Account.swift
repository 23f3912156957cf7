import ByteCoding

/// An ICRC-1 account: an owner principal and an optional 32-byte subaccount (ICRC-1 README §Account).
///
/// A nil subaccount and the all-zero subaccount are the same account: equality and hashing treat them alike.
public struct Account: Hashable, Sendable, CustomStringConvertible {
    public let owner: Principal
    /// As given; ``effectiveSubaccount`` is what identifies the account.
    public let subaccount: Subaccount?

    public init(owner: Principal, subaccount: Subaccount? = nil) {
        self.owner = owner
        self.subaccount = subaccount
    }

    /// The subaccount with nil read as the default (all zeros).
    public var effectiveSubaccount: Subaccount { subaccount ?? .default }

    public static func == (lhs: Account, rhs: Account) -> Bool {
        lhs.owner == rhs.owner && lhs.effectiveSubaccount == rhs.effectiveSubaccount
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(owner)
        hasher.combine(effectiveSubaccount)
    }

    /// The textual encoding (ICRC-1 TextualEncoding.md): the owner's text for the default subaccount,
    /// otherwise `owner-checksum.hex`, checksum = base32 of the big-endian CRC-32 of `owner ‖ subaccount`,
    /// hex = the subaccount without leading zeros.
    public var text: String {
        guard let subaccount, !subaccount.isDefault else { return owner.text }
        let checksum = String(
            decoding: Base32.encode(CRC32.bigEndianChecksum(owner.bytes + subaccount.bytes)), as: UTF8.self)
        let hex = Hex.encode(subaccount.bytes).drop { $0 == "0" }
        return "\(owner.text)-\(checksum).\(hex)"
    }

    public var description: String { text }

    /// Parses the textual encoding, refusing every non-canonical form the standard lists.
    ///
    /// - Throws: ``AccountTextError``.
    public init(text: String) throws(AccountTextError) {
        guard let dot = text.lastIndex(of: ".") else {
            do { self.init(owner: try Principal(text: text)) } catch { throw .invalidOwner(error) }
            return
        }
        let head = text[..<dot]
        let hex = text[text.index(after: dot)...]
        guard let dash = head.lastIndex(of: "-") else { throw .missingChecksum }
        let checksumText = head[head.index(after: dash)...]
        guard checksumText.utf8.count == 7 else { throw .missingChecksum }
        let owner: Principal
        do { owner = try Principal(text: String(head[..<dash])) } catch { throw .invalidOwner(error) }

        guard !hex.isEmpty else { throw .emptySubaccount }
        guard hex.first != "0" else { throw .leadingZeros }
        guard hex.utf8.count <= 64 else { throw .subaccountTooLong(digits: hex.utf8.count) }
        let padded = String(repeating: "0", count: 64 - hex.utf8.count) + hex
        let bytes: [UInt8]
        do { bytes = try Hex.decode(padded) } catch {
            guard case .invalidCharacter(let offset) = error else { throw .invalidSubaccountHex(offset: 0) }
            throw .invalidSubaccountHex(offset: offset - (64 - hex.utf8.count))
        }
        let subaccount = Subaccount(unchecked: bytes)

        let expected = String(
            decoding: Base32.encode(CRC32.bigEndianChecksum(owner.bytes + subaccount.bytes)), as: UTF8.self)
        guard String(checksumText) == expected else {
            throw .checksumMismatch(expected: expected, found: String(checksumText))
        }
        self.init(owner: owner, subaccount: subaccount)
    }
}

/// Why a text is not an ICRC-1 account.
public enum AccountTextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The owner part is not a principal text.
    case invalidOwner(PrincipalError)
    /// A `.` subaccount part without the 7-character checksum before it.
    case missingChecksum
    /// Nothing after the `.`; the default subaccount is written as the bare owner.
    case emptySubaccount
    /// The subaccount hex starts with 0 (the standard forbids leading zeros; an all-zero subaccount is the owner).
    case leadingZeros
    case subaccountTooLong(digits: Int)
    /// A non-hex character at this offset of the subaccount part.
    case invalidSubaccountHex(offset: Int)
    case checksumMismatch(expected: String, found: String)

    public var description: String {
        switch self {
        case .invalidOwner(let error): return "invalid account owner: \(error)"
        case .missingChecksum: return "account text lacks the 7-character checksum before '.'"
        case .emptySubaccount:
            return "account text has an empty subaccount; write the default account as the owner alone"
        case .leadingZeros: return "account subaccount has leading zeros (not canonical)"
        case .subaccountTooLong(let digits): return "account subaccount has \(digits) hex digits; at most 64"
        case .invalidSubaccountHex(let offset): return "invalid hex digit at offset \(offset) of the account subaccount"
        case .checksumMismatch(let expected, let found):
            return "account checksum mismatch: expected \(expected), found \(found)"
        }
    }
}
