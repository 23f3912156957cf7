import EthereumLedger
import EthereumTypes
import KeccakHashing
import NativeContracts

/// What happened to an address, read from the chain's blocks: the one query type behind the explorer APIs, so the
/// store's history indexes (issue 29, "History in the store") replace the block scan here and nowhere else.
///
/// Today it scans the blocks of one ledger snapshot (copy-on-write, so the chain moves on meanwhile) from one end
/// of the range towards the other and stops as soon as it has the rows asked for; a range longer than
/// ``maxScannedBlocks`` is refused with that limit named.
public struct AddressHistory: Sendable {
    /// The most blocks one query scans.
    public static let maxScannedBlocks: UInt64 = 1_000_000

    public let ledger: Ledger

    public init(ledger: Ledger) { self.ledger = ledger }

    /// One transaction and where it is.
    public struct Item: Sendable {
        public var block: Block
        public var index: Int
        public var transaction: LedgerTransaction { block.transactions[index] }
        public var receipt: Receipt { block.receipts[index] }
    }

    /// One ERC-20 `Transfer` log (3 topics) and its transaction.
    public struct TokenTransfer: Sendable {
        public var item: Item
        /// The log's index in its block (`logIndex`).
        public var logIndex: Int
        public var token: Address
        public var from: Address
        public var to: Address
        public var amount: UInt256
    }

    /// ETH a native contract moved inside a transaction (not the transaction's own value).
    public struct InternalTransfer: Sendable {
        public var item: Item
        public var from: Address
        public var to: Address
        public var amount: UInt256
        /// Etherscan's `traceId` ("0", "0_1", …): the transfer's position among the transaction's internal calls.
        public var traceID: String
    }

    public enum Direction: Sendable { case ascending, descending }

    /// The range `from…to` clamped to the chain, or nil when it is empty; throws when longer than the limit.
    public func blocks(from: UInt64, to: UInt64?) throws(EtherscanAnswer) -> ClosedRange<UInt64>? {
        let head = ledger.blockNumber
        let last = min(to ?? head, head)
        guard from <= last else { return nil }
        guard last - from < Self.maxScannedBlocks else {
            throw .notOK(
                "Error! Block range too large: at most \(Self.maxScannedBlocks) blocks per query; narrow startblock and endblock"
            )
        }
        return from...last
    }

    /// Calls `body` with each block of `range` in `direction` until it returns false.
    func scan(_ range: ClosedRange<UInt64>, _ direction: Direction, _ body: (Block) -> Bool) {
        switch direction {
        case .ascending:
            for n in range {
                guard let block = ledger.block(number: n) else { continue }
                if !body(block) { return }
            }
        case .descending:
            for n in range.reversed() {
                guard let block = ledger.block(number: n) else { continue }
                if !body(block) { return }
            }
        }
    }

    /// Transactions sent by, sent to, or creating `address`, in `direction`, at most `limit`.
    public func transactions(
        of address: Address, in range: ClosedRange<UInt64>, _ direction: Direction, limit: Int
    ) -> [Item] {
        var out: [Item] = []
        scan(range, direction) { block in
            var found: [Item] = []
            for (i, tx) in block.transactions.enumerated()
            where tx.sender == address || tx.to == address || block.receipts[i].contractAddress == address {
                found.append(Item(block: block, index: i))
            }
            out += direction == .ascending ? found : found.reversed()
            return out.count < limit
        }
        return Array(out.prefix(limit))
    }

    /// keccak256("Transfer(address,address,uint256)").
    public static let transferTopic = Keccak256.hash(utf8: "Transfer(address,address,uint256)")
    /// keccak256("Withdrawal(address,uint256)"): WETH9's `withdraw` pays the ETH out to its `src`.
    public static let withdrawalTopic = Keccak256.hash(utf8: "Withdrawal(address,uint256)")

    /// ERC-20 transfers from or to `address` (nil: any), of `token` (nil: any), in `direction`, at most `limit`.
    public func tokenTransfers(
        of address: Address?, token: Address?, in range: ClosedRange<UInt64>, _ direction: Direction, limit: Int
    ) -> [TokenTransfer] {
        var out: [TokenTransfer] = []
        let wanted = address.map { [UInt8](repeating: 0, count: 12) + $0.bytes }
        scan(range, direction) { block in
            if let wanted, !LogsBloom.mayContain(block.header.logsBloom, wanted) { return true }
            if let token, !LogsBloom.mayContain(block.header.logsBloom, token.bytes) { return true }
            var found: [TokenTransfer] = []
            var logIndex = 0
            for (i, receipt) in block.receipts.enumerated() {
                for log in receipt.logs {
                    defer { logIndex += 1 }
                    guard log.topics.count == 3, log.topics[0] == Self.transferTopic, log.data.count == 32,
                        token == nil || log.address == token,
                        let from = Address(log.topics[1].suffix(20)), let to = Address(log.topics[2].suffix(20)),
                        address == nil || from == address || to == address
                    else { continue }
                    found.append(
                        TokenTransfer(
                            item: Item(block: block, index: i), logIndex: logIndex, token: log.address, from: from,
                            to: to, amount: UInt256(bigEndian: log.data) ?? .zero))
                }
            }
            out += direction == .ascending ? found : found.reversed()
            return out.count < limit
        }
        return Array(out.prefix(limit))
    }

    /// The ETH native contracts moved inside the transactions of `block`: WETH9's `withdraw` payouts (from its
    /// `Withdrawal` log). Multicall3's `aggregate3Value` forwards are not listed yet (README, "Explorer APIs").
    func internalTransfers(in block: Block) -> [InternalTransfer] {
        var out: [InternalTransfer] = []
        let registry = ledger.nativeContracts
        for (i, receipt) in block.receipts.enumerated() where receipt.status {
            var trace = 0
            for log in receipt.logs where log.topics.count == 2 && log.topics[0] == Self.withdrawalTopic {
                guard registry.token(at: log.address)?.profile == .weth9, let src = Address(log.topics[1].suffix(20))
                else { continue }
                out.append(
                    InternalTransfer(
                        item: Item(block: block, index: i), from: log.address, to: src,
                        amount: UInt256(bigEndian: log.data) ?? .zero, traceID: trace == 0 ? "0" : "0_\(trace)"))
                trace += 1
            }
        }
        return out
    }

    /// Internal ETH transfers from or to `address`, in `direction`, at most `limit`.
    public func internalTransfers(
        of address: Address?, in range: ClosedRange<UInt64>, _ direction: Direction, limit: Int
    ) -> [InternalTransfer] {
        var out: [InternalTransfer] = []
        scan(range, direction) { block in
            let found = internalTransfers(in: block).filter { address == nil || $0.from == address || $0.to == address }
            out += direction == .ascending ? found : found.reversed()
            return out.count < limit
        }
        return Array(out.prefix(limit))
    }

    /// The internal transfers of the included transaction `hash` (nil: no such transaction).
    public func internalTransfers(ofTransaction hash: [UInt8]) -> [InternalTransfer]? {
        guard let (_, block) = ledger.receipt(hash) else { return nil }
        return internalTransfers(in: block).filter { $0.item.transaction.hash == hash }
    }
}

// MARK: Otterscan's searches

extension AddressHistory {
    /// Whether transaction `index` of `block` involves `address`: its sender, recipient or created contract, a party
    /// of one of its ERC-20 `Transfer` logs, or of an internal ETH transfer (every account a native execution
    /// touches with value or tokens is known without an EVM).
    public func involves(_ address: Address, _ block: Block, _ index: Int) -> Bool {
        let tx = block.transactions[index]
        let receipt = block.receipts[index]
        if tx.sender == address || tx.to == address || receipt.contractAddress == address { return true }
        let word = [UInt8](repeating: 0, count: 12) + address.bytes
        for log in receipt.logs where log.topics.count >= 2 {
            if log.topics[0] == Self.transferTopic && log.topics.dropFirst().contains(word) { return true }
            if log.topics[0] == Self.withdrawalTopic && log.topics[1] == word && log.topics.count == 2 { return true }
        }
        return false
    }

    /// One page of `ots_searchTransactionsBefore`/`After` (Anvil's and Erigon's semantics): whole blocks are taken
    /// until at least `pageSize` transactions are found; the rows come newest first.
    public struct SearchPage: Sendable {
        public var items: [Item]
        public var firstPage: Bool
        public var lastPage: Bool
    }

    /// Transactions involving `address` in blocks before `block` (0: from the head down), newest first.
    public func search(_ address: Address, before block: UInt64, pageSize: Int) -> SearchPage {
        let head = ledger.blockNumber
        let from = block == 0 ? head : min(block - 1, head)
        var items: [Item] = []
        var lastPage = true
        var scanned: UInt64 = 0
        if from >= 1 {
            for n in stride(from: from, through: 1, by: -1) {
                if items.count >= pageSize || scanned >= Self.maxScannedBlocks {
                    lastPage = false
                    break
                }
                scanned += 1
                guard let b = ledger.block(number: n) else { continue }
                for i in b.transactions.indices.reversed() where involves(address, b, i) {
                    items.append(Item(block: b, index: i))
                }
            }
        }
        return SearchPage(items: items, firstPage: block == 0 || block > head, lastPage: lastPage)
    }

    /// Transactions involving `address` in blocks after `block` (0: from genesis up), newest first.
    public func search(_ address: Address, after block: UInt64, pageSize: Int) -> SearchPage {
        let head = ledger.blockNumber
        let (start, overflow) = block.addingReportingOverflow(1)
        var items: [Item] = []
        var firstPage = true
        var scanned: UInt64 = 0
        if !overflow, start <= head {
            for n in start...head {
                if items.count >= pageSize || scanned >= Self.maxScannedBlocks {
                    firstPage = false
                    break
                }
                scanned += 1
                guard let b = ledger.block(number: n) else { continue }
                for i in b.transactions.indices where involves(address, b, i) { items.append(Item(block: b, index: i)) }
            }
        }
        return SearchPage(items: items.reversed(), firstPage: firstPage, lastPage: block == 0)
    }

    /// The hash of the transaction `sender` sent with `nonce`, or nil: a binary search over the sender's nonce at
    /// past blocks finds the block, then its transactions are read.
    public func transaction(sender: Address, nonce: UInt64) -> Item? {
        let head = ledger.blockNumber
        guard ledger.account(sender, atBlock: head).nonce > nonce else { return nil }
        var low: UInt64 = 0
        var high = head
        // The first block after which the sender's nonce exceeds `nonce`.
        while low < high {
            let mid = low + (high - low) / 2
            if ledger.account(sender, atBlock: mid).nonce > nonce { high = mid } else { low = mid + 1 }
        }
        guard let b = ledger.block(number: low) else { return nil }
        guard let i = b.transactions.firstIndex(where: { $0.sender == sender && $0.nonce == nonce }) else { return nil }
        return Item(block: b, index: i)
    }

    /// The transaction that created `address` (a contract creation whose receipt names it), or nil; the first
    /// ``maxScannedBlocks`` blocks are searched.
    public func creation(of address: Address) -> Item? {
        let head = ledger.blockNumber
        let last = min(head, Self.maxScannedBlocks - 1)
        var found: Item?
        scan(0...last, .ascending) { block in
            if let i = block.receipts.firstIndex(where: { $0.contractAddress == address }) {
                found = Item(block: block, index: i)
            }
            return found == nil
        }
        return found
    }
}
