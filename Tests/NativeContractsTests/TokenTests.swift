import ByteCoding
import EthereumTransactions
import EthereumTypes
import JSONCoding
import KeccakHashing
import NativeContracts
import Testing

/// Accounts, tokens and calldata shared by the tests. Expected values marked "eth_abi"/"eth-account" were computed
/// with those Python libraries (eth_abi 6.0, eth-account 0.14), an independent implementation.
enum Native {
    static func address(_ hex: String) -> Address { try! Address(parsing: hex) }
    static func bytes(_ hex: String) -> [UInt8] { try! Hex.decode(hex) }

    /// Anvil/Hardhat dev accounts #0 and #1; #0's key signs permits.
    static let alice = address("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
    static let aliceKey = bytes("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
    static let bob = address("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
    static let carol = address("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")
    static let tokenAddress = address("0x00000000000000000000000000000000000A11cE")

    static func token(_ profile: TokenProfile, holders: [TokenDefinition.Holding] = []) -> TokenDefinition {
        TokenDefinition(
            address: tokenAddress, name: "Sandnet Token", symbol: "SND", decimals: 6, profile: profile,
            holders: holders.isEmpty ? [.init(holder: alice, amount: 1_000_000)] : holders)
    }

    static let environment = BlockEnvironment(
        number: 5, timestamp: 1_900_000_000, baseFee: 7, chainID: 11_155_111, coinbase: .zero, gasLimit: 60_000_000)

    static func call(_ selector: String, _ words: [[UInt8]] = []) -> [UInt8] {
        Array(Keccak256.hash(utf8: selector)[0..<4]) + words.flatMap { $0 }
    }

    static func word(_ a: Address) -> [UInt8] { [UInt8](repeating: 0, count: 12) + a.bytes }
    static func word(_ v: UInt256) -> [UInt8] { v.bigEndianBytes }
}

/// A registry with one token and a state at its genesis; `run` executes and applies.
struct TokenHarness {
    var registry: NativeContractRegistry
    var state: MemoryState
    var environment = Native.environment

    init(_ token: TokenDefinition, multicall3: Bool = false) {
        registry = NativeContractRegistry(tokens: [token], multicall3: multicall3)
        state = MemoryState(registry: registry)
    }

    @discardableResult
    mutating func run(
        from: Address, to: Address = Native.tokenAddress, value: UInt256 = .zero, _ data: [UInt8]
    ) -> ExecutionResult {
        let result = registry.execute(
            NativeCall(caller: from, target: to, value: value, data: data), state: state, environment: environment)
        if result.succeeded { state.apply(result) }
        return result
    }

    mutating func balance(_ holder: Address) -> UInt256 {
        let r = run(from: holder, Native.call("balanceOf(address)", [Native.word(holder)]))
        return UInt256(bigEndian: r.output)!
    }
}

@Suite struct ABISelectorTests {
    @Test func selectorsAndTopicsFromTheABISpec() {
        func selector(_ s: String) -> String { Hex.encode(Array(Keccak256.hash(utf8: s)[0..<4])) }
        #expect(selector("transfer(address,uint256)") == "a9059cbb")
        #expect(selector("permit(address,address,uint256,uint256,uint8,bytes32,bytes32)") == "d505accf")
        #expect(Hex.encode(Native.call("balanceOf(address)")) == "70a08231")
        // Solidity storage layout: keccak256(pad32(holder) ‖ pad32(9)) is USDC's balance slot (eth_abi).
        #expect(
            Hex.encode(TokenProfile.fiatToken.layout.balanceSlot(Native.alice).bigEndianBytes)
                == "cb8911fb82c2d10f6cf1d31d1e521ad3f4e3f42615f6ba67c454a9a2fdb9b6a7")
        // allowance[alice][bob] at slot 1: keccak256(pad32(bob) ‖ keccak256(pad32(alice) ‖ pad32(1))) (eth_abi).
        #expect(
            Hex.encode(
                TokenProfile.openZeppelin5.layout.allowanceSlot(owner: Native.alice, spender: Native.bob).bigEndianBytes
            )
                == "7bb4c14a4642c37aac43229fec930a0666790858dbac8fc0f7b91e6a34742718")
    }

    @Test func codeMarkerHaltsAndSaysWhatItIs() {
        let marker = TokenProfile.openZeppelin5.codeMarker
        #expect(marker.first == 0xfe)
        #expect(String(decoding: marker.dropFirst(), as: UTF8.self) == "sandnet:native:ERC20")
        #expect(
            NativeContractRegistry.sepoliaDefaults.code(at: NativeContractRegistry.multicall3Address) == [0xfe]
                + Array("sandnet:native:MULTICALL3".utf8))
    }

    @Test func defaultTokensAtTheirSepoliaAddresses() {
        let registry = NativeContractRegistry.sepoliaDefaults
        #expect(registry.token(named: "usdc")?.address == Native.address("0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"))
        #expect(registry.token(named: "WETH")?.profile == .weth9)
        #expect(registry.token(named: "LINK")?.address == Native.address("0x779877A7B0D9E8603169DdbD7836e478b4624789"))
        #expect(registry.token(named: "USDT")?.profile == .tether)
        #expect(registry.token(named: "0x1c7d4b196cb0c7b01d743fbc6116a902379c7238")?.symbol == "USDC")
    }

    @Test func registryRefusesClashes() {
        let a = Native.token(.openZeppelin5)
        var b = a
        b.symbol = "OTHER"
        #expect(NativeContractRegistry.validate([a, b]) == "two tokens at 0x00000000000000000000000000000000000A11cE")
        var c = TokenDefinition.usdc
        c.address = Native.address("0x0000000000000000000000000000000000000001")
        #expect(NativeContractRegistry.validate([TokenDefinition.usdc, c]) == "two tokens with symbol USDC")
    }
}

@Suite struct ERC20Tests {
    @Test func readsMetadataAndBalances() {
        var h = TokenHarness(Native.token(.openZeppelin5))
        #expect(h.run(from: Native.bob, Native.call("decimals()")).output == Native.word(UInt256(6)))
        #expect(h.run(from: Native.bob, Native.call("totalSupply()")).output == Native.word(UInt256(1_000_000)))
        // `string` return: offset 0x20, length 3, "SND" right-padded (eth_abi.encode(["string"], ["SND"])).
        #expect(
            Hex.encode(h.run(from: Native.bob, Native.call("symbol()")).output)
                == "0000000000000000000000000000000000000000000000000000000000000020"
                + "0000000000000000000000000000000000000000000000000000000000000003"
                + "534e440000000000000000000000000000000000000000000000000000000000")
        #expect(h.balance(Native.alice) == 1_000_000)
        #expect(h.balance(Native.bob) == 0)
    }

    @Test func transferMovesBalanceAndLogsTransfer() {
        var h = TokenHarness(Native.token(.openZeppelin5))
        let r = h.run(
            from: Native.alice,
            Native.call("transfer(address,uint256)", [Native.word(Native.bob), Native.word(UInt256(250))]))
        #expect(r.outcome == .success(returnData: Native.word(UInt256(1))))
        #expect(h.balance(Native.alice) == 999_750)
        #expect(h.balance(Native.bob) == 250)
        #expect(r.logs.count == 1)
        #expect(r.logs[0].address == Native.tokenAddress)
        #expect(Hex.encode(r.logs[0].topics[0]) == "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef")
        #expect(r.logs[0].topics[1] == Native.word(Native.alice) && r.logs[0].topics[2] == Native.word(Native.bob))
        #expect(r.logs[0].data == Native.word(UInt256(250)))
        // Gas: 1,550 overhead + sender (cold 2,100 + 2,900) + fresh recipient (cold 2,100 + 20,000) + LOG3 1,756.
        #expect(r.gasUsed == 1_550 + 5_000 + 22_100 + 1_756)
        let again = h.run(
            from: Native.alice,
            Native.call("transfer(address,uint256)", [Native.word(Native.bob), Native.word(UInt256(250))]))
        #expect(again.gasUsed == 1_550 + 5_000 + 5_000 + 1_756)
        #expect(again.refund == 0)
    }

    @Test func insufficientBalanceRevertsWithTheProfilesError() {
        let transfer = Native.call(
            "transfer(address,uint256)", [Native.word(Native.bob), Native.word(UInt256(2_000_000))])
        var oz5 = TokenHarness(Native.token(.openZeppelin5))
        let r5 = oz5.run(from: Native.alice, transfer)
        // ERC20InsufficientBalance(alice, 1000000, 2000000): selector e450d38c (eth_utils.keccak).
        #expect(
            r5.outcome
                == .revert(
                    data: Native.bytes("e450d38c") + Native.word(Native.alice) + Native.word(UInt256(1_000_000))
                        + Native.word(UInt256(2_000_000))))
        #expect(r5.storageWrites.isEmpty && r5.logs.isEmpty)
        #expect(r5.gasUsed == 1_550 + 2_100)
        var oz4 = TokenHarness(Native.token(.openZeppelin4))
        // Error(string) "ERC20: transfer amount exceeds balance" (eth_abi: 08c379a0 ‖ encode(["string"], [...])).
        #expect(
            Hex.encode(oz4.run(from: Native.alice, transfer).output)
                == "08c379a0" + "0000000000000000000000000000000000000000000000000000000000000020"
                + "0000000000000000000000000000000000000000000000000000000000000026"
                + "45524332303a207472616e7366657220616d6f756e7420657863656564732062"
                + "616c616e63650000000000000000000000000000000000000000000000000000")
        var weth = TokenHarness(Native.token(.weth9))
        #expect(weth.run(from: Native.alice, transfer).outcome == .revert(data: []))
        var usdt = TokenHarness(Native.token(.tether))
        #expect(usdt.run(from: Native.alice, transfer).outcome == .invalidOpcode)
        #expect(oz5.balance(Native.alice) == 1_000_000)
    }

    @Test func transferToZeroAddress() {
        let transfer = Native.call("transfer(address,uint256)", [Native.word(Address.zero), Native.word(UInt256(1))])
        var oz5 = TokenHarness(Native.token(.openZeppelin5))
        #expect(oz5.run(from: Native.alice, transfer).output == Native.bytes("ec442f05") + Native.word(Address.zero))
        var weth = TokenHarness(Native.token(.weth9))
        #expect(weth.run(from: Native.alice, transfer).succeeded)  // WETH9 has no such check
    }

    @Test func approveAndTransferFrom() {
        var h = TokenHarness(Native.token(.openZeppelin5))
        let approve = h.run(
            from: Native.alice,
            Native.call("approve(address,uint256)", [Native.word(Native.bob), Native.word(UInt256(500))]))
        #expect(approve.outcome == .success(returnData: Native.word(UInt256(1))))
        #expect(
            Hex.encode(approve.logs[0].topics[0]) == "8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925")
        #expect(approve.gasUsed == 1_250 + 22_100 + 1_756)
        let tf = Native.call(
            "transferFrom(address,address,uint256)",
            [Native.word(Native.alice), Native.word(Native.carol), Native.word(UInt256(300))])
        let ok = h.run(from: Native.bob, tf)
        #expect(ok.succeeded)
        #expect(ok.logs.count == 1)  // OpenZeppelin 5 does not emit Approval when spending
        let allowance = h.run(
            from: Native.bob,
            Native.call("allowance(address,address)", [Native.word(Native.alice), Native.word(Native.bob)]))
        #expect(allowance.output == Native.word(UInt256(200)))
        let short = h.run(from: Native.bob, tf)
        #expect(
            short.output == Native.bytes("fb8f41b2") + Native.word(Native.bob) + Native.word(UInt256(200))
                + Native.word(UInt256(300)))
        #expect(h.balance(Native.carol) == 300)

        var oz4 = TokenHarness(Native.token(.openZeppelin4))
        oz4.run(
            from: Native.alice,
            Native.call("approve(address,uint256)", [Native.word(Native.bob), Native.word(UInt256(500))]))
        #expect(oz4.run(from: Native.bob, tf).logs.count == 2)  // OpenZeppelin 4 emits Approval with the rest
        var usdc = TokenHarness(Native.token(.fiatToken))
        #expect(usdc.run(from: Native.bob, tf).output == ABIText.error("ERC20: transfer amount exceeds allowance"))
    }

    @Test func infiniteAllowanceIsNotSpentExceptByFiatToken() {
        let max = Native.word(UInt256.max)
        let tf = Native.call(
            "transferFrom(address,address,uint256)",
            [Native.word(Native.alice), Native.word(Native.carol), Native.word(UInt256(1))])
        let allowance = Native.call("allowance(address,address)", [Native.word(Native.alice), Native.word(Native.bob)])
        for (profile, spent) in [
            (TokenProfile.openZeppelin5, false), (.weth9, false), (.tether, false), (.fiatToken, true),
        ] {
            var h = TokenHarness(Native.token(profile))
            h.run(from: Native.alice, Native.call("approve(address,uint256)", [Native.word(Native.bob), max]))
            #expect(h.run(from: Native.bob, tf).succeeded)
            #expect(
                h.run(from: Native.bob, allowance).output == Native.word(spent ? UInt256.max - 1 : UInt256.max),
                "\(profile)")
        }
    }

    @Test func tetherQuirks() {
        var h = TokenHarness(Native.token(.tether))
        let transfer = h.run(
            from: Native.alice,
            Native.call("transfer(address,uint256)", [Native.word(Native.bob), Native.word(UInt256(1))]))
        #expect(transfer.outcome == .success(returnData: []))  // returns nothing
        let approve = Native.call("approve(address,uint256)", [Native.word(Native.bob), Native.word(UInt256(5))])
        #expect(h.run(from: Native.alice, approve).outcome == .success(returnData: []))
        // Non-zero over non-zero reverts without data; zero first, then the new value, works.
        #expect(h.run(from: Native.alice, approve).outcome == .revert(data: []))
        #expect(
            h.run(
                from: Native.alice,
                Native.call("approve(address,uint256)", [Native.word(Native.bob), Native.word(UInt256.zero)])
            ).succeeded)
        #expect(h.run(from: Native.alice, approve).succeeded)
        let tooMuch = Native.call(
            "transferFrom(address,address,uint256)",
            [Native.word(Native.alice), Native.word(Native.carol), Native.word(UInt256(6))])
        #expect(h.run(from: Native.bob, tooMuch).outcome == .invalidOpcode)
    }

    /// USDT's measured mainnet gas (ethereum.stackexchange q/149423): 46,109 to an existing holder, 41,309 when the
    /// sender's balance is emptied, 63,221 to a fresh holder (12 more calldata gas than the model's reference).
    @Test func tetherGasMatchesMainnetReceipts() {
        let calldataGas: UInt64 = 596  // 68 bytes: selector, a 20-byte address, an amount with 3 non-zero bytes
        var h = TokenHarness(
            Native.token(
                .tether,
                holders: [.init(holder: Native.alice, amount: 3_000_000), .init(holder: Native.bob, amount: 1)]))
        let amount = Native.word(UInt256(0x0f_4240))
        let existing = h.run(
            from: Native.alice, Native.call("transfer(address,uint256)", [Native.word(Native.bob), amount]))
        #expect(21_000 + calldataGas + existing.gasUsed - existing.refund == 46_109)
        let fresh = h.run(
            from: Native.alice, Native.call("transfer(address,uint256)", [Native.word(Native.carol), amount]))
        #expect(21_000 + calldataGas + fresh.gasUsed == 63_209)
        let emptying = h.run(
            from: Native.alice, Native.call("transfer(address,uint256)", [Native.word(Native.bob), amount]))
        #expect(emptying.refund == 4_800)
        #expect(21_000 + calldataGas + emptying.gasUsed - emptying.refund == 41_309)
    }

    @Test func unknownSelectorsShortCalldataDirtyWordsAndValueRevert() {
        var h = TokenHarness(Native.token(.openZeppelin5))
        #expect(
            h.run(
                from: Native.alice,
                Native.call("mint(address,uint256)", [Native.word(Native.alice), Native.word(UInt256(1))])
            ).outcome == .revert(data: []))
        #expect(h.run(from: Native.alice, [0xa9, 0x05]).outcome == .revert(data: []))
        #expect(h.run(from: Native.alice, Native.call("balanceOf(address)")).outcome == .revert(data: []))
        var dirty = Native.word(Native.bob)
        dirty[0] = 1
        #expect(
            h.run(from: Native.alice, Native.call("transfer(address,uint256)", [dirty, Native.word(UInt256(1))]))
                .outcome == .revert(data: []))
        #expect(h.run(from: Native.alice, value: 1, Native.call("decimals()")).outcome == .revert(data: []))
        // Trailing bytes are accepted, as Solidity accepts them.
        #expect(h.run(from: Native.alice, Native.call("decimals()") + [1, 2, 3]).output == Native.word(UInt256(6)))
        // OpenZeppelin 5 has no increaseAllowance; OpenZeppelin 4 does.
        let increase = Native.call(
            "increaseAllowance(address,uint256)", [Native.word(Native.bob), Native.word(UInt256(7))])
        #expect(h.run(from: Native.alice, increase).outcome == .revert(data: []))
        var oz4 = TokenHarness(Native.token(.openZeppelin4))
        #expect(oz4.run(from: Native.alice, increase).succeeded)
        #expect(oz4.run(from: Native.alice, increase).logs.first?.data == Native.word(UInt256(14)))
        let decrease = Native.call(
            "decreaseAllowance(address,uint256)", [Native.word(Native.bob), Native.word(UInt256(15))])
        #expect(oz4.run(from: Native.alice, decrease).output == ABIText.error("ERC20: decreased allowance below zero"))
    }
}

/// `Error(string)` revert data.
enum ABIText {
    static func error(_ reason: String) -> [UInt8] {
        let bytes = Array(reason.utf8)
        return Native.bytes("08c379a0") + Native.word(UInt256(32)) + Native.word(UInt256(UInt64(bytes.count))) + bytes
            + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
    }
}
