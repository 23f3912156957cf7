import EthereumLedger
import EthereumTypes

/// What `anvil_metadata` (`hardhat_metadata`) reports.
public struct NodeMetadata: Sendable, Equatable {
    public var clientVersion: String
    public var chainID: UInt64
    /// 32 bytes, new at start and at every `anvil_reset`: a client that sees it change knows its caches are stale.
    public var instanceID: [UInt8]
    public var latestBlockNumber: UInt64
    public var latestBlockHash: [UInt8]
    /// Live snapshots by id: the head's number and hash when each was taken.
    public var snapshots: [Snapshot]

    public struct Snapshot: Sendable, Equatable {
        public var id: UInt64
        public var blockNumber: UInt64
        public var blockHash: [UInt8]
    }
}

/// Developer methods that change the chain's parameters, its clock rules, its length, or start it over.
extension SandnetNode {
    /// anvil_setCoinbase: the next blocks name `coinbase` and pay it their priority fees.
    public func setCoinbase(_ coinbase: Address) {
        withLedger { $0.setCoinbase(coinbase) }
    }

    /// anvil_setBlockGasLimit: the next blocks' gas limit. Returns the pool transactions dropped for exceeding it.
    @discardableResult
    public func setBlockGasLimit(_ gasLimit: UInt64) throws(LedgerError) -> [[UInt8]] {
        try withLedger { (chain) throws(LedgerError) in try chain.setGasLimit(gasLimit) }
    }

    /// anvil_setChainId: eth_chainId and net_version answer `chainID`, transactions must be signed for it. Returns the
    /// pool transactions dropped because they were signed for another chain id.
    @discardableResult
    public func setChainID(_ chainID: UInt64) throws(LedgerError) -> [[UInt8]] {
        try withLedger { (chain) throws(LedgerError) in try chain.setChainID(chainID) }
    }

    /// The block gas limit of the next block.
    public var blockGasLimit: UInt64 { withLedger { $0.config.gasLimit } }

    /// anvil_setTime: the clock reads `timestamp` now. Returns Anvil's answer: the seconds from the next block's
    /// timestamp before the call to `timestamp` (0 when earlier).
    public func setTime(_ timestamp: UInt64) throws(LedgerError) -> UInt64 {
        let now = clock()
        return try withLedger { (chain) throws(LedgerError) in try chain.setTime(timestamp, now: now) }
    }

    /// anvil_setBlockTimestampInterval: each next block is its parent's timestamp + `seconds`.
    public func setBlockTimestampInterval(_ seconds: UInt64) throws(LedgerError) {
        try withLedger { (chain) throws(LedgerError) in try chain.setBlockTimestampInterval(seconds) }
    }

    /// anvil_removeBlockTimestampInterval: false when no interval was set.
    public func removeBlockTimestampInterval() -> Bool { withLedger { $0.removeBlockTimestampInterval() } }

    /// anvil_rollback: removes the last `depth` blocks (1 when nil), at most
    /// ``NodeConfiguration/maxBlocksPerRequest``. Their transactions are not returned to the pool. Log filters and
    /// `logs` subscribers get the removed blocks' logs with `removed: true`, as after a reorg.
    public func rollback(depth: UInt64?) throws {
        let depth = depth ?? 1
        let limit = configuration.maxBlocksPerRequest
        guard depth <= limit else {
            throw LedgerError.valueOutOfRange("cannot roll back more than \(limit) blocks at once")
        }
        try miner.turn { (turn) throws(LedgerError) in
            turn.removed(try withLedger { (chain) throws(LedgerError) in try chain.rollback(depth: depth) })
        }
    }

    /// anvil_metadata.
    public var metadata: NodeMetadata {
        chain.withInstance { instanceID, chain in
            NodeMetadata(
                clientVersion: configuration.clientVersion, chainID: chain.config.chainID, instanceID: instanceID,
                latestBlockNumber: chain.blockNumber, latestBlockHash: chain.head.hash,
                snapshots: chain.snapshotHeads.map { .init(id: $0.id, blockNumber: $0.number, blockHash: $0.hash) })
        }
    }

    /// anvil_reset (Sandnet does not fork): a fresh chain from the same genesis and configuration. The pool is
    /// emptied, snapshots are dropped (their ids are not reused), the run-time parameters, clock offset and timestamp
    /// rules return to the configuration's, transactions held by chain conditions are dropped, and the instance id
    /// changes. Filters and subscriptions stay installed and see the new chain's blocks, as in Anvil. With a data
    /// directory the chain's records in it are replaced by the fresh chain in one synced write (the ICP ledger's
    /// records in the same directory are left alone); when that write fails nothing changes.
    public func reset() throws {
        try miner.turn { (_) throws(LedgerError) in
            try chain.reset(config: genesis.config, genesis: genesis.accounts)
            filters.restartChain()
            conditions.dropHeld()
        }
    }
}
