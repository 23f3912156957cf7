import Foundation
import TestSupport
import Testing

/// `sandnet icp principal` and `sandnet icp account-id` through the built binary. Expected principals were
/// computed independently (Python `cryptography` + `hashlib`).
@Suite struct ICPCLITests {
    static let abandon = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

    @Test func principalFromMnemonic() throws {
        let r = try SandnetProcess.run(["icp", "principal", "--mnemonic", Self.abandon])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdout.hasPrefix(
                """
                principal: tgzar-4lpln-fq34h-6hxo4-wlm3x-6g3or-6hxvr-d6jbw-ooh2b-lzsw4-aqe
                account id: f24b889e8efba3d8008512e5f928af25be0fea33c9a44e161649f12912907cbd
                key type: secp256k1
                public key (DER): 3056301006072a8648ce3d020106052b8104000a03420004abdb60eb
                """))
        let stdin = try SandnetProcess.run(["icp", "principal", "--mnemonic", "-"], stdin: Self.abandon + "\n")
        #expect(stdin.stdout == r.stdout)
        let bad = try SandnetProcess.run(["icp", "principal", "--mnemonic", "abandon abandon"])
        #expect(bad.status != 0 && bad.stderr.hasPrefix("Error: --mnemonic:"), "\(bad.stderr)")
        let both = try SandnetProcess.run(["icp", "principal"])
        #expect(both.status != 0 && both.stderr.contains("exactly one of --mnemonic and --pem"))
    }

    @Test func principalFromPEM() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("icp-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ed25519 = directory.appendingPathComponent("ed.pem")
        try """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIO4ghIOLneQcBei6Ya5qqBtfJsRboxfUC7NqWvezY/e8
        -----END PRIVATE KEY-----

        """.write(to: ed25519, atomically: true, encoding: .utf8)
        let r = try SandnetProcess.run(["icp", "principal", "--pem", ed25519.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.hasPrefix("principal: eqtcv-ebtzu-2blkm-shigd-ozrz4-zstyo-upjme-maw46-75znh-loxay-uqe\n"))
        #expect(r.stdout.contains("key type: ed25519\n"))
        let secp = directory.appendingPathComponent("ec.pem")
        try """
        -----BEGIN EC PRIVATE KEY-----
        MHQCAQEEIGSmb52yzAucOiRGfcethR6kR0PcagGvVVjZU99VjXGyoAcGBSuBBAAK
        oUQDQgAES3ttMUfEWWTytt/qvlo8DhjgGdFlFVKu9Kl8MRubJXCqDp6KoLpYFER7
        5eRV2Shqe4l1jmdz3ZkTaRB0JPQsjg==
        -----END EC PRIVATE KEY-----

        """.write(to: secp, atomically: true, encoding: .utf8)
        let s = try SandnetProcess.run(["icp", "principal", "--pem", secp.path])
        #expect(s.stdout.hasPrefix("principal: qcbjs-q6mrw-td4f4-t7s23-x7dai-3b3fc-fqhid-m2mbz-kh5og-aiiqh-gqe\n"))
        let missing = try SandnetProcess.run([
            "icp", "principal", "--pem", directory.appendingPathComponent("none.pem").path,
        ])
        #expect(missing.status != 0 && missing.stderr.contains("cannot read"))
    }

    @Test func accountID() throws {
        let anonymous = try SandnetProcess.run(["icp", "account-id", "2vxsx-fae"])
        #expect(anonymous.stdout == "1c7a48ba6a562aa9eaa2481a9049cdf0433b9738c992d698c31d8abf89cadc79\n")
        let principal = "bwz3t-ercuj-owo6s-4adfr-sbu4o-l72hg-kfhc5-5sapm-tj6bn-3scho-uqe"
        let one = try SandnetProcess.run(["icp", "account-id", principal, "--subaccount", "1"])
        #expect(one.stdout == "16c3ca805340f0e426023bea907488100f93d5e2a654644d5d6881c7a7b2071e\n")
        let full = try SandnetProcess.run([
            "icp", "account-id", principal, "--subaccount", "0x" + String(repeating: "0", count: 62) + "ff",
        ])
        #expect(full.stdout == "f9d8833b97d142d888d00606e2cadec4e70b9798d71c35091a20daaa14082e67\n")
        let badChecksum = try SandnetProcess.run(["icp", "account-id", "em77e-bvlzu-ar"])
        #expect(badChecksum.status != 0)
        #expect(
            badChecksum.stderr == "Error: em77e-bvlzu-ar: principal text is not canonical (non-zero padding bits)\n",
            "\(badChecksum.stderr)")
        let mismatch = try SandnetProcess.run(["icp", "account-id", "em77h-bvlzu-aq"])
        #expect(mismatch.stderr.contains("checksum mismatch: expected 233ff206, found 233ff386"), "\(mismatch.stderr)")
        let badHex = try SandnetProcess.run(["icp", "account-id", "2vxsx-fae", "--subaccount", "zz"])
        #expect(badHex.status != 0 && badHex.stderr.hasPrefix("Error: --subaccount:"))
        let tooLong = try SandnetProcess.run([
            "icp", "account-id", "2vxsx-fae", "--subaccount", String(repeating: "1", count: 65),
        ])
        #expect(tooLong.stderr.contains("need 1 to 64 hex digits, got 65"))
    }

    /// The ledger commands refuse bad input before they touch the network: one `Error:` line, non-zero exit.
    @Test(arguments: [
        (["icp", "balance", "not-an-account"], "invalid account 'not-an-account'"),
        (
            ["icp", "balance", "1c7a48ba6a562aa9eaa2481a9049cdf0433b9738c992d698c31d8abf89cadc7a"],
            "invalid account identifier"
        ),
        (["icp", "balance", "2vxsx-fae", "--url", "not a url"], "invalid --url not a url"),
        (
            ["icp", "transfer", "--to", "2vxsx-fae", "--amount", "1.123456789", "--mnemonic", Self.abandon],
            "--amount must be an amount of ICP with at most 8 decimals"
        ),
        (["icp", "transfer", "--to", "2vxsx-fae", "--amount", "1"], "exactly one of --mnemonic and --pem"),
        (["icp", "transfer", "--to", "no-such-principal", "--amount", "1", "--mnemonic", Self.abandon], "--to:"),
        (["node", "--in-memory", "--icp-balance", "lots"], "--icp-balance must be an amount of ICP"),
        (["node", "--in-memory", "--icp-faucet-amount", "99999999999999999999"], "--icp-faucet-amount"),
    ])
    func ledgerCommandsRefuseBadInput(arguments: [String], fragment: String) throws {
        let r = try SandnetProcess.run(arguments)
        #expect(r.status != 0, "\(arguments)")
        #expect(r.stderr.hasPrefix("Error: "), "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains(fragment), "\(arguments): \(r.stderr)")
    }
}
