import CandidCoding
import Testing

struct Tokens: Codable, Equatable {
    var e8s: UInt64
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// Field and case names are the ledger's Candid names (the Codable bridge maps them by name).
struct TimeStamp: Codable, Equatable {
    var timestamp_nanos: UInt64
}

// swift-format-ignore: AlwaysUseLowerCamelCase
struct TransferArgs: Codable, Equatable {
    var memo: UInt64
    var amount: Tokens
    var fee: Tokens
    var from_subaccount: [UInt8]?
    var to: [UInt8]
    var created_at_time: TimeStamp?
}

// swift-format-ignore: AlwaysUseLowerCamelCase
enum TransferResult: Codable, Equatable {
    case Ok(UInt64)
    case Err(TransferError)
}

// swift-format-ignore: AlwaysUseLowerCamelCase
enum TransferError: Codable, Equatable {
    case BadFee(expected_fee: Tokens)
    case TxTooOld(allowed_window_nanos: UInt64)
    case TxCreatedInFuture
}

struct AllTypes: Codable, Equatable {
    var flag: Bool
    var text: String
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var float: Float
    var double: Double
    var nat: CandidNat
    var bigInt: CandidInt
    var principal: CandidPrincipal
    var bytes: [UInt8]
    var list: [String]
    var nested: [[Int16]]
    var maybe: Int32?
    var nothing: String?
}

struct CodableTests {
    let encoder = CandidEncoder()
    let decoder = CandidDecoder()

    @Test func allTypesRoundTrip() throws {
        let value = AllTypes(
            flag: true, text: "☃", int: -1, int8: -8, int16: -16, int32: -32, int64: .min, uint: 1, uint8: 8,
            uint16: 16, uint32: 32, uint64: .max, float: 1.5, double: -2.25,
            nat: CandidNat(decimal: "123456789012345678901234567890")!, bigInt: CandidInt(decimal: "-42")!,
            principal: .anonymous, bytes: [1, 2, 3], list: ["a", "b"], nested: [[1], [], [2, 3]], maybe: 7,
            nothing: nil)
        let (type, _) = try encoder.encodeValue(value)
        let bytes = try encoder.encode(value)
        #expect(try decoder.decode(AllTypes.self, from: bytes) == value)
        #expect(try decoder.decode(AllTypes.self, from: bytes, as: type) == value)
    }

    @Test func transferArgsMatchesLedgerType() throws {
        let args = TransferArgs(
            memo: 42, amount: Tokens(e8s: 100_000), fee: Tokens(e8s: 10_000), from_subaccount: nil,
            to: [UInt8](repeating: 7, count: 32), created_at_time: TimeStamp(timestamp_nanos: 1))
        let ledgerType = try CandidTextParser.parseType(
            """
            record { memo : nat64; amount : record { e8s : nat64 }; fee : record { e8s : nat64 };
                     from_subaccount : opt blob; to : blob; created_at_time : opt record { timestamp_nanos : nat64 } }
            """)
        let bytes = try encoder.encode(args, as: ledgerType)
        #expect(try decoder.decode(TransferArgs.self, from: bytes) == args)
        let text = try CandidTextCodec.decode(bytes, types: "(\(ledgerType.candidText))")
        #expect(text.contains("created_at_time = opt record { timestamp_nanos = 1 }"))
        // The value-inferred encoding decodes at the ledger type too (nil infers `opt empty`).
        let inferred = try encoder.encode(args)
        #expect(try decoder.decode(TransferArgs.self, from: inferred, as: ledgerType) == args)
    }

    @Test func enumsBecomeVariants() throws {
        let resultType = try CandidTextParser.parseType(
            """
            variant { Ok : nat64; Err : variant { BadFee : record { expected_fee : record { e8s : nat64 } };
                      TxTooOld : record { allowed_window_nanos : nat64 }; TxCreatedInFuture } }
            """)
        for value in [
            TransferResult.Ok(5), .Err(.BadFee(expected_fee: Tokens(e8s: 10_000))),
            .Err(.TxTooOld(allowed_window_nanos: 9)), .Err(.TxCreatedInFuture),
        ] {
            let bytes = try encoder.encode(value, as: resultType)
            #expect(try decoder.decode(TransferResult.self, from: bytes, as: resultType) == value)
            let (inferredType, candid) = try encoder.encodeValue(value)
            #expect(try decoder.decode(TransferResult.self, from: candid) == value)
            let inferredBytes = try encoder.encode(value)
            #expect(try decoder.decode(TransferResult.self, from: inferredBytes, as: inferredType) == value)
        }
        let text = try CandidTextCodec.decode(
            try encoder.encode(TransferResult.Ok(5), as: resultType), types: "(\(resultType.candidText))")
        #expect(text == "(variant { Ok = 5 })")
    }

    @Test func variantWithoutNamesFailsClearly() throws {
        let bytes = try encoder.encode(TransferResult.Ok(5))
        #expect(throws: (any Error).self) { try decoder.decode(TransferResult.self, from: bytes) }
    }

    @Test func optionalsAndArraysOfOptionals() throws {
        let values: [Int16?] = [1, nil, 3]
        let bytes = try encoder.encode(values, as: .vec(.opt(.int16)))
        #expect(try decoder.decode([Int16?].self, from: bytes) == values)
        let nested: String?? = .some(.none)
        let nestedBytes = try encoder.encode(nested, as: .opt(.opt(.text)))
        #expect(try CandidTextCodec.decode(nestedBytes) == "(opt null)")
    }
}
