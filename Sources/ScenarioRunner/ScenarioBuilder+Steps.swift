import EthereumTransactions
import Foundation
import HDWallet
import JSONCoding
import JSONRPC
import SecretStorage
import Yams

extension ScenarioBuilder {
    static let actions = [
        "faucet", "send", "wait", "mine", "advanceTime", "setNextBaseFee", "fillBlocks", "reorg", "drop", "automine",
        "feeProfile", "snapshot", "revert", "signMessage", "signTypedData", "keystoreExport", "keystoreImport",
        "keystoreChangePassword", "newAccount", "sendRaw", "check", "token", "subscribe", "faults",
    ]
    static let icpActions = ICPStepSpec.Kind.allCases.map(\.rawValue)
    static let stepKeys = ["id", "name", "expect"]

    mutating func step(_ node: Node, index: Int) throws(ScenarioFormatError) -> Step {
        let what = "step \(index + 1)"
        let entries = try reader.mapping(node, "\(what) (an action such as send: or check:)")
        let actionEntries = entries.filter { !Self.stepKeys.contains($0.key) }
        guard let actionEntry = actionEntries.first else {
            throw reader.error(
                "\(what) has no action; expected one of: \((Self.actions + Self.icpActions).joined(separator: ", "))",
                at: node)
        }
        if actionEntries.count > 1 {
            throw reader.error(
                "\(what) has two actions ('\(actionEntry.key)' and '\(actionEntries[1].key)'); put each in its own step",
                at: actionEntries[1].keyNode)
        }
        try reader.allow([actionEntry], Self.actions + Self.icpActions, in: "\(what) (actions)")
        var id: String?
        var name: String?
        var expectation = Expectation.success
        for entry in entries {
            switch entry.key {
            case "id":
                let value = try reader.identifier(entry.value, "\(what) id")
                if names.isTaken(value) { throw reader.error("'\(value)' is already defined", at: entry.value) }
                id = value
            case "name": name = try reader.scalar(entry.value, "\(what) name")
            case "expect": expectation = try self.expectation(entry.value, what)
            default: break
            }
        }
        let action = try self.action(actionEntry, what: "\(what) \(actionEntry.key)", id: id, index: index)
        if let id { names.steps[id] = (index, actionEntry.key) }
        if case .failure = expectation, case .check = action {
            throw reader.error("'expect' does not apply to check steps (assertions fail or pass)", at: node)
        }
        return Step(
            index: index, id: id, name: name, action: action, expectation: expectation, location: reader.location(node))
    }

    /// `expect: error` (any error), `{}` (the same), `{error: "text"}` (`""` also any error), `{code: N}` or both.
    func expectation(_ node: Node, _ what: String) throws(ScenarioFormatError) -> Expectation {
        if case .scalar(let s) = node {
            if s.string == "success" { return .success }
            if s.string == "error" { return .failure(text: nil, code: nil) }
            throw reader.error(
                "expected 'success', 'error' (any error) or {error: \"text\", code: N} for \(what) expect", at: node)
        }
        let entries = try reader.mapping(node, "\(what) expect")
        try reader.allow(entries, ["error", "code"], in: "\(what) expect")
        var text: String?
        var code: Int?
        for entry in entries {
            if entry.key == "error" {
                let pattern = try template(entry.value, "expect.error").text
                text = pattern.isEmpty ? nil : pattern
            }
            if entry.key == "code" {
                let raw = try reader.scalar(entry.value, "expect.code")
                guard let n = Int(raw) else {
                    throw reader.error("expected an integer error code, found '\(raw)'", at: entry.value)
                }
                code = n
            }
        }
        return .failure(text: text, code: code)
    }

    mutating func action(_ entry: YAMLReader.Entry, what: String, id: String?, index: Int) throws(ScenarioFormatError)
        -> StepAction
    {
        let node = entry.value
        switch entry.key {
        case "faucet":
            if case .scalar = node { return .faucet(to: try accountName(node, "\(what) to"), amount: nil) }
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["to", "amount"], in: what)
            let to = try accountName(try reader.required(fields, "to", in: what, at: node), "\(what) to")
            let amount = try fields.first { $0.key == "amount" }.map { e throws(ScenarioFormatError) in
                try expression(e.value, "\(what) amount")
            }
            return .faucet(to: to, amount: amount)
        case "send":
            return .send(try send(node, what))
        case "token":
            return .token(try tokenStep(node, what))
        case "wait":
            if case .scalar = node {
                return .wait(transaction: try transactionReference(node, what), confirmations: 1, timeoutSeconds: 60)
            }
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["for", "confirmations", "timeout"], in: what)
            let tx = try transactionReference(try reader.required(fields, "for", in: what, at: node), "\(what) for")
            var confirmations: UInt64 = 1
            var timeout = 60.0
            for f in fields {
                if f.key == "confirmations" {
                    confirmations = try reader.unsigned(f.value, "\(what) confirmations", range: 1...10_000)
                }
                if f.key == "timeout" { timeout = Double(try reader.duration(f.value, "\(what) timeout")) }
            }
            return .wait(transaction: tx, confirmations: confirmations, timeoutSeconds: timeout)
        case "mine":
            if case .scalar = node {
                return .mine(blocks: try reader.unsigned(node, what, range: 1...100_000), interval: nil)
            }
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["blocks", "interval"], in: what)
            var blocks: UInt64 = 1
            var interval: UInt64?
            for f in fields {
                if f.key == "blocks" { blocks = try reader.unsigned(f.value, "\(what) blocks", range: 1...100_000) }
                if f.key == "interval" { interval = try reader.duration(f.value, "\(what) interval") }
            }
            if interval != nil && blocks > 1_000 {
                // The runner sets each block's timestamp itself (one call per block), so every node gets the same
                // rule.
                throw reader.error("\(what): at most 1000 blocks with an interval, found \(blocks)", at: node)
            }
            return .mine(blocks: blocks, interval: interval)
        case "advanceTime":
            return .advanceTime(seconds: try reader.duration(node, what))
        case "setNextBaseFee":
            return .setNextBaseFee(try expression(node, what))
        case "fillBlocks":
            if case .scalar = node {
                return .fillBlocks(blocks: Int(try reader.unsigned(node, what, range: 1...100)), from: "")
            }
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["blocks", "from"], in: what)
            var blocks = 1
            var from = ""
            for f in fields {
                if f.key == "blocks" { blocks = Int(try reader.unsigned(f.value, "\(what) blocks", range: 1...100)) }
                if f.key == "from" { from = try accountName(f.value, "\(what) from") }
            }
            return .fillBlocks(blocks: blocks, from: from)
        case "reorg":
            if case .scalar = node {
                return .reorg(depth: try reader.unsigned(node, what, range: 1...10_000), requeue: false)
            }
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["depth", "requeue"], in: what)
            let depth = try reader.unsigned(
                try reader.required(fields, "depth", in: what, at: node), "\(what) depth", range: 1...10_000)
            let requeue =
                try fields.first { $0.key == "requeue" }.map { e throws(ScenarioFormatError) in
                    try reader.bool(e.value, "\(what) requeue")
                } ?? false
            return .reorg(depth: depth, requeue: requeue)
        case "drop":
            return .drop(transaction: try transactionReference(node, what))
        case "automine":
            return .automine(try reader.bool(node, what))
        case "subscribe":
            return .subscribe(try subscribeStep(node, what, id: id))
        case "feeProfile":
            return .feeProfile(try reader.scalar(node, what))
        case "faults":
            _ = try reader.mapping(node, "\(what) (a fault schedule: {seed, rules})")
            return .faults(try reader.json(node))
        case "snapshot":
            let name = try reader.identifier(node, "\(what) name")
            names.snapshots.insert(name)
            return .snapshot(name: name)
        case "revert":
            let name = try reader.identifier(node, "\(what) name")
            guard names.snapshots.contains(name) else {
                throw reader.error(
                    "no earlier snapshot is called '\(name)' (take one with 'snapshot: \(name)')", at: node)
            }
            return .revert(name: name)
        case "signMessage":
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["account", "message", "hex", "compareWithNode"], in: what)
            let account = try accountName(try reader.required(fields, "account", in: what, at: node), "\(what) account")
            let message = try template(try reader.required(fields, "message", in: what, at: node), "\(what) message")
            var hex = false
            var compare = false
            for f in fields {
                if f.key == "hex" { hex = try reader.bool(f.value, "\(what) hex") }
                if f.key == "compareWithNode" { compare = try reader.bool(f.value, "\(what) compareWithNode") }
            }
            return .signMessage(account: account, message: message, hex: hex, compareWithNode: compare)
        case "signTypedData":
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["account", "data", "file", "compareWithNode"], in: what)
            let account = try accountName(try reader.required(fields, "account", in: what, at: node), "\(what) account")
            let compare =
                try fields.first { $0.key == "compareWithNode" }.map { e throws(ScenarioFormatError) in
                    try reader.bool(e.value, "\(what) compareWithNode")
                } ?? false
            let json: String
            if let data = fields.first(where: { $0.key == "data" }) {
                json = try reader.json(data.value).serialized
            } else if let file = fields.first(where: { $0.key == "file" }) {
                let path = resolve(try reader.scalar(file.value, "\(what) file"))
                guard let contents = FileManager.default.contents(atPath: path) else {
                    throw reader.error("cannot read typed data file '\(path)'", at: file.value)
                }
                json = String(decoding: contents, as: UTF8.self)
            } else {
                throw reader.error("\(what) needs 'data' (the typed data inline) or 'file'", at: node)
            }
            do {
                _ = try TypedData(json: Array(json.utf8))
            } catch {
                throw reader.error("\(what): invalid EIP-712 typed data: \(error)", at: node)
            }
            return .signTypedData(account: account, json: json, compareWithNode: compare)
        case "keystoreExport":
            guard let id else {
                throw reader.error("\(what) needs an 'id' to store the keystore under", at: entry.keyNode)
            }
            let fields = try reader.mapping(node, what)
            try reader.allow(
                fields, ["account", "password", "kdf", "n", "r", "p", "iterations", "file", "cipher"], in: what)
            let account = try accountName(try reader.required(fields, "account", in: what, at: node), "\(what) account")
            let password = try template(try reader.required(fields, "password", in: what, at: node), "\(what) password")
            let kdf = try keystoreKDF(fields, what: what, at: node)
            let file = try fields.first { $0.key == "file" }.map { e throws(ScenarioFormatError) in
                try reader.scalar(e.value, "\(what) file")
            }
            var cipher = KeystoreCipher.aes128CTR
            if let c = fields.first(where: { $0.key == "cipher" }) {
                let text = try reader.scalar(c.value, "\(what) cipher")
                guard let value = KeystoreCipher(rawValue: text) else {
                    throw reader.error(
                        "unknown cipher '\(text)'; expected aes-128-ctr or aes-128-cbc (web3swift)", at: c.value)
                }
                cipher = value
            }
            names.keystores.insert(id)
            return .keystoreExport(
                KeystoreExportSpec(account: account, password: password, kdf: kdf, file: file, cipher: cipher))
        case "keystoreImport":
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["keystore", "file", "password", "as"], in: what)
            let source: KeystoreSource
            if let k = fields.first(where: { $0.key == "keystore" }) {
                let name = try reader.scalar(k.value, "\(what) keystore")
                guard names.keystores.contains(name) else {
                    throw reader.error(
                        "no earlier keystoreExport or keystoreChangePassword step has id '\(name)'", at: k.value)
                }
                source = .step(name)
            } else if let f = fields.first(where: { $0.key == "file" }) {
                let file = try template(f.value, "\(what) file")
                source = .file(file.references.isEmpty ? Template(resolve(file.text), at: file.location) : file)
            } else {
                throw reader.error("\(what) needs 'keystore' (a step id) or 'file'", at: node)
            }
            let password = try template(try reader.required(fields, "password", in: what, at: node), "\(what) password")
            let asNode = try reader.required(fields, "as", in: what, at: node)
            let name = try reader.identifier(asNode, "\(what) as")
            if names.isTaken(name) { throw reader.error("'\(name)' is already defined", at: asNode) }
            names.accounts.insert(name)
            return .keystoreImport(source: source, password: password, as: name)
        case "keystoreChangePassword":
            guard let id else {
                throw reader.error("\(what) needs an 'id' to store the new keystore under", at: entry.keyNode)
            }
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["keystore", "password", "newPassword"], in: what)
            let k = try reader.required(fields, "keystore", in: what, at: node)
            let name = try reader.scalar(k, "\(what) keystore")
            guard names.keystores.contains(name) else {
                throw reader.error("no earlier keystoreExport or keystoreChangePassword step has id '\(name)'", at: k)
            }
            let password = try template(try reader.required(fields, "password", in: what, at: node), "\(what) password")
            let newPassword = try template(
                try reader.required(fields, "newPassword", in: what, at: node), "\(what) newPassword")
            names.keystores.insert(id)
            return .keystoreChangePassword(keystore: name, password: password, newPassword: newPassword)
        case "newAccount":
            let fields = try reader.mapping(node, what)
            try reader.allow(fields, ["as", "mnemonic", "path", "passphrase"], in: what)
            let asNode = try reader.required(fields, "as", in: what, at: node)
            let name = try reader.identifier(asNode, "\(what) as")
            if names.isTaken(name) { throw reader.error("'\(name)' is already defined", at: asNode) }
            var mnemonic: NewMnemonic?
            if let m = fields.first(where: { $0.key == "mnemonic" }) {
                let text = try reader.scalar(m.value, "\(what) mnemonic")
                let parts = text.split(separator: " ")
                if let count = Int(parts.first ?? ""), parts.count == 1 || (parts.count == 2 && parts[1] == "words") {
                    guard [12, 15, 18, 21, 24].contains(count) else {
                        throw reader.error(
                            "\(what) mnemonic: a fresh mnemonic has 12, 15, 18, 21 or 24 words, found \(count)",
                            at: m.value)
                    }
                    mnemonic = .fresh(words: count)
                } else {
                    let phrase = try template(m.value, "\(what) mnemonic")
                    if phrase.references.isEmpty {
                        do { _ = try Mnemonic(phrase: phrase.text) } catch {
                            throw reader.error("\(what): not a valid BIP-39 mnemonic: \(error)", at: m.value)
                        }
                    }
                    mnemonic = .phrase(phrase)
                }
            }
            var path = "m/44'/60'/0'/0/0"
            if let p = fields.first(where: { $0.key == "path" }) {
                guard mnemonic != nil else { throw reader.error("'path' goes with 'mnemonic'", at: p.keyNode) }
                path = try reader.scalar(p.value, "\(what) path")
                do { _ = try DerivationPath(parsing: path) } catch {
                    throw reader.error("\(what): invalid derivation path: \(error)", at: p.value)
                }
            }
            var passphrase = Template("", at: reader.location(node))
            if let p = fields.first(where: { $0.key == "passphrase" }) {
                guard mnemonic != nil else { throw reader.error("'passphrase' goes with 'mnemonic'", at: p.keyNode) }
                passphrase = try template(p.value, "\(what) passphrase")
            }
            names.accounts.insert(name)
            return .newAccount(as: name, mnemonic: mnemonic, path: path, passphrase: passphrase)
        case "sendRaw":
            let text = try reader.scalar(node, what)
            if let step = names.steps[text] {
                guard StepAction.resultFields(of: step.keyword).contains("raw") else {
                    throw reader.error(
                        "step '\(text)' is a \(step.keyword), which keeps no signed bytes ('raw')", at: node)
                }
                return .sendRaw(Template("${\(text).raw}", at: reader.location(node)))
            }
            if let later = laterStep(text) { throw reader.error("\(what): \(later)", at: node) }
            let raw = try template(node, what)
            if raw.references.isEmpty {
                let hex = text.hasPrefix("0x") ? text.dropFirst(2) : ""
                guard !hex.isEmpty, hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else {
                    throw reader.error(
                        "expected a step id (a send), ${id.raw} or 0x hex of a signed transaction for \(what), found '\(text)'",
                        at: node)
                }
            }
            return .sendRaw(raw)
        case "check":
            var items: [Node] = []
            if case .sequence(let list) = node { items = Array(list) } else { items = [node] }
            if items.isEmpty { throw reader.error("\(what) has no assertions", at: node) }
            var assertions: [Assertion] = []
            for item in items {
                let pairs = try reader.mapping(item, "an assertion (balance:, nonce:, receipt:, …)")
                for pair in pairs {
                    assertions.append(try assertion(pair, index: index))
                }
            }
            return .check(assertions)
        default:
            return .icp(try icpStep(entry, what: what))
        }
    }

    func keystoreKDF(_ fields: [YAMLReader.Entry], what: String, at node: Node) throws(ScenarioFormatError)
        -> KeystoreExportSpec.KDF
    {
        let kind =
            try fields.first { $0.key == "kdf" }.map { e throws(ScenarioFormatError) in
                try reader.scalar(e.value, "\(what) kdf")
            } ?? "scrypt"
        func field(_ key: String) -> Node? { fields.first { $0.key == key }?.value }
        switch kind {
        case "scrypt":
            if let n = field("iterations") {
                throw reader.error("'iterations' is for kdf: pbkdf2; scrypt takes n, r, p", at: n)
            }
            let n =
                try field("n").map { v throws(ScenarioFormatError) in
                    try reader.unsigned(v, "\(what) n", range: 2...(1 << 20))
                } ?? 1_024
            guard n & (n - 1) == 0 else {
                throw reader.error("scrypt n must be a power of two, found \(n)", at: field("n")!)
            }
            let r =
                try field("r").map { v throws(ScenarioFormatError) in try reader.unsigned(v, "\(what) r", range: 1...64)
                } ?? 8
            let p =
                try field("p").map { v throws(ScenarioFormatError) in try reader.unsigned(v, "\(what) p", range: 1...16)
                } ?? 1
            return .scrypt(n: n, r: UInt32(r), p: UInt32(p))
        case "pbkdf2":
            for key in ["n", "r", "p"] {
                if let v = field(key) {
                    throw reader.error("'\(key)' is for kdf: scrypt; pbkdf2 takes iterations", at: v)
                }
            }
            let c =
                try field("iterations").map { v throws(ScenarioFormatError) in
                    try reader.unsigned(v, "\(what) iterations", range: 1...(1 << 24))
                } ?? 1_000
            return .pbkdf2(iterations: Int(c))
        default:
            throw reader.error("unknown kdf '\(kind)'; expected scrypt or pbkdf2", at: field("kdf") ?? node)
        }
    }

    func send(_ node: Node, _ what: String) throws(ScenarioFormatError) -> SendSpec {
        let fields = try reader.mapping(node, what)
        let keys = [
            "from", "to", "value", "type", "nonce", "gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas",
            "chainId",
            "data", "accessList",
        ]
        try reader.allow(fields, keys, in: what)
        let from = try accountName(try reader.required(fields, "from", in: what, at: node), "\(what) from")
        var spec = SendSpec(
            from: from, to: nil, value: nil, kind: .eip1559, nonce: nil, gas: nil, gasPrice: nil, maxFeePerGas: nil,
            maxPriorityFeePerGas: nil, chainID: nil, data: nil, accessList: [])
        for f in fields {
            let label = "\(what) \(f.key)"
            switch f.key {
            case "to":
                let text = try reader.scalar(f.value, label)
                if names.accounts.contains(text) {
                    spec.to = Template("${\(text).address}", at: reader.location(f.value))
                } else {
                    let t = try template(f.value, label)
                    if t.references.isEmpty && !(text.hasPrefix("0x") && text.count == 42) {
                        throw reader.error(
                            "expected an account name or a 0x address for \(label), found '\(text)'", at: f.value)
                    }
                    spec.to = t
                }
            case "value": spec.value = try expression(f.value, label)
            case "type":
                let text = try reader.scalar(f.value, label)
                switch text {
                case "legacy", "0": spec.kind = .legacy
                case "eip2930", "accessList", "1": spec.kind = .eip2930
                case "eip1559", "dynamicFee", "2": spec.kind = .eip1559
                default:
                    throw reader.error(
                        "unknown transaction type '\(text)'; expected legacy, eip2930 or eip1559", at: f.value)
                }
            case "nonce": spec.nonce = try expression(f.value, label)
            case "gas": spec.gas = try expression(f.value, label)
            case "gasPrice": spec.gasPrice = try expression(f.value, label)
            case "maxFeePerGas": spec.maxFeePerGas = try expression(f.value, label)
            case "maxPriorityFeePerGas": spec.maxPriorityFeePerGas = try expression(f.value, label)
            case "chainId": spec.chainID = try expression(f.value, label)
            case "data": spec.data = try template(f.value, label)
            case "accessList":
                guard case .sequence(let items) = f.value else {
                    throw reader.error("expected a list of {address, storageKeys} for \(label)", at: f.value)
                }
                for item in items {
                    let entry = try reader.mapping(item, "an access list entry")
                    try reader.allow(entry, ["address", "storageKeys"], in: "an access list entry")
                    let address = try template(
                        try reader.required(entry, "address", in: "an access list entry", at: item), "address")
                    var keys: [Template] = []
                    if let k = entry.first(where: { $0.key == "storageKeys" }) {
                        guard case .sequence(let list) = k.value else {
                            throw reader.error("expected a list of 32-byte hex keys for storageKeys", at: k.value)
                        }
                        for key in list { keys.append(try template(key, "a storage key")) }
                    }
                    spec.accessList.append((address, keys))
                }
            default: break
            }
        }
        let feeNode = { (key: String) in fields.first { $0.key == key } }
        switch spec.kind {
        case .eip1559:
            if let f = feeNode("gasPrice") {
                throw reader.error(
                    "gasPrice is for legacy and eip2930 sends; eip1559 takes maxFeePerGas and maxPriorityFeePerGas",
                    at: f.keyNode)
            }
        case .legacy, .eip2930:
            for key in ["maxFeePerGas", "maxPriorityFeePerGas"] {
                if let f = feeNode(key) {
                    throw reader.error(
                        "\(key) is for eip1559 sends; \(spec.kind.rawValue) takes gasPrice", at: f.keyNode)
                }
            }
            if spec.kind == .legacy, let f = feeNode("accessList") {
                throw reader.error("legacy transactions have no access list (use type: eip2930)", at: f.keyNode)
            }
        }
        return spec
    }
}
