import Conformance
import Foundation
import TestSupport
import Testing

/// The TransactionTests runner's table of exception names: complete against the vectors and the upstream list,
/// and an unknown name reported as such.
@Suite struct TransactionExceptionMappingTests {
    /// `TransactionException` in ethereum/execution-spec-tests `src/ethereum_test_exceptions/exceptions.py`
    /// (commit 08804ced78f4a708182443317488533fec0171a5), in source order.
    static let upstream = [
        "TYPE_NOT_SUPPORTED", "SENDER_NOT_EOA", "ADDRESS_TOO_SHORT", "ADDRESS_TOO_LONG", "NONCE_MISMATCH_TOO_HIGH",
        "NONCE_MISMATCH_TOO_LOW", "NONCE_TOO_BIG", "NONCE_IS_MAX", "NONCE_OVERFLOW", "GASLIMIT_OVERFLOW",
        "VALUE_OVERFLOW", "GASPRICE_OVERFLOW", "GASLIMIT_PRICE_PRODUCT_OVERFLOW", "INVALID_SIGNATURE_VRS",
        "RLP_INVALID_SIGNATURE_R", "RLP_INVALID_SIGNATURE_S", "RLP_LEADING_ZEROS_GASLIMIT",
        "RLP_LEADING_ZEROS_GASPRICE", "RLP_LEADING_ZEROS_VALUE", "RLP_LEADING_ZEROS_NONCE", "RLP_LEADING_ZEROS_R",
        "RLP_LEADING_ZEROS_S", "RLP_LEADING_ZEROS_V", "RLP_LEADING_ZEROS_BASEFEE", "RLP_LEADING_ZEROS_PRIORITY_FEE",
        "RLP_LEADING_ZEROS_DATA_SIZE", "RLP_LEADING_ZEROS_NONCE_SIZE", "RLP_TOO_FEW_ELEMENTS",
        "RLP_TOO_MANY_ELEMENTS", "RLP_ERROR_EOF", "RLP_ERROR_SIZE", "RLP_ERROR_SIZE_LEADING_ZEROS", "INVALID_CHAINID",
        "RLP_INVALID_DATA", "RLP_INVALID_GASLIMIT", "RLP_INVALID_NONCE", "RLP_INVALID_TO",
        "RLP_INVALID_ACCESS_LIST_ADDRESS_TOO_LONG", "RLP_INVALID_ACCESS_LIST_ADDRESS_TOO_SHORT",
        "RLP_INVALID_ACCESS_LIST_STORAGE_TOO_LONG", "RLP_INVALID_ACCESS_LIST_STORAGE_TOO_SHORT",
        "RLP_INVALID_HEADER", "RLP_INVALID_VALUE", "EC_RECOVERY_FAIL", "INSUFFICIENT_ACCOUNT_FUNDS",
        "INSUFFICIENT_MAX_FEE_PER_GAS", "PRIORITY_OVERFLOW", "PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS",
        "PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS_2", "INSUFFICIENT_MAX_FEE_PER_BLOB_GAS", "INTRINSIC_GAS_TOO_LOW",
        "INTRINSIC_GAS_BELOW_FLOOR_GAS_COST", "INITCODE_SIZE_EXCEEDED", "TYPE_3_TX_PRE_FORK",
        "TYPE_3_TX_ZERO_BLOBS_PRE_FORK", "TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH", "TYPE_3_TX_WITH_FULL_BLOBS",
        "TYPE_3_TX_BLOB_COUNT_EXCEEDED", "TYPE_3_TX_CONTRACT_CREATION", "TYPE_3_TX_MAX_BLOB_GAS_ALLOWANCE_EXCEEDED",
        "GAS_ALLOWANCE_EXCEEDED", "GAS_LIMIT_EXCEEDS_MAXIMUM", "TYPE_3_TX_ZERO_BLOBS",
        "TYPE_4_EMPTY_AUTHORIZATION_LIST", "TYPE_4_INVALID_AUTHORITY_SIGNATURE",
        "TYPE_4_INVALID_AUTHORITY_SIGNATURE_S_TOO_HIGH", "TYPE_4_TX_CONTRACT_CREATION",
        "TYPE_4_INVALID_AUTHORIZATION_FORMAT", "TYPE_4_TX_PRE_FORK",
    ]

    /// ethereum/tests TransactionTests/ttRSValue/RightVRSTestVPrefixedBy0.json: `v` is 0x0028 (leading zero byte).
    static let leadingZeroV =
        "0xf861030182c73894b94f5374fce5edbc8e2a8697c15331677e6ebf0b0a80820028a098ff921201554726367d2be8c804a7ff89ccf"
        + "285ebc57dff8ae4c44b9c19ac4aa01887321be575c8095f789dd4c743dfe42c1820f9231f98a962b210e3ac2452a3"

    @Test func everyUpstreamNameIsMapped() {
        #expect(TransactionSuite.mappedExceptionNames == Self.upstream.sorted())
    }

    @Test func everyNameTheVectorsUseIsMapped() throws {
        let store = try TestVectors.store()
        var names: Set<String> = []
        for file in store.files(in: "transactions", suffix: ".json") {
            for (_, test) in try store.json(file).dictionary ?? [:] {
                for (_, result) in test["result"]?.dictionary ?? [:] {
                    guard let exception = result["exception"]?.stringValue else { continue }
                    names.formUnion(exception.split(separator: "|").map(String.init))
                }
            }
        }
        #expect(names.count >= 41)
        let mapped = Set(TransactionSuite.mappedExceptionNames.map { "TransactionException." + $0 })
        #expect(names.subtracting(mapped).isEmpty, "unmapped: \(names.subtracting(mapped).sorted())")
    }

    /// Runs the suite over one test file written into a scratch vector directory.
    static func run(file: String = "ttRSValue/Case.json", test: String = "Case", txbytes: String, exception: String)
        throws -> SuiteReport
    {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("sandnet-tt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = root.appendingPathComponent("transactions/" + file)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let document = """
            {"\(test)": {"result": {"Cancun": {"exception": "\(exception)", "intrinsicGas": "0x00"}}, \
            "txbytes": "\(txbytes)"}}
            """
        try Data(document.utf8).write(to: url)
        return TransactionSuite().run(VectorStore(root: root.path))
    }

    @Test func leadingZeroVIsRecognised() throws {
        let report = try Self.run(
            file: "ttRSValue/RightVRSTestVPrefixedBy0.json", test: "RightVRSTestVPrefixedBy0",
            txbytes: Self.leadingZeroV, exception: "TransactionException.RLP_LEADING_ZEROS_V")
        #expect(report.failures == [])
        #expect(report.passes == ["ttRSValue/RightVRSTestVPrefixedBy0@Cancun"])
        // The same rejection against another field's name is a failure, not a pass.
        let other = try Self.run(txbytes: Self.leadingZeroV, exception: "TransactionException.RLP_LEADING_ZEROS_R")
        #expect(other.failed == 1)
        #expect(
            other.failures.first?.actual
                == "decoding error: rlp: v: integer has leading zero bytes at byte 30 [field v]")
    }

    @Test func unknownNameIsReportedClearly() throws {
        for exception in ["TransactionException.NOT_A_REAL_ONE", "BlockException.RLP_LEADING_ZEROS_V"] {
            let report = try Self.run(txbytes: Self.leadingZeroV, exception: exception)
            #expect(report.failed == 1)
            #expect(
                report.failures.first?.actual
                    == "unknown exception name '\(exception)' (not an execution-spec-tests TransactionException "
                    + "Sandnet maps); Sandnet: decoding error: rlp: v: integer has leading zero bytes at byte 30 "
                    + "[field v]")
        }
        // One known alternative that matches does not hide an unknown one.
        let mixed = try Self.run(
            txbytes: Self.leadingZeroV, exception: "TransactionException.RLP_LEADING_ZEROS_V|TransactionException.NOPE")
        #expect(mixed.failures.first?.actual.hasPrefix("unknown exception name 'TransactionException.NOPE'") == true)
    }

    @Test func statefulAndUnmodelledNamesAreSkippedWithTheirReason() throws {
        let funds = try Self.run(
            txbytes: Self.leadingZeroV, exception: "TransactionException.INSUFFICIENT_ACCOUNT_FUNDS")
        #expect(
            funds.skips == [
                CaseSkip(
                    id: "ttRSValue/Case@Cancun",
                    reason:
                        "expects TransactionException.INSUFFICIENT_ACCOUNT_FUNDS, which needs chain state or a block; "
                        + "TransactionTests are stateless")
            ])
        let blob = try Self.run(txbytes: "0x03c0", exception: "TransactionException.TYPE_3_TX_ZERO_BLOBS")
        #expect(
            blob.skips.first?.reason
                == "expects TransactionException.TYPE_3_TX_ZERO_BLOBS; blob (type 3) transactions are not modelled "
                + "(Sandnet refuses the type)")
        // An unmodelled-type rule with another outcome is decided, and fails.
        let notBlob = try Self.run(txbytes: Self.leadingZeroV, exception: "TransactionException.TYPE_3_TX_ZERO_BLOBS")
        #expect(notBlob.failed == 1)
    }

    @Test func testNamedUnlikeItsFileKeepsAUniqueID() throws {
        let report = try Self.run(
            file: "ttVValue/ValidChainID1InvalidV01.json", test: "ValidChainID1InvalidV00", txbytes: Self.leadingZeroV,
            exception: "TransactionException.RLP_LEADING_ZEROS_V")
        #expect(report.passes == ["ttVValue/ValidChainID1InvalidV01/ValidChainID1InvalidV00@Cancun"])
    }
}
