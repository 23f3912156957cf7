import Foundation
import TestSupport
import Testing

/// `sandnet mnemonic …` and `sandnet keystore …` through the built binary, with cheap KDF parameters.
@Suite struct WalletCLITests {
    static let abandon = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

    @Test func mnemonicNew() throws {
        let r = try SandnetProcess.run(["mnemonic", "new", "--words", "24", "--language", "korean"])
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: " ").count == 24)
        let japanese = try SandnetProcess.run(["mnemonic", "new", "--language", "japanese"])
        #expect(japanese.stdout.split(separator: "\u{3000}").count == 12)
        let seed = try SandnetProcess.run(["mnemonic", "seed", japanese.stdout])
        #expect(seed.status == 0, "\(seed.stderr)")
        for bad in [["--words", "13"], ["--language", "klingon"]] {
            let r = try SandnetProcess.run(["mnemonic", "new"] + bad)
            #expect(r.status != 0)
            #expect(r.stderr.hasPrefix("Error: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
    }

    @Test func mnemonicSeed() throws {
        let r = try SandnetProcess.run(["mnemonic", "seed", Self.abandon, "--passphrase", "TREZOR"])
        #expect(
            r.stdout
                == "c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04\n"
        )
        let stdin = try SandnetProcess.run(["mnemonic", "seed", "-", "--passphrase", "TREZOR"], stdin: Self.abandon)
        #expect(stdin.stdout == r.stdout)
        let bad = try SandnetProcess.run([
            "mnemonic", "seed", Self.abandon.replacingOccurrences(of: "about", with: "abandon"),
        ])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("checksum"))
        let unknown = try SandnetProcess.run(["mnemonic", "seed", "abandon " + Self.abandon.dropFirst(8) + "x"])
        #expect(unknown.stderr.contains("word 12 'aboutx'"), "\(unknown.stderr)")
        let spanish = try SandnetProcess.run(["mnemonic", "seed", Self.abandon, "--language", "spanish"])
        #expect(spanish.stderr == "Error: word 1 'abandon' is not in the spanish wordlist\n")
        let english = try SandnetProcess.run([
            "mnemonic", "seed", Self.abandon, "--language", "en", "--passphrase", "TREZOR",
        ])
        #expect(english.stdout == r.stdout)
    }

    @Test func mnemonicDerive() throws {
        let r = try SandnetProcess.run(["mnemonic", "derive", Self.abandon])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                path: m/44'/60'/0'/0/0
                address: 0x9858EfFD232B4033E47d90003D41EC34EcaEda94
                public key: 0x0237b0bb7a8288d38ed49a524b5dc98cff3eb5ca824c9f9dc0dfdb3d9cd600f299

                """)
        #expect(!r.stdout.contains("private"))
        let withKey = try SandnetProcess.run(["mnemonic", "derive", Self.abandon, "--index", "0", "--show-private-key"])
        #expect(withKey.stdout.hasPrefix(r.stdout))
        #expect(
            withKey.stdout.hasSuffix(
                "private key: 0x1ab42cc412b618bdea3a599e3c9bae199ebf030895b039e9db1e30dafb12b727\n"))
        let icp = try SandnetProcess.run(["mnemonic", "derive", Self.abandon, "--path", "m/44h/223h/0h/0/0"])
        #expect(icp.stdout.hasPrefix("path: m/44'/223'/0'/0/0\n"))
        #expect(icp.stdout.contains("public key: 0x03abdb60eb7c96408414d1e251d41ca0ecf89a4541768cba7eed8174c53246d58c"))
        let both = try SandnetProcess.run(["mnemonic", "derive", Self.abandon, "--path", "m/0", "--index", "1"])
        #expect(both.status != 0)
        let badPath = try SandnetProcess.run(["mnemonic", "derive", Self.abandon, "--path", "m/x"])
        #expect(badPath.stderr == "Error: path component 1 'x' is not a number with an optional ' or h\n")
    }

    @Test func keystoreLifecycle() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("key.json").path
        let passwordFile = dir.appendingPathComponent("pw.txt").path
        let keyFile = dir.appendingPathComponent("key.hex").path
        try "hunter2\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        let privateKey = "0x" + String(repeating: "11", count: 32)
        try privateKey.write(toFile: keyFile, atomically: true, encoding: .utf8)

        let created = try SandnetProcess.run([
            "keystore", "new", file, "--private-key-file", keyFile, "--password-file", passwordFile,
            "--kdf", "scrypt", "--scrypt-n", "1024",
        ])
        #expect(created.status == 0, "\(created.stderr)")
        #expect(!created.stdout.contains("11111111"))
        let address = "0x19E7E376E7C213B7E7e7e46cc70A5dD086DAff2A"
        #expect(created.stdout == "address: \(address)\nfile: \(file)\n")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)

        let again = try SandnetProcess.run(["keystore", "new", file, "--password-file", passwordFile])
        #expect(again.status != 0)
        #expect(again.stderr.contains("already exists"))

        let inspect = try SandnetProcess.run(["keystore", "inspect", file])
        #expect(inspect.stdout.contains("address: \(address)\n"))
        #expect(inspect.stdout.contains("kdf: scrypt n=1024 r=8 p=1 dklen=32\n"))

        let decrypted = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "PW"], environment: ["PW": "hunter2"])
        #expect(decrypted.stdout == "address: \(address)\n")
        let shown = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-file", passwordFile, "--show-private-key"])
        #expect(shown.stdout == "address: \(address)\nprivate key: \(privateKey)\n")

        let wrong = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "PW"], environment: ["PW": "hunter3"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr == "Error: MAC mismatch: wrong password or corrupted keystore\n")
        #expect(!wrong.stdout.contains("private"))

        let changed = try SandnetProcess.run(
            [
                "keystore", "change-password", file, "--password-file", passwordFile, "--new-password-env", "NEW",
                "--kdf", "pbkdf2", "--iterations", "1000",
            ], environment: ["NEW": "correct horse"])
        #expect(changed.status == 0, "\(changed.stderr)")
        #expect(
            try SandnetProcess.run(["keystore", "inspect", file]).stdout.contains("kdf: pbkdf2 hmac-sha256 c=1000"))
        let mode2 = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? NSNumber
        #expect(mode2?.intValue == 0o600)
        let old = try SandnetProcess.run(["keystore", "decrypt", file, "--password-file", passwordFile])
        #expect(old.stderr.contains("MAC mismatch"))
        let new = try SandnetProcess.run(
            ["keystore", "decrypt", file, "--password-env", "NEW"], environment: ["NEW": "correct horse"])
        #expect(new.stdout == "address: \(address)\n")
    }

    @Test func keystoreErrorsAreOneLine() throws {
        for args in [
            ["keystore", "inspect", "/nonexistent/key.json"],
            ["keystore", "decrypt", "/nonexistent/key.json", "--password-env", "NOPE"],
            ["keystore", "decrypt", "Package.swift", "--password-env", "NOPE"],
        ] {
            let r = try SandnetProcess.run(args, environment: [:])
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.hasPrefix("Error: ") && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
    }

    @Test func walletVectors() throws {
        let r = try SandnetProcess.run([
            "vectors", "--suite", "bip39", "--suite", "bip32", "--json", "--vectors", try TestVectors.store().root,
        ])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                {"suite": "bip39", "passed": 312, "failed": 0, "skipped": 0}
                {"suite": "bip32", "passed": 33, "failed": 0, "skipped": 0}

                """)
    }
}
