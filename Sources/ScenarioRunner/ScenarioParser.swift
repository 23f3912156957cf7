import Foundation
import HDWallet
import Yams

/// Loads scenario files: YAML (through Yams, keeping every node's position) into a validated ``Scenario``.
/// Everything that can be checked without a chain is checked here — keys, types, amounts, account names,
/// step ids, `${…}` references — so a malformed file fails before anything runs, with file:line:column.
public enum ScenarioParser {
    /// Reads and parses one file. `file` is reported as given.
    public static func parse(file path: String) throws(ScenarioFormatError) -> Scenario {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw ScenarioFormatError(
                "cannot read the file (missing, unreadable or not UTF-8)",
                at: SourceLocation(file: path, line: 1, column: 1))
        }
        return try parse(yaml: text, file: path)
    }

    /// Parses YAML text; `file` names it in errors and anchors relative paths (keystores, typed data).
    public static func parse(yaml: String, file: String) throws(ScenarioFormatError) -> Scenario {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                throw ScenarioFormatError(
                    "the file is empty (expected a mapping with name, accounts and steps)",
                    at: SourceLocation(file: file, line: 1, column: 1))
            }
            root = node
        } catch let error as ScenarioFormatError {
            throw error
        } catch let error as YamlError {
            throw Self.syntaxError(error, file: file)
        } catch {
            throw ScenarioFormatError("not valid YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
        var builder = ScenarioBuilder(reader: YAMLReader(file: file))
        return try builder.build(root)
    }

    /// A YAML syntax error at libyaml's position.
    static func syntaxError(_ error: YamlError, file: String) -> ScenarioFormatError {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: file, line: mark.line, column: mark.column) }
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            var message = "invalid YAML: \(problem)"
            if let context { message += " (\(context.text) at \(context.mark.line):\(context.mark.column))" }
            return ScenarioFormatError(message, at: at(mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ScenarioFormatError(
                "duplicate key '\(duplicates.joined(separator: "', '"))' in the mapping that starts here",
                at: at(context.mark))
        default:
            return ScenarioFormatError("invalid YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }
}

/// The names a file has defined so far, for checking references in order.
struct ScenarioNames {
    var variables: Set<String> = []
    var accounts: Set<String> = []
    /// Step id → (index, keyword).
    var steps: [String: (index: Int, keyword: String)] = [:]
    var snapshots: Set<String> = []
    var keystores: Set<String> = []

    func isTaken(_ name: String) -> Bool {
        variables.contains(name) || accounts.contains(name) || steps[name] != nil
    }
}

/// Builds a ``Scenario`` from the root node, validating as it goes.
struct ScenarioBuilder {
    let reader: YAMLReader
    var names = ScenarioNames()
    var baselines: Set<BalanceBaseline> = []
    /// Every step id in the file → its index, to explain a reference to a step that comes later.
    var allStepIDs: [String: Int] = [:]

    static let topLevelKeys = ["name", "description", "tags", "node", "variables", "accounts", "steps"]
    static let accountSources = ["mnemonic", "random", "keystore", "dev", "privateKey"]

    /// Directory of the scenario file, for relative paths.
    var directory: String { (reader.file as NSString).deletingLastPathComponent }

    mutating func build(_ root: Node) throws(ScenarioFormatError) -> Scenario {
        let entries = try reader.mapping(root, "a scenario (name, accounts, steps)")
        try reader.allow(entries, Self.topLevelKeys, in: "the scenario")
        let fileName = ((reader.file as NSString).lastPathComponent as NSString).deletingPathExtension
        var scenario = Scenario(
            name: fileName, description: nil, file: reader.file, tags: [], node: NodeSettings(), variables: [],
            accounts: [], steps: [], balanceBaselines: [])
        for entry in entries {
            switch entry.key {
            case "name": scenario.name = try reader.scalar(entry.value, "name")
            case "description": scenario.description = try reader.scalar(entry.value, "description")
            case "tags":
                guard case .sequence(let items) = entry.value else {
                    throw reader.error(
                        "expected a list of tags, found \(YAMLReader.describe(entry.value))", at: entry.value)
                }
                for item in items { scenario.tags.append(try reader.scalar(item, "a tag")) }
            case "node": scenario.node = try nodeSettings(entry.value)
            case "variables":
                for variable in try reader.mapping(entry.value, "variables") {
                    guard YAMLReader.isIdentifier(variable.key) else {
                        throw reader.error(
                            "variable names are letters, digits and _, found '\(variable.key)'", at: variable.keyNode)
                    }
                    let value = try reader.template(variable.value, "variable '\(variable.key)'")
                    try checkReferences(value)
                    names.variables.insert(variable.key)
                    scenario.variables.append((variable.key, value))
                }
            case "accounts":
                for account in try reader.mapping(entry.value, "accounts") {
                    scenario.accounts.append(try accountSpec(account))
                }
            default: break
            }
        }
        guard let stepsNode = entries.first(where: { $0.key == "steps" })?.value else {
            throw reader.error("a scenario needs 'steps' (a list of steps)", at: root)
        }
        guard case .sequence(let stepNodes) = stepsNode else {
            throw reader.error(
                "expected a list of steps (each starting with '- '), found \(YAMLReader.describe(stepsNode))",
                at: stepsNode)
        }
        if stepNodes.isEmpty { throw reader.error("'steps' is empty (expected at least one step)", at: stepsNode) }
        for (index, node) in stepNodes.enumerated() {
            guard case .mapping(let mapping) = node, let id = mapping["id"]?.scalar?.string else { continue }
            if allStepIDs[id] == nil { allStepIDs[id] = index }
        }
        for (index, node) in stepNodes.enumerated() {
            scenario.steps.append(try step(node, index: index))
        }
        scenario.balanceBaselines = baselines.sorted {
            ($0.beforeStep ?? -1, $0.account) < ($1.beforeStep ?? -1, $1.account)
        }
        return scenario
    }

    mutating func nodeSettings(_ node: Node) throws(ScenarioFormatError) -> NodeSettings {
        let entries = try reader.mapping(node, "node")
        try reader.allow(
            entries, ["chainId", "faucetCooldown", "faucetAmount", "gasLimit", "genesisBaseFee"], in: "node")
        var settings = NodeSettings()
        for entry in entries {
            settings.locations[entry.key] = reader.location(entry.keyNode)
            switch entry.key {
            case "chainId":
                settings.chainID = try reader.unsigned(entry.value, "node.chainId", range: 1...UInt64(Int64.max))
            case "faucetCooldown": settings.faucetCooldown = try reader.duration(entry.value, "node.faucetCooldown")
            case "faucetAmount": settings.faucetAmount = try reader.literalAmount(entry.value, "node.faucetAmount")
            case "gasLimit":
                settings.gasLimit = try reader.unsigned(entry.value, "node.gasLimit", range: 21_000...1_000_000_000)
            case "genesisBaseFee":
                settings.genesisBaseFee = try reader.literalAmount(entry.value, "node.genesisBaseFee")
            default: break
            }
        }
        return settings
    }

    mutating func accountSpec(_ entry: YAMLReader.Entry) throws(ScenarioFormatError) -> AccountSpec {
        let name = entry.key
        guard YAMLReader.isIdentifier(name) else {
            throw reader.error("account names are letters, digits and _, found '\(name)'", at: entry.keyNode)
        }
        if names.isTaken(name) { throw reader.error("'\(name)' is already defined", at: entry.keyNode) }
        let location = reader.location(entry.keyNode)
        let what = "account '\(name)'"
        if case .scalar(let s) = entry.value, s.string == "random" {
            names.accounts.insert(name)
            return AccountSpec(name: name, source: .random, location: location)
        }
        let fields = try reader.mapping(entry.value, "\(what) (one of: \(Self.accountSources.joined(separator: ", ")))")
        let sources = fields.filter { Self.accountSources.contains($0.key) }
        guard sources.count == 1 else {
            let message =
                sources.isEmpty
                ? "\(what) needs a key source: one of \(Self.accountSources.joined(separator: ", "))"
                : "\(what) has more than one key source ('\(sources[0].key)' and '\(sources[1].key)')"
            throw reader.error(message, at: sources.count > 1 ? sources[1].keyNode : entry.value)
        }
        let source: AccountSpec.Source
        let value = sources[0].value
        switch sources[0].key {
        case "mnemonic":
            try reader.allow(fields, ["mnemonic", "path", "passphrase"], in: what)
            let phrase = try reader.template(value, "\(what) mnemonic")
            if phrase.references.isEmpty {
                do {
                    _ = try Mnemonic(phrase: phrase.text)
                } catch {
                    throw reader.error("\(what): not a valid BIP-39 mnemonic: \(error)", at: value)
                }
            } else {
                try checkReferences(phrase)
            }
            var path = "m/44'/60'/0'/0/0"
            if let node = fields.first(where: { $0.key == "path" })?.value {
                path = try reader.scalar(node, "\(what) path")
                do { _ = try DerivationPath(parsing: path) } catch {
                    throw reader.error("\(what): invalid derivation path: \(error)", at: node)
                }
            }
            let passphrase =
                try fields.first(where: { $0.key == "passphrase" }).map { e throws(ScenarioFormatError) in
                    try reader.template(e.value, "\(what) passphrase")
                } ?? Template("", at: location)
            source = .mnemonic(phrase: phrase, path: path, passphrase: passphrase)
        case "random":
            try reader.allow(fields, ["random"], in: what)
            guard try reader.bool(value, "\(what) random") else {
                throw reader.error(
                    "\(what): 'random: false' defines no key; remove it or use another source", at: value)
            }
            source = .random
        case "keystore":
            try reader.allow(fields, ["keystore", "password"], in: what)
            let path = try reader.scalar(value, "\(what) keystore")
            let password = try reader.template(
                try reader.required(fields, "password", in: what, at: entry.value), "\(what) password")
            source = .keystore(path: resolve(path), password: password)
        case "dev":
            try reader.allow(fields, ["dev"], in: what)
            source = .dev(Int(try reader.unsigned(value, "\(what) dev index", range: 0...999)))
        default:
            try reader.allow(fields, ["privateKey"], in: what)
            let key = try reader.template(value, "\(what) privateKey")
            if key.references.isEmpty {
                let hex = key.text.hasPrefix("0x") ? String(key.text.dropFirst(2)) : key.text
                guard hex.count == 64, hex.allSatisfy(\.isHexDigit) else {
                    throw reader.error("\(what): a private key is 32 bytes of hex (64 digits)", at: value)
                }
            }
            try checkReferences(key)
            source = .privateKey(key)
        }
        names.accounts.insert(name)
        return AccountSpec(name: name, source: source, location: location)
    }

    /// A path relative to the scenario file's directory (absolute paths unchanged).
    func resolve(_ path: String) -> String {
        if path.hasPrefix("/") || directory.isEmpty { return path }
        return directory + "/" + path
    }

    // MARK: References

    /// Checks every `${…}` in a template names a variable, an account or an earlier step's result field.
    func checkReferences(_ template: Template) throws(ScenarioFormatError) {
        for reference in template.references { try checkReference(reference, at: template.location) }
    }

    func checkReferences(_ expression: AmountExpression) throws(ScenarioFormatError) {
        for reference in expression.references { try checkReference(reference, at: expression.location) }
        for (name, argument) in expression.calls {
            guard let argument else { continue }
            switch AmountExpression.functions[name] {
            case .step?:
                guard let step = names.steps[argument] else {
                    throw ScenarioFormatError(
                        "\(name)(\(argument)): \(laterStep(argument) ?? "no earlier step has id '\(argument)'")",
                        at: expression.location)
                }
                guard ["send", "faucet", "wait", "token"].contains(step.keyword) else {
                    throw ScenarioFormatError(
                        "\(name)(\(argument)): step '\(argument)' is a \(step.keyword), not a send, token, faucet or wait",
                        at: expression.location)
                }
            case .account?:
                guard names.accounts.contains(argument) else {
                    throw ScenarioFormatError(
                        "\(name)(\(argument)): no account named '\(argument)'", at: expression.location)
                }
            default: break
            }
        }
    }

    func checkReference(_ reference: String, at location: SourceLocation) throws(ScenarioFormatError) {
        let parts = reference.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let base = parts[0]
        let field = parts.count > 1 ? parts[1...].joined(separator: ".") : nil
        if names.variables.contains(base) {
            if let field {
                throw ScenarioFormatError("${\(reference)}: variable '\(base)' has no field '\(field)'", at: location)
            }
            return
        }
        if names.accounts.contains(base) {
            if let field, !["address", "privateKey"].contains(field) {
                throw ScenarioFormatError(
                    "${\(reference)}: accounts have 'address' and 'privateKey', not '\(field)'", at: location)
            }
            return
        }
        if let step = names.steps[base] {
            let fields = StepAction.resultFields(of: step.keyword)
            if let field, !fields.contains(field) {
                let list = fields.isEmpty ? "no fields" : "fields " + fields.joined(separator: ", ")
                throw ScenarioFormatError("${\(reference)}: step '\(base)' (\(step.keyword)) has \(list)", at: location)
            }
            if field == nil && fields.isEmpty {
                throw ScenarioFormatError(
                    "${\(reference)}: step '\(base)' (\(step.keyword)) stores no result", at: location)
            }
            if field == nil && !fields.contains("hash") {
                let list = fields.joined(separator: ", ")
                throw ScenarioFormatError(
                    "${\(reference)} names no field; step '\(base)' (\(step.keyword)) has \(list): write ${\(base).field}",
                    at: location)
            }
            return
        }
        if base == "seed" && field == nil { return }
        if let later = laterStep(base) { throw ScenarioFormatError("${\(reference)}: \(later)", at: location) }
        throw ScenarioFormatError(
            "unknown reference ${\(reference)}: no variable, account or earlier step is called '\(base)'", at: location)
    }

    /// Why `name` is not an earlier step when it is a later one: "step 'pay' is step 5, later in the file (a step
    /// can only use the results of steps before it)"; nil otherwise.
    func laterStep(_ name: String) -> String? {
        guard let index = allStepIDs[name], names.steps[name] == nil else { return nil }
        return
            "step '\(name)' is step \(index + 1), later in the file (a step can only use the results of steps before it)"
    }

    /// An account name (must be defined by now).
    func accountName(_ node: Node, _ what: String) throws(ScenarioFormatError) -> String {
        let name = try reader.scalar(node, what)
        guard names.accounts.contains(name) else {
            let known = names.accounts.sorted().joined(separator: ", ")
            throw reader.error(
                "no account named '\(name)' for \(what) (accounts: \(known.isEmpty ? "none" : known))", at: node)
        }
        return name
    }

    /// A transaction: a step id (its hash), or a template giving a hash.
    func transactionReference(_ node: Node, _ what: String) throws(ScenarioFormatError) -> Template {
        let text = try reader.scalar(node, what)
        if let step = names.steps[text] {
            guard StepAction.resultFields(of: step.keyword).contains("hash") else {
                throw reader.error(
                    "step '\(text)' is a \(step.keyword), which sends no transaction (\(what))", at: node)
            }
            return Template("${\(text).hash}", at: reader.location(node))
        }
        let template = try reader.template(node, what)
        if let later = laterStep(text) { throw reader.error("\(what): \(later)", at: node) }
        if template.references.isEmpty && !(text.hasPrefix("0x") && text.count == 66) {
            throw reader.error("expected a step id or a 0x transaction hash for \(what), found '\(text)'", at: node)
        }
        try checkReferences(template)
        return template
    }

    func expression(_ node: Node, _ what: String) throws(ScenarioFormatError) -> AmountExpression {
        let expression = try reader.expression(node, what)
        try checkReferences(expression)
        return expression
    }

    func template(_ node: Node, _ what: String) throws(ScenarioFormatError) -> Template {
        let template = try reader.template(node, what)
        try checkReferences(template)
        return template
    }
}
