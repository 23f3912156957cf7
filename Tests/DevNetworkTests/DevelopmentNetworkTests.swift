import DevNetwork
import EthereumNode
import ICPIdentity
import ICPLedger
import JSONCoding
import JSONRPC
import KeyValueStorage
import Synchronization
import Testing

/// One configuration builds both chains; one method table serves both.
@Suite struct DevelopmentNetworkTests {
    static let ethereumStart: UInt64 = 1_800_000_000
    static let icpStart: UInt64 = 1_800_000_000_000_000_000

    static func network(
        store: (any KeyValueStore)? = nil, _ configure: (inout DevelopmentNetwork.Configuration) -> Void = { _ in }
    ) throws -> DevelopmentNetwork {
        var configuration = DevelopmentNetwork.Configuration()
        configure(&configuration)
        return try DevelopmentNetwork(
            configuration: configuration, store: store, clock: { ethereumStart }, icpClock: { icpStart })
    }

    static func call(_ network: DevelopmentNetwork, _ method: String, _ params: [JSON] = []) -> JSON {
        let request = JSON.object([
            ("jsonrpc", .string("2.0")), ("id", .number("1")), ("method", .string(method)), ("params", .array(params)),
        ])
        return network.dispatcher.handle(request: request) ?? .null
    }

    @Test func oneTableServesBothChains() throws {
        let network = try Self.network()
        #expect(Self.call(network, "eth_chainId")["result"] == .string("0xaa36a7"))
        #expect(
            Self.call(network, "sandnet_icpInfo")["result"]?["canisterId"] == .string("ryjl3-tyaaa-aaaaa-aaaba-cai"))
        #expect(Self.call(network, "sandnet_icpInfo")["result"]?["ledgerTimeNanos"] == .string(String(Self.icpStart)))
        let methods = network.dispatcher.methods.keys
        for name in [
            "sandnet_icpFaucet", "sandnet_icpBalance", "sandnet_icpIncreaseTime", "sandnet_icpInfo", "sandnet_faucet",
        ] {
            #expect(methods.contains(name), "\(name)")
        }
        // The faucet behind the RPC method is the one the HTTP route uses.
        let icp = try #require(network.icp)
        _ = Self.call(network, "sandnet_icpFaucet", [.string("2vxsx-fae")])
        let http = icp.faucet.claim(httpBody: Array(#"{"account":"2vxsx-fae"}"#.utf8))
        #expect(http.body["blockIndex"] == .number("11"))  // ten dev identities' mints, the RPC claim, then this one
        #expect(Self.call(network, "sandnet_icpBalance", [.string("2vxsx-fae")])["result"] == .string("20000000000"))
    }

    @Test func withoutICPTheMethodsAreUnknown() throws {
        let network = try Self.network { $0.icp = nil }
        #expect(network.icp == nil)
        #expect(Self.call(network, "eth_chainId")["result"] == .string("0xaa36a7"))
        let error = Self.call(network, "sandnet_icpInfo")["error"]
        #expect(error?["code"] == .number("-32601"))
        #expect(error?["message"] == .string("the method sandnet_icpInfo does not exist/is not available"))
    }

    @Test func oneMnemonicDerivesBothChainsKeys() throws {
        let mnemonic = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"
        let network = try Self.network {
            $0.ethereum.mnemonic = mnemonic
            $0.ethereum.accountCount = 2
            $0.icp?.identities = 3
            $0.icp?.balance = Tokens(e8s: 123)
            $0.icp?.fee = Tokens(e8s: 777)
        }
        #expect(
            network.node.devAccounts.map(\.address.checksummed) == [
                "0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "0x6Fac4D18c912343BF86fa7049364Dd4E424Ab9C0",
            ])
        let identities = try #require(network.icp?.identities)
        #expect(identities.count == 3)
        for (index, identity) in identities.enumerated() {
            let expected = try KeyIdentity(mnemonic: mnemonic, path: .bip44(coinType: 223, index: UInt32(index)))
            #expect(identity.principal == expected.principal)
            let balance = Self.call(network, "sandnet_icpBalance", [.string(identity.principal.text)])
            #expect(balance["result"] == .string("123"))
        }
        #expect(identities[0].principal.text == "tgzar-4lpln-fq34h-6hxo4-wlm3x-6g3or-6hxvr-d6jbw-ooh2b-lzsw4-aqe")
        #expect(Self.call(network, "sandnet_icpInfo")["result"]?["feeE8s"] == .string("777"))
    }

    @Test func oneStoreKeepsBothChains() throws {
        let store = InMemoryStore()
        let first = try Self.network(store: store)
        _ = Self.call(first, "sandnet_icpFaucet", [.string("2vxsx-fae"), .string("5")])
        let dead = "0x000000000000000000000000000000000000dead"
        #expect(Self.call(first, "sandnet_faucet", [.string(dead)])["result"]?.stringValue?.count == 66)
        try first.node.shutdown()
        let reopened = try Self.network(store: store)
        #expect(Self.call(reopened, "sandnet_icpBalance", [.string("2vxsx-fae")])["result"] == .string("5"))
        #expect(Self.call(reopened, "eth_getBalance", [.string(dead)])["result"] == .string("0xde0b6b3a7640000"))
    }

    @Test func anICPFailureIsNamed() throws {
        let reason = "invalid mnemonic: a mnemonic has 12, 15, 18, 21 or 24 words, got 3"
        #expect(throws: DevelopmentNetworkError.icpLedger(reason: reason)) {
            _ = try Self.network { $0.ethereum.mnemonic = "not a mnemonic" }
        }
        #expect(
            DevelopmentNetworkError.icpLedger(reason: reason).description == "cannot start the ICP ledger: \(reason)")
        // Without ICP the node's own error comes through unchanged.
        do {
            _ = try Self.network {
                $0.ethereum.mnemonic = "not a mnemonic"
                $0.icp = nil
            }
            Issue.record("an invalid mnemonic was accepted")
        } catch {
            #expect(!(error is DevelopmentNetworkError))
            #expect("\(error)" == "a mnemonic has 12, 15, 18, 21 or 24 words, got 3")
        }
    }
}

/// Snapshots of both chains are composed by Swift calls (the node's typed snapshot, the replica's capture), and the
/// JSON-RPC methods act on the same controls.
@Suite struct NetworkSnapshotTests {
    @Test func aRevertPutsBothChainsBack() throws {
        let network = try DevelopmentNetworkTests.network()
        func icpBalance() -> JSON? {
            DevelopmentNetworkTests.call(network, "sandnet_icpBalance", [.string("2vxsx-fae")])["result"]
        }
        let before = icpBalance()
        let id = try network.snapshots.snapshot()
        _ = DevelopmentNetworkTests.call(network, "sandnet_icpFaucet", [.string("2vxsx-fae")])
        try network.node.dev.mine(blocks: 2)
        #expect(icpBalance() != before)
        #expect(try network.snapshots.revert(to: id))
        #expect(network.node.blockNumber == 0)
        #expect(icpBalance() == before)
        #expect(try !network.snapshots.revert(to: id))  // consumed
        // evm_snapshot and evm_revert reach the same controls.
        let rpcID = try #require(DevelopmentNetworkTests.call(network, "evm_snapshot")["result"])
        _ = DevelopmentNetworkTests.call(network, "sandnet_icpFaucet", [.string("2vxsx-fae")])
        #expect(DevelopmentNetworkTests.call(network, "evm_revert", [rpcID])["result"] == .bool(true))
        #expect(icpBalance() == before)
    }

    @Test func withADataDirectoryOnlyTheEthereumChainReverts() throws {
        #expect(try DevelopmentNetworkTests.network(store: InMemoryStore()).snapshots is DevControls)
        #expect(try DevelopmentNetworkTests.network { $0.icp = nil }.snapshots is DevControls)
        #expect(try !(DevelopmentNetworkTests.network().snapshots is DevControls))
    }
}
