import EthereumTypes
import ScenarioRunner
import Testing

@Suite struct AmountExpressionTests {
    static let here = SourceLocation(file: "t", line: 1, column: 1)

    func fold(_ text: String) throws -> SignedAmount {
        let expression = try AmountExpression(parsing: text, at: Self.here)
        func eval(_ term: AmountExpression.Term) -> SignedAmount {
            switch term {
            case .literal(let v): return v
            case .negate(let t):
                let v = eval(t)
                return SignedAmount(v.magnitude, negative: !v.negative)
            case .binary(let op, let a, let b):
                let (l, r) = (eval(a), eval(b))
                switch op {
                case "*": return SignedAmount(l.magnitude * r.magnitude, negative: l.negative != r.negative)
                case "/": return SignedAmount(l.magnitude / r.magnitude, negative: l.negative != r.negative)
                default:
                    let rr = op == "-" ? SignedAmount(r.magnitude, negative: !r.negative) : r
                    if l.negative == rr.negative {
                        return SignedAmount(l.magnitude + rr.magnitude, negative: l.negative)
                    }
                    return l.magnitude >= rr.magnitude
                        ? SignedAmount(l.magnitude - rr.magnitude, negative: l.negative)
                        : SignedAmount(rr.magnitude - l.magnitude, negative: rr.negative)
                }
            default: return .zero
            }
        }
        return eval(expression.term)
    }

    @Test func unitsAndPrecedence() throws {
        #expect(try fold("1 ether - 0.1 ether") == SignedAmount(UInt256(900_000_000_000_000_000 as UInt64)))
        #expect(try fold("2 * 3 gwei + 1") == SignedAmount(UInt256(6_000_000_001 as UInt64)))
        #expect(try fold("(1 + 2) * 3") == SignedAmount(UInt256(9)))
        #expect(try fold("-(0.5 ether)") == SignedAmount(UInt256(500_000_000_000_000_000 as UInt64), negative: true))
        #expect(try fold("0x10 + 1_000") == SignedAmount(UInt256(1_016)))
        #expect(try fold("21000 × 2 gwei") == SignedAmount(UInt256(42_000_000_000_000 as UInt64)))
    }

    @Test func referencesAndCallsAreCollected() throws {
        let e = try AmountExpression(
            parsing: "1 ether - fee(send1) + ${tip} + balance(alice) + baseFee()", at: Self.here)
        #expect(e.references == ["tip"])
        #expect(e.calls.map(\.name) == ["fee", "balance", "baseFee"])
        #expect(e.calls.map(\.argument) == ["send1", "alice", nil])
    }

    @Test func errorsCarryOffsets() {
        for (text, message, offset) in [
            ("1 ehter", "unknown unit 'ehter' (use wei, kwei, mwei, gwei, szabo, finney, ether, or ICP and e8s)", 2),
            ("1 +", "expression ends early (expected a value)", 3),
            ("fee()", "fee(…) needs a step id, as in fee(send1)", 4),
            (
                "feee(x)",
                "unknown function 'feee' (known: balance, baseFee, blockBaseFee, blockNumber, fee, gasPrice, gasUsed, nextBaseFee, value)",
                0
            ),
            ("1.5", "'1.5' is not an amount: more than 0 decimal places for this unit", 0),
            ("2 2", "unexpected '2' (expected an operator + - * /)", 2),
        ] {
            #expect(throws: ExpressionError(message, offset: offset)) {
                try AmountExpression(parsing: text, at: Self.here)
            }
        }
    }

    @Test func signedAmountDescription() {
        #expect(SignedAmount(UInt256(5)).description == "5")
        #expect(
            SignedAmount(UInt256(1_500_000_000_000_000_000 as UInt64), negative: true).description
                == "-1500000000000000000 (-1.5 ether)")
    }
}
