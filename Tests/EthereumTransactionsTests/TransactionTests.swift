import ByteCoding
import EthereumTransactions
import EthereumTypes
import Testing

@Suite struct TransactionTests {
    @Test func signsEIP1559TransferLikeEthAccount() throws {
        let signed = TestKeys.signed(TestKeys.transfer)
        #expect(
            Hex.encode(signed.encoded)
                == "02f87683aa36a70784773594008506fc23ac008252089470997970c51812dc3a010c7d01b50e0d17dc79c888016345785d8a000080c001a05f3607e74a8c91267dad3d02d8c4a9f120df85f00efba4eb2b6a1d9b2e0d1677a00c82df07804684ba446614f55fb575c36617a403285538b0ebb030c3f1454b72"
        )
        #expect(Hex.encode(signed.hash) == "de68d11e248db92a8d8876f7ab570d7d71ba0684f2ee6ebfead36a36e0c730e7")
        #expect(signed.v == 1)
        #expect(try signed.recoverSender() == TestKeys.sender)
    }

    @Test func signsAccessListTransaction() throws {
        let tx = Transaction.accessList(
            AccessListTransaction(
                chainID: 1, nonce: 0, gasPrice: UInt256(1_000_000_000 as UInt64), gas: 30_000, to: TestKeys.recipient,
                value: 1, data: TestKeys.bytes("a9059cbb00"),
                accessList: [AccessListEntry(address: TestKeys.recipient, storageKeys: [1])]))
        let signed = TestKeys.signed(tx)
        #expect(Hex.encode(signed.hash) == "3aff91401f14e5280bf344073509cd3f768626369cae36d84197711e126239da")
        #expect(
            Hex.encode(signed.encoded).hasPrefix(
                "01f8a30180843b9aca008275309470997970c51812dc3a010c7d01b50e0d17dc79c80185a9059cbb00f838f794"))
        let decoded = try SignedTransaction(decoding: signed.encoded)
        #expect(decoded == signed)
        #expect(decoded.transaction == tx)
        #expect(decoded.intrinsicGas.standard == 21_000 + 4 + 16 * 4 + 2_400 + 1_900)
    }

    @Test func signsPreEIP155LegacyTransaction() throws {
        let tx = Transaction.legacy(
            LegacyTransaction(
                chainID: nil, nonce: 3, gasPrice: UInt256(20_000_000_000 as UInt64), gas: 21_000,
                to: TestKeys.recipient, value: 5))
        let signed = TestKeys.signed(tx)
        #expect(Hex.encode(signed.hash) == "e1c808c36b92147e054aa529048886002a4928c346b2acb7c4a2f4e2739a2e67")
        #expect(signed.v == 28)
        // Unprotected transactions pass whatever the chain id.
        #expect(try signed.validate(ValidationRules(chainID: 11_155_111, fork: .prague)) == TestKeys.sender)
    }

    @Test func signsContractCreation() throws {
        let signed = TestKeys.signed(
            .dynamicFee(
                DynamicFeeTransaction(
                    chainID: 1, nonce: 0, maxPriorityFeePerGas: 1, maxFeePerGas: 2, gas: 100_000, to: nil, value: 0,
                    data: TestKeys.bytes("6000600055"))))
        #expect(Hex.encode(signed.hash) == "25789991be467357fc5e0b722684a5f4f06f1348ab05bb69dfed53f5b1c72978")
        #expect(signed.transaction.isContractCreation)
        // 21,000 + 32,000 + 2 × 1 word + 2 zero bytes × 4 + 3 non-zero bytes × 16
        #expect(signed.intrinsicGas.standard == 21_000 + 32_000 + 2 + 2 * 4 + 3 * 16)
    }

    @Test func eip155LegacyVCarriesTheChainID() throws {
        let tx = Transaction.legacy(
            LegacyTransaction(chainID: 11_155_111, nonce: 0, gasPrice: 1, gas: 21_000, to: TestKeys.recipient, value: 0)
        )
        let signed = TestKeys.signed(tx)
        #expect(signed.v == UInt256(35 + 2 * 11_155_111 + UInt64(signed.signature.yParity)))
        let decoded = try SignedTransaction(decoding: signed.encoded)
        #expect(decoded.transaction.chainID == 11_155_111)
        #expect(try decoded.validate(ValidationRules(chainID: 11_155_111, fork: .osaka)) == TestKeys.sender)
    }

    @Test func decodingKeepsTheRawBytesAndHashesThem() throws {
        let raw = TestKeys.signed(TestKeys.transfer).encoded
        let decoded = try SignedTransaction(decoding: raw)
        #expect(decoded.encoded == raw)
        #expect(decoded.hash == TestKeys.signed(TestKeys.transfer).hash)
        #expect(try SignedTransaction(hex: "0x" + Hex.encode(raw)) == decoded)
    }

    @Test func jsonUsesClientFieldNames() throws {
        let signed = TestKeys.signed(TestKeys.transfer)
        let json = signed.json(sender: try signed.recoverSender())
        #expect(json["type"] == .string("0x2"))
        #expect(json["chainId"] == .string("0xaa36a7"))
        #expect(json["nonce"] == .string("0x7"))
        #expect(json["gas"] == .string("0x5208"))
        #expect(json["maxFeePerGas"] == .string("0x6fc23ac00"))
        #expect(json["maxPriorityFeePerGas"] == .string("0x77359400"))
        #expect(json["gasPrice"] == nil)
        #expect(json["to"] == .string("0x70997970c51812dc3a010c7d01b50e0d17dc79c8"))
        #expect(json["value"] == .string("0x16345785d8a0000"))
        #expect(json["input"] == .string("0x"))
        #expect(json["accessList"] == .array([]))
        #expect(json["yParity"] == .string("0x1"))
        #expect(json["v"] == .string("0x1"))
        #expect(json["hash"] == .string("0xde68d11e248db92a8d8876f7ab570d7d71ba0684f2ee6ebfead36a36e0c730e7"))
        #expect(json["from"] == .string("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"))
        let text = json.rendered(indent: 0)
        #expect(text.hasPrefix(#"{"type":"0x2","chainId":"0xaa36a7","nonce":"0x7","gas":"0x5208","#))
        let legacy = TestKeys.signed(
            .legacy(LegacyTransaction(chainID: nil, nonce: 0, gasPrice: 1, gas: 21_000, to: nil, value: 0)))
        let legacyJSON = legacy.json(sender: nil)
        #expect(legacyJSON["chainId"] == nil)
        #expect(legacyJSON["yParity"] == nil)
        #expect(legacyJSON["accessList"] == nil)
        #expect(legacyJSON["to"] == .null)
        #expect(legacyJSON["from"] == nil)
    }

    @Test func signingRejectsBadKeys() {
        #expect(throws: (any Error).self) { try TestKeys.transfer.signed(privateKey: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: (any Error).self) { try TestKeys.transfer.signed(privateKey: [1, 2, 3]) }
    }
}

@Suite struct IntrinsicGasTests {
    @Test func calldataCostsFourAndSixteenAndTheFloorTen() {
        let gas = IntrinsicGas(
            data: [0, 0, 1, 2], isContractCreation: false, accessListAddresses: 0, accessListStorageKeys: 0)
        #expect(IntrinsicGas.tokens(in: [0, 0, 1, 2]) == 10)
        #expect(gas.standard == 21_000 + 2 * 4 + 2 * 16)
        #expect(gas.floor == 21_000 + 10 * 10)
        #expect(gas.minimumGasLimit(for: .cancun) == gas.standard)
        #expect(gas.minimumGasLimit(for: .prague) == gas.floor)
    }

    @Test func creationAndAccessLists() {
        let initCode = [UInt8](repeating: 0xfe, count: 33)  // two words
        let create = IntrinsicGas(
            data: initCode, isContractCreation: true, accessListAddresses: 2, accessListStorageKeys: 3)
        #expect(create.standard == 21_000 + 33 * 16 + 32_000 + 2 * 2 + 2 * 2_400 + 3 * 1_900)
        let plain = IntrinsicGas(data: [], isContractCreation: false, accessListAddresses: 0, accessListStorageKeys: 0)
        #expect(plain.standard == 21_000)
        #expect(plain.floor == 21_000)
    }
}

@Suite struct FeeTests {
    @Test func effectivePricesFollowEIP1559() {
        let tx = TestKeys.transfer  // tip 2 gwei, cap 30 gwei
        let gwei = UInt256(1_000_000_000 as UInt64)
        #expect(tx.effectiveGasTip(baseFee: 10 * gwei) == 2 * gwei)
        #expect(tx.effectiveGasPrice(baseFee: 10 * gwei) == 12 * gwei)
        #expect(tx.effectiveGasTip(baseFee: 29 * gwei) == gwei)
        #expect(tx.effectiveGasPrice(baseFee: 29 * gwei) == 30 * gwei)
        #expect(tx.effectiveGasTip(baseFee: 31 * gwei) == nil)
        let legacy = Transaction.legacy(
            LegacyTransaction(chainID: 1, nonce: 0, gasPrice: 5 * gwei, gas: 21_000, to: nil, value: 0))
        #expect(legacy.effectiveGasTip(baseFee: 3 * gwei) == 2 * gwei)
        #expect(legacy.effectiveGasPrice(baseFee: 3 * gwei) == 5 * gwei)
        #expect(legacy.effectiveGasPrice(baseFee: 6 * gwei) == nil)
    }
}

@Suite struct SigningHashTests {
    /// ``SignedTransaction/signingHash()`` reads the fields out of the encoding; it must equal re-encoding them.
    @Test func readBackEqualsReencoded() throws {
        let recipient = TestKeys.recipient
        let long = [UInt8](repeating: 0xab, count: 300)
        let transactions: [Transaction] = [
            .legacy(LegacyTransaction(chainID: nil, nonce: 0, gasPrice: 1, gas: 21_000, to: recipient, value: 0)),
            .legacy(LegacyTransaction(chainID: 1, nonce: 1, gasPrice: 0, gas: 21_000, to: nil, value: 0)),
            .legacy(LegacyTransaction(chainID: 127, nonce: 1, gasPrice: 9, gas: 21_000, to: nil, value: 0, data: [1])),
            .legacy(
                LegacyTransaction(
                    chainID: .max, nonce: .max, gasPrice: .max, gas: .max, to: recipient, value: .max, data: long)),
            .accessList(
                AccessListTransaction(
                    chainID: 11_155_111, nonce: 3, gasPrice: 5, gas: 9, to: recipient, value: 1, data: long,
                    accessList: [AccessListEntry(address: recipient, storageKeys: [0, .max])])),
            .dynamicFee(
                DynamicFeeTransaction(
                    chainID: 1, nonce: 0, maxPriorityFeePerGas: 0, maxFeePerGas: 0, gas: 0, to: nil, value: 0)),
            TestKeys.transfer,
        ]
        for tx in transactions {
            let signed = TestKeys.signed(tx)
            #expect(signed.signingHash() == tx.signingHash(), "\(tx.type)")
            #expect(try signed.recoverSender() == TestKeys.sender)
        }
    }
}
