import ArgumentParser
import ByteCoding
import CryptoCore
import EthereumTypes
import Foundation
import SecretStorage

struct KeystoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keystore",
        abstract: "Web3 Secret Storage v3 keystores: create, decrypt, inspect, change the password.",
        discussion: """
            Passwords come from --password-file FILE (first line), --password-env VAR, or a prompt on the \
            terminal with echo off. Files are written with mode 0600.
            """,
        subcommands: [New.self, Decrypt.self, Inspect.self, ChangePassword.self])

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

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Encrypt a new random key (or --private-key-file) into a new keystore file (mode 0600).")

        @Argument(help: "The keystore file to create; it must not exist.")
        var file: String

        @Option(help: "Read the private key (hex) from FILE instead of generating one.")
        var privateKeyFile: String?

        @OptionGroup var kdf: KDFOptions
        @OptionGroup var password: PasswordOptions

        func run() throws {
            if FileManager.default.fileExists(atPath: file) { throw CLIError("\(file) already exists") }
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
                    privateKey: privateKey, password: secret, kdf: kdf.requested ?? .defaultScrypt())
                try keystore.write(to: file)
                print("address: \(keystore.address!.checksummed)")
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

        func run() throws {
            let keystore = try KeystoreCommand.load(file)
            let secret = try password.password(prompt: "Password: ")
            let privateKey: [UInt8]
            let publicKey: [UInt8]
            do {
                privateKey = try keystore.decrypt(password: secret)
                publicKey = try Secp256k1.publicKey(of: privateKey)
            } catch {
                throw CLIError("\(error)")
            }
            print("address: \(Address(publicKey: publicKey)!.checksummed)")
            if showPrivateKey { print("private key: \(Hex.encodePrefixed(privateKey))") }
        }
    }

    struct Inspect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a keystore's id, address, cipher and KDF parameters (no password needed).")

        @Argument(help: "The keystore file.")
        var file: String

        func run() throws {
            let keystore = try KeystoreCommand.load(file)
            print("id: \(keystore.id)")
            print("address: \(keystore.address?.checksummed ?? "(not recorded)")")
            print("cipher: aes-128-ctr")
            print("kdf: \(keystore.kdf)")
        }
    }

    struct ChangePassword: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "change-password",
            abstract: "Re-encrypt a keystore under a new password (fresh salt and IV), replacing the file atomically.")

        @Argument(help: "The keystore file.")
        var file: String

        @OptionGroup var password: PasswordOptions
        @OptionGroup var newPassword: NewPasswordOptions
        @OptionGroup(title: "New key derivation (default: the file's current one)") var kdf: KDFOptions

        func run() throws {
            let keystore = try KeystoreCommand.load(file)
            let old = try password.password(prompt: "Current password: ")
            do {
                _ = try keystore.decrypt(password: old)  // fail before asking for the new password
            } catch {
                throw CLIError("\(error)")
            }
            let new = try newPassword.password()
            do {
                let changed = try keystore.changingPassword(from: old, to: new, kdf: kdf.requested)
                try changed.write(to: file, replacing: true)
                print("address: \(changed.address!.checksummed)")
                print("file: \(file)")
            } catch {
                throw CLIError("\(error)")
            }
        }
    }
}
