import CLevelDB
import KeyValueStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``KeyValueStore`` in a LevelDB directory (the only code that calls LevelDB).
///
/// A new database is created only in an absent or empty directory. A directory that holds files but no
/// LevelDB `CURRENT` file (a damaged database, or somebody else's files) is refused and left untouched:
/// LevelDB's `create_if_missing` would otherwise start a new database over it and delete its table files.
///
/// `@unchecked Sendable`: LevelDB's `leveldb_t` is documented as safe for concurrent use by multiple
/// threads without external synchronisation; the options objects are created once and only read.
public final class LevelDBStore: KeyValueStore, @unchecked Sendable {
    private let db: OpaquePointer
    private let options: OpaquePointer
    private let blockCache: OpaquePointer
    private let readOptions: OpaquePointer
    private let writeOptions: OpaquePointer
    private let syncWriteOptions: OpaquePointer
    public let path: String

    /// The memtable's size before it is written out as a table (LevelDB's default is 4 MiB). The memtable fills and
    /// empties in a sawtooth, twice this while a full one is being written: under the 10-minute soak the default
    /// swung the node's memory by ~7 % every ~40 s; at 1 MiB tables are written every ~10 s instead.
    public static let writeBufferSize = 1 << 20
    /// The LRU cache of uncompressed table blocks (LevelDB's default is 8 MiB, filled as old records are read):
    /// the ledger keeps its own bounded caches of decoded records above this one.
    public static let blockCacheSize = 2 << 20

    /// Opens the database at `path`, or creates one when `path` is absent or an empty directory.
    ///
    /// - Throws: ``StorageError`` when `path` holds files but no database (naming the directory), or when
    ///   LevelDB cannot open it.
    public init(path: String) throws(StorageError) {
        self.path = path
        let create: Bool
        switch Self.inspect(path) {
        case .absent, .empty: create = true
        case .database: create = false
        case .notADatabase(let files):
            throw StorageError(
                "\(path) holds files (\(files.prefix(5).joined(separator: ", "))\(files.count > 5 ? ", …" : "")) "
                    + "but no LevelDB CURRENT file; refusing to create a new database over them "
                    + "(restore CURRENT, or use an empty directory)")
        case .unreadable(let why): throw StorageError("cannot read \(path): \(why)")
        }
        options = leveldb_options_create()
        leveldb_options_set_create_if_missing(options, create ? 1 : 0)
        leveldb_options_set_paranoid_checks(options, 1)
        leveldb_options_set_write_buffer_size(options, Self.writeBufferSize)
        blockCache = leveldb_cache_create_lru(Self.blockCacheSize)
        leveldb_options_set_cache(options, blockCache)
        var error: UnsafeMutablePointer<CChar>?
        guard let handle = leveldb_open(options, path, &error) else {
            let message = Self.consume(error) ?? "cannot open \(path)"
            leveldb_options_destroy(options)
            leveldb_cache_destroy(blockCache)
            throw StorageError(message)
        }
        db = handle
        readOptions = leveldb_readoptions_create()
        writeOptions = leveldb_writeoptions_create()
        syncWriteOptions = leveldb_writeoptions_create()
        leveldb_writeoptions_set_sync(syncWriteOptions, 1)
    }

    /// What `path` holds, before LevelDB is allowed near it.
    enum DirectoryContents: Equatable {
        case absent
        case empty
        case database
        case notADatabase(files: [String])
        case unreadable(String)
    }

    static func inspect(_ path: String) -> DirectoryContents {
        guard let directory = opendir(path) else {
            let code = errno
            if code == ENOENT { return .absent }
            // Not a directory (a file in the way) and the like: LevelDB reports those with its own message.
            if code == ENOTDIR { return .database }
            return .unreadable(String(cString: strerror(code)))
        }
        defer { closedir(directory) }
        var files: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            if name == "CURRENT" { return .database }
            files.append(name)
        }
        return files.isEmpty ? .empty : .notADatabase(files: files.sorted())
    }

    deinit {
        leveldb_close(db)
        leveldb_options_destroy(options)
        leveldb_cache_destroy(blockCache)
        leveldb_readoptions_destroy(readOptions)
        leveldb_writeoptions_destroy(writeOptions)
        leveldb_writeoptions_destroy(syncWriteOptions)
    }

    /// Turns LevelDB's `errptr` channel into a message and frees it.
    private static func consume(_ error: UnsafeMutablePointer<CChar>?) -> String? {
        guard let error else { return nil }
        defer { leveldb_free(error) }
        return String(cString: error)
    }

    public func get(_ key: [UInt8]) throws(StorageError) -> [UInt8]? {
        var length = 0
        var error: UnsafeMutablePointer<CChar>?
        let value = key.withUnsafeBufferPointer { k in
            k.withMemoryRebound(to: CChar.self) { kc in
                leveldb_get(db, readOptions, kc.baseAddress, k.count, &length, &error)
            }
        }
        if let message = Self.consume(error) { throw StorageError(message) }
        guard let value else { return nil }
        defer { leveldb_free(value) }
        return [UInt8](UnsafeRawBufferPointer(start: value, count: length))
    }

    public func write(_ batch: WriteBatch, sync: Bool) throws(StorageError) {
        let wb = leveldb_writebatch_create()
        defer { leveldb_writebatch_destroy(wb) }
        for op in batch.operations {
            switch op {
            case .put(let k, let v):
                k.withUnsafeBufferPointer { kp in
                    v.withUnsafeBufferPointer { vp in
                        kp.withMemoryRebound(to: CChar.self) { kc in
                            vp.withMemoryRebound(to: CChar.self) { vc in
                                leveldb_writebatch_put(wb, kc.baseAddress, kp.count, vc.baseAddress, vp.count)
                            }
                        }
                    }
                }
            case .delete(let k):
                k.withUnsafeBufferPointer { kp in
                    kp.withMemoryRebound(to: CChar.self) { kc in leveldb_writebatch_delete(wb, kc.baseAddress, kp.count)
                    }
                }
            }
        }
        var error: UnsafeMutablePointer<CChar>?
        leveldb_write(db, sync ? syncWriteOptions : writeOptions, wb, &error)
        if let message = Self.consume(error) { throw StorageError(message) }
    }

    /// One seek: to `key`, then one step back when it landed past it.
    public func last(prefix: [UInt8], atOrBefore key: [UInt8]) throws(StorageError) -> (
        key: [UInt8], value: [UInt8]
    )? {
        guard let it = leveldb_create_iterator(db, readOptions) else { throw StorageError("cannot create an iterator") }
        defer { leveldb_iter_destroy(it) }
        key.withUnsafeBufferPointer { k in
            k.withMemoryRebound(to: CChar.self) { kc in leveldb_iter_seek(it, kc.baseAddress, k.count) }
        }
        if leveldb_iter_valid(it) == 0 {
            leveldb_iter_seek_to_last(it)
        } else {
            var length = 0
            let pointer = leveldb_iter_key(it, &length)!
            let landed = [UInt8](UnsafeRawBufferPointer(start: pointer, count: length))
            if landed != key { leveldb_iter_prev(it) }
        }
        var result: (key: [UInt8], value: [UInt8])?
        if leveldb_iter_valid(it) != 0 {
            var keyLength = 0
            var valueLength = 0
            let keyPointer = leveldb_iter_key(it, &keyLength)!
            let found = [UInt8](UnsafeRawBufferPointer(start: keyPointer, count: keyLength))
            if found.starts(with: prefix) && !key.lexicographicallyPrecedes(found) {
                let valuePointer = leveldb_iter_value(it, &valueLength)!
                result = (found, [UInt8](UnsafeRawBufferPointer(start: valuePointer, count: valueLength)))
            }
        }
        var error: UnsafeMutablePointer<CChar>?
        leveldb_iter_get_error(it, &error)
        if let message = Self.consume(error) { throw StorageError(message) }
        return result
    }

    public func scan(prefix: [UInt8], _ body: ([UInt8], [UInt8]) throws -> Bool) throws {
        let it = leveldb_create_iterator(db, readOptions)!
        defer { leveldb_iter_destroy(it) }
        prefix.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { pc in leveldb_iter_seek(it, pc.baseAddress, p.count) }
        }
        while leveldb_iter_valid(it) != 0 {
            var keyLength = 0
            var valueLength = 0
            let keyPointer = leveldb_iter_key(it, &keyLength)!
            let key = [UInt8](UnsafeRawBufferPointer(start: keyPointer, count: keyLength))
            guard key.starts(with: prefix) else { break }
            let valuePointer = leveldb_iter_value(it, &valueLength)!
            let value = [UInt8](UnsafeRawBufferPointer(start: valuePointer, count: valueLength))
            if try !body(key, value) { break }
            leveldb_iter_next(it)
        }
        var error: UnsafeMutablePointer<CChar>?
        leveldb_iter_get_error(it, &error)
        if let message = Self.consume(error) { throw StorageError(message) }
    }
}
