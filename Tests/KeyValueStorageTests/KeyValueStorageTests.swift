import Foundation
import KeyValueStorage
import LevelDBStorage
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

    /// `last(prefix:atOrBefore:)`: the greatest key under the prefix that is at most the key, never one outside it.
    func exerciseLast(_ store: some KeyValueStore) throws {
        var batch = WriteBatch()
        for key: [UInt8] in [[1], [2, 0, 5], [2, 0, 9], [2, 1, 3], [3, 0]] { batch.put(key, key) }
        try store.write(batch, sync: false)
        func last(_ prefix: [UInt8], _ key: [UInt8]) throws -> [UInt8]? {
            try store.last(prefix: prefix, atOrBefore: key)?.key
        }
        #expect(try last([2, 0], [2, 0, 9]) == [2, 0, 9])
        #expect(try last([2, 0], [2, 0, 8]) == [2, 0, 5])
        #expect(try last([2, 0], [2, 0, 200]) == [2, 0, 9])
        #expect(try last([2, 0], [2, 0, 4]) == nil)
        #expect(try last([2, 1], [2, 1, 255]) == [2, 1, 3])
        #expect(try last([3], [3, 255]) == [3, 0])
        #expect(try last([4], [4, 1]) == nil)
        #expect(try store.last(prefix: [2, 0], atOrBefore: [2, 0, 6])?.value == [2, 0, 5])
    }

    @Test func lastAtOrBeforeInEveryStore() throws {
        try exerciseLast(InMemoryStore())
        try exerciseLast(PrefixedStore(InMemoryStore(), prefix: [2]))
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let levelDB = try LevelDBStore(path: path)
        try exerciseLast(levelDB)
        let other = try LevelDBStore(path: path + "-view")
        defer { try? FileManager.default.removeItem(atPath: path + "-view") }
        try other.put([2, 0, 7], [0])
        try exerciseLast(PrefixedStore(other, prefix: [2]))
    }

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

    /// Every file in `path` with its bytes.
    static func contents(_ path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            files[name] = FileManager.default.contents(atPath: path + "/" + name)
        }
        return files
    }

    @Test func levelDBRefusesADatabaseWithoutCURRENTAndTouchesNothing() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let store = try LevelDBStore(path: path)
            for i in 0..<200 { try store.put([UInt8(i)], [UInt8](repeating: UInt8(i), count: 10_000)) }
        }
        try FileManager.default.removeItem(atPath: path + "/CURRENT")
        let before = try Self.contents(path)
        #expect(before.keys.contains { $0.hasPrefix("MANIFEST-") })
        do {
            _ = try LevelDBStore(path: path)
            Issue.record("opened a database without CURRENT")
        } catch {
            #expect(error.message.hasPrefix("\(path) holds files ("))
            #expect(error.message.contains("but no LevelDB CURRENT file; refusing to create a new database over them"))
        }
        #expect(try Self.contents(path) == before)
    }

    @Test func levelDBRefusesAForeignDirectoryAndCreatesOnlyInAnEmptyOne() throws {
        let path = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path + "/notes.txt", contents: Data("mine".utf8)))
        #expect(
            throws: StorageError(
                "\(path) holds files (notes.txt) but no LevelDB CURRENT file; refusing to create a new database over "
                    + "them (restore CURRENT, or use an empty directory)")
        ) { try LevelDBStore(path: path) }
        #expect(try Self.contents(path) == ["notes.txt": Data("mine".utf8)])
        try FileManager.default.removeItem(atPath: path + "/notes.txt")
        let created = try LevelDBStore(path: path)
        try created.put([1], [2])
        #expect(try created.get([1]) == [2])
        #expect(FileManager.default.fileExists(atPath: path + "/CURRENT"))
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
