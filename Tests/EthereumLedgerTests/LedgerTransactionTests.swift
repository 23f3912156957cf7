import EthereumLedger
import EthereumTypes
import Testing

/// `LedgerTransaction` keeps its fields in one shared heap block (issue 17: copies are one reference); it must still
/// behave as a value.
@Suite struct LedgerTransactionTests {
    @Test func settingAFieldOfACopyLeavesTheOriginal() {
        let original = Fixtures.transfer(from: Fixtures.alice, nonce: 3)
        var copy = original
        #expect(copy == original)
        copy.nonce = 4
        copy.value = UInt256(7)
        copy.data = [1, 2, 3]
        copy.to = nil
        #expect(original.nonce == 3)
        #expect(original.value == Fixtures.gwei)
        #expect(original.data.isEmpty)
        #expect(original.to == Fixtures.bob)
        #expect(copy.nonce == 4 && copy.value == UInt256(7) && copy.data == [1, 2, 3] && copy.to == nil)
        #expect(copy != original)
    }

    @Test func equalityComparesFieldsNotIdentity() {
        let a = Fixtures.transfer(from: Fixtures.alice, nonce: 1)
        let b = Fixtures.transfer(from: Fixtures.alice, nonce: 1)  // built separately: another heap block
        #expect(a == b)
        var c = b
        c.s = UInt256(1)
        #expect(c != b)
        c.s = b.s
        #expect(c == b)  // equal again once every field matches, though the storage differs
    }
}
