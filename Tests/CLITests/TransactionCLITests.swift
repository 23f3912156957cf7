import Foundation
import TestSupport
import Testing

/// `sandnet tx …` and `sandnet sign …` as a user runs them.
@Suite struct TransactionCLITests {
    let key = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
    let recipient = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
    /// The same transfer signed by eth-account 0.14.
    let transferRaw =
        "0x02f87683aa36a70784773594008506fc23ac008252089470997970c51812dc3a010c7d01b50e0d17dc79c888016345785d8a000080c001a05f3607e74a8c91267dad3d02d8c4a9f120df85f00efba4eb2b6a1d9b2e0d1677a00c82df07804684ba446614f55fb575c36617a403285538b0ebb030c3f1454b72"

    @Test func signTransferWithUnits() throws {
        let r = try SandnetProcess.run([
            "tx", "sign", "--private-key", key, "--to", recipient, "--value", "0.1 ether", "--chain-id", "11155111",
            "--nonce", "7", "--max-fee", "30 gwei", "--tip", "2 gwei",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == transferRaw + "\n")
    }

    @Test func keyFromStandardInput() throws {
        let r = try SandnetProcess.run(
            [
                "tx", "sign", "--private-key", "-", "--to", recipient, "--value", "0.1 ether", "--chain-id",
                "11155111", "--nonce", "7", "--max-fee", "30 gwei", "--tip", "2 gwei",
            ], stdin: key + "\n")
        #expect(r.stdout == transferRaw + "\n")
    }

    @Test func keyFromMnemonicAndPath() throws {
        let transfer = [
            "--to", recipient, "--value", "0.1 ether", "--chain-id", "11155111", "--nonce", "7", "--max-fee", "30 gwei",
            "--tip", "2 gwei",
        ]
        let junk = "test test test test test test test test test test test junk"
        let r = try SandnetProcess.run(["tx", "sign", "--mnemonic", junk] + transfer)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == transferRaw + "\n")
        let second = try SandnetProcess.run(
            ["tx", "sign", "--mnemonic", junk, "--path", "m/44'/60'/0'/0/1"] + transfer)
        let decoded = try SandnetProcess.run(["tx", "decode", second.stdout.trimmingCharacters(in: .newlines)])
        // Dev account #1 of the same mnemonic.
        #expect(decoded.stdout.contains("\"from\": \"0x70997970c51812dc3a010c7d01b50e0d17dc79c8\""))
        let twoSources = try SandnetProcess.run(["tx", "sign", "--mnemonic", junk, "--private-key", key] + transfer)
        #expect(twoSources.status != 0)
        #expect(twoSources.stderr.hasPrefix("Error: give exactly one key source"))
    }

    @Test func keyFromKeystore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-ks-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = directory.appendingPathComponent("key").path
        let passwordFile = directory.appendingPathComponent("password").path
        let keystore = directory.appendingPathComponent("keystore.json").path
        try Data((key + "\n").utf8).write(to: URL(fileURLWithPath: keyFile))
        try Data("hunter2\n".utf8).write(to: URL(fileURLWithPath: passwordFile))
        let created = try SandnetProcess.run([
            "keystore", "new", keystore, "--private-key-file", keyFile, "--kdf", "pbkdf2", "--iterations", "1000",
            "--password-file", passwordFile,
        ])
        #expect(created.status == 0, "\(created.stderr)")
        let transfer = [
            "--to", recipient, "--value", "0.1 ether", "--chain-id", "11155111", "--nonce", "7", "--max-fee", "30 gwei",
            "--tip", "2 gwei",
        ]
        let r = try SandnetProcess.run(
            ["tx", "sign", "--keystore", keystore, "--password-file", passwordFile] + transfer)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == transferRaw + "\n")
        let wrong = try SandnetProcess.run(
            ["tx", "sign", "--keystore", keystore, "--password-env", "SANDNET_TEST_PW"] + transfer,
            environment: ["SANDNET_TEST_PW": "wrong"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("wrong password"))
    }

    @Test func signLegacyAndAccessListTypes() throws {
        for type in ["0", "1"] {
            let r = try SandnetProcess.run([
                "tx", "sign", "--private-key", key, "--to", recipient, "--chain-id", "1", "--nonce", "0",
                "--gas-price", "1 gwei", "--type", type, "--json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("\"type\": \"0x\(type)\""))
            #expect(r.stdout.contains("\"gasPrice\": \"0x3b9aca00\""))
            #expect(r.stdout.contains("\"from\": \"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\""))
        }
    }

    @Test func decodePrintsClientJSON() throws {
        let r = try SandnetProcess.run(["tx", "decode", transferRaw])
        #expect(r.status == 0)
        for line in [
            "\"type\": \"0x2\"", "\"chainId\": \"0xaa36a7\"", "\"maxFeePerGas\": \"0x6fc23ac00\"",
            "\"maxPriorityFeePerGas\": \"0x77359400\"", "\"value\": \"0x16345785d8a0000\"", "\"input\": \"0x\"",
            "\"yParity\": \"0x1\"", "\"hash\": \"0xde68d11e248db92a8d8876f7ab570d7d71ba0684f2ee6ebfead36a36e0c730e7\"",
            "\"from\": \"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266\"",
        ] {
            #expect(r.stdout.contains(line), "\(line)")
        }
    }

    @Test func errorsAreOneLineWithGethTexts() throws {
        let cases: [([String], String)] = [
            (["tx", "decode", "0x03c0"], "Error: transaction type not supported"),
            (["tx", "decode", transferRaw, "--chain-id", "1"], "Error: invalid sender: invalid chain id for signer"),
            (
                [
                    "tx", "sign", "--private-key", key, "--to", recipient, "--chain-id", "1", "--nonce", "0",
                    "--max-fee", "1 gwei", "--tip", "2 gwei",
                ], "Error: max priority fee per gas higher than max fee per gas"
            ),
            (
                [
                    "tx", "sign", "--private-key", key, "--to", recipient, "--chain-id", "1", "--nonce", "0",
                    "--max-fee", "1 gwei", "--tip", "1 gwei", "--gas", "20000",
                ], "Error: intrinsic gas too low: gas 20000, minimum needed 21000"
            ),
            (
                [
                    "tx", "sign", "--private-key", "00", "--chain-id", "1", "--nonce", "0", "--max-fee", "1", "--tip",
                    "1",
                ],
                "Error: --private-key: not a valid secp256k1 private key"
            ),
            (
                [
                    "tx", "sign", "--private-key", key, "--chain-id", "1", "--nonce", "0", "--max-fee", "1 bananas",
                    "--tip", "1",
                ],
                "Error: --max-fee: unknown unit"
            ),
            (
                ["tx", "sign", "--private-key", key, "--chain-id", "1", "--nonce", "0"],
                "Error: --type 2 needs --max-fee and --tip"
            ),
        ]
        for (args, prefix) in cases {
            let r = try SandnetProcess.run(args)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.hasPrefix(prefix), "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
    }

    @Test func personalSignAndRecover() throws {
        let key = "b25c7db31feed9122727bf0939dc769a96564b2de4c4726d035b36ecf1e5b364"
        let signature =
            "0xe6ca9bba58c88611fad66a6ce8f996908195593807c4b38bd528d2cff09d4eb33e5bfbbf4d3e39b1a2fd816a7680c19ebebaf3a141b239934ad43cb33fcec8ce1c"
        #expect(try SandnetProcess.run(["sign", "message", "--private-key", key, "I♥SF"]).stdout == signature + "\n")
        let recovered = try SandnetProcess.run(["sign", "recover", "--signature", signature, "I♥SF"])
        #expect(recovered.stdout == "0x5ce9454909639D2D17A3F753ce7d93fa0b9aB12E\n")
        let hex = try SandnetProcess.run(["sign", "message", "--private-key", key, "--hex", "0x49e299a55346"])
        #expect(hex.stdout == signature + "\n")
    }

    @Test func typedDataSignAndRecover() throws {
        let json = """
            {"types": {"EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
              {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
              "Person": [{"name": "name", "type": "string"}, {"name": "wallet", "type": "address"}],
              "Mail": [{"name": "from", "type": "Person"}, {"name": "to", "type": "Person"},
                {"name": "contents", "type": "string"}]},
             "primaryType": "Mail",
             "domain": {"name": "Ether Mail", "version": "1", "chainId": 1,
               "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
             "message": {"from": {"name": "Cow", "wallet": "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"},
               "to": {"name": "Bob", "wallet": "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB"}, "contents": "Hello, Bob!"}}
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-mail-\(UUID()).json")
        try Data(json.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // keccak256("cow"), the EIP's example key.
        let cow = "c85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4"
        let signed = try SandnetProcess.run(["sign", "typed-data", "--private-key", cow, file.path, "--verbose"])
        #expect(signed.status == 0, "\(signed.stderr)")
        #expect(
            signed.stdout.contains(
                "signingHash:     0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2"))
        let signature = String(signed.stdout.split(separator: "\n").last ?? "")
        #expect(signature.hasPrefix("0x4355c47d63924e8a72e509b65029052eb6c299d53a04e167c5775fd466751c9d"))
        #expect(signature.hasSuffix("1c"))
        let recovered = try SandnetProcess.run(["sign", "recover", "--signature", signature, "--typed-data", file.path])
        #expect(recovered.stdout == "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826\n")
        let missing = try SandnetProcess.run(["sign", "typed-data", "--private-key", cow, "/nonexistent.json"])
        #expect(missing.stderr == "Error: cannot read /nonexistent.json\n")
    }

    @Test func vectorsReportTransactionSuites() throws {
        let r = try SandnetProcess.run([
            "vectors", "--suite", "transactions", "--suite", "eip155", "--json", "--vectors",
            try TestVectors.store().root,
        ])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                {"suite": "transactions", "passed": 137, "failed": 0, "skipped": 2}
                {"suite": "eip155", "passed": 6, "failed": 0, "skipped": 0}

                """)
    }
}
