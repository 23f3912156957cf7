import EthereumLedger
import EthereumTypes

/// Polling filters (eth_newFilter, eth_newBlockFilter, eth_newPendingTransactionFilter). Like geth, a filter
/// not polled for 5 minutes is removed.
struct FilterRegistry: Sendable {
    enum Kind: Sendable {
        case blocks([[UInt8]])
        case pending([[UInt8]])
        case logs(LogFilter, lastBlock: UInt64)
    }

    struct Entry: Sendable {
        var kind: Kind
        var lastPoll: UInt64
    }

    var filters: [UInt64: Entry] = [:]
    var nextID: UInt64 = 1
    static let timeout: UInt64 = 300
    static let bufferLimit = 10_000

    mutating func install(_ kind: Kind, now: UInt64) -> UInt64 {
        expire(now: now)
        let id = nextID
        nextID += 1
        filters[id] = Entry(kind: kind, lastPoll: now)
        return id
    }

    mutating func expire(now: UInt64) {
        filters = filters.filter { now <= $0.value.lastPoll + Self.timeout }
    }

    mutating func record(block: Block) {
        for (id, entry) in filters {
            if case .blocks(var hashes) = entry.kind {
                hashes.append(block.hash)
                if hashes.count > Self.bufferLimit { hashes.removeFirst(hashes.count - Self.bufferLimit) }
                filters[id]?.kind = .blocks(hashes)
            }
        }
    }

    mutating func record(pending hash: [UInt8]) {
        for (id, entry) in filters {
            if case .pending(var hashes) = entry.kind {
                hashes.append(hash)
                if hashes.count > Self.bufferLimit { hashes.removeFirst(hashes.count - Self.bufferLimit) }
                filters[id]?.kind = .pending(hashes)
            }
        }
    }
}

/// An eth_getLogs / eth_newFilter criterion.
struct LogFilter: Sendable {
    var fromBlock: BlockSelector?
    var toBlock: BlockSelector?
    var blockHash: [UInt8]?
    var addresses: [Address]
    /// Per position: nil matches anything, otherwise any of the listed topics.
    var topics: [[[UInt8]]?]

    func matches(_ log: Log) -> Bool {
        if !addresses.isEmpty && !addresses.contains(log.address) { return false }
        for (i, wanted) in topics.enumerated() {
            guard let wanted else { continue }
            guard i < log.topics.count, wanted.contains(log.topics[i]) else { return false }
        }
        return true
    }
}

/// Faucet rate limits per address and per client IP (chainflag/eth-faucet's TTL cache).
struct FaucetLimiter: Sendable {
    var lastClaim: [String: UInt64] = [:]

    /// Seconds still to wait for any of `keys`, or 0.
    func remaining(_ keys: [String], now: UInt64, cooldown: UInt64) -> UInt64 {
        guard cooldown > 0 else { return 0 }
        var wait: UInt64 = 0
        for key in keys {
            if let last = lastClaim[key], now < last + cooldown { wait = max(wait, last + cooldown - now) }
        }
        return wait
    }

    mutating func record(_ keys: [String], now: UInt64) {
        for key in keys { lastClaim[key] = now }
    }
}
