/// The shape of a Klaytn account's keys (KIP-3 `keyring`): either a list of keys (one key, or a multi-signature
/// set) or one list of keys per role, in Klaytn's role order.
public enum KlaytnKeyring<Key: Sendable & Equatable>: Sendable, Equatable {
    /// One key (a single-key account) or several (a weighted multi-signature account).
    case keys([Key])
    /// Keys per role: index 0 transaction, 1 account update, 2 fee payer. A role may be empty; a file may list
    /// fewer than three roles (the missing ones are empty).
    case roleBased([[Key]])

    /// The roles Klaytn defines, in file order (caver's `roleTransactionKey`, `roleAccountUpdateKey`,
    /// `roleFeePayerKey`).
    public static var roleNames: [String] { ["transaction", "account-update", "fee-payer"] }

    /// Most keys in one list (Klaytn's `accountkey.MaxNumKeysForMultiSig`).
    public static var maximumKeysPerRole: Int { 10 }

    /// Every key, roles flattened in order.
    public var allKeys: [Key] {
        switch self {
        case .keys(let keys): return keys
        case .roleBased(let roles): return roles.flatMap { $0 }
        }
    }

    /// The same shape with each key transformed.
    public func map<T: Sendable & Equatable, E: Error>(_ transform: (Key) throws(E) -> T) throws(E)
        -> KlaytnKeyring<T>
    {
        switch self {
        case .keys(let keys):
            var out: [T] = []
            for key in keys { out.append(try transform(key)) }
            return .keys(out)
        case .roleBased(let roles):
            var out: [[T]] = []
            for role in roles {
                var keys: [T] = []
                for key in role { keys.append(try transform(key)) }
                out.append(keys)
            }
            return .roleBased(out)
        }
    }

    /// Checks the limits: at least one key overall, at most three roles, at most ten keys per list.
    /// - Throws: ``KeystoreError/invalidKeyring(_:)``.
    public func validate() throws(KeystoreError) {
        let limit = Self.maximumKeysPerRole
        switch self {
        case .keys(let keys):
            guard !keys.isEmpty else { throw .invalidKeyring("no keys") }
            guard keys.count <= limit else {
                throw .invalidKeyring("\(keys.count) keys; Klaytn allows at most \(limit) per account key")
            }
        case .roleBased(let roles):
            guard roles.count <= Self.roleNames.count else {
                throw .invalidKeyring(
                    "\(roles.count) roles; Klaytn defines \(Self.roleNames.count) ("
                        + Self.roleNames.joined(separator: ", ") + ")")
            }
            for (index, role) in roles.enumerated() where role.count > limit {
                throw .invalidKeyring(
                    "role \(Self.roleNames[index]) has \(role.count) keys; Klaytn allows at most \(limit) per role")
            }
            guard roles.contains(where: { !$0.isEmpty }) else { throw .invalidKeyring("no keys in any role") }
        }
    }
}
