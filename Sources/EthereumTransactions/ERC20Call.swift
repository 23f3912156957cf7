import ABICoding
import EthereumTypes

/// Calldata of the ERC-20 functions (EIP-20), encoded per the Solidity ABI: a 4-byte selector
/// (first bytes of keccak256 of the signature) followed by one 32-byte word per argument.
public enum ERC20Call: Sendable, Hashable {
    case transfer(to: Address, amount: UInt256)
    case transferFrom(from: Address, to: Address, amount: UInt256)
    case approve(spender: Address, amount: UInt256)
    case balanceOf(owner: Address)
    case allowance(owner: Address, spender: Address)
    case totalSupply
    case decimals
    case symbol
    case name

    /// The canonical signature, e.g. `transfer(address,uint256)`.
    public var signature: String { function.canonical }

    /// The function, with its argument types.
    public var function: ABISignature {
        switch self {
        case .transfer: return Self.functions[0]
        case .transferFrom: return Self.functions[1]
        case .approve: return Self.functions[2]
        case .balanceOf: return Self.functions[3]
        case .allowance: return Self.functions[4]
        case .totalSupply: return Self.functions[5]
        case .decimals: return Self.functions[6]
        case .symbol: return Self.functions[7]
        case .name: return Self.functions[8]
        }
    }

    /// The 4-byte function selector (`transfer` is `0xa9059cbb`).
    public var selector: [UInt8] { function.selector }

    /// Selector followed by the argument words.
    public func encoded() -> [UInt8] {
        var out = selector
        switch self {
        case .transfer(let to, let amount): out += ABI.word(to) + ABI.word(amount)
        case .transferFrom(let from, let to, let amount): out += ABI.word(from) + ABI.word(to) + ABI.word(amount)
        case .approve(let spender, let amount): out += ABI.word(spender) + ABI.word(amount)
        case .balanceOf(let owner): out += ABI.word(owner)
        case .allowance(let owner, let spender): out += ABI.word(owner) + ABI.word(spender)
        case .totalSupply, .decimals, .symbol, .name: break
        }
        return out
    }

    /// Decodes calldata strictly: a known selector, exactly the argument words, clean address words.
    /// - Throws: ``ABIDecodingError``; offsets count from the selector.
    public init(calldata: [UInt8]) throws(ABIDecodingError) {
        guard calldata.count >= 4 else {
            throw ABIDecodingError(.wrongLength(expected: 4, actual: calldata.count), at: 0)
        }
        guard let function = Self.functions.first(where: { calldata[0..<4].elementsEqual($0.selector) }) else {
            throw ABIDecodingError(.unknownSelector(Array(calldata[0..<4])), at: 0)
        }
        let a = try function.decodeCall(calldata)
        switch function.name {
        case "transfer": self = .transfer(to: a[0].addressValue, amount: a[1].uintValue)
        case "transferFrom":
            self = .transferFrom(from: a[0].addressValue, to: a[1].addressValue, amount: a[2].uintValue)
        case "approve": self = .approve(spender: a[0].addressValue, amount: a[1].uintValue)
        case "balanceOf": self = .balanceOf(owner: a[0].addressValue)
        case "allowance": self = .allowance(owner: a[0].addressValue, spender: a[1].addressValue)
        case "totalSupply": self = .totalSupply
        case "decimals": self = .decimals
        case "symbol": self = .symbol
        default: self = .name
        }
    }

    /// EIP-20's functions with their outputs, in the order of the cases.
    public static let functions: [ABISignature] = [
        ABISignature(literal: "transfer(address,uint256)(bool)"),
        ABISignature(literal: "transferFrom(address,address,uint256)(bool)"),
        ABISignature(literal: "approve(address,uint256)(bool)"),
        ABISignature(literal: "balanceOf(address)(uint256)"),
        ABISignature(literal: "allowance(address,address)(uint256)"),
        ABISignature(literal: "totalSupply()(uint256)"),
        ABISignature(literal: "decimals()(uint8)"),
        ABISignature(literal: "symbol()(string)"),
        ABISignature(literal: "name()(string)"),
    ]
}
