import Yams

extension ScenarioBuilder {
    /// An ICP step: `icpAdvanceTime: 25h`, `icpFaucet: alice`, or a mapping of the kind's keys.
    func icpStep(_ entry: YAMLReader.Entry, what: String) throws(ScenarioFormatError) -> ICPStepSpec {
        guard let kind = ICPStepSpec.Kind(rawValue: entry.key) else {
            throw reader.error("unknown action '\(entry.key)'", at: entry.keyNode)
        }
        let node = entry.value
        var spec = ICPStepSpec(
            kind: kind, caller: nil, accounts: [:], subaccounts: [:], amounts: [:], texts: [:], query: false, seconds: 0
        )
        if kind == .advanceTime {
            spec.seconds = try reader.duration(node, what)
            return spec
        }
        if case .scalar = node, kind == .faucet || kind == .accountID {
            spec.accounts[kind == .faucet ? "to" : "of"] = try template(node, "\(what) account")
            return spec
        }
        let fields = try reader.mapping(node, what)
        let (allowed, required) = ICPStepSpec.keys(kind)
        try reader.allow(fields, allowed, in: what)
        for key in required { _ = try reader.required(fields, key, in: what, at: node) }
        for field in fields {
            let label = "\(what) \(field.key)"
            switch field.key {
            case "from" where kind != .transferFrom, "spender" where kind == .transferFrom:
                spec.caller = try accountName(field.value, label)
            case "from", "to", "spender", "of":
                spec.accounts[field.key] = try template(field.value, label)
            case "fromSubaccount", "toSubaccount", "spenderSubaccount", "subaccount":
                spec.subaccounts[field.key] = try reader.unsigned(field.value, label)
            case "amount", "fee", "expectedAllowance":
                spec.amounts[field.key] = try expression(field.value, label)
            case "query":
                spec.query = try reader.bool(field.value, label)
            default:
                spec.texts[field.key] = try template(field.value, label)
            }
        }
        return spec
    }
}
