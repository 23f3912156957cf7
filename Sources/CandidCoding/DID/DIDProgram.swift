/// A checked `.did` program: a file with its imports followed, merged and checked as dfinity's `candid_parser`
/// does (`check_file`), plus the ``CandidInterface`` the codec uses.
///
/// Imports are resolved relative to the importing file; a file imported twice is read once; an import cycle is an
/// error. `import service` adds the imported file's methods to the main service.
public struct DIDProgram: Sendable {
    /// The most files one program may load (the main file and its imports).
    public static let maximumFiles = 256

    /// Definitions in program order: the main file's, then each imported file's (an import's own imports first).
    public var definitions: [DIDDefinition]
    /// The main service, with the methods of `import service` files appended after its own.
    public var actor: DIDActor?
    /// The files read, main file first (paths as resolved).
    public var files: [String]
    /// The checked interface for encoding and decoding.
    public var interface: CandidInterface
    /// The program printed as dfinity's Candid tools print it (`candid_parser::pretty_print`): definitions in program
    /// order, fields sorted by id, methods by name, doc comments kept, 80 columns.
    public var candidText: String

    /// Reads a file by path; nil when it cannot be read.
    public typealias Reader = (String) -> String?

    /// Loads, parses and checks a `.did` file and everything it imports.
    ///
    /// - Parameters:
    ///   - path: The main file.
    ///   - read: Returns a file's text, nil when it cannot be read.
    /// - Throws: `CandidTextError` with the file, line and column of the problem.
    public static func load(path: String, read: Reader) throws(CandidTextError) -> DIDProgram {
        guard let text = read(path) else {
            throw CandidTextError(at: DIDPosition(file: path), "Cannot open \"\(path)\"")
        }
        let main = try DIDParser.parse(text, file: path)
        var loader = Loader()
        loader.stack = [normalized(path)]
        loader.visited[normalized(path)] = false
        try loader.loadImports(of: main, base: directory(of: path), read: read)
        return try DIDProgram(main: main, imports: loader.loaded, serviceFlags: loader.visited)
    }

    /// Parses and checks `.did` text without following its imports.
    public init(parsing text: String, file: String = "") throws(CandidTextError) {
        try self.init(main: try DIDParser.parse(text, file: file), imports: [], serviceFlags: [:])
    }

    // MARK: Imports

    private struct Loader {
        var visited: [String: Bool] = [:]
        var stack: [String] = []
        var loaded: [(path: String, name: String, file: DIDFile)] = []

        mutating func loadImports(of file: DIDFile, base: String, read: Reader) throws(CandidTextError) {
            for item in file.imports {
                let path = normalized(item.path.hasPrefix("/") ? item.path : join(base, item.path))
                if let index = stack.firstIndex(of: path) {
                    let cycle = (stack[index...] + [path]).joined(separator: " -> ")
                    throw CandidTextError(at: item.position, "import cycle: \(cycle)")
                }
                if let flag = visited[path] {
                    visited[path] = flag || item.includesService
                    continue
                }
                guard visited.count < DIDProgram.maximumFiles else {
                    throw CandidTextError(at: item.position, "more than \(DIDProgram.maximumFiles) files imported")
                }
                visited[path] = item.includesService
                guard let text = read(path) else {
                    throw CandidTextError(at: item.position, "Cannot import \(quoted(item.path))")
                }
                let imported = try DIDParser.parse(text, file: path)
                stack.append(path)
                try loadImports(of: imported, base: directory(of: path), read: read)
                stack.removeLast()
                loaded.append((path, item.path, imported))
            }
        }
    }

    static func quoted(_ text: String) -> String { DIDPrinter.debugQuoted(text) }

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    static func join(_ base: String, _ path: String) -> String { base.isEmpty ? path : base + "/" + path }

    /// Removes `.` and `name/..` segments so one file has one key.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }

    // MARK: Merging and checking

    private init(
        main: DIDFile, imports: [(path: String, name: String, file: DIDFile)], serviceFlags: [String: Bool]
    ) throws(CandidTextError) {
        var definitions = main.definitions
        var serviceImports: [(name: String, actor: DIDActor)] = []
        for item in imports {
            definitions += item.file.definitions
            if serviceFlags[item.path] == true {
                guard let actor = item.file.actor else {
                    throw CandidTextError(
                        at: DIDPosition(file: main.name), "Imported service file \"\(item.name)\" has no main service")
                }
                serviceImports.append((item.name, actor))
            }
        }
        self.definitions = definitions
        self.files = [main.name] + imports.map(\.path)
        var checker = DIDChecker(definitions: definitions)
        try checker.checkDefinitions()
        self.actor = try checker.resolveActor(main.actor, serviceImports: serviceImports, file: main.name)
        try checker.checkActor(actor)
        let printed = try checker.resolveActor(
            main.actor, serviceImports: serviceImports, file: main.name, sortingEachFile: true)
        self.candidText = DIDPrinter.text(definitions: definitions, actor: printed, sortMethods: serviceImports.isEmpty)
        self.interface = try checker.interface(actor: actor, imports: main.imports.map(\.path))
    }
}
