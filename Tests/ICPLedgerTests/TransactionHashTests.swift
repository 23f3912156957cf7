import ByteCoding
import ICPIdentity
import ICPLedger
import Testing

/// Transaction hashes of two mainnet ICP transfers (shown by dashboard.internetcomputer.org under these hashes;
/// the same examples are in IcpKit's tests), and the packed CBOR they cover.
@Suite struct TransactionHashTests {
    @Test func mainnetTransfers() throws {
        let first = Transaction(
            operation: .transfer(
                from: try AccountIdentifier(hex: "e9344613c9615a83cf15748d9265c77b76244166678d4a0fd5df13186c64b9c4"),
                to: try AccountIdentifier(hex: "b87f601d508c2fe1967d1eaceb4e81205e77e29dc46eb96df2028881ed4c9f8c"),
                amount: Tokens(e8s: 1_418_990_000), fee: Tokens(e8s: 10_000), spender: nil),
            memo: 1_699_434_456, createdAtTime: 1_699_434_456_596_306_831)
        #expect(
            Hex.encode(first.packedCBOR)
                == "a300a102a4007840653933343436313363393631356138336366313537343864393236356337376237363234343136363637"
                + "386434613066643564663133313836633634623963340178406238376636303164353038633266653139363764316561636562"
                + "346538313230356537376532396463343665623936646632303238383831656434633966386302a1001a549411b003a1001927"
                + "10011a654b4fd802a1001b17959aa2607b5b8f")
        #expect(Hex.encode(first.hash) == "e609323577ef35afca168a5b45504549889f4086dba5ef4fae8d9dfb2e9666e0")

        let sameAccount = try AccountIdentifier(hex: "cafd0a2c27f41a851837b00f019b93e741f76e4147fe74435fb7efb836826a1c")
        let second = Transaction(
            operation: .transfer(
                from: sameAccount, to: sameAccount, amount: Tokens(e8s: 1_000_000), fee: Tokens(e8s: 10_000),
                spender: nil),
            memo: 1234, createdAtTime: 1_728_037_586_000_000_000)
        #expect(Hex.encode(second.hash) == "e7fb27fc14d6439b3aceee0b88125d7f4ab902a583edfb2586ff8f32e9866f4b")
    }

    /// Every operation shape decodes back from its packed CBOR (stored blocks depend on it).
    @Test func packedCBORRoundTrips() throws {
        let a = Fixture.id(Fixture.alice)
        let b = Fixture.id(Fixture.bob)
        let operations: [Operation] = [
            .mint(to: a, amount: 5), .burn(from: a, amount: 7, spender: nil), .burn(from: a, amount: 7, spender: b),
            .transfer(from: a, to: b, amount: 1, fee: 10_000, spender: nil),
            .transfer(from: a, to: b, amount: 1, fee: 10_000, spender: b),
            .approve(from: a, spender: b, allowance: 3, expectedAllowance: nil, expiresAt: nil, fee: 10_000),
            .approve(from: a, spender: b, allowance: 3, expectedAllowance: 0, expiresAt: 99, fee: 10_000),
        ]
        for operation in operations {
            for tx in [
                Transaction(operation: operation),
                Transaction(operation: operation, memo: 9, icrc1Memo: [1, 2], createdAtTime: 5),
            ] {
                #expect(try Transaction(packedCBOR: tx.packedCBOR) == tx)
            }
        }
        #expect(throws: LedgerTrap.self) { try Transaction(packedCBOR: [0xa0]) }
    }

    @Test func blockEncodingChainsAndOmitsDefaults() {
        let tx = Transaction(operation: .mint(to: Fixture.id(Fixture.alice), amount: 5))
        let genesis = Block(parentHash: nil, transaction: tx, timestamp: 7)
        // Block{2: TimeStamp{1: 7}, 3: Transaction{2: Mint{2: AccountIdentifier{1: hash}, 3: Tokens{1: 5}}, 4: Memo{}}}
        let hash = Fixture.id(Fixture.alice).hash
        let mint: [UInt8] = [0x12, 30, 0x0a, 28] + hash + [0x1a, 2, 0x08, 5]
        let transaction: [UInt8] = [0x12, UInt8(mint.count)] + mint + [0x22, 0]
        #expect(genesis.protobufEncoding == [0x12, 2, 0x08, 7, 0x1a, UInt8(transaction.count)] + transaction)
        let next = Block(parentHash: genesis.hash, transaction: tx, timestamp: 8)
        #expect(next.protobufEncoding.starts(with: [0x0a, 34, 0x0a, 32] + genesis.hash))
    }
}
