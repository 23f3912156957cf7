/// A BIP-32 derivation path such as `m/44'/60'/0'/0/0` (hardened indices marked `'` or `h`).
public struct DerivationPath: Sendable, Hashable, CustomStringConvertible {
    /// Why a path string was rejected.
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The path does not start with `m` (or `M`).
        case missingMasterPrefix
        /// Component `position` (1-based, after `m`) is empty or not a decimal number with an optional `'`/`h`.
        case invalidComponent(String, position: Int)
        /// Component `position` is ≥ 2^31 (before the hardened offset is added).
        case indexOutOfRange(String, position: Int)

        public var description: String {
            switch self {
            case .missingMasterPrefix: return "a derivation path starts with 'm', e.g. m/44'/60'/0'/0/0"
            case .invalidComponent(let text, let position):
                return "path component \(position) '\(text)' is not a number with an optional ' or h"
            case .indexOutOfRange(let text, let position):
                return "path component \(position) '\(text)' must be below 2^31"
            }
        }
    }

    /// 0x80000000: indices at or above it are hardened.
    public static let hardenedOffset: UInt32 = 0x8000_0000

    /// Raw child indices, hardened ones with ``hardenedOffset`` added.
    public var indices: [UInt32]

    public init(indices: [UInt32]) { self.indices = indices }

    /// The master key itself (`m`).
    public static let master = DerivationPath(indices: [])

    /// Parses `m`, `m/0'/1/2h`, … Whitespace around the string is not accepted.
    public init(parsing text: String) throws(ParseError) {
        var parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard let first = parts.first, first == "m" || first == "M" else { throw .missingMasterPrefix }
        parts.removeFirst()
        var indices: [UInt32] = []
        indices.reserveCapacity(parts.count)
        for (i, part) in parts.enumerated() {
            var digits = Substring(part)
            var hardened = false
            if let last = digits.last, last == "'" || last == "h" || last == "H" {
                hardened = true
                digits = digits.dropLast()
            }
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw .invalidComponent(String(part), position: i + 1)
            }
            guard digits.count <= 10, let value = UInt32(digits), value < Self.hardenedOffset else {
                throw .indexOutOfRange(String(part), position: i + 1)
            }
            indices.append(hardened ? value | Self.hardenedOffset : value)
        }
        self.indices = indices
    }

    /// `m/44'/60'/0'/0/0` (hardened indices with an apostrophe).
    public var description: String {
        var text = "m"
        for index in indices {
            text += "/" + String(index & ~Self.hardenedOffset)
            if index >= Self.hardenedOffset { text += "'" }
        }
        return text
    }

    /// This path followed by `index`.
    public func appending(_ index: UInt32) -> DerivationPath { DerivationPath(indices: indices + [index]) }

    /// `index` with the hardened bit set.
    public static func hardened(_ index: UInt32) -> UInt32 {
        precondition(index < hardenedOffset, "hardened index must be below 2^31")
        return index | hardenedOffset
    }
}

// MARK: BIP-44

extension DerivationPath {
    /// SLIP-44 coin type of Ether.
    public static let ethereumCoinType: UInt32 = 60
    /// SLIP-44 coin type of the Internet Computer (ICP).
    public static let icpCoinType: UInt32 = 223

    /// `m/44'/coin'/account'/change/index` (BIP-44).
    public static func bip44(coinType: UInt32, account: UInt32 = 0, change: UInt32 = 0, index: UInt32 = 0)
        -> DerivationPath
    {
        DerivationPath(indices: [hardened(44), hardened(coinType), hardened(account), change, index])
    }

    /// The Ethereum account path most wallets use: `m/44'/60'/account'/0/index`.
    public static func ethereum(index: UInt32, account: UInt32 = 0) -> DerivationPath {
        bip44(coinType: ethereumCoinType, account: account, change: 0, index: index)
    }

    /// The ICP path of dfx and the NNS: `m/44'/223'/0'/0/0` (the principal comes from the key's public key).
    public static let icp = bip44(coinType: icpCoinType)
}
