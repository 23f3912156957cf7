import CandidCoding
import ICPIdentity
import ICPLedger

/// Why a call did not reach the ledger or stopped in it.
enum ServiceFailure: Error {
    /// The argument decoded at the .did type but does not fit the Rust type behind it (a subaccount that is not
    /// 32 bytes, account identifier text that is not hex), which the real canister reports as a decoding failure.
    case argument(String)
    /// The ledger trapped.
    case trap(String)
}

/// Reads values the decoder shaped by the expected .did type (records hold exactly the expected fields, missing
/// optional fields are `null`), converting them to the ledger's Swift types.
struct CandidArgument {
    let value: CandidValue
    let path: String

    init(_ value: CandidValue, path: String) {
        self.value = value
        self.path = path
    }

    func fail(_ what: String) -> ServiceFailure { .argument("\(path): \(what)") }

    subscript(_ name: String) -> CandidArgument {
        get throws(ServiceFailure) {
            guard case .record(let fields) = value else { throw fail("not a record") }
            let id = CandidLabel.hash(name)
            guard let field = fields.first(where: { $0.label.id == id }) else { throw fail("no field \(name)") }
            return CandidArgument(field.value, path: "\(path).\(name)")
        }
    }

    /// `opt T`: nil for `null`.
    var optional: CandidArgument? {
        get throws(ServiceFailure) {
            switch value {
            case .opt(let inner): return inner.map { CandidArgument($0, path: path) }
            case .null: return nil
            default: throw fail("not an option")
            }
        }
    }

    var nat64: UInt64 {
        get throws(ServiceFailure) {
            guard case .nat64(let n) = value else { throw fail("not a nat64") }
            return n
        }
    }

    /// A `nat` amount: above u64 is `.aboveUInt64`, which the ledger answers with a typed error.
    var nat: NatArgument {
        get throws(ServiceFailure) {
            guard case .nat(let n) = value else { throw fail("not a nat") }
            return n.uint64Value.map(NatArgument.exact) ?? .aboveUInt64
        }
    }

    var natValue: CandidNat {
        get throws(ServiceFailure) {
            guard case .nat(let n) = value else { throw fail("not a nat") }
            return n
        }
    }

    var text: String {
        get throws(ServiceFailure) {
            guard case .text(let s) = value else { throw fail("not text") }
            return s
        }
    }

    var blob: [UInt8] {
        get throws(ServiceFailure) {
            switch value {
            case .blob(let bytes): return bytes
            case .vec(let items):
                var bytes: [UInt8] = []
                for item in items {
                    guard case .nat8(let b) = item else { throw fail("not a blob") }
                    bytes.append(b)
                }
                return bytes
            default: throw fail("not a blob")
            }
        }
    }

    var int16: Int16 {
        get throws(ServiceFailure) {
            guard case .int16(let n) = value else { throw fail("not an int16") }
            return n
        }
    }

    var nat16: UInt16 {
        get throws(ServiceFailure) {
            guard case .nat16(let n) = value else { throw fail("not a nat16") }
            return n
        }
    }

    var principal: Principal {
        get throws(ServiceFailure) {
            guard case .principal(let p) = value else { throw fail("not a principal") }
            do { return try Principal(bytes: p.bytes) } catch { throw fail("\(error)") }
        }
    }

    /// `Tokens = record { e8s : nat64 }`.
    var tokens: Tokens { get throws(ServiceFailure) { Tokens(e8s: try self["e8s"].nat64) } }

    /// `TimeStamp = record { timestamp_nanos : nat64 }`.
    var timestamp: TimestampNanos { get throws(ServiceFailure) { try self["timestamp_nanos"].nat64 } }

    /// `opt SubAccount`: the Rust side is `[u8; 32]`, so any other length fails to deserialize.
    var subaccount: Subaccount? {
        get throws(ServiceFailure) {
            guard let inner = try optional else { return nil }
            let bytes = try inner.blob
            do { return try Subaccount(bytes: bytes) } catch {
                throw fail("invalid subaccount: expected 32 bytes, got \(bytes.count)")
            }
        }
    }

    /// `Account = record { owner : principal; subaccount : opt SubAccount }`.
    var account: Account {
        get throws(ServiceFailure) {
            Account(owner: try self["owner"].principal, subaccount: try self["subaccount"].subaccount)
        }
    }

    /// `TextAccountIdentifier`: the Rust side deserializes `AccountIdentifier` from hex, checksum verified.
    var textAccountIdentifier: AccountIdentifier {
        get throws(ServiceFailure) {
            let hex = try text
            do { return try AccountIdentifier(hex: hex) } catch { throw fail("invalid account identifier: \(error)") }
        }
    }
}
