import ABICoding
import EthereumTransactions
import EthereumTypes
import NativeContracts

/// A fixed state for the native contracts: the default tokens with two holders each (one with an allowance), WETH
/// backed by its supply.
struct FuzzContractState: ContractStateReading {
    var words: [Address: [UInt256: UInt256]] = [:]
    var balances: [Address: UInt256] = [:]

    func storage(_ address: Address, slot: UInt256) -> UInt256 { words[address]?[slot] ?? .zero }
    func balance(_ address: Address) -> UInt256 { balances[address] ?? .zero }
    func hasCode(_ address: Address) -> Bool { words[address] != nil }
    func blockHash(_ number: UInt64) -> [UInt8]? { [UInt8](repeating: UInt8(truncatingIfNeeded: number), count: 32) }
}

extension FuzzHarness {
    static let nativeHolder = Address([UInt8](repeating: 0x11, count: 20))!
    static let nativeOther = Address([UInt8](repeating: 0x22, count: 20))!

    static let nativeRegistry: NativeContractRegistry = {
        let tokens = TokenDefinition.sepoliaDefaults.map { token -> TokenDefinition in
            var t = token
            t.holders = [.init(holder: nativeHolder, amount: 1_000_000), .init(holder: nativeOther, amount: 1)]
            return t
        }
        return NativeContractRegistry(tokens: tokens, multicall3: true)
    }()

    static let nativeState: FuzzContractState = {
        var state = FuzzContractState()
        for token in nativeRegistry.tokens {
            var words = token.genesisStorage
            words[token.profile.layout.allowanceSlot(owner: nativeHolder, spender: nativeOther)] = 500
            state.words[token.address] = words
            if token.profile == .weth9 { state.balances[token.address] = token.genesisSupply }
        }
        state.balances[nativeHolder] = 1_000_000_000
        return state
    }()

    /// A native call: the first byte picks the target (a default token or Multicall3), the second the caller and
    /// whether 1 wei goes with the call; the rest is calldata. Properties: nothing traps; a failed call changes
    /// nothing and logs nothing; a successful one keeps every token's Σ balances equal to its total supply.
    @Sendable public static func nativeCall(_ data: [UInt8]) {
        guard data.count >= 2 else { return }
        let targets = nativeRegistry.tokens.map(\.address) + [NativeContractRegistry.multicall3Address]
        let target = targets[Int(data[0]) % targets.count]
        let caller = data[1] & 1 == 0 ? nativeHolder : nativeOther
        let value = UInt256(UInt64(data[1] >> 1 & 1))
        let call = NativeCall(caller: caller, target: target, value: value, data: Array(data[2...]))
        let environment = BlockEnvironment(
            number: 10, timestamp: 1_900_000_000, baseFee: 7, chainID: 11_155_111, coinbase: .zero, gasLimit: 60_000_000
        )
        let result = nativeRegistry.execute(call, state: nativeState, environment: environment)
        if !result.succeeded {
            check(
                result.storageWrites.isEmpty && result.logs.isEmpty && result.valueTransfers.isEmpty,
                "native: a failed call changes nothing", data.fuzzHex)
            return
        }
        var words = nativeState.words
        for write in result.storageWrites { words[write.address, default: [:]][write.slot] = write.value }
        for token in nativeRegistry.tokens {
            guard let supplySlot = token.profile.layout.totalSupply else { continue }
            let layout = token.profile.layout
            let holders =
                [nativeHolder, nativeOther, caller]
                + result.logs.flatMap { log in
                    log.address == token.address && log.topics.count == 3
                        ? log.topics[1...2].compactMap { Address($0.suffix(20)) } : []
                }
            var sum = UInt256.zero
            for holder in Set(holders) {
                let (s, overflow) = sum.addingReportingOverflow(
                    words[token.address]?[layout.balanceSlot(holder)] ?? .zero)
                if overflow { return }  // a wrapped sum says nothing
                sum = s
            }
            check(
                sum == (words[token.address]?[supplySlot] ?? .zero),
                "native: Σ balances == totalSupply for \(token.symbol)", data.fuzzHex)
        }
    }
}

extension FuzzSeeds {
    /// A transfer, an approve, a transferFrom and a Multicall3 aggregate3 of balanceOf, for each target.
    @Sendable static func nativeCall() -> [[UInt8]] {
        let other = FuzzHarness.nativeOther
        let transfer = ERC20Call.transfer(to: other, amount: 7).encoded()
        let approve = ERC20Call.approve(spender: other, amount: 9).encoded()
        let transferFrom = ERC20Call.transferFrom(from: FuzzHarness.nativeHolder, to: other, amount: 3).encoded()
        var seeds: [[UInt8]] = []
        for target in 0..<4 {
            for (flags, call) in [(0, transfer), (0, approve), (1, transferFrom)] {
                seeds.append([UInt8(target), UInt8(flags)] + call)
            }
        }
        // aggregate3([(USDC, false, balanceOf(holder))]) at Multicall3 (target 4).
        let balanceOf = ERC20Call.balanceOf(owner: FuzzHarness.nativeHolder).encoded()
        let aggregate3 = ABISignature(literal: "aggregate3((address,bool,bytes)[])((bool,bytes)[])")
        let calls = ABIValue.array([.tuple([.address(TokenDefinition.usdc.address), .bool(false), .bytes(balanceOf)])])
        guard let calldata = try? aggregate3.encodeCall([calls]) else { preconditionFailure("aggregate3 seed") }
        seeds.append([4, 0] + calldata)
        return seeds
    }
}
