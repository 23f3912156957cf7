import Foundation
import KeyValueStorage
import Testing

@Suite struct KeyValueStorageTests {
    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "sandnet-kv-" + UUID().uuidString
        return path
    }

    func exercise(_ store: some KeyValueStore) throws {
        #expect(try store.get([1]) == nil)
        var batch = WriteBatch()
        batch.put([1, 1], [10])
        batch.put([1, 2], [20])
        batch.put([2, 1], [30])
        try store.write(batch, sync: false)
        #expect(try store.get([1, 2]) == [20])
        var seen: [[UInt8]] = []
        try store.scan(prefix: [1]) { key, _ in
            seen.append(key)
            return true
        }
        #expect(seen == [[1, 1], [1, 2]])
        var delete = WriteBatch()
        delete.delete([1, 1])
        try store.write(delete, sync: true)
        #expect(try store.get([1, 1]) == nil)
    }

    @Test func inMemory() throws { try exercise(InMemoryStore()) }

    @Test func levelDBPersistsAcrossReopen() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let store = try LevelDBStore(path: path)
            try exercise(store)
            try store.put([9], [UInt8](repeating: 7, count: 100_000))
        }
        let reopened = try LevelDBStore(path: path)
        #expect(try reopened.get([9])?.count == 100_000)
        #expect(try reopened.get([2, 1]) == [30])
    }

    @Test func levelDBRefusesAFileInTheWay() throws {
        let path = Self.temporaryDirectory()
        _ = FileManager.default.createFile(atPath: path, contents: Data("not a database".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: StorageError.self) { try LevelDBStore(path: path) }
    }
}

@Suite struct PrefixedStoreTests {
    @Test func viewsDoNotSeeEachOthersKeys() throws {
        let base = InMemoryStore()
        let icp = PrefixedStore(base, prefix: [0x01] + Array("icp/".utf8))
        try base.put([0x42, 1], [1])
        try icp.put([0x42, 1], [2])
        try icp.put([0x42, 2], [3])
        #expect(try base.get([0x42, 1]) == [1])
        #expect(try icp.get([0x42, 1]) == [2])
        var seen: [[UInt8]] = []
        try icp.scan(prefix: [0x42]) { key, _ in
            seen.append(key)
            return true
        }
        #expect(seen == [[0x42, 1], [0x42, 2]])
        var baseSeen: [[UInt8]] = []
        try base.scan(prefix: [0x42]) { key, _ in
            baseSeen.append(key)
            return true
        }
        #expect(baseSeen == [[0x42, 1]])
        var batch = WriteBatch()
        batch.delete([0x42, 1])
        try icp.write(batch, sync: false)
        #expect(try icp.get([0x42, 1]) == nil)
        #expect(try base.get([0x42, 1]) == [1])
    }
}
