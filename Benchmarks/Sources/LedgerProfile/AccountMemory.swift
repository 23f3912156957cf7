// `LedgerProfile accounts N`: what one account costs in live heap (glibc's `mallinfo2()`: `uordblks` + `hblkhd`,
// all arenas and the blocks mapped on their own),
// for the whole ledger as the node runs it and for each structure that holds accounts, measured alone.
import BenchCMalloc
import EthereumLedger
import EthereumLedgerStorage
import EthereumTypes
import Foundation
import KeccakHashing
import LevelDBStorage
import MerkleTrie

/// Bytes allocated by malloc and not yet freed, in every arena.
func liveHeap() -> Int { Int(bench_live_heap_bytes()) }

/// `count` distinct addresses no other workload here uses.
func freshAddresses(_ count: Int, salt: UInt8) -> [Address] {
    (0..<count).map { i in
        Address(
            Keccak256.hash([
                UInt8(truncatingIfNeeded: i), UInt8(truncatingIfNeeded: i >> 8),
                UInt8(truncatingIfNeeded: i >> 16), salt, 7,
            ])[12...])!
    }
}

/// Live heap the value `build` returns holds, per item.
func heapPerItem<T>(_ count: Int, _ build: () -> T, inspect: (T) -> String = { _ in "" }) -> (Double, String) {
    let before = liveHeap()
    let value = build()
    let after = liveHeap()
    let note = inspect(value)
    return withExtendedLifetime(value) { (Double(after - before) / Double(count), note) }
}

/// The whole ledger, the way the node runs it (a LevelDB store, the 32-block window, one block at a time): blocks of
/// `perBlock` transfers from funded senders, first to recipients that already exist, then to `count` new ones, then
/// to the old ones again until the window has moved past the new recipients' history. The live heap's difference
/// between the two "old recipients only" points is what the new accounts hold.
func ledgerHeapPerAccount(
    _ count: Int, directory: String
) throws -> (perAccount: Double, blocks: Int, storePerAccount: Double) {
    let perBlock = 50
    let faucets = senders().prefix(perBlock)
    var config = ChainConfig()
    config.transactionGasCap = nil
    let store = try LevelDBStore(path: directory)
    var persistent = try PersistentLedger.open(
        config: config, genesis: faucets.map { GenesisAccount(address: $0, balance: UInt256(1) << 100) },
        store: store)
    try persistent.perform { (ledger: inout Ledger) throws(LedgerError) in ledger.miningMode = .manual }
    var salt = 0
    func block(to recipients: ArraySlice<Address>) throws {
        try persistent.perform { (ledger: inout Ledger) throws(LedgerError) in
            for (sender, to) in zip(faucets, recipients) {
                salt += 1
                let hash = Keccak256.hash(
                    sender.bytes + [
                        UInt8(truncatingIfNeeded: salt), UInt8(truncatingIfNeeded: salt >> 8),
                        UInt8(truncatingIfNeeded: salt >> 16), UInt8(truncatingIfNeeded: salt >> 24),
                    ])
                _ = try ledger.submit(
                    LedgerTransaction(
                        type: 2, chainID: config.chainID, nonce: ledger.account(sender).nonce, gasLimit: 21_000,
                        maxFeePerGas: UInt256(100_000_000_000 as UInt64),
                        maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64), to: to, value: UInt256(1), hash: hash,
                        sender: sender, encoding: [2] + hash),
                    now: now)
            }
            _ = try ledger.mine(now: now)
        }
    }
    let old = freshAddresses(perBlock, salt: 1)
    for _ in 0..<96 { try block(to: old[...]) }
    let before = liveHeap()
    let fresh = freshAddresses(count, salt: 2)
    var blocks = 0
    for start in stride(from: 0, to: count, by: perBlock) {
        try block(to: fresh[start..<min(start + perBlock, count)])
        blocks += 1
    }
    for _ in 0..<96 { try block(to: old[...]) }
    let after = liveHeap()
    precondition(persistent.ledger.world.addresses.count == perBlock * 2 + count + 1)
    // What is left above `before` once the ledger is gone and only the store is open: LevelDB's share.
    persistent = PersistentLedger(Ledger(config: config, genesis: []))
    let storeOnly = liveHeap()
    return withExtendedLifetime(store) {
        (Double(after - before) / Double(count), blocks, Double(storeOnly - before) / Double(count))
    }
}

/// Prints the ledger's live heap per new account and the share of each structure measured alone.
func accountMemory(_ count: Int) throws {
    let addresses = freshAddresses(count, salt: 3)
    let account = Account(nonce: 0, balance: UInt256(1_000_000_000_000 as UInt64))
    let keys = addresses.map { Keccak256.hash($0.bytes) }
    print("live heap per account, \(count) accounts (bytes, glibc mallinfo2 uordblks + hblkhd):")
    let dictionary = heapPerItem(count) {
        var map: [Address: Account] = [:]
        for address in addresses { map[address] = account }
        return map
    } inspect: {
        "capacity \($0.capacity)"
    }
    print(String(format: "  [Address: Account], grown one insert at a time: %6.1f  (%@)", dictionary.0, dictionary.1))
    let reserved = heapPerItem(count) {
        var map: [Address: Account] = [:]
        map.reserveCapacity(count)
        for address in addresses { map[address] = account }
        return map
    } inspect: {
        "capacity \($0.capacity)"
    }
    print(String(format: "  [Address: Account], capacity reserved:          %6.1f  (%@)", reserved.0, reserved.1))
    func shape(_ trie: PatriciaTrie) -> String {
        let counts = trie.nodeCounts
        return "\(counts.leaves) leaves, \(counts.extensions) extensions, \(counts.branches) branches"
    }
    // Each leaf gets its own encoding, as the ledger's leaves do (`stateEncoding` per account).
    let inserted = heapPerItem(count) {
        var trie = PatriciaTrie()
        for key in keys { trie.set(key, account.stateEncoding) }
        _ = trie.rootHash
        return trie
    } inspect: {
        shape($0)
    }
    print(String(format: "  state trie, one set per account, root hashed:   %6.1f  (%@)", inserted.0, inserted.1))
    let built = heapPerItem(count) {
        buildStateTrie(addresses, account)
    } inspect: {
        shape($0)
    }
    print(String(format: "  state trie, built from sorted entries (reopen): %6.1f  (%@)", built.0, built.1))
    let history = heapPerItem(count) {
        var map: [Address: [HistoryEntry]] = [:]
        for address in addresses { map[address, default: []].append(HistoryEntry(block: 1, account: account)) }
        return map
    }
    print(String(format: "  history, one entry per account (in the window): %6.1f", history.0))
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledgerprofile-accounts-\(getpid())")
    defer { try? FileManager.default.removeItem(at: directory) }
    let (perAccount, blocks, store) = try ledgerHeapPerAccount(count, directory: directory.path)
    print(
        String(
            format: "  the ledger (LevelDB store, 32-block window), %d new recipients in %d blocks of transfers: %6.1f",
            count, blocks, perAccount))
    print(
        String(
            format: "    of which still held with the ledger dropped (LevelDB's memtable, caches, tables; the "
                + "ledger's own baseline goes too): %6.1f", store))
}

/// The state trie of `addresses` as reopening a store builds it.
func buildStateTrie(_ addresses: [Address], _ account: Account) -> PatriciaTrie {
    let leaves = addresses.map { TrieKey(hashing: $0.bytes) }.sorted()
    let trie = PatriciaTrie(sortedCount: leaves.count, key: { leaves[$0] }, value: { _ in account.stateEncoding })
    _ = trie.rootHash
    return trie
}
