import EthereumLedger
import EthereumTypes
import Foundation
import KeyValueStorage
import Testing

@Suite struct PersistenceTests {
    let now: UInt64 = 1_800_000_000

    static func directory() -> String { NSTemporaryDirectory() + "sandnet-ledger-" + UUID().uuidString }

    static let genesis = [
        GenesisAccount(address: Fixtures.alice, balance: Fixtures.ether * 100),
        GenesisAccount(address: Fixtures.bob, balance: Fixtures.ether * 100),
    ]

    @Test func reopenKeepsChainStateAndPool() throws {
        let path = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var hashes: [[UInt8]] = []
        let pending = Fixtures.transfer(from: Fixtures.alice, nonce: 5)
        do {
            var ledger = try Ledger.open(config: Fixtures.config, genesis: Self.genesis, store: LevelDBStore(path: path))
            for n in 0..<4 { _ = try ledger.submit(Fixtures.transfer(from: Fixtures.alice, nonce: UInt64(n)), now: now) }
            try ledger.setBalance(Fixtures.carol, Fixtures.ether)
            _ = try ledger.submit(pending, now: now)
            try ledger.flush()
            hashes = (0...ledger.blockNumber).map { ledger.block(number: $0)!.hash }
        }
        var reopened = try Ledger.open(config: Fixtures.config, genesis: Self.genesis, store: LevelDBStore(path: path))
        #expect(reopened.blockNumber == 4)
        #expect((0...reopened.blockNumber).map { reopened.block(number: $0)!.hash } == hashes)
        #expect(reopened.account(Fixtures.alice).nonce == 4)
        #expect(reopened.account(Fixtures.carol).balance == Fixtures.ether)
        #expect(reopened.account(Fixtures.bob, atBlock: 2).balance == Fixtures.ether * 100 + Fixtures.gwei * 2)
        #expect(reopened.pool.contains(pending.hash))
        #expect(reopened.sumOfBalances + reopened.burned == reopened.totalSupply)
        // The chain continues from where it stopped.
        _ = try reopened.submit(Fixtures.transfer(from: Fixtures.alice, nonce: 4), now: now)
        #expect(reopened.account(Fixtures.alice).nonce == 6)
    }

    @Test func revertIsPersisted() throws {
        let path = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            var ledger = try Ledger.open(config: Fixtures.config, genesis: Self.genesis, store: LevelDBStore(path: path))
            let id = ledger.snapshot()
            _ = try ledger.submit(Fixtures.transfer(from: Fixtures.alice, nonce: 0), now: now)
            _ = try ledger.revert(to: id)
        }
        let reopened = try Ledger.open(config: Fixtures.config, genesis: Self.genesis, store: LevelDBStore(path: path))
        #expect(reopened.blockNumber == 0)
        #expect(reopened.account(Fixtures.alice).nonce == 0)
    }

    @Test func wrongChainIDIsRefused() throws {
        let path = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try Ledger.open(config: Fixtures.config, genesis: Self.genesis, store: LevelDBStore(path: path))
        var other = Fixtures.config
        other.chainID = 1
        #expect(throws: LedgerError.self) {
            try Ledger.open(config: other, genesis: Self.genesis, store: LevelDBStore(path: path))
        }
    }
}
