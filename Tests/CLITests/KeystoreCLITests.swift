import Foundation
import TestSupport
import Testing

/// `sandnet keystore inspect|decrypt|convert|new` on the files other wallets write: web3swift's aes-128-cbc,
/// geth's short keys, Klaytn v4 keyrings (Vectors/generated/keystores.json).
@Suite struct KeystoreCLITests {
    /// Read on each use: `Any` payloads cannot live in a shared static.
    static var cases: [String: [String: Any]] {
        let url = URL(fileURLWithPath: TestVectors.packageRoot + "/Vectors/generated/keystores.json")
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object["cases"] as? [String: [String: Any]] ?? [:]
    }

    /// A temporary directory with the vector `name` written to `key.json`; returns (dir, file, password env).
    static func scratch(_ name: String) throws -> (URL, String, [String: String]) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-ks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("key.json").path
        let json = try #require(cases[name]?["json"])
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: file))
        return (dir, file, ["PW": cases[name]?["password"] as? String ?? ""])
    }

    @Test func web3swiftFileIsReadWarnedAboutAndConverted() throws {
        let (dir, file, env) = try Self.scratch("web3swift_default_scrypt")
        defer { try? FileManager.default.removeItem(at: dir) }
        let priv = try #require(Self.cases["web3swift_default_scrypt"]?["priv"] as? String)

        let inspect = try SandnetProcess.run(["keystore", "inspect", file])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("cipher: aes-128-cbc\nkdf: scrypt n=4096 r=6 p=1 dklen=32\n"))
        #expect(
            inspect.stderr == """
                warning: aes-128-cbc is web3swift's default cipher, not the Web3 Secret Storage standard: geth \
                refuses this file (cipher not supported: aes-128-cbc) and eth-account/web3.py decrypt it as \
                aes-128-ctr without an error, giving a wrong key
                warning: convert it with: sandnet keystore convert \(file) --to aes-128-ctr [--out NEW_FILE]

                """)

        let decrypted = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "PW", "--show-private-key"], environment: env)
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        #expect(decrypted.stdout.hasSuffix("private key: 0x\(priv)\n"))
        let address = try #require(decrypted.stdout.split(separator: "\n").first.map(String.init))

        let out = dir.appendingPathComponent("converted.json").path
        let converted = try SandnetProcess.run(
            ["keystore", "convert", file, "--to", "aes-128-ctr", "--out", out, "--password-env", "PW"],
            environment: env)
        #expect(converted.status == 0, "\(converted.stderr)")
        #expect(converted.stdout == "\(address)\ncipher: aes-128-cbc -> aes-128-ctr\nfile: \(out)\n")
        let after = try SandnetProcess.run(["keystore", "inspect", out])
        #expect(after.stdout.contains("cipher: aes-128-ctr\nkdf: scrypt n=4096 r=6 p=1 dklen=32\n"))
        #expect(after.stderr == "")
        let again = try SandnetProcess.run(
            ["keystore", "decrypt", out, "--password-env", "PW", "--show-private-key"], environment: env)
        #expect(again.stdout == decrypted.stdout)
        // The original is untouched with --out; a second conversion has nothing to do.
        #expect(try SandnetProcess.run(["keystore", "inspect", file]).stdout.contains("cipher: aes-128-cbc"))
        let twice = try SandnetProcess.run(
            ["keystore", "convert", out, "--to", "aes-128-ctr", "--password-env", "PW"], environment: env)
        #expect(twice.stderr == "Error: \(out) is already aes-128-ctr; nothing to convert\n")
        let taken = try SandnetProcess.run(
            ["keystore", "convert", file, "--to", "aes-128-ctr", "--out", out, "--password-env", "PW"],
            environment: env)
        #expect(taken.stderr == "Error: \(out) already exists\n")
        let wrong = try SandnetProcess.run(
            ["keystore", "convert", file, "--to", "aes-128-ctr", "--password-env", "PW"], environment: ["PW": "no"])
        #expect(wrong.stderr == "Error: MAC mismatch: wrong password or corrupted keystore\n")

        // Without --out the file is replaced atomically, mode 0600.
        let inPlace = try SandnetProcess.run(
            ["keystore", "convert", file, "--to", "aes-128-ctr", "--password-env", "PW"], environment: env)
        #expect(inPlace.status == 0, "\(inPlace.stderr)")
        #expect(try SandnetProcess.run(["keystore", "inspect", file]).stdout.contains("cipher: aes-128-ctr"))
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
    }

    @Test func gethShortKeyDecryptsPadded() throws {
        let (dir, file, env) = try Self.scratch("31_byte_key")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "PW", "--show-private-key"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasSuffix("private key: 0x00fa7b3db73dc7dfdf8c5fbdb796d741e4488628c41fc4febd9160a866ba0f35\n"))
    }

    @Test func klaytnVectorInspectAndDecrypt() throws {
        let name = "klaytn_v4_role_based"
        let (dir, file, env) = try Self.scratch(name)
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = try #require(Self.cases[name]?["json"] as? [String: Any])
        let account = try #require(json["address"] as? String)
        let keys = try #require(Self.cases[name]?["keys"] as? [[String]])

        let inspect = try SandnetProcess.run(["keystore", "inspect", file])
        #expect(inspect.status == 0, "\(inspect.stderr)")
        #expect(
            inspect.stdout.hasPrefix(
                """
                format: Klaytn keystore v4 (KIP-3)
                id: \(json["id"] as? String ?? "?")
                address: \(account)
                keyring: role-based, 3 role(s), 3 key(s)
                role transaction: 1 key(s)
                role account-update: 0 key(s)
                role fee-payer: 2 key(s)
                role transaction key 1: aes-128-ctr, scrypt n=4096 r=8 p=1 dklen=32
                role fee-payer key 1: aes-128-ctr, scrypt n=4096 r=8 p=1 dklen=32
                role fee-payer key 2: aes-128-ctr, pbkdf2 hmac-sha256 c=1024 dklen=32

                """))

        let decrypted = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "PW", "--show-private-key"], environment: env)
        #expect(decrypted.status == 0, "\(decrypted.stderr)")
        let lines = decrypted.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        #expect(lines.first == "address: \(account)")
        #expect(lines[1].hasPrefix("role transaction key 1: key address 0x"))
        #expect(lines[1].hasSuffix(", private key 0x\(keys[0][0])"))
        #expect(lines[2].hasPrefix("role fee-payer key 1: "))
        #expect(lines[2].hasSuffix(", private key 0x\(keys[2][0])"))
        #expect(lines[3].hasSuffix(", private key 0x\(keys[2][1])"))
        let wrong = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "PW"], environment: ["PW": "nope"])
        #expect(wrong.stderr == "Error: MAC mismatch: wrong password or corrupted keystore\n")
        // A v3-only command names the format instead of failing obscurely.
        let sign = try SandnetProcess.run(
            ["keystore", "convert", file, "--to", "aes-128-ctr", "--password-env", "PW"], environment: env)
        #expect(
            sign.stderr
                == "Error: keystore version 4 is a Klaytn KIP-3 keyring, not a v3 keystore (read it with KlaytnKeystore)\n"
        )
    }

    @Test func klaytnNewWritesV4() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-ks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let keysFile = dir.appendingPathComponent("keys.json").path
        let file = dir.appendingPathComponent("klaytn.json").path
        let one = "0x" + String(repeating: "11", count: 32)
        let two = "0x" + String(repeating: "22", count: 32)
        try #"[["\#(one)"], [], ["\#(two)", "\#(one)"]]"#.write(toFile: keysFile, atomically: true, encoding: .utf8)
        let account = "0xa8677855999712d23692a4cad77bb9396a1174cd"
        let created = try SandnetProcess.run(
            [
                "keystore", "new", file, "--klaytn-keys", keysFile, "--klaytn-address", account, "--password-env",
                "PW", "--kdf", "scrypt", "--scrypt-n", "16",
            ], environment: ["PW": "pw"])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout == "address: \(account)\nkeys: 3\nfile: \(file)\n")
        let inspect = try SandnetProcess.run(["keystore", "inspect", file])
        #expect(inspect.stdout.contains("keyring: role-based, 3 role(s), 3 key(s)\n"))
        #expect(inspect.stdout.contains("role fee-payer: 2 key(s)\n"))
        let decrypted = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "PW", "--show-private-key"], environment: ["PW": "pw"])
        #expect(
            decrypted.stdout.contains("role transaction key 1: key address 0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A"))
        #expect(
            decrypted.stdout.contains(
                "role fee-payer key 2: key address 0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A, private key \(one)\n"))

        try #"["\#(one)", "0x1234"]"#.write(toFile: keysFile, atomically: true, encoding: .utf8)
        let short = try SandnetProcess.run(
            [
                "keystore", "new", dir.appendingPathComponent("b.json").path, "--klaytn-keys", keysFile,
                "--password-env", "PW",
            ],
            environment: ["PW": "pw"])
        #expect(short.stderr == "Error: the key is not a valid secp256k1 private key\n")
        try "[[], [], [], [\"\(one)\"]]".write(toFile: keysFile, atomically: true, encoding: .utf8)
        let roles = try SandnetProcess.run(
            [
                "keystore", "new", dir.appendingPathComponent("c.json").path, "--klaytn-keys", keysFile,
                "--password-env", "PW",
            ],
            environment: ["PW": "pw"])
        #expect(
            roles.stderr
                == "Error: invalid Klaytn keyring: 4 roles; Klaytn defines 3 (transaction, account-update, fee-payer)\n"
        )
    }

    @Test func klaytnChangePasswordKeepsTheKeyring() throws {
        let name = "klaytn_v4_role_based"
        let (dir, file, env) = try Self.scratch(name)
        defer { try? FileManager.default.removeItem(at: dir) }
        let json = try #require(Self.cases[name]?["json"] as? [String: Any])
        let account = try #require(json["address"] as? String)
        let keys = try #require(Self.cases[name]?["keys"] as? [[String]])
        let before = try SandnetProcess.run(["keystore", "inspect", file]).stdout

        let changed = try SandnetProcess.run(
            ["keystore", "change-password", file, "--password-env", "PW", "--new-password-env", "NEW"],
            environment: env.merging(["NEW": "correct horse"]) { $1 })
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(changed.stdout == "address: \(account)\nkeys: 3\nfile: \(file)\n")
        // Same id, address, roles, ciphers and KDF costs (fresh salts and IVs).
        #expect(try SandnetProcess.run(["keystore", "inspect", file]).stdout == before)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        let old = try SandnetProcess.run(["keystore", "decrypt", file, "--password-env", "PW"], environment: env)
        #expect(old.stderr == "Error: MAC mismatch: wrong password or corrupted keystore\n")
        let new = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "NEW", "--show-private-key"],
            environment: ["NEW": "correct horse"])
        #expect(new.status == 0, "\(new.stderr)")
        for key in [keys[0][0], keys[2][0], keys[2][1]] { #expect(new.stdout.contains(", private key 0x\(key)\n")) }

        let pbkdf2 = try SandnetProcess.run(
            [
                "keystore", "change-password", file, "--password-env", "NEW", "--new-password-env", "PW",
                "--kdf", "pbkdf2", "--iterations", "1000",
            ], environment: env.merging(["NEW": "correct horse"]) { $1 })
        #expect(pbkdf2.status == 0, "\(pbkdf2.stderr)")
        let inspect = try SandnetProcess.run(["keystore", "inspect", file]).stdout
        #expect(inspect.components(separatedBy: "aes-128-ctr, pbkdf2 hmac-sha256 c=1000 dklen=32\n").count == 4)

        let wrong = try SandnetProcess.run(
            ["keystore", "change-password", file, "--password-env", "NEW", "--new-password-env", "NEW"],
            environment: ["NEW": "correct horse"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr == "Error: MAC mismatch: wrong password or corrupted keystore\n")
        #expect(try SandnetProcess.run(["keystore", "inspect", file]).stdout == inspect)
    }

    /// Issue 38: scrypt parameters inside the memory limit but minutes of work are refused at once, naming the limit;
    /// `--max-kdf-work` sets the limit (here lowered, so a cheap file stands in for an expensive one).
    @Test func scryptWorkIsBoundedAndTheFlagSetsTheBound() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-ks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = ["PW": "pw"]
        let hostile = try SandnetProcess.run(
            [
                "keystore", "new", dir.appendingPathComponent("hostile.json").path, "--kdf", "scrypt", "--scrypt-n",
                "16384", "--scrypt-r", "8", "--scrypt-p", "4096", "--password-env", "PW",
            ], environment: env)
        #expect(hostile.status != 0)
        #expect(hostile.stderr.contains("work N·r·p = 536870912 is over the limit of 33554432 (2^25)"), "\(hostile)")

        let file = dir.appendingPathComponent("key.json").path
        let created = try SandnetProcess.run(
            [
                "keystore", "new", file, "--kdf", "scrypt", "--scrypt-n", "1024", "--scrypt-r", "8", "--scrypt-p", "2",
                "--password-env", "PW",
            ], environment: env)
        #expect(created.status == 0, "\(created.stderr)")
        let refused = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "PW", "--max-kdf-work", "16383"], environment: env)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("work N·r·p = 16384 is over the limit of 16383"), "\(refused.stderr)")
        let allowed = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "PW", "--max-kdf-work", "16384"], environment: env)
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }
}
