import ByteCoding
import Foundation

extension FuzzSeeds {
    /// Seeds for `target` taken from the official vectors in `vectors` (the layout of `../shared/vectors`:
    /// `rlp/`, `transactions/`, `keystore/`, `bip39/`, `candid/`) and from scenario files under `scenarios`.
    /// Missing folders give no seeds; nothing here is ever committed.
    public static func fromFiles(target: String, vectors: URL?, scenarios: URL?) -> [[UInt8]] {
        switch target {
        case "rlp":
            guard let vectors else { return [] }
            return ["rlp/rlptest.json", "rlp/invalidRLPTest.json"].flatMap { file in
                strings(named: "out", in: json(vectors.appendingPathComponent(file))).compactMap(hexBytes)
            }
        case "transaction":
            guard let vectors else { return [] }
            return files(under: vectors.appendingPathComponent("transactions"), extension: "json").flatMap { url in
                strings(named: "txbytes", in: json(url)).compactMap(hexBytes)
            }
        case "keystore":
            guard let vectors,
                let cases = json(vectors.appendingPathComponent("keystore/basic_tests.json"))
                    as? [String: Any]
            else { return [] }
            return cases.values.compactMap { ($0 as? [String: Any])?["json"] }.compactMap { object in
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { Array($0) }
            }
        case "mnemonic":
            guard let vectors else { return [] }
            var phrases: [String] = []
            if let sections = json(vectors.appendingPathComponent("bip39/vectors.json")) as? [String: Any] {
                for case let rows as [[Any]] in sections.values {
                    phrases += rows.compactMap { $0.count > 1 ? $0[1] as? String : nil }
                }
            }
            phrases += strings(named: "mnemonic", in: json(vectors.appendingPathComponent("bip39/test_JP_BIP39.json")))
            return phrases.map { Array($0.utf8) }
        case "candid", "candid-typed":
            guard let vectors else { return [] }
            let typed = target == "candid-typed"
            return files(under: vectors.appendingPathComponent("candid"), extension: "did").flatMap { url in
                candidAssertions(in: (try? String(contentsOf: url, encoding: .utf8)) ?? "").map { assertion in
                    typed ? Array(assertion.types.utf8) + [0] + assertion.blob : assertion.blob
                }
            }
        case "jsonrpc":
            // Real-world JSON documents: the smaller vector files.
            guard let vectors else { return [] }
            return files(under: vectors, extension: "json").compactMap { url in
                guard let data = try? Data(contentsOf: url), data.count <= 4096 else { return nil }
                return Array(data)
            }
        case "scenario":
            guard let scenarios else { return [] }
            return files(under: scenarios, extension: "yaml").compactMap { url in
                (try? Data(contentsOf: url)).map { Array($0) }
            }
        default:
            return []
        }
    }

    /// Writes the synthetic seeds and the file seeds of `target` into `directory` (created if needed).
    /// - Returns: The number of files written.
    @discardableResult
    public static func write(target: FuzzTarget, vectors: URL?, scenarios: URL?, to directory: URL) throws -> Int {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let seeds = target.syntheticSeeds() + fromFiles(target: target.name, vectors: vectors, scenarios: scenarios)
        for (index, seed) in seeds.enumerated() {
            try Data(seed).write(to: directory.appendingPathComponent("seed-\(index)"))
        }
        return seeds.count
    }

    // MARK: Helpers

    static func json(_ url: URL) -> Any? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// Every string value under key `name`, at any depth.
    static func strings(named name: String, in object: Any?) -> [String] {
        switch object {
        case let dictionary as [String: Any]:
            return dictionary.flatMap { key, value -> [String] in
                if key == name, let text = value as? String { return [text] }
                return strings(named: name, in: value)
            }
        case let array as [Any]:
            return array.flatMap { strings(named: name, in: $0) }
        default:
            return []
        }
    }

    static func hexBytes(_ text: String) -> [UInt8]? {
        try? Hex.decode(text.hasPrefix("0x") ? String(text.dropFirst(2)) : text)
    }

    static func files(under directory: URL, extension pathExtension: String) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == pathExtension }
            .sorted { $0.path < $1.path }
    }

    /// `assert blob "…" [== …] [!]: (types) ["description"];` lines of the Candid test suite: the message bytes
    /// and the argument type text.
    static func candidAssertions(in text: String) -> [(blob: [UInt8], types: String)] {
        var result: [(blob: [UInt8], types: String)] = []
        for line in text.split(separator: "\n") {
            let line = Array(line.utf8)
            let prefix = Array("assert blob \"".utf8)
            guard line.starts(with: prefix) else { continue }
            var index = prefix.count
            var blob: [UInt8] = []
            while index < line.count, line[index] != UInt8(ascii: "\"") {
                if line[index] == UInt8(ascii: "\\"), index + 1 < line.count {
                    let next = line[index + 1]
                    if index + 2 < line.count, let high = Hex.nibble(next), let low = Hex.nibble(line[index + 2]) {
                        blob.append(high << 4 | low)
                        index += 3
                        continue
                    }
                    switch next {
                    case UInt8(ascii: "n"): blob.append(0x0a)
                    case UInt8(ascii: "t"): blob.append(0x09)
                    case UInt8(ascii: "r"): blob.append(0x0d)
                    default: blob.append(next)
                    }
                    index += 2
                    continue
                }
                blob.append(line[index])
                index += 1
            }
            // The type list follows the first ':' outside quotes after the blob.
            var inQuotes = false
            index += 1
            while index < line.count {
                let c = line[index]
                if c == UInt8(ascii: "\"") { inQuotes.toggle() }
                if !inQuotes, c == UInt8(ascii: ":") { break }
                index += 1
            }
            guard index < line.count else { continue }
            var types = String(decoding: line[(index + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if types.hasSuffix(";") { types.removeLast() }
            if types.hasSuffix("\""), let quote = types.dropLast().lastIndex(of: "\"") {
                types = String(types[..<quote])
            }
            result.append((blob, types.trimmingCharacters(in: .whitespaces)))
        }
        return result
    }
}
