import CBORCoding
import ICPIdentity

extension Transaction {
    /// Reads the packed CBOR form back (the inverse of ``packedCBOR``), for stored blocks.
    ///
    /// - Throws: ``LedgerTrap`` naming the field that does not fit.
    public init(packedCBOR: [UInt8]) throws(LedgerTrap) {
        let value: CBORValue
        do { value = try CBORDecoder().decode(packedCBOR) } catch { throw LedgerTrap("transaction CBOR: \(error)") }
        let fields = try Self.fields(value, "transaction")
        guard let operationMap = fields[0]?.mapEntries, operationMap.count == 1,
            case .unsigned(let variant) = operationMap[0].key
        else { throw LedgerTrap("transaction operation is malformed") }
        let body = try Self.fields(operationMap[0].value, "operation")
        func account(_ index: UInt64) throws(LedgerTrap) -> AccountIdentifier {
            guard let text = body[index]?.textValue else {
                throw LedgerTrap("operation field \(index) is not an account")
            }
            do { return try AccountIdentifier(hex: text) } catch {
                throw LedgerTrap("operation field \(index): \(error)")
            }
        }
        func optionalAccount(_ index: UInt64) throws(LedgerTrap) -> AccountIdentifier? {
            body[index] == nil ? nil : try account(index)
        }
        func tokens(_ index: UInt64) throws(LedgerTrap) -> Tokens {
            guard let value = body[index], let e8s = try Self.fields(value, "tokens")[0]?.uint64Value else {
                throw LedgerTrap("operation field \(index) is not tokens")
            }
            return Tokens(e8s: e8s)
        }
        func optionalNanos(_ value: CBORValue?) throws(LedgerTrap) -> TimestampNanos? {
            guard let value, !value.isNull else { return nil }
            guard let nanos = try Self.fields(value, "timestamp")[0]?.uint64Value else {
                throw LedgerTrap("timestamp is malformed")
            }
            return nanos
        }
        switch variant {
        case 0: operation = .burn(from: try account(0), amount: try tokens(1), spender: try optionalAccount(2))
        case 1: operation = .mint(to: try account(0), amount: try tokens(1))
        case 2:
            operation = .transfer(
                from: try account(0), to: try account(1), amount: try tokens(2), fee: try tokens(3),
                spender: try optionalAccount(4))
        case 3:
            var expected: Tokens?
            if let value = body[3], !value.isNull { expected = try tokens(3) }
            operation = .approve(
                from: try account(0), spender: try account(1), allowance: try tokens(2), expectedAllowance: expected,
                expiresAt: try optionalNanos(body[4]), fee: try tokens(5))
        default: throw LedgerTrap("unknown operation variant \(variant)")
        }
        guard let memo = fields[1]?.uint64Value else { throw LedgerTrap("transaction memo is malformed") }
        self.memo = memo
        self.createdAtTime = try optionalNanos(fields[2])
        self.icrc1Memo = fields[3]?.bytesValue
    }

    static func fields(_ value: CBORValue, _ what: String) throws(LedgerTrap) -> [UInt64: CBORValue] {
        guard let entries = value.mapEntries else { throw LedgerTrap("\(what) is not a map") }
        var fields: [UInt64: CBORValue] = [:]
        for entry in entries {
            guard case .unsigned(let key) = entry.key else { throw LedgerTrap("\(what) has a non-integer key") }
            fields[key] = entry.value
        }
        return fields
    }
}
