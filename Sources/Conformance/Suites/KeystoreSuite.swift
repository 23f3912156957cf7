import ByteCoding
import Foundation
import SecretStorage

/// ethereum/tests KeyStoreTests `basic_tests.json`: each file parses and decrypts with its password to the
/// expected private key (3 PBKDF2, 2 scrypt including n=262144 r=1 p=8, and an all-ones IV).
public struct KeystoreSuite: VectorSuite {
    public let name = "keystore"

    public init() {}

    public func run(_ store: VectorStore) -> SuiteReport {
        var report = SuiteReport(suite: name)
        do {
            let file = try store.json("keystore/basic_tests.json")
            let raw = try JSONSerialization.jsonObject(with: Data(try store.bytes("keystore/basic_tests.json")))
            for (name, test) in (file.dictionary ?? [:]).sorted(by: { $0.key < $1.key }) {
                guard let password = test["password"]?.stringValue, let priv = test["priv"]?.stringValue,
                    let json = (raw as? [String: Any])?[name].flatMap({ ($0 as? [String: Any])?["json"] })
                else {
                    report.fail(name, input: test.compactText, expected: "json, password, priv", actual: "missing")
                    continue
                }
                do {
                    let keystore = try Keystore(json: try JSONSerialization.data(withJSONObject: json))
                    let key = try keystore.decrypt(password: password)
                    report.check(name, input: "\(keystore.kdf)", expected: priv.lowercased(), actual: Hex.encode(key))
                } catch {
                    report.fail(name, input: test["json"]?.compactText ?? "", expected: priv, actual: "\(error)")
                }
            }
        } catch {
            report.fail("load", input: store.root, expected: "readable vector files", actual: "\(error)")
        }
        return report
    }
}
