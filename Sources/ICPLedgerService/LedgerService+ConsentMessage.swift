import CandidCoding
import ICPIdentity
import ICPLedger

/// ICRC-21 consent messages (`icrc21_canister_call_consent_message`): a human-readable description of a call a
/// wallet is about to sign, for `icrc1_transfer`, `icrc2_approve`, `icrc2_transfer_from` and legacy `transfer`.
/// The wording is Sandnet's own (Markdown for a generic display; plain wrapped lines for a line display).
extension LedgerService {
    /// The largest `arg` a consent request may carry (the ICP ledger's limit).
    static let maxConsentArgumentBytes = 500

    func consentMessage(
        _ request: CandidArgument, caller: Principal, now: TimestampNanos
    ) throws(ServiceFailure) -> CandidValue {
        typealias R = CandidReply
        let method = try request["method"].text
        let arg = try request["arg"].blob
        let preferences = try request["user_preferences"]
        let offset = try preferences["metadata"]["utc_offset_minutes"].optional?.int16
        let metadata = R.record([("language", .text("en")), ("utc_offset_minutes", R.opt(offset.map { .int16($0) }))])
        func unsupported(_ description: String) -> CandidValue {
            R.variant("Err", R.variant("UnsupportedCanisterCall", R.record([("description", .text(description))])))
        }
        guard arg.count <= Self.maxConsentArgumentBytes else {
            return unsupported(
                "The argument is \(arg.count) bytes; consent messages are available for arguments of at most "
                    + "\(Self.maxConsentArgumentBytes) bytes.")
        }
        guard ["icrc1_transfer", "icrc2_approve", "icrc2_transfer_from", "transfer"].contains(method),
            let entry = Self.table.entries[method]
        else {
            return unsupported("No consent message is available for the method \(method).")
        }
        let lines: [String]
        do {
            let values = try CandidDeserializer.decode(arg, as: entry.arguments)
            let argument = CandidArgument(values[0], path: "arg")
            lines = try consentLines(method, argument, caller: caller, utcOffsetMinutes: Int(offset ?? 0))
        } catch let error as CandidDecodingError {
            return unsupported("The arguments of \(method) do not decode: \(error.description)")
        } catch let error as ServiceFailure {
            guard case .argument(let detail) = error else { throw error }
            return unsupported("The arguments of \(method) are invalid: \(detail)")
        } catch {
            return unsupported("The arguments of \(method) are invalid: \(error)")
        }
        let message: CandidValue
        if let device = try preferences["device_spec"].optional,
            case .variant(let field) = device.value, field.label.id == CandidLabel.hash("LineDisplay")
        {
            let spec = CandidArgument(field.value, path: "device_spec")
            let pages = Self.paginate(
                lines, width: Int(try spec["characters_per_line"].nat16),
                height: Int(try spec["lines_per_page"].nat16))
            message = R.variant(
                "LineDisplayMessage",
                R.record([("pages", .vec(pages.map { R.record([("lines", .vec($0.map { .text($0) }))]) }))]))
        } else {
            message = R.variant("GenericDisplayMessage", .text(lines.joined(separator: "\n")))
        }
        return R.variant("Ok", R.record([("consent_message", message), ("metadata", metadata)]))
    }

    /// The message as Markdown lines.
    func consentLines(
        _ method: String, _ a: CandidArgument, caller: Principal, utcOffsetMinutes: Int
    ) throws(ServiceFailure) -> [String] {
        let symbol = ledger.symbol
        let fee = amount(CandidNat(ledger.transferFee.e8s))
        var lines: [String]
        switch method {
        case "icrc1_transfer":
            let from = Account(owner: caller, subaccount: try a["from_subaccount"].subaccount)
            lines = [
                "# Send \(symbol)", "", "You are approving a transfer of \(symbol) from your account.", "",
                "**From:**", "`\(from.text)`", "", "**Amount:** `\(amount(try a["amount"].natValue))`", "",
                "**To:**", "`\(try a["to"].account.text)`", "", "**Fee:** `\(fee)`",
            ]
            try appendMemo(a, to: &lines)
        case "transfer":
            let from = AccountIdentifier(principal: caller, subaccount: try a["from_subaccount"].subaccount)
            lines = [
                "# Send \(symbol)", "", "You are approving a transfer of \(symbol) from your account.", "",
                "**From:**", "`\(from.hex)`", "", "**Amount:** `\(amount(CandidNat(try a["amount"].tokens.e8s)))`",
                "", "**To:**", "`\(Self.hex(try a["to"].blob))`", "",
                "**Fee:** `\(amount(CandidNat(try a["fee"].tokens.e8s)))`", "", "**Memo:** `\(try a["memo"].nat64)`",
            ]
        case "icrc2_approve":
            let from = Account(owner: caller, subaccount: try a["from_subaccount"].subaccount)
            lines = [
                "# Approve spending", "",
                "You are allowing another account to withdraw up to the amount below from your account.", "",
                "**From:**", "`\(from.text)`", "", "**Spender:**", "`\(try a["spender"].account.text)`", "",
                "**Allowance:** `\(amount(try a["amount"].natValue))`",
            ]
            if let expected = try a["expected_allowance"].optional {
                lines += ["", "**Current allowance must be:** `\(amount(try expected.natValue))`"]
            }
            let expiry = try a["expires_at"].optional?.nat64
            lines += [
                "",
                "**Expires:** "
                    + (expiry.map { "`\(Self.dateText($0, offsetMinutes: utcOffsetMinutes))`" } ?? "never"),
                "", "**Approval fee:** `\(fee)`, paid by your account.",
            ]
            try appendMemo(a, to: &lines)
        default:  // icrc2_transfer_from
            let spender = Account(owner: caller, subaccount: try a["spender_subaccount"].subaccount)
            lines = [
                "# Transfer from another account", "",
                "You are moving \(symbol) out of an account that approved you as its spender.", "",
                "**From:**", "`\(try a["from"].account.text)`", "", "**Amount:** `\(amount(try a["amount"].natValue))`",
                "", "**To:**", "`\(try a["to"].account.text)`", "", "**Spender:**", "`\(spender.text)`", "",
                "**Fee:** `\(fee)`, paid by the source account.",
            ]
            try appendMemo(a, to: &lines)
        }
        return lines
    }

    func appendMemo(_ a: CandidArgument, to lines: inout [String]) throws(ServiceFailure) {
        if let memo = try a["memo"].optional?.blob { lines += ["", "**Memo:** `0x\(Self.hex(memo))`"] }
    }

    /// `1.5 ICP`: the amount in whole tokens, trailing zeros dropped, at the ledger's decimals.
    func amount(_ e8s: CandidNat) -> String {
        let digits = e8s.description
        let decimals = Int(ledger.decimals)
        let padded = String(repeating: "0", count: max(0, decimals + 1 - digits.count)) + digits
        let whole = padded.dropLast(decimals)
        var fraction = String(padded.suffix(decimals))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return (fraction.isEmpty ? String(whole) : "\(whole).\(fraction)") + " " + ledger.symbol
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] })
    }

    /// `2024-05-01 12:00:00 UTC+02:00` for nanoseconds since the epoch shifted by the user's offset.
    static func dateText(_ nanos: UInt64, offsetMinutes: Int) -> String {
        let seconds = Int64(nanos / 1_000_000_000) + Int64(offsetMinutes) * 60
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (H. Hinnant's days_from_civil inverse).
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let sign = offsetMinutes < 0 ? "-" : "+"
        let offset = abs(offsetMinutes)
        return "\(year)-\(two(month))-\(two(day)) \(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):"
            + "\(two(secondOfDay % 60)) UTC"
            + (offsetMinutes == 0 ? "" : "\(sign)\(two(Int64(offset / 60))):\(two(Int64(offset % 60)))")
    }

    /// Plain lines (Markdown marks removed) wrapped at `width` characters, `height` lines per page.
    static func paginate(_ lines: [String], width: Int, height: Int) -> [[String]] {
        let width = max(width, 1)
        let height = max(height, 1)
        var wrapped: [String] = []
        for line in lines {
            let plain = line.replacingAll("**", "").replacingAll("`", "").replacingAll("# ", "")
            if plain.isEmpty { continue }
            var current = ""
            for word in plain.split(separator: " ") {
                var word = Substring(word)
                while word.count > width {
                    if !current.isEmpty {
                        wrapped.append(current)
                        current = ""
                    }
                    wrapped.append(String(word.prefix(width)))
                    word = word.dropFirst(width)
                }
                if current.isEmpty {
                    current = String(word)
                } else if current.count + 1 + word.count <= width {
                    current += " " + word
                } else {
                    wrapped.append(current)
                    current = String(word)
                }
            }
            if !current.isEmpty { wrapped.append(current) }
        }
        return stride(from: 0, to: wrapped.count, by: height).map {
            Array(wrapped[$0..<min($0 + height, wrapped.count)])
        }
    }
}

extension String {
    /// Every occurrence of `target` replaced (the standard library has no Foundation-free `replacingOccurrences`).
    fileprivate func replacingAll(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
