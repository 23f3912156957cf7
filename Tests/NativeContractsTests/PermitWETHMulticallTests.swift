import ByteCoding
import EthereumTransactions
import EthereumTypes
import JSONCoding
import KeccakHashing
import NativeContracts
import Testing

@Suite struct PermitTests {
    /// The EIP-712 document a wallet signs for `permit` (the wallet module's TypedData signs it).
    static func permitDocument(
        version: String, owner: Address, spender: Address, value: UInt64, nonce: UInt64, deadline: UInt64
    ) -> String {
        """
        {"types":{"EIP712Domain":[{"name":"name","type":"string"},{"name":"version","type":"string"},\
        {"name":"chainId","type":"uint256"},{"name":"verifyingContract","type":"address"}],\
        "Permit":[{"name":"owner","type":"address"},{"name":"spender","type":"address"},\
        {"name":"value","type":"uint256"},{"name":"nonce","type":"uint256"},{"name":"deadline","type":"uint256"}]},\
        "primaryType":"Permit","domain":{"name":"Sandnet Token","version":"\(version)","chainId":11155111,\
        "verifyingContract":"\(Native.tokenAddress.checksummed)"},"message":{"owner":"\(owner.checksummed)",\
        "spender":"\(spender.checksummed)","value":\(value),"nonce":\(nonce),"deadline":\(deadline)}}
        """
    }

    static func permitCall(
        owner: Address, spender: Address, value: UInt64, deadline: UInt64, signature: EthereumSignature
    ) -> [UInt8] {
        Native.call(
            "permit(address,address,uint256,uint256,uint8,bytes32,bytes32)",
            [
                Native.word(owner), Native.word(spender), Native.word(UInt256(value)), Native.word(UInt256(deadline)),
                Native.word(UInt256(UInt64(signature.v))), signature.r.bigEndianBytes, signature.s.bigEndianBytes,
            ])
    }

    @Test func domainSeparatorMatchesEIP712() throws {
        var h = TokenHarness(Native.token(.openZeppelin5))
        // eth_utils: keccak(typehash ‖ keccak("Sandnet Token") ‖ keccak("1") ‖ encode(chainId, token)).
        #expect(
            Hex.encode(h.run(from: Native.bob, Native.call("DOMAIN_SEPARATOR()")).output)
                == "01a1655ebdbe5e8e4a8c2edeef612093fe7d54d1d10461cfdedf70177695d451")
        let document = try TypedData(
            json: Array(
                Self.permitDocument(
                    version: "1", owner: Native.alice, spender: Native.bob, value: 1000, nonce: 0,
                    deadline: 2_000_000_000
                ).utf8))
        #expect(try document.domainSeparator() == h.run(from: Native.bob, Native.call("DOMAIN_SEPARATOR()")).output)
    }

    @Test func permitSignedByTheWalletSetsTheAllowanceOnce() throws {
        var h = TokenHarness(Native.token(.openZeppelin5))
        let document = try TypedData(
            json: Array(
                Self.permitDocument(
                    version: "1", owner: Native.alice, spender: Native.bob, value: 1000, nonce: 0,
                    deadline: 2_000_000_000
                ).utf8))
        let signature = try document.sign(privateKey: Native.aliceKey)
        // The same signature eth-account produces for this message.
        #expect(signature.r.hexDigits == "c4d8cfcb238ccc05e1ac9e8b2b1569ced1eb16d8aff28799a2e8481f27394595")
        let call = Self.permitCall(
            owner: Native.alice, spender: Native.bob, value: 1000, deadline: 2_000_000_000, signature: signature)
        let r = h.run(from: Native.carol, call)  // anyone may submit it
        #expect(r.outcome == .success(returnData: []))
        #expect(r.logs.count == 1 && r.logs[0].data == Native.word(UInt256(1000)))
        #expect(
            h.run(from: Native.bob, Native.call("nonces(address)", [Native.word(Native.alice)])).output
                == Native.word(UInt256(1)))
        let allowance = Native.call("allowance(address,address)", [Native.word(Native.alice), Native.word(Native.bob)])
        #expect(h.run(from: Native.bob, allowance).output == Native.word(UInt256(1000)))
        // Replayed, the nonce no longer matches: a different signer recovers.
        let replay = h.run(from: Native.carol, call)
        #expect(Hex.encode(Array(replay.output.prefix(4))) == "4b800e46")
        #expect(Array(replay.output[36..<68]) == Native.word(Native.alice))
    }

    @Test func permitFailures() throws {
        var h = TokenHarness(Native.token(.openZeppelin5))
        let document = try TypedData(
            json: Array(
                Self.permitDocument(
                    version: "1", owner: Native.alice, spender: Native.bob, value: 1000, nonce: 0,
                    deadline: 1_800_000_000
                ).utf8))
        let signature = try document.sign(privateKey: Native.aliceKey)
        let expired = h.run(
            from: Native.bob,
            Self.permitCall(
                owner: Native.alice, spender: Native.bob, value: 1000, deadline: 1_800_000_000, signature: signature))
        #expect(expired.output == Native.bytes("62791302") + Native.word(UInt256(1_800_000_000)))
        // A high-s copy of a valid signature (EIP-2 malleability) is refused.
        var high = signature
        high.s =
            UInt256(limbs: (0xBFD2_5E8C_D036_4141, 0xBAAE_DCE6_AF48_A03B, 0xFFFF_FFFF_FFFF_FFFE, 0xFFFF_FFFF_FFFF_FFFF))
            - signature.s
        let call = Self.permitCall(
            owner: Native.alice, spender: Native.bob, value: 1000, deadline: 1_800_000_000, signature: high)
        h.environment.timestamp = 1_700_000_000
        #expect(h.run(from: Native.bob, call).output == Native.bytes("d78bce0c") + high.s.bigEndianBytes)
        var usdc = TokenHarness(Native.token(.fiatToken))
        usdc.environment.timestamp = 1_700_000_000
        #expect(usdc.run(from: Native.bob, call).output == ABIText.error("ECRecover: invalid signature 's' value"))
        // Signed for version "1", but FiatToken's domain version is "2": another digest, another signer.
        let wrongDomain = usdc.run(
            from: Native.bob,
            Self.permitCall(
                owner: Native.alice, spender: Native.bob, value: 1000, deadline: 1_800_000_000, signature: signature))
        #expect(wrongDomain.output == ABIText.error("EIP2612: invalid signature"))
        #expect(wrongDomain.gasUsed > 0 && wrongDomain.storageWrites.isEmpty)
    }
}

@Suite struct WETH9Tests {
    @Test func depositAndWithdrawMoveEther() {
        var h = TokenHarness(Native.token(.weth9, holders: [.init(holder: Native.carol, amount: 5)]))
        h.state.balances[Native.alice] = 1_000
        let deposit = h.run(from: Native.alice, value: 400, Native.call("deposit()"))
        #expect(deposit.outcome == .success(returnData: []))
        #expect(deposit.valueTransfers == [.init(from: Native.alice, to: Native.tokenAddress, amount: 400)])
        #expect(
            Hex.encode(deposit.logs[0].topics[0]) == "e1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c")
        #expect(h.balance(Native.alice) == 400)
        #expect(h.run(from: Native.bob, Native.call("totalSupply()")).output == Native.word(UInt256(405)))
        // Plain ETH to the contract deposits through the payable fallback.
        #expect(h.run(from: Native.alice, value: 100, []).succeeded)
        #expect(h.balance(Native.alice) == 500)
        let withdraw = h.run(from: Native.alice, Native.call("withdraw(uint256)", [Native.word(UInt256(300))]))
        #expect(
            Hex.encode(withdraw.logs[0].topics[0]) == "7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65"
        )
        #expect(withdraw.valueTransfers == [.init(from: Native.tokenAddress, to: Native.alice, amount: 300)])
        #expect(h.state.balance(Native.alice) == 800)
        #expect(
            h.run(from: Native.alice, Native.call("withdraw(uint256)", [Native.word(UInt256(201))])).outcome
                == .revert(data: []))
    }
}

@Suite struct Multicall3Tests {
    static let multicall = NativeContractRegistry.multicall3Address

    @Test func aggregate3DispatchesToTokensAndCodelessTargets() {
        var h = TokenHarness(Native.token(.openZeppelin5), multicall3: true)
        // Calldata and expected answer from eth_abi: balanceOf(alice), bytes to an account without code, a transfer
        // that may fail (and does: Multicall3 holds no tokens), decimals().
        let calldata = Native.bytes(
            "82ad56cb000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000000000080000000000000000000000000000000000000000000000000000000000000014000000000000000000000000000000000000000000000000000000000000001e000000000000000000000000000000000000000000000000000000000000002c000000000000000000000000000000000000000000000000000000000000a11ce00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000060000000000000000000000000000000000000000000000000000000000000002470a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb922660000000000000000000000000000000000000000000000000000000000000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000002123400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000a11ce000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000044a9059cbb00000000000000000000000070997970c51812dc3a010c7d01b50e0d17dc79c8000000000000000000000000000000000000000c9f2c9cd04674edea400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000a11ce000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000000000004313ce56700000000000000000000000000000000000000000000000000000000"
        )
        let expected = Native.bytes(
            "00000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000008000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000000160000000000000000000000000000000000000000000000000000000000000024000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000f4240000000000000000000000000000000000000000000000000000000000000000100000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000064e450d38c000000000000000000000000ca11bde05977b3631167028862be2a173976ca110000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000c9f2c9cd04674edea40000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000001000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000006"
        )
        let r = h.run(from: Native.alice, to: Self.multicall, calldata)
        #expect(r.outcome == .success(returnData: expected))
    }

    @Test func aggregateRevertsWhenACallFails() {
        var h = TokenHarness(Native.token(.openZeppelin5), multicall3: true)
        let calldata = Native.bytes(
            "252dba4200000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000e000000000000000000000000000000000000000000000000000000000000a11ce0000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000000000002470a08231000000000000000000000000f39fd6e51aad88f6f4ce6ab8827279cfffb922660000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000a11ce00000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000004313ce56700000000000000000000000000000000000000000000000000000000"
        )
        // eth_abi.encode(["uint256", "bytes[]"], [5, [balance, decimals]]).
        let expected = Native.bytes(
            "00000000000000000000000000000000000000000000000000000000000000050000000000000000000000000000000000000000000000000000000000000040000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000080000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000f424000000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000006"
        )
        #expect(h.run(from: Native.alice, to: Self.multicall, calldata).output == expected)
        // The same batch with decimals() replaced by an unknown selector: the whole batch reverts.
        var failing = calldata
        let at = failing.count - 32
        failing[at..<at + 4] = [0xde, 0xad, 0xbe, 0xef]
        #expect(
            h.run(from: Native.alice, to: Self.multicall, failing).output == ABIText.error("Multicall3: call failed"))
    }

    @Test func gettersAnswerFromTheBlock() {
        var h = TokenHarness(Native.token(.openZeppelin5), multicall3: true)
        h.state.balances[Native.bob] = 12_345
        h.state.hashes[4] = [UInt8](repeating: 0x44, count: 32)
        #expect(
            h.run(
                from: Native.alice, to: Self.multicall, Native.call("getEthBalance(address)", [Native.word(Native.bob)])
            ).output == Native.word(UInt256(12_345)))
        #expect(
            h.run(from: Native.alice, to: Self.multicall, Native.call("getBlockNumber()")).output
                == Native.word(UInt256(5)))
        #expect(
            h.run(from: Native.alice, to: Self.multicall, Native.call("getChainId()")).output
                == Native.word(UInt256(11_155_111)))
        #expect(
            h.run(from: Native.alice, to: Self.multicall, Native.call("getBasefee()")).output == Native.word(UInt256(7))
        )
        #expect(
            h.run(from: Native.alice, to: Self.multicall, Native.call("getCurrentBlockTimestamp()")).output
                == Native.word(UInt256(1_900_000_000)))
        #expect(
            h.run(from: Native.alice, to: Self.multicall, Native.call("getLastBlockHash()")).output
                == [UInt8](repeating: 0x44, count: 32))
        #expect(
            h.run(
                from: Native.alice, to: Self.multicall, Native.call("getBlockHash(uint256)", [Native.word(UInt256(5))])
            ).output == Native.word(UInt256.zero))
    }
}
