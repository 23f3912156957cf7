import Foundation

/// A keystore file of either format Sandnet reads, told apart by its `version`: 3 is Web3 Secret Storage (one
/// key), 4 is Klaytn's KIP-3 keyring (several keys, possibly per role).
public enum KeystoreDocument: Sendable, Equatable {
    case web3SecretStorage(Keystore)
    case klaytn(KlaytnKeystore)

    /// Parses either format.
    /// - Throws: ``KeystoreError`` from the format's parser (a version other than 3 or 4 is
    ///   ``KeystoreError/unsupportedVersion(_:)``).
    public init(json: Data) throws(KeystoreError) {
        struct VersionProbe: Decodable { var version: Int }
        // Only a readable version 4 goes to the Klaytn parser; anything else gets the v3 parser's precise error.
        if let probe = try? JSONDecoder().decode(VersionProbe.self, from: json), probe.version == 4 {
            self = .klaytn(try KlaytnKeystore(json: json))
        } else {
            self = .web3SecretStorage(try Keystore(json: json))
        }
    }

    /// Reads and parses the file at `path`.
    public init(contentsOf path: String) throws(KeystoreError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .io(path: path, reason: "cannot read the file")
        }
        try self.init(json: data)
    }
}
