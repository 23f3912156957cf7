import ByteCoding
import ICPIdentity
import JSONCoding

/// Internet Computer principal and account examples (`icp/icp_principal_account_examples.json`), every example,
/// each checked in both directions: principal text ↔ bytes with the CRC-32; ICRC-1 account text parse and
/// re-encode (or rejection); ICP account identifiers from principal + subaccount and back from hex; the
/// account-identifier checksum; subaccounts derived from principals.
public struct ICPSuite: VectorSuite {
    public let name = "icp"

    public init() {}

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        let file: JSON
        do { file = try store.json("icp/icp_principal_account_examples.json") } catch {
            report.fail("load", input: store.root, expected: "readable vector files", actual: "\(error)")
            return report
        }
        principals(file["principal_text"]?.arrayValue, &report)
        icrc1Accounts(file["icrc1_account_text"]?.arrayValue, &report)
        accountIdentifiers(file["icp_account_identifier"]?.arrayValue, &report)
        checksums(file["icp_account_identifier_checksum"]?.arrayValue, &report)
        subaccounts(file["subaccount_from_principal"]?["cases"]?.arrayValue, &report)
        return report
    }

    func principals(_ cases: [JSON]?, _ report: inout SuiteReport) {
        guard let cases else { return report.fail("principal_text", input: "", expected: "array", actual: "missing") }
        for (index, test) in cases.enumerated() {
            let id = "principal_text #\(index)"
            guard let text = test["text"]?.stringValue, let hex = test["bytes_hex"]?.stringValue,
                let crc = test["crc32_hex"]?.stringValue
            else {
                report.fail(id, input: test.compactText, expected: "text/bytes_hex/crc32_hex", actual: "missing")
                continue
            }
            do {
                let parsed = try Principal(text: text)
                let built = try Principal(bytes: try Hex.decode(hex))
                let actual =
                    "\(Hex.encode(parsed.bytes)) \(built.text) \(Hex.encode(CRC32.bigEndianChecksum(built.bytes)))"
                report.check(id, input: text, expected: "\(hex) \(text) \(crc)", actual: actual)
            } catch {
                report.fail(id, input: text, expected: hex, actual: "error: \(error)")
            }
        }
    }

    func icrc1Accounts(_ cases: [JSON]?, _ report: inout SuiteReport) {
        guard let cases else {
            return report.fail("icrc1_account_text", input: "", expected: "array", actual: "missing")
        }
        for (index, test) in cases.enumerated() {
            let id = "icrc1_account_text #\(index)"
            guard let text = test["text"]?.stringValue, case .bool(let valid) = test["valid"] else {
                report.fail(id, input: test.compactText, expected: "text/valid", actual: "missing")
                continue
            }
            guard valid else {
                do {
                    let account = try Account(text: text)
                    report.fail(id, input: text, expected: "rejected", actual: "accepted as \(account.owner)")
                } catch {
                    report.pass(id)
                }
                continue
            }
            guard let owner = test["owner"]?.stringValue else {
                report.fail(id, input: text, expected: "owner", actual: "missing")
                continue
            }
            do {
                let subaccount = try test["subaccount_hex"]?.stringValue.map {
                    try Subaccount(bytes: try Hex.decode($0))
                }
                let built = Account(owner: try Principal(text: owner), subaccount: subaccount)
                let parsed = try Account(text: text)
                let expected = "\(owner) \(Hex.encode((subaccount ?? .default).bytes)) \(text)"
                let actual = "\(parsed.owner) \(Hex.encode(parsed.effectiveSubaccount.bytes)) \(built.text)"
                report.check(id, input: text, expected: expected, actual: actual)
            } catch {
                report.fail(id, input: text, expected: "valid", actual: "error: \(error)")
            }
        }
    }

    func accountIdentifiers(_ cases: [JSON]?, _ report: inout SuiteReport) {
        guard let cases else {
            return report.fail("icp_account_identifier", input: "", expected: "array", actual: "missing")
        }
        for (index, test) in cases.enumerated() {
            let id = "icp_account_identifier #\(index)"
            guard let principalText = test["principal"]?.stringValue,
                let bytesHex = test["principal_bytes_hex"]?.stringValue,
                let expected = test["account_identifier_hex"]?.stringValue
            else {
                report.fail(id, input: test.compactText, expected: "fields", actual: "missing")
                continue
            }
            do {
                let principal = try Principal(text: principalText)
                guard Hex.encode(principal.bytes) == bytesHex else {
                    report.fail(id, input: principalText, expected: bytesHex, actual: Hex.encode(principal.bytes))
                    continue
                }
                var subaccount = try test["subaccount_hex"]?.stringValue.map {
                    try Subaccount(bytes: try Hex.decode($0))
                }
                if let number = test["subaccount_id"], case .number(let digits) = number, let index = UInt64(digits) {
                    // ic-py's integer subaccounts must give the same bytes.
                    guard Subaccount(index: index) == subaccount else {
                        report.fail(
                            id, input: digits, expected: subaccount?.description ?? "nil", actual: "index mismatch")
                        continue
                    }
                    subaccount = Subaccount(index: index)
                }
                let computed = AccountIdentifier(principal: principal, subaccount: subaccount)
                let reparsed = try AccountIdentifier(hex: expected)
                report.check(
                    id, input: "\(principalText) \(subaccount?.description ?? "null")", expected: expected,
                    actual: reparsed == computed ? computed.hex : "\(computed.hex) (hex parses to \(reparsed.hex))")
            } catch {
                report.fail(id, input: principalText, expected: expected, actual: "error: \(error)")
            }
        }
    }

    func checksums(_ cases: [JSON]?, _ report: inout SuiteReport) {
        guard let cases else {
            return report.fail("icp_account_identifier_checksum", input: "", expected: "array", actual: "missing")
        }
        for (index, test) in cases.enumerated() {
            let id = "icp_account_identifier_checksum #\(index)"
            guard let hex = test["account_identifier_hex"]?.stringValue, case .bool(let valid) = test["valid"] else {
                report.fail(id, input: test.compactText, expected: "fields", actual: "missing")
                continue
            }
            let actual: String
            do {
                let parsed = try AccountIdentifier(hex: hex)
                actual = parsed.hex == hex ? "valid" : "valid but re-encodes as \(parsed.hex)"
            } catch {
                actual = "\(error)".contains("checksum mismatch") ? "invalid" : "error: \(error)"
            }
            report.check(id, input: hex, expected: valid ? "valid" : "invalid", actual: actual)
        }
    }

    func subaccounts(_ cases: [JSON]?, _ report: inout SuiteReport) {
        guard let cases else {
            return report.fail("subaccount_from_principal", input: "", expected: "array", actual: "missing")
        }
        for (index, test) in cases.enumerated() {
            let id = "subaccount_from_principal #\(index)"
            guard let text = test["principal"]?.stringValue, let expected = test["subaccount_hex"]?.stringValue else {
                report.fail(id, input: test.compactText, expected: "fields", actual: "missing")
                continue
            }
            do {
                report.check(
                    id, input: text, expected: expected,
                    actual: Subaccount(principal: try Principal(text: text)).description)
            } catch {
                report.fail(id, input: text, expected: expected, actual: "error: \(error)")
            }
        }
    }
}
