import ArgumentParser
import ByteCoding
import CryptoCore
import EthereumTypes
import Foundation
import JSONCoding
import SecretStorage

struct KeystoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keystore",
        abstract:
            "Web3 Secret Storage v3 and Klaytn v4 (KIP-3) keystores: create, decrypt, inspect, convert, change the "
            + "password.",
        discussion: """
            Passwords come from --password-file FILE (first line), --password-env VAR, or a prompt on the \
            terminal with echo off. Files are written with mode 0600. v3 files may use aes-128-ctr (the standard) \
            or web3swift's aes-128-cbc, which other wallets misread: `convert` rewrites them as aes-128-ctr.
            """,
        subcommands: [New.self, Decrypt.self, Inspect.self, Convert.self, ChangePassword.self])

    /// The key derivation for new files: scrypt n=262144 r=8 p=1 unless told otherwise.
    struct KDFOptions: ParsableArguments {
        enum Kind: String, ExpressibleByArgument, CaseIterable {
            case scrypt, pbkdf2
        }

        @Option(help: "Key derivation function: scrypt or pbkdf2 (PBKDF2-HMAC-SHA256).")
        var kdf: Kind?

        @Option(help: "scrypt cost n (a power of two).")
        var scryptN: UInt64 = 262_144

        @Option(help: "scrypt block size r.")
        var scryptR: UInt32 = 8

        @Option(help: "scrypt parallelism p.")
        var scryptP: UInt32 = 1

        @Option(help: "PBKDF2 iterations.")
        var iterations = 262_144

        /// The requested KDF with a random salt, or nil when no --kdf was given.
        var requested: KeystoreKDF? {
            switch kdf {
            case .none: return nil
            case .scrypt:
                return .scrypt(n: scryptN, r: scryptR, p: scryptP, keyLength: 32, salt: SecureRandom.bytes(32))
            case .pbkdf2: return .pbkdf2(iterations: iterations, keyLength: 32, salt: SecureRandom.bytes(32))
            }
        }
    }

    static func load(_ path: String) throws -> Keystore {
        do { return try Keystore(contentsOf: path) } catch { throw CLIError("\(error)") }
    }

    static func loadAny(_ path: String) throws -> KeystoreDocument {
        do { return try KeystoreDocument(contentsOf: path) } catch { throw CLIError("\(error)") }
    }

    /// What other wallets do with a v3 file of this cipher, for `inspect` (nil: nothing to say).
    static func cipherWarning(_ cipher: KeystoreCipher, file: String) -> [String]? {
        guard !cipher.isInteroperable else { return nil }
        return [
            "warning: \(cipher) is web3swift's default cipher, not the Web3 Secret Storage standard: geth refuses "
                + "this file (cipher not supported: \(cipher)) and eth-account/web3.py decrypt it as aes-128-ctr "
                + "without an error, giving a wrong key",
            "warning: convert it with: sandnet keystore convert \(file) --to aes-128-ctr [--out NEW_FILE]",
        ]
    }

    /// Reads `--klaytn-keys FILE`: a JSON array of hex keys (one key or a multi-signature set) or an array of
    /// arrays of hex keys (per role: transaction, account update, fee payer), as caver's `newKeyring` takes them.
    static func klaytnKeys(_ path: String) throws -> KlaytnKeyring<[UInt8]> {
        guard let data = FileManager.default.contents(atPath: path) else { throw CLIError("cannot read \(path)") }
        let json: JSON
        do { json = try JSON.parse([UInt8](data)) } catch { throw CLIError("\(path): \(error)") }
        func key(_ value: JSON, at position: String) throws -> [UInt8] {
            guard let text = value.stringValue else { throw CLIError("\(path): \(position) is not a hex string") }
            do {
                return try Hex.decode(text.hasPrefix("0x") ? String(text.dropFirst(2)) : text)
            } catch {
                throw CLIError("\(path): \(position): \(error)")
            }
        }
        guard let items = json.arrayValue, let first = items.first else {
            throw CLIError("\(path): expected a non-empty array of hex keys or of arrays of hex keys (one per role)")
        }
        if first.arrayValue != nil {
            var roles: [[[UInt8]]] = []
            for (index, role) in items.enumerated() {
                guard let keys = role.arrayValue else { throw CLIError("\(path): [\(index)] is not an array") }
                roles.append(try keys.enumerated().map { try key($0.element, at: "[\(index)][\($0.offset)]") })
            }
            return .roleBased(roles)
        }
        return .keys(try items.enumerated().map { try key($0.element, at: "[\($0.offset)]") })
    }

    /// How much key derivation work a command does before refusing a file or the requested parameters.
    struct WorkLimitOptions: ParsableArguments {
        @Option(
            name: .customLong("max-kdf-work"),
            help: ArgumentHelp(
                "Most scrypt work N·r·p to do (default 2^25 = 33554432, 16 times geth's standard n=2^18 r=8 p=1); "
                    + "more is refused before any work.",
                valueName: "n"))
        var maxKDFWork: UInt64 = KeystoreKDF.defaultMaximumScryptWork
    }

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Encrypt a new random key (or --private-key-file) into a new keystore file (mode 0600).")

        @Argument(help: "The keystore file to create; it must not exist.")
        var file: String

        @Option(help: "Read the private key (hex) from FILE instead of generating one.")
        var privateKeyFile: String?

        @Option(
            help: ArgumentHelp(
                "Write a Klaytn v4 (KIP-3) keystore of the keys in FILE: a JSON array of hex keys, or an array of "
                    + "arrays of hex keys per role (transaction, account update, fee payer).",
                valueName: "file"))
        var klaytnKeys: String?

        @Option(help: "With --klaytn-keys: the account address (default: the address of the first key).")
        var klaytnAddress: String?

        @OptionGroup var kdf: KDFOptions
        @OptionGroup var password: PasswordOptions
        @OptionGroup var workLimit: WorkLimitOptions

        func validate() throws {
            if klaytnKeys != nil && privateKeyFile != nil {
                throw ValidationError("use either --private-key-file or --klaytn-keys, not both")
            }
            if klaytnAddress != nil && klaytnKeys == nil {
                throw ValidationError("--klaytn-address needs --klaytn-keys")
            }
        }

        func run() throws {
            if FileManager.default.fileExists(atPath: file) { throw CLIError("\(file) already exists") }
            if let klaytnKeys {
                try writeKlaytn(keysFile: klaytnKeys)
                return
            }
            let privateKey: [UInt8]
            if let privateKeyFile {
                guard let data = FileManager.default.contents(atPath: privateKeyFile) else {
                    throw CLIError("cannot read \(privateKeyFile)")
                }
                let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                do {
                    privateKey = try Hex.decode(text.hasPrefix("0x") ? String(text.dropFirst(2)) : text)
                } catch {
                    throw CLIError("private key file: \(error)")
                }
            } else {
                var key = SecureRandom.bytes(32)
                while !Secp256k1.isValidPrivateKey(key) { key = SecureRandom.bytes(32) }
                privateKey = key
            }
            let secret = try password.password(prompt: "Password: ", confirm: true)
            do {
                let keystore = try Keystore.encrypt(
                    privateKey: privateKey, password: secret, kdf: kdf.requested ?? .defaultScrypt(),
                    maxKDFWork: workLimit.maxKDFWork)
                try keystore.write(to: file)
                print("address: \(keystore.address!.checksummed)")
                print("file: \(file)")
            } catch {
                throw CLIError("\(error)")
            }
        }

        func writeKlaytn(keysFile: String) throws {
            let keys = try KeystoreCommand.klaytnKeys(keysFile)
            var address: Address?
            if let klaytnAddress {
                do { address = try Address(parsing: klaytnAddress) } catch {
                    throw CLIError("--klaytn-address: \(error)")
                }
            }
            do {
                try keys.validate()
            } catch {
                throw CLIError("\(error)")
            }
            let secret = try password.password(prompt: "Password: ", confirm: true)
            do {
                let keystore = try KlaytnKeystore.encrypt(
                    keys: keys, address: address, password: secret, kdf: kdf.requested ?? .klaytnDefault(),
                    maxKDFWork: workLimit.maxKDFWork)
                try keystore.write(to: file)
                print("address: \(keystore.address.lowercased)")
                print("keys: \(keystore.keyring.allKeys.count)")
                print("file: \(file)")
            } catch {
                throw CLIError("\(error)")
            }
        }
    }

    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check the password and print the address; the private key only with --show-private-key.")

        @Argument(help: "The keystore file.")
        var file: String

        @Flag(help: "Also print the decrypted private key (hex).")
        var showPrivateKey = false

        @OptionGroup var password: PasswordOptions
        @OptionGroup var workLimit: WorkLimitOptions

        func run() throws {
            let document = try KeystoreCommand.loadAny(file)
            let secret = try password.password(prompt: "Password: ")
            switch document {
            case .web3SecretStorage(let keystore):
                let privateKey: [UInt8]
                do {
                    privateKey = try keystore.decrypt(password: secret, maxKDFWork: workLimit.maxKDFWork)
                } catch {
                    throw CLIError("\(error)")
                }
                print("address: \(KeystoreCommand.address(of: privateKey))")
                if showPrivateKey { print("private key: \(Hex.encodePrefixed(privateKey))") }
            case .klaytn(let keystore):
                let keys: KlaytnKeyring<[UInt8]>
                do {
                    keys = try keystore.decrypt(password: secret, maxKDFWork: workLimit.maxKDFWork)
                } catch {
                    throw CLIError("\(error)")
                }
                print("address: \(keystore.address.lowercased)")
                for (label, privateKey) in KeystoreCommand.labelled(keys) {
                    var line = "\(label): key address \(KeystoreCommand.address(of: privateKey))"
                    if showPrivateKey { line += ", private key \(Hex.encodePrefixed(privateKey))" }
                    print(line)
                }
            }
        }
    }

    /// The checksummed address of a decrypted (hence valid) key.
    static func address(of privateKey: [UInt8]) -> String {
        guard let publicKey = try? Secp256k1.publicKey(of: privateKey), let address = Address(publicKey: publicKey)
        else { return "(invalid key)" }
        return address.checksummed
    }

    /// Each key with its place: `key 1`, or `role fee-payer key 2` (1-based, as a person counts).
    static func labelled<Key: Sendable & Equatable>(_ keyring: KlaytnKeyring<Key>) -> [(String, Key)] {
        switch keyring {
        case .keys(let keys):
            return keys.enumerated().map { ("key \($0.offset + 1)", $0.element) }
        case .roleBased(let roles):
            return roles.enumerated().flatMap { role in
                role.element.enumerated().map {
                    ("role \(KlaytnKeyring<Key>.roleNames[role.offset]) key \($0.offset + 1)", $0.element)
                }
            }
        }
    }

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Print a keystore's id, address, cipher and KDF parameters, or a Klaytn v4 file's roles and key counts "
                + "(no password needed).")

        @Argument(help: "The keystore file.")
        var file: String

        func run() throws {
            switch try KeystoreCommand.loadAny(file) {
            case .web3SecretStorage(let keystore):
                print("format: Web3 Secret Storage v3")
                print("id: \(keystore.id)")
                print("address: \(keystore.address?.checksummed ?? "(not recorded)")")
                print("cipher: \(keystore.cipher)")
                print("kdf: \(keystore.kdf)")
                for line in KeystoreCommand.cipherWarning(keystore.cipher, file: file) ?? [] {
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                }
            case .klaytn(let keystore):
                print("format: Klaytn keystore v4 (KIP-3)")
                print("id: \(keystore.id)")
                print("address: \(keystore.address.lowercased)")
                switch keystore.keyring {
                case .keys(let keys):
                    print("keyring: \(keys.count == 1 ? "single key" : "multiple keys"), \(keys.count) key(s)")
                case .roleBased(let roles):
                    print("keyring: role-based, \(roles.count) role(s), \(roles.joined().count) key(s)")
                    for (index, role) in roles.enumerated() {
                        print("role \(KlaytnKeyring<KeystoreCrypto>.roleNames[index]): \(role.count) key(s)")
                    }
                }
                for (label, crypto) in KeystoreCommand.labelled(keystore.keyring) {
                    print("\(label): \(crypto.cipher), \(crypto.kdf)")
                }
            }
        }
    }

    struct Convert: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Re-encrypt a v3 keystore with another cipher (e.g. a web3swift aes-128-cbc file to aes-128-ctr), "
                + "same password, fresh salt and IV.")

        enum Target: String, ExpressibleByArgument, CaseIterable {
            case aes128CTR = "aes-128-ctr"
        }

        @Argument(help: "The keystore file.")
        var file: String

        @Option(help: "The cipher to convert to.")
        var to: Target

        @Option(help: "Write the converted keystore to FILE (must not exist) instead of replacing FILE atomically.")
        var out: String?

        @OptionGroup var password: PasswordOptions
        @OptionGroup(title: "New key derivation (default: the file's current one)") var kdf: KDFOptions
        @OptionGroup var workLimit: WorkLimitOptions

        func run() throws {
            let keystore = try KeystoreCommand.load(file)
            let target = KeystoreCipher.aes128CTR
            guard keystore.cipher != target else {
                throw CLIError("\(file) is already \(target); nothing to convert")
            }
            if let out, FileManager.default.fileExists(atPath: out) { throw CLIError("\(out) already exists") }
            let secret = try password.password(prompt: "Password: ")
            do {
                let converted = try keystore.converting(
                    to: target, password: secret, kdf: kdf.requested, maxKDFWork: workLimit.maxKDFWork)
                try converted.write(to: out ?? file, replacing: out == nil)
                print("address: \(converted.address!.checksummed)")
                print("cipher: \(keystore.cipher) -> \(converted.cipher)")
                print("file: \(out ?? file)")
            } catch {
                throw CLIError("\(error)")
            }
        }
    }

    struct ChangePassword: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change-password",
            abstract:
                "Re-encrypt a v3 or Klaytn v4 keystore under a new password (fresh salts and IVs; a v4 file keeps its "
                + "id, address, keyring shape and ciphers), replacing the file atomically.")

        @Argument(help: "The keystore file.")
        var file: String

        @OptionGroup var password: PasswordOptions
        @OptionGroup var newPassword: NewPasswordOptions
        @OptionGroup(title: "New key derivation (default: the file's current one)") var kdf: KDFOptions
        @OptionGroup var workLimit: WorkLimitOptions

        func run() throws {
            let document = try KeystoreCommand.loadAny(file)
            let old = try password.password(prompt: "Current password: ")
            do {
                // Fail before asking for the new password.
                switch document {
                case .web3SecretStorage(let keystore):
                    _ = try keystore.decrypt(password: old, maxKDFWork: workLimit.maxKDFWork)
                case .klaytn(let keystore): _ = try keystore.decrypt(password: old, maxKDFWork: workLimit.maxKDFWork)
                }
            } catch {
                throw CLIError("\(error)")
            }
            let new = try newPassword.password()
            do {
                switch document {
                case .web3SecretStorage(let keystore):
                    let changed = try keystore.changingPassword(
                        from: old, to: new, kdf: kdf.requested, maxKDFWork: workLimit.maxKDFWork)
                    try changed.write(to: file, replacing: true)
                    print("address: \(changed.address!.checksummed)")
                case .klaytn(let keystore):
                    let changed = try keystore.changingPassword(
                        from: old, to: new, kdf: kdf.requested, maxKDFWork: workLimit.maxKDFWork)
                    try changed.write(to: file, replacing: true)
                    print("address: \(changed.address.lowercased)")
                    print("keys: \(changed.keyring.allKeys.count)")
                }
                print("file: \(file)")
            } catch {
                throw CLIError("\(error)")
            }
        }
    }
}
