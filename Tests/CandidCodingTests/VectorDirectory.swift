import Foundation

/// Locates the vector directory: `Vectors/official`, `$SANDNET_VECTORS`, else `../shared/vectors` next to the
/// package root.
enum VectorDirectory {
    static let candidates: [String] = {
        var list: [String] = []
        if let fromEnvironment = ProcessInfo.processInfo.environment["SANDNET_VECTORS"], !fromEnvironment.isEmpty {
            list.append(fromEnvironment)
        }
        // #filePath = <package>/Tests/CandidCodingTests/VectorDirectory.swift
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        list.insert(packageRoot.appendingPathComponent("Vectors/official").path, at: 0)
        list.append(packageRoot.deletingLastPathComponent().appendingPathComponent("shared/vectors").path)
        return list
    }()

    /// The first candidate that holds `candid/prim.test.did`, or nil.
    static let path: String? = candidates.first {
        FileManager.default.fileExists(atPath: "\($0)/candid/prim.test.did")
    }

    /// A message naming every place that was searched.
    static var notFoundMessage: String {
        "Candid vectors not found; looked in Vectors/official, $SANDNET_VECTORS and ../shared/vectors relative to "
            + "the package root: \(candidates.joined(separator: ", "))"
    }

    static func read(_ relativePath: String) throws -> String {
        guard let root = path else { throw VectorError(message: notFoundMessage) }
        return try String(contentsOfFile: "\(root)/\(relativePath)", encoding: .utf8)
    }
}

struct VectorError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
