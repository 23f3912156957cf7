import ByteCoding
import CBORCoding
import CandidCoding
import EthereumTransactions
import EthereumTypes
import Foundation
import HDWallet
import RLPCoding
import SecretStorage

/// Seed inputs: small valid ones built with the project's own encoders (always available, and run by the
/// reproducer tests), and more taken at run time from the official vectors (which may not be committed).
public enum FuzzSeeds {
    /// Anvil's and Hardhat's first dev key: public, for test data only.
    static let devKey = try! Hex.decode("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")

    @Sendable static func rlp() -> [[UInt8]] {
        let items: [RLPItem] = [
            .bytes([]), .bytes([0x00]), .bytes([0x7f]), .bytes([0x80]), .bytes(Array("dog".utf8)),
            .bytes([UInt8](repeating: 0xaa, count: 56)), .list([]),
            .list([
                .bytes(Array("cat".utf8)), .list([.bytes([1]), .list([])]), .bytes([UInt8](repeating: 1, count: 60)),
            ]),
            .list([.list([]), .list([.list([])]), .list([.list([]), .list([.list([])])])]),
        ]
        return items.map(RLP.encode)
    }

    @Sendable static func transaction() -> [[UInt8]] {
        let to = Address([UInt8](repeating: 0x11, count: 20))
        let access = [AccessListEntry(address: to!, storageKeys: [UInt256(1), UInt256(0)])]
        let transactions: [Transaction] = [
            .legacy(
                LegacyTransaction(
                    chainID: 1, nonce: 9, gasPrice: UInt256(20_000_000_000), gas: 21_000, to: to,
                    value: UInt256(1_000_000_000_000_000_000))),
            .legacy(
                LegacyTransaction(
                    chainID: nil, nonce: 0, gasPrice: UInt256(1), gas: 53_000, to: nil,
                    value: UInt256(0), data: [0x60, 0x00])),
            .accessList(
                AccessListTransaction(
                    chainID: 11_155_111, nonce: 1, gasPrice: UInt256(7), gas: 30_000,
                    to: to, value: UInt256(5), data: [1, 2, 3], accessList: access)),
            .dynamicFee(
                DynamicFeeTransaction(
                    chainID: 11_155_111, nonce: 2, maxPriorityFeePerGas: UInt256(1),
                    maxFeePerGas: UInt256(3_000_000_000), gas: 21_000, to: to, value: UInt256(42))),
            .dynamicFee(
                DynamicFeeTransaction(
                    chainID: 1, nonce: 0, maxPriorityFeePerGas: UInt256(0),
                    maxFeePerGas: UInt256(0), gas: 100_000, to: nil, value: UInt256(0), data: [0xfe], accessList: access
                )),
        ]
        return transactions.compactMap { try? $0.signed(privateKey: devKey).encoded }
    }

    static let candidArguments: [(arguments: String, types: String)] = [
        ("()", "()"),
        ("(42, \"hi\")", "(nat, text)"),
        ("(-7, true, null)", "(int, bool, null)"),
        ("(opt vec { 1; 2; 3 })", "(opt vec nat8)"),
        (
            "(record { to = blob \"\\01\\02\"; amount = record { e8s = 10_000 : nat64 }; fee = record { e8s = 10_000 : nat64 }; memo = 0 : nat64 })",
            "(record { to : blob; amount : record { e8s : nat64 }; fee : record { e8s : nat64 }; memo : nat64 })"
        ),
        ("(variant { Ok = 5 : nat })", "(variant { Ok : nat; Err : text })"),
        ("(principal \"aaaaa-aa\", 1.5 : float64, -3 : int8)", "(principal, float64, int8)"),
        ("(vec { record { 1 : nat16; \"a\" }; record { 2 : nat16; \"b\" } })", "(vec record { nat16; text })"),
        (
            "(record { owner = principal \"2vxsx-fae\"; subaccount = null })",
            "(record { owner : principal; subaccount : opt blob })"
        ),
        ("(func \"aaaaa-aa\".create_canister, service \"aaaaa-aa\")", "(func () -> (), service {})"),
    ]

    @Sendable static func candidUntyped() -> [[UInt8]] {
        candidArguments.compactMap { try? CandidTextCodec.encode($0.arguments, types: $0.types) }
    }

    @Sendable static func candidTyped() -> [[UInt8]] {
        candidArguments.compactMap { pair in
            guard let message = try? CandidTextCodec.encode(pair.arguments, types: pair.types) else { return nil }
            return Array(pair.types.utf8) + [0] + message
        }
    }

    @Sendable static func keystore() -> [[UInt8]] {
        let salt = [UInt8](repeating: 0x5a, count: 32)
        let iv = [UInt8](repeating: 0x01, count: 16)
        let kdfs: [KeystoreKDF] = [
            .scrypt(n: 16, r: 1, p: 1, keyLength: 32, salt: salt), .scrypt(n: 4, r: 2, p: 2, keyLength: 32, salt: salt),
            .pbkdf2(iterations: 2, keyLength: 32, salt: salt),
        ]
        // Parameter mode (FuzzHarness.keystoreParameters): scrypt n=16 r=1 p=1 and PBKDF2 c=2, dklen 32.
        let parameterSeeds: [[UInt8]] = [
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 1, 0, 0, 0, 1, 0, 32, 0x5a, 0x5a],
            [0, 1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0x5a],
        ]
        return parameterSeeds
            + kdfs.compactMap { kdf in
                (try? Keystore.encrypt(
                    privateKey: devKey, password: FuzzHarness.keystorePassword, kdf: kdf, iv: iv,
                    id: "3198bc9c-6672-5ab3-d995-4942343ae5b6"))
                    .map { Array($0.jsonData()) }
            }
    }

    @Sendable static func jsonRPC() -> [[UInt8]] {
        [
            #"{"jsonrpc":"2.0","id":1,"method":"echo","params":[1,"a",null,true,{"k":[]}]}"#,
            #"{"jsonrpc":"2.0","id":"x","method":"eth_getBalance","params":["0x000000000000000000000000000000000000dEaD","0x10"]}"#,
            #"[{"jsonrpc":"2.0","method":"fail"},{"jsonrpc":"2.0","id":null,"method":"internal"},{"id":2}]"#,
            #"{"jsonrpc":"2.0","id":3,"method":"nope","params":{}}"#,
            #"{"s":"\u00e9\ud83d\ude00\n\"\\\/","n":-1.5e+10,"z":0}"#,
            #"[]"#,
        ].map { Array($0.utf8) }
    }

    @Sendable static func scenario() -> [[UInt8]] {
        [
            """
            name: Base fee of empty blocks
            tags: [fees, eip1559]
            steps:
              - mine: 3
              - check:
                  - block: {at: 1, baseFeePerGas: 875000000}
                  - nextBaseFee: "669921875 - 669921875 / 8"
                  - value: {of: "blockNumber()", equals: 3}
            """
        ].map { Array($0.utf8) }
    }

    @Sendable static func cbor() -> [[UInt8]] {
        let envelope = CBORValue.map([
            "content": .map([
                "request_type": .text("call"), "canister_id": .bytes([0, 0, 0, 0, 0, 0, 0, 2, 1, 1]),
                "method_name": .text("transfer"), "arg": .bytes(Array("DIDL".utf8) + [0, 0]),
                "ingress_expiry": .unsigned(1_700_000_000_000_000_000), "sender": .bytes([4]),
            ]),
            "sender_sig": .bytes([UInt8](repeating: 7, count: 64)),
        ])
        let values: [CBORValue] = [
            .unsigned(0), .unsigned(23), .unsigned(24), .unsigned(UInt64.max), .negative(0), .negative(1000),
            .text("héllo"), .bytes([]), .array([.null, .bool(true), .bool(false)]),
            .tagged(CBORValue.unsignedBignumTag, .bytes([1, 0, 0, 0, 0, 0, 0, 0, 0])), envelope,
        ]
        return values.map { CBOREncoder.encode($0) } + [CBOREncoder.encode(envelope, selfDescribed: true)]
    }

    @Sendable static func mnemonic() -> [[UInt8]] {
        var phrases = [
            "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
            "test test test test test test test test test test test junk",
        ]
        for (index, language) in MnemonicLanguage.allCases.enumerated() {
            let entropy = (0..<(16 + 4 * (index % 5))).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ index) }
            if let mnemonic = try? Mnemonic(entropy: entropy, language: language) { phrases.append(mnemonic.phrase) }
        }
        return phrases.map { Array($0.utf8) }
    }
}
