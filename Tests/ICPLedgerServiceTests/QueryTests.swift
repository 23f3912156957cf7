import CandidCoding
import ICPIdentity
import ICPLedger
import Testing

@testable import ICPLedgerService

/// The query methods: metadata, balances, account identifiers, blocks.
@Suite struct QueryTests {
    typealias F = Fixture

    @Test func metadataMethods() throws {
        var service = F.service()
        #expect(try service.call("symbol") == F.record([("symbol", .text("ICP"))]))
        #expect(try service.call("name") == F.record([("name", .text("Internet Computer"))]))
        #expect(try service.call("decimals") == F.record([("decimals", .nat32(8))]))
        #expect(try service.call("transfer_fee", [F.record([])]) == F.record([("transfer_fee", F.tokens(10_000))]))
        #expect(try service.call("archives") == F.record([("archives", .vec([]))]))
        #expect(try service.call("icrc1_name") == .text("Internet Computer"))
        #expect(try service.call("icrc1_symbol") == .text("ICP"))
        #expect(try service.call("icrc1_decimals") == .nat8(8))
        #expect(try service.call("icrc1_fee") == F.nat(10_000))
        #expect(try service.call("icrc1_total_supply") == F.nat(1_100_000_000))
        #expect(try service.call("icrc1_minting_account") == F.some(F.account(F.account(F.minter))))
        #expect(
            try service.call("icrc1_metadata")
                == .vec([
                    .tuple([.text("icrc1:decimals"), F.variant("Nat", F.nat(8))]),
                    .tuple([.text("icrc1:name"), F.variant("Text", .text("Internet Computer"))]),
                    .tuple([.text("icrc1:symbol"), F.variant("Text", .text("ICP"))]),
                    .tuple([.text("icrc1:fee"), F.variant("Nat", F.nat(10_000))]),
                ]))
        let standards = try service.call("icrc1_supported_standards")
        guard case .vec(let records) = standards else {
            Issue.record("not a vec")
            return
        }
        #expect(records.compactMap { $0["name"] } == ["ICRC-1", "ICRC-2", "ICRC-10", "ICRC-21"].map { .text($0) })
        #expect(try service.call("icrc10_supported_standards") == standards)
        #expect(try service.call("is_ledger_ready") == .bool(true))
        #expect(try service.call("icrc106_get_index_principal") == F.err("IndexPrincipalNotSet"))
    }

    @Test func balancesAndAccountIdentifiers() throws {
        var service = F.service()
        let alice = F.id(F.alice)
        #expect(try service.call("account_identifier", [F.account(F.account(F.alice))]) == .blob(alice.bytes))
        #expect(try service.call("account_identifier", [F.account(F.account(F.bob, 3))]) == .blob(F.id(F.bob, 3).bytes))
        #expect(
            try service.call("account_balance", [F.record([("account", .blob(alice.bytes))])])
                == F.tokens(1_000_000_000))
        #expect(
            try service.call("account_balance_dfx", [F.record([("account", .text(alice.hex))])])
                == F.tokens(1_000_000_000))
        #expect(try service.call("icrc1_balance_of", [F.account(F.account(F.bob))]) == F.nat(100_000_000))
        #expect(try service.call("icrc1_balance_of", [F.account(F.account(F.bob, 1))]) == F.nat(0))
        // A blob that is not 32 bytes is an unknown account (balance 0); a bad checksum traps.
        #expect(try service.call("account_balance", [F.record([("account", .blob([1, 2, 3]))])]) == F.tokens(0))
        var corrupted = alice.bytes
        corrupted[0] ^= 1
        let response = service.query(
            method: "account_balance", arg: try F.arg("account_balance", [F.record([("account", .blob(corrupted))])]),
            caller: F.alice, now: F.start)
        guard case .reject(.canisterError, let message, "IC0503") = response else {
            Issue.record("expected a trap, got \(response)")
            return
        }
        #expect(message.contains("Invalid account identifier"))
    }

    @Test func queryBlocksAndEncodedBlocks() throws {
        var service = F.service()
        #expect(
            try service.call(
                "icrc1_transfer", [F.icrc1Transfer(to: F.account(F.bob), amount: 5, memo: [9], createdAt: F.start)])
                == F.ok(2))
        #expect(
            try service.call("transfer", [F.legacyTransfer(to: F.id(F.carol), amount: 6, memo: 77)])
                == F.variant("Ok", .nat64(3)))
        let args = F.record([("start", .nat64(1)), ("length", .nat64(10))])
        let response = try service.call("query_blocks", [args])
        #expect(response["chain_length"] == .nat64(4))
        #expect(response["first_block_index"] == .nat64(1))
        #expect(response["certificate"] == F.none)
        #expect(response["archived_blocks"] == .vec([]))
        guard case .vec(let blocks) = response["blocks"] else {
            Issue.record("no blocks")
            return
        }
        #expect(blocks.count == 3)
        let ledgerBlocks = service.ledger.blocks
        #expect(blocks == ledgerBlocks[1...].map(CandidReply.block))
        // Block 2: the ICRC-1 transfer, with its memo and the parent hash of block 1.
        let block2 = blocks[1]
        #expect(block2["parent_hash"] == F.some(.blob(ledgerBlocks[1].hash)))
        let transaction = try #require(block2["transaction"])
        #expect(transaction["icrc1_memo"] == F.some(.blob([9])))
        #expect(transaction["memo"] == .nat64(0))
        #expect(
            transaction["operation"]
                == F.some(
                    F.variant(
                        "Transfer",
                        F.record([
                            ("from", .blob(F.id(F.alice).bytes)), ("to", .blob(F.id(F.bob).bytes)),
                            ("amount", F.tokens(5)), ("fee", F.tokens(10_000)), ("spender", F.none),
                        ]))))
        // Block 3: the legacy transfer, stamped with the ledger time.
        #expect(blocks[2]["transaction"]?["memo"] == .nat64(77))
        #expect(blocks[2]["transaction"]?["created_at_time"] == F.timestamp(F.start))

        let encoded = try service.call("query_encoded_blocks", [args])
        #expect(encoded["chain_length"] == .nat64(4))
        #expect(encoded["blocks"] == .vec(ledgerBlocks[1...].map { .blob($0.protobufEncoding) }))
        #expect(encoded["archived_blocks"] == .vec([]))
        // Past the end: nothing.
        let empty = try service.call("query_blocks", [F.record([("start", .nat64(9)), ("length", .nat64(1))])])
        #expect(empty["blocks"] == .vec([]) && empty["first_block_index"] == .nat64(4))
    }

    @Test func replicatedQueryBlocksIsLimitedToFiftyForUsers() throws {
        var service = F.service()
        for index in 0..<60 {
            _ = try service.call("icrc1_transfer", [F.icrc1Transfer(to: F.account(F.bob), amount: UInt64(index + 1))])
        }
        let arg = try F.arg("query_blocks", [F.record([("start", .nat64(0)), ("length", .nat64(100))])])
        let asQuery = try F.replyValues(
            "query_blocks", service.query(method: "query_blocks", arg: arg, caller: F.alice, now: F.start))
        let asUpdate = try F.replyValues(
            "query_blocks", service.commitUpdate(method: "query_blocks", arg: arg, caller: F.alice, now: F.start))
        guard case .vec(let queried) = asQuery[0]["blocks"], case .vec(let updated) = asUpdate[0]["blocks"] else {
            Issue.record("no blocks")
            return
        }
        #expect(queried.count == 62)
        #expect(updated.count == 50)
    }
}
