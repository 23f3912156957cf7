import ABICoding
import ByteCoding
import EthereumTypes
import NativeContracts
import Testing

/// Issue 38: Multicall3's ABI lets the elements of an array share one offset, so an `aggregate3` nested a dozen deep
/// whose elements all point at one tuple is ~6 KB of calldata naming ~10^10 sub-calls. The decoder's budget refuses
/// it at the first level, before any sub-call runs, with a reason that names the limit.
@Suite struct Multicall3AmplificationTests {
    static let multicall = NativeContractRegistry.multicall3Address

    /// `aggregate3` calldata (built by hand, not by the codec under test) of `width` elements that all point at one
    /// tuple `(Multicall3, true, inner)`: a CALL of `inner` to Multicall3 itself.
    static func sharedAggregate3(width: Int, inner: [UInt8]) -> [UInt8] {
        func word(_ v: Int) -> [UInt8] { UInt256(UInt64(v)).bigEndianBytes }
        let padded = inner + [UInt8](repeating: 0, count: (32 - inner.count % 32) % 32)
        var out = Native.bytes("82ad56cb") + word(32) + word(width)
        for _ in 0..<width { out += word(32 * width) }  // every element's offset: the one tuple after the heads
        out += [UInt8](repeating: 0, count: 12) + multicall.bytes + word(1) + word(96) + word(inner.count) + padded
        return out
    }

    /// `depth` levels of `sharedAggregate3` around `getBlockNumber()`.
    static func nested(depth: Int, width: Int) -> [UInt8] {
        var data = Native.bytes("42cbb15c")  // getBlockNumber()
        for _ in 0..<depth { data = sharedAggregate3(width: width, inner: data) }
        return data
    }

    static func refusal(_ calldata: [UInt8]) -> [UInt8] {
        let limit = calldata.count - 4
        let reason = "ABI data decodes to more than \(limit) bytes (elements share offsets)"
        // The second element's bytes: selector 4 + offset and length 64 + 8 offsets 256 + address, bool, offset 96.
        let at = 420
        return ABI.errorString("Multicall3: \(reason); refused at byte \(at)")
    }

    @Test func twelveLevelsOfSharedOffsetsAreRefusedAtOnce() {
        var h = TokenHarness(Native.token(.openZeppelin5), multicall3: true)
        let calldata = Self.nested(depth: 12, width: 8)  // 8^12 ≈ 6.9 × 10^10 sub-calls if decoded naively
        #expect(calldata.count > 5_000 && calldata.count < 7_000)
        let r = h.run(from: Native.alice, to: Self.multicall, calldata)
        #expect(r.outcome == .revert(data: Self.refusal(calldata)))
        #expect(r.gasUsed < 10_000)
    }

    /// Three levels (512 sub-calls) ran and succeeded before the budget; now refused like twelve.
    @Test func threeLevelsAreRefusedToo() {
        var h = TokenHarness(Native.token(.openZeppelin5), multicall3: true)
        let calldata = Self.nested(depth: 3, width: 8)
        #expect(
            h.run(from: Native.alice, to: Self.multicall, calldata).outcome == .revert(data: Self.refusal(calldata)))
    }

    /// Nesting without sharing still runs: twelve levels of one element each answer the innermost block number.
    @Test func nestingWithoutSharingRuns() throws {
        var h = TokenHarness(Native.token(.openZeppelin5), multicall3: true)
        let calldata = Self.nested(depth: 12, width: 1)
        let r = h.run(from: Native.alice, to: Self.multicall, calldata)
        guard case .success(let data) = r.outcome else {
            Issue.record("expected success, got \(r.outcome)")
            return
        }
        var output = data
        let results = try ABIType(parsing: "(bool,bytes)[]")
        for _ in 0..<12 {
            let decoded = try ABIDecoder.decode(results, from: output[...]).elements
            #expect(decoded.count == 1)
            #expect(decoded[0].elements[0] == .bool(true))
            output = decoded[0].elements[1].bytesValue
        }
        #expect(output == Native.word(UInt256(5)))
    }
}
