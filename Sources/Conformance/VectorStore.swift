import Foundation
import JSONCoding

/// Where the official vector files are read from.
///
/// Search order: an explicit directory, then `Vectors/official/`, then `$SANDNET_VECTORS`, then
/// `../shared/vectors` (both relative paths from the current directory).
public struct VectorStore: Sendable {
    /// Why no vectors could be loaded.
    public struct NotFound: Error, Sendable, CustomStringConvertible {
        public let searched: [String]
        public init(searched: [String]) { self.searched = searched }
        public var description: String {
            "no official vectors found; looked in: " + searched.joined(separator: ", ")
                + ". Run scripts/fetch-vectors, set SANDNET_VECTORS, or pass --vectors DIR."
        }
    }

    /// A file that could not be read or parsed.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public let file: String
        public let reason: String
        public var description: String { "\(file): \(reason)" }
    }

    public let root: String

    public init(root: String) { self.root = root }

    /// The candidate directories in search order.
    public static func candidates(explicit: String? = nil) -> [String] {
        var list: [String] = []
        if let explicit { list.append(explicit) }
        list.append("Vectors/official")
        if let env = ProcessInfo.processInfo.environment["SANDNET_VECTORS"], !env.isEmpty { list.append(env) }
        list.append("../shared/vectors")
        return list
    }

    /// The first candidate that holds a vector set (recognised by its `rlp/rlptest.json`).
    public static func locate(explicit: String? = nil) throws(NotFound) -> VectorStore {
        let fm = FileManager.default
        let list = candidates(explicit: explicit)
        if let explicit {
            // An explicit directory is used or rejected, never silently replaced.
            guard fm.fileExists(atPath: explicit + "/rlp/rlptest.json") else { throw NotFound(searched: [explicit]) }
            return VectorStore(root: explicit)
        }
        for dir in list where fm.fileExists(atPath: dir + "/rlp/rlptest.json") {
            return VectorStore(root: dir)
        }
        throw NotFound(searched: list)
    }

    public func path(_ relative: String) -> String { root + "/" + relative }

    public func bytes(_ relative: String) throws(LoadError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(relative)) else {
            throw LoadError(file: relative, reason: "cannot read \(path(relative))")
        }
        return [UInt8](data)
    }

    public func text(_ relative: String) throws(LoadError) -> String {
        String(decoding: try bytes(relative), as: UTF8.self)
    }

    public func json(_ relative: String) throws(LoadError) -> JSON {
        let data = try bytes(relative)
        do {
            return try JSON.parse(data)
        } catch {
            throw LoadError(file: relative, reason: "invalid JSON: \(error)")
        }
    }

    /// Files under a relative directory with a suffix, sorted.
    public func files(in relative: String, suffix: String) -> [String] {
        guard let entries = FileManager.default.enumerator(atPath: path(relative)) else { return [] }
        var found: [String] = []
        for case let entry as String in entries where entry.hasSuffix(suffix) {
            found.append(relative + "/" + entry)
        }
        return found.sorted()
    }
}
