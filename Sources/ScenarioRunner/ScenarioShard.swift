/// `--shard i/n`: which part of a scenario library one machine of a CI matrix runs. Files are dealt out in sorted
/// order like cards: shard `i` (1-based) runs the files at positions i, i+n, i+2n, … (1-based), so the shards
/// differ in size by at most one file and together run every file exactly once.
public struct ScenarioShard: Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public var index: Int
    public var count: Int

    /// Shards at most (a CI matrix of more machines than this is a mistake).
    public static let maxCount = 1_000

    public init(index: Int, count: Int) throws(ScenarioShardError) {
        guard count >= 1, count <= Self.maxCount else { throw .countOutOfRange(count) }
        guard index >= 1, index <= count else { throw .indexOutOfRange(index, count) }
        self.index = index
        self.count = count
    }

    /// Parses `i/n`, e.g. `2/4`.
    public init(parsing text: String) throws(ScenarioShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { throw .syntax(text) }
        try self.init(index: i, count: n)
    }

    /// This shard's files of `files` (already sorted), in order.
    public func select<T>(_ files: [T]) -> [T] {
        files.enumerated().filter { $0.offset % count == index - 1 }.map(\.element)
    }

    public var description: String { "\(index)/\(count)" }
}

/// Why a `--shard` value is refused.
public enum ScenarioShardError: Error, Sendable, Equatable, CustomStringConvertible {
    case syntax(String)
    case countOutOfRange(Int)
    case indexOutOfRange(Int, Int)

    public var description: String {
        switch self {
        case .syntax(let text): "expected i/n (e.g. 2/4), found '\(text)'"
        case .countOutOfRange(let n): "the shard count must be from 1 to \(ScenarioShard.maxCount), found \(n)"
        case .indexOutOfRange(let i, let n): "the shard index must be from 1 to \(n), found \(i)"
        }
    }
}
