import Foundation
import FuzzHarnesses
import Testing

/// Replays every committed input under `Fuzz/Reproducers/<target>/` (crash reproducers and interesting corpus
/// entries) and every synthetic seed through the same harnesses the libFuzzer binary runs. A regression traps
/// the test process, as it trapped the fuzzer.
@Suite struct FuzzReproducerTests {
    static let reproducers = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Reproducers")

    static var targetNames: [String] { FuzzTarget.all.map(\.name) }

    @Test(arguments: targetNames)
    func syntheticSeedsPass(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let seeds = target.syntheticSeeds()
        #expect(!seeds.isEmpty, "every target has synthetic seeds")
        for seed in seeds { target.run(seed) }
    }

    @Test(arguments: targetNames)
    func committedReproducersPass(_ name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let folder = Self.reproducers.appendingPathComponent(name)
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
        for file in files.sorted(by: { $0.path < $1.path }) where !file.lastPathComponent.hasPrefix(".") {
            target.run(Array(try Data(contentsOf: file)))
        }
    }

    @Test func everyReproducerFolderNamesATarget() throws {
        let folders = (try? FileManager.default.contentsOfDirectory(atPath: Self.reproducers.path)) ?? []
        for folder in folders where !folder.hasPrefix(".") && !folder.hasSuffix(".md") {
            #expect(FuzzTarget.named(folder) != nil, "Fuzz/Reproducers/\(folder) names no target")
        }
    }
}
