import EthereumNode
import EthereumRPC
import Foundation
import ICPIdentity
import ICPLedger
import ICPRPC
import ICPReplica
import JSONCoding
import JSONRPC
import KeyValueStorage
import Synchronization

/// A full development network built from one configuration: the fake Sepolia node and, unless turned off, the ICP
/// development replica hosting the ledger canister, with each chain's faucet, behind one JSON-RPC method table
/// (`eth_*`, the developer methods, `sandnet_faucet` and `sandnet_icp*`).
///
/// `sandnet node`, the HTTP server and the scenario runner's in-process backend all assemble their network here.
/// One mnemonic derives both chains' dev keys, and one data directory holds both ledgers (ICP under
/// ``Replica/storePrefix``).
public final class DevelopmentNetwork: Sendable {
    public struct Configuration: Sendable {
        /// The Ethereum node: chain, dev accounts (and the mnemonic both chains use), faucet, mining.
        public var ethereum: NodeConfiguration
        /// The ICP ledger; nil serves none (`--no-icp`).
        public var icp: ICPConfiguration?

        public init(ethereum: NodeConfiguration = NodeConfiguration(), icp: ICPConfiguration? = ICPConfiguration()) {
            self.ethereum = ethereum
            self.icp = icp
        }
    }

    /// The ICP ledger's settings (as `sandnet node`'s `--icp-*` flags set them).
    public struct ICPConfiguration: Sendable {
        /// Dev identities funded at start-up: the first `identities` secp256k1 keys at `m/44'/223'/0'/0/i` of the
        /// Ethereum configuration's mnemonic.
        public var identities = 10
        /// What each dev identity starts with (10,000 ICP).
        public var balance = Tokens(e8s: 10_000 * 100_000_000)
        /// The ledger's transfer fee (10,000 e8s).
        public var fee = Tokens(e8s: LedgerConfiguration.defaultFee)
        public var faucet = ICPFaucet.Configuration()
        public var replica = Replica.Configuration()

        public init() {}
    }

    /// The ICP side: the replica, its faucet and the funded dev identities.
    public struct ICP: Sendable {
        public let replica: Replica
        public let faucet: ICPFaucet
        /// The funded dev identities, in derivation order.
        public let identities: [KeyIdentity]
    }

    public let node: SandnetNode
    /// nil when the network serves no ICP ledger.
    public let icp: ICP?

    /// The JSON-RPC method table the transports serve: the node's methods (``EthereumMethods``) and the ICP ones
    /// (``ICPMethods``); the node's own win on a name clash. `evm_snapshot`/`evm_revert` (and their `anvil_` names)
    /// act on ``snapshots``.
    public let dispatcher: RPCDispatcher
    /// Snapshots and reverts: of both chains on an in-memory network with an ICP ledger (``NetworkSnapshots``), else
    /// of the Ethereum chain alone.
    public let snapshots: any SnapshotControls

    /// Builds both chains: in `store` when given (opened or created, so a data directory survives restarts), else in
    /// memory.
    ///
    /// - Parameters:
    ///   - clock: seconds since the epoch, for the Ethereum chain (block timestamps, faucet cooldowns).
    ///   - icpClock: nanoseconds since the epoch, for the replica (the ledger's time, ingress expiry, `/time`).
    /// - Throws: ``DevelopmentNetworkError`` when the ICP ledger cannot start; the node's own errors unchanged.
    public init(
        configuration: Configuration, store: (any KeyValueStore)? = nil,
        clock: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970) },
        icpClock: @escaping @Sendable () -> UInt64 = { UInt64(Date().timeIntervalSince1970 * 1_000_000_000) }
    ) throws {
        var icp: ICP?
        if let settings = configuration.icp {
            do {
                let (replica, identities) = try Replica.development(
                    mnemonic: configuration.ethereum.mnemonic, identities: settings.identities,
                    balance: settings.balance, fee: settings.fee, store: store, configuration: settings.replica,
                    clock: icpClock)
                icp = ICP(
                    replica: replica, faucet: ICPFaucet(replica: replica, configuration: settings.faucet),
                    identities: identities)
            } catch {
                throw DevelopmentNetworkError.icpLedger(reason: "\(error)")
            }
        }
        self.icp = icp
        let node = try SandnetNode(configuration: configuration.ethereum, store: store, clock: clock)
        self.node = node
        if let icp, store == nil {
            snapshots = NetworkSnapshots(node: node.dev, replica: icp.replica)
        } else {
            snapshots = node.dev
        }
        dispatcher = EthereumMethods.dispatcher(
            node, additional: icp.map { ICPMethods.table($0.faucet) } ?? [:], snapshots: snapshots)
    }

    /// A network of `node` alone, with no ICP ledger (for callers that build their node themselves).
    public init(node: SandnetNode) {
        self.node = node
        self.icp = nil
        snapshots = node.dev
        dispatcher = EthereumMethods.dispatcher(node)
    }
}

/// `evm_snapshot` and `evm_revert` (and `anvil_snapshot`, `anvil_revert`) over both chains, by Swift calls: a snapshot
/// takes the node's (which numbers it and enforces its limit) and captures the replica's state under the same id; a
/// revert that the node accepts puts the replica back too, and, like the node, consumes that snapshot and every later
/// one. Only for networks in memory: with a data directory the ICP ledger's blocks are on disk, so its snapshots would
/// not hold (there `evm_revert` rolls back the Ethereum chain alone, as documented).
///
/// The two captures are not one atomic step: a call to the other chain between them lands on either side. Scenario
/// runners and tests take snapshots between calls, where this cannot happen.
///
/// Lock: `held`, taken alone (after the node's call returns).
final class NetworkSnapshots: SnapshotControls {
    let node: DevControls
    let replica: Replica
    private let held = Mutex<[UInt64: Replica.Snapshot]>([:])

    init(node: DevControls, replica: Replica) {
        self.node = node
        self.replica = replica
    }

    func snapshot() throws -> UInt64 {
        let state = replica.snapshot()
        let id = try node.snapshot()
        held.withLock { $0[id] = state }
        return id
    }

    func revert(to id: UInt64) throws -> Bool {
        guard try node.revert(to: id) else { return false }
        let state = held.withLock { held -> Replica.Snapshot? in
            let state = held[id]
            held = held.filter { $0.key < id }
            return state
        }
        if let state { replica.restore(state) }
        return true
    }
}

/// Why a development network could not be built (beyond the node's own errors).
public enum DevelopmentNetworkError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The ICP ledger could not be opened or created (its part of the data directory, the dev identities).
    case icpLedger(reason: String)

    public var description: String {
        switch self {
        case .icpLedger(let reason): "cannot start the ICP ledger: \(reason)"
        }
    }
}
