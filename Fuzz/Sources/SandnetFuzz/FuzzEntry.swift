import Foundation
import FuzzHarnesses

// The libFuzzer entry points. Built with `--sanitize=fuzzer -Xswiftc -DFUZZING`, libFuzzer supplies `main` and
// calls these; in an ordinary build the `@main` below replays files instead, so the package always links.
//
// Options of our own start with `--` (libFuzzer ignores such flags and prints one INFO line):
//   --target=NAME         which harness (FuzzTarget.all); also $SANDNET_FUZZ_TARGET
//   --write-seeds=DIR     write the target's seeds into DIR and exit (with --vectors=DIR, --scenarios=DIR)
//   --list                print the targets, their -max_len and what they check, and exit

/// The harness selected at start-up. Written once in `LLVMFuzzerInitialize` (or `main`) before libFuzzer
/// runs any input, and only read afterwards, from libFuzzer's single fuzzing thread.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = selectedTarget else { fatalError("no fuzz target selected: pass --target=NAME") }
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    target.run(bytes)
    return 0
}

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    let arguments = (0..<Int(argc.pointee)).compactMap { argv.pointee[$0].map { String(cString: $0) } }
    let options = FuzzOptions(arguments)
    options.handleCommandsAndExit()
    selectedTarget = options.requireTarget()
    return 0
}

/// The `--name=value` options the binary understands; everything else is left to libFuzzer (or, in a replay
/// build, taken as files and folders to replay).
struct FuzzOptions {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var paths: [String] = []

    init(_ arguments: [String]) {
        for argument in arguments.dropFirst() {
            if argument.hasPrefix("--") {
                let body = argument.dropFirst(2)
                if let equals = body.firstIndex(of: "=") {
                    values[String(body[..<equals])] = String(body[body.index(after: equals)...])
                } else {
                    flags.insert(String(body))
                }
            } else if !argument.hasPrefix("-") {
                paths.append(argument)
            }
        }
    }

    func requireTarget() -> FuzzTarget {
        let name = values["target"] ?? ProcessInfo.processInfo.environment["SANDNET_FUZZ_TARGET"]
        guard let name, let target = FuzzTarget.named(name) else {
            Self.fail("pass --target=NAME, one of: \(FuzzTarget.all.map(\.name).joined(separator: ", "))")
        }
        return target
    }

    /// `--list` and `--write-seeds` do their work and exit; otherwise this returns.
    func handleCommandsAndExit() {
        if flags.contains("list") {
            for target in FuzzTarget.all { print("\(target.name)\t\(target.maximumLength)\t\(target.summary)") }
            exit(0)
        }
        if let directory = values["write-seeds"] {
            let target = requireTarget()
            do {
                let count = try FuzzSeeds.write(
                    target: target, vectors: values["vectors"].map { URL(fileURLWithPath: $0) },
                    scenarios: values["scenarios"].map { URL(fileURLWithPath: $0) },
                    to: URL(fileURLWithPath: directory))
                print("\(target.name): \(count) seeds in \(directory)")
                exit(0)
            } catch {
                Self.fail("cannot write seeds: \(error)")
            }
        }
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
        exit(2)
    }
}

#if !FUZZING
    /// Replays files (and every file in given folders) through the selected harness: a regression run over a
    /// corpus or the reproducers without libFuzzer.
    @main struct Replay {
        static func main() throws {
            let options = FuzzOptions(CommandLine.arguments)
            options.handleCommandsAndExit()
            let target = options.requireTarget()
            var count = 0
            for path in options.paths {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    FuzzOptions.fail("no such file or folder: \(path)")
                }
                let files =
                    isDirectory.boolValue
                    ? try FileManager.default.contentsOfDirectory(atPath: path).sorted().map { path + "/" + $0 }
                    : [path]
                for file in files {
                    target.run(Array(try Data(contentsOf: URL(fileURLWithPath: file))))
                    count += 1
                }
            }
            print("\(target.name): replayed \(count) inputs, no property violated")
        }
    }
#endif
