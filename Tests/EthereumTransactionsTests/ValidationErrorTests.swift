import ByteCoding
import EthereumTransactions
import EthereumTypes
import Testing

/// Every ``TransactionValidationError``, its trigger and geth's exact text.
@Suite struct ValidationErrorTests {
    let prague = ValidationRules(chainID: 1, fork: .prague)

    func error(_ tx: SignedTransaction, _ rules: ValidationRules) -> TransactionValidationError? {
        do {
            _ = try tx.validate(rules)
            return nil
        } catch {
            return error
        }
    }

    @Test func validTransferPasses() throws {
        #expect(try TestKeys.dynamicFee().validate(prague) == TestKeys.sender)
    }

    @Test func intrinsicGasTooLow() {
        let e = error(TestKeys.dynamicFee(gas: 20_999), prague)
        #expect(e == .intrinsicGasTooLow(gas: 20_999, minimum: 21_000))
        #expect(e?.message == "intrinsic gas too low: gas 20999, minimum needed 21000")
    }

    @Test func floorDataGasFromPragueOnly() {
        // 1,000 non-zero bytes: 4,000 tokens; intrinsic 37,000, floor 61,000.
        let tx = TestKeys.dynamicFee(gas: 40_000, data: [UInt8](repeating: 1, count: 1_000))
        let e = error(tx, prague)
        #expect(e == .floorDataGasTooLow(gas: 40_000, minimum: 61_000))
        #expect(e?.message == "insufficient gas for floor data gas cost: gas 40000, minimum needed 61000")
        #expect(error(tx, ValidationRules(chainID: 1, fork: .cancun)) == nil)
    }

    @Test func nonceHasMaxValue() {
        let e = error(TestKeys.dynamicFee(nonce: .max), prague)
        #expect(e == .nonceMax)
        #expect(e?.message == "nonce has max value")
        #expect(error(TestKeys.dynamicFee(nonce: .max - 1), prague) == nil)
    }

    @Test func maxInitCodeSizeExceeded() {
        let initCode = [UInt8](repeating: 0, count: 49_153)
        let e = error(TestKeys.dynamicFee(gas: 1_000_000, to: nil, data: initCode), prague)
        #expect(e == .maxInitCodeSizeExceeded(size: 49_153, limit: 49_152))
        #expect(e?.message == "max initcode size exceeded: code size 49153 limit 49152")
        #expect(error(TestKeys.dynamicFee(gas: 1_000_000, to: nil, data: Array(initCode.dropLast())), prague) == nil)
    }

    @Test func gasLimitTooHighFromOsakaOnly() {
        let tx = TestKeys.dynamicFee(gas: 16_777_217)
        let e = error(tx, ValidationRules(chainID: 1, fork: .osaka))
        #expect(e == .gasLimitTooHigh(gas: 16_777_217, cap: 16_777_216))
        #expect(e?.message == "transaction gas limit too high (cap: 16777216, tx: 16777217)")
        #expect(error(tx, prague) == nil)
        #expect(error(TestKeys.dynamicFee(gas: 16_777_216), ValidationRules(chainID: 1, fork: .osaka)) == nil)
    }

    @Test func invalidChainID() {
        let e = error(TestKeys.dynamicFee(chainID: 5), prague)
        #expect(e == .invalidChainID(have: 5, want: 1))
        #expect(e?.message == "invalid sender: invalid chain id for signer: have 5 want 1")
    }

    @Test func invalidSignatureValues() throws {
        let good = TestKeys.dynamicFee()
        let sig = good.signature
        let n = UInt256(hexDigits: Hex.encode(Secp256k1Order.bytes))!
        // The same signature with s' = n − s and the parity flipped is mathematically valid but high-s (EIP-2).
        let highS = SignedTransaction(
            transaction: good.transaction,
            signature: EthereumSignature(yParity: 1 - sig.yParity, r: sig.r, s: n - sig.s))
        #expect(error(highS, prague) == .invalidSignature)
        #expect(error(highS, prague)?.message == "invalid sender: invalid transaction v, r, s values")
        for (r, s) in [(UInt256.zero, sig.s), (sig.r, .zero), (n, sig.s), (UInt256.max, sig.s)] {
            let bad = SignedTransaction(
                transaction: good.transaction, signature: EthereumSignature(yParity: 0, r: r, s: s))
            #expect(error(bad, prague) == .invalidSignature)
            #expect(throws: TransactionValidationError.invalidSignature) { try bad.recoverSender() }
        }
        // r = 5 is not the x coordinate of a curve point: no key recovers.
        let offCurve = SignedTransaction(
            transaction: good.transaction, signature: EthereumSignature(yParity: 0, r: 5, s: 1))
        #expect(error(offCurve, prague) == .invalidSignature)
        // A different transaction under the same signature recovers some other address, not the signer.
        let tampered = SignedTransaction(transaction: TestKeys.transfer, signature: sig)
        #expect((try? tampered.recoverSender()) != TestKeys.sender)
    }

    @Test func tipAboveFeeCap() {
        let e = error(TestKeys.dynamicFee(tip: 3, feeCap: 2), prague)
        #expect(e == .tipAboveFeeCap)
        #expect(e?.message == "max priority fee per gas higher than max fee per gas")
    }

    @Test func gasFeeProductOverflow() {
        let e = error(TestKeys.dynamicFee(tip: 0, feeCap: .max), prague)
        #expect(e == .gasFeeProductOverflow(feeField: .maxFeePerGas))
        #expect(e?.message == "gas * maxFeePerGas exceeds 256 bits")
        let legacy = TestKeys.signed(
            .legacy(
                LegacyTransaction(chainID: 1, nonce: 0, gasPrice: .max, gas: 21_000, to: TestKeys.recipient, value: 0)))
        #expect(error(legacy, prague)?.message == "gas * gasPrice exceeds 256 bits")
        // value overflow alone is a stateful matter: the transaction is statelessly valid, maximumCost is nil.
        let rich = TestKeys.signed(
            .legacy(
                LegacyTransaction(chainID: 1, nonce: 0, gasPrice: 1, gas: 21_000, to: TestKeys.recipient, value: .max)))
        #expect(error(rich, prague) == nil)
        #expect(rich.maximumCost == nil)
        #expect(TestKeys.dynamicFee().maximumCost == UInt256(42_000))
    }

    @Test func signatureIsCheckedBeforeGas() {
        // Two flaws: wrong chain and too little gas. ethereum/tests expect the signature error.
        #expect(error(TestKeys.dynamicFee(chainID: 5, gas: 1), prague) == .invalidChainID(have: 5, want: 1))
    }
}

enum Secp256k1Order {
    static let bytes: [UInt8] = TestKeys.bytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141")
}
