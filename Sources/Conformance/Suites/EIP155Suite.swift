import ByteCoding
import EthereumTransactions
import EthereumTypes
import JSONCoding

/// The worked example of EIP-155: signing payload, signing hash, v/r/s, signed transaction, its hash and sender.
/// Each of the six is one case.
public struct EIP155Suite: VectorSuite {
    public let name = "eip155"

    public init() {}

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        do {
            let file = try store.json("eip155/eip155_example.json")
            guard let example = file["example"], let fields = example["tx"],
                let chainID = example["chain_id"].flatMap(Self.uint64),
                let nonce = fields["nonce"].flatMap(Self.uint64), let gas = fields["gasLimit"].flatMap(Self.uint64),
                let gasPrice = fields["gasPrice"].flatMap(Self.uint256),
                let value = fields["value"].flatMap(Self.uint256),
                let toText = fields["to"]?.stringValue, let to = try? Address(parsing: toText),
                let dataText = fields["data"]?.stringValue, let data = try? Hex.decode(dataText),
                let keyText = example["private_key"]?.stringValue, let key = try? Hex.decode(keyText)
            else {
                report.fail(
                    "load", input: "eip155_example.json", expected: "example fields", actual: "missing or malformed")
                return report
            }
            let tx = Transaction.legacy(
                LegacyTransaction(
                    chainID: chainID, nonce: nonce, gasPrice: gasPrice, gas: gas, to: to, value: value, data: data))
            report.check(
                "signing_data", input: "tx fields", expected: example["signing_data"]?.stringValue ?? "?",
                actual: Hex.encodePrefixed(tx.signingPayload()))
            report.check(
                "signing_hash", input: "signing_data", expected: example["signing_hash"]?.stringValue ?? "?",
                actual: Hex.encodePrefixed(tx.signingHash()))
            let signed = try tx.signed(privateKey: key)
            let expectedVRS = [example["v"], example["r"], example["s"]].map {
                $0.flatMap(Self.uint256)?.description ?? "?"
            }
            report.check(
                "v/r/s", input: keyText, expected: expectedVRS.joined(separator: " "),
                actual: [signed.v, signed.signature.r, signed.signature.s].map(\.description).joined(separator: " "))
            report.check(
                "signed_tx", input: keyText, expected: example["signed_tx"]?.stringValue ?? "?",
                actual: Hex.encodePrefixed(signed.encoded))
            let derived = file["derived"]
            let decoded = try SignedTransaction(hex: example["signed_tx"]?.stringValue ?? "")
            report.check(
                "tx_hash", input: "signed_tx", expected: derived?["tx_hash"]?.stringValue ?? "?",
                actual: Hex.encodePrefixed(decoded.hash))
            report.check(
                "sender", input: "signed_tx", expected: derived?["sender_address"]?.stringValue ?? "?",
                actual: try decoded.validate(ValidationRules(chainID: chainID, fork: .prague)).checksummed)
        } catch {
            report.fail("eip155", input: "eip155/eip155_example.json", expected: "no error", actual: "\(error)")
        }
        return report
    }

    static func uint64(_ value: JSON) -> UInt64? {
        switch value {
        case .number(let n): return UInt64(n)
        case .string(let s): return UInt64(s)
        default: return nil
        }
    }

    static func uint256(_ value: JSON) -> UInt256? {
        switch value {
        case .number(let n): return UInt256(decimal: n)
        case .string(let s): return UInt256(decimal: s)
        default: return nil
        }
    }
}
