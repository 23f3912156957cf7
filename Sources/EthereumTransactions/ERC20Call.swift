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
    public var signature: String {
        switch self {
        case .transfer: return "transfer(address,uint256)"
        case .transferFrom: return "transferFrom(address,address,uint256)"
        case .approve: return "approve(address,uint256)"
        case .balanceOf: return "balanceOf(address)"
        case .allowance: return "allowance(address,address)"
        case .totalSupply: return "totalSupply()"
        case .decimals: return "decimals()"
        case .symbol: return "symbol()"
        case .name: return "name()"
        }
    }

    /// The 4-byte function selector (`transfer` is `0xa9059cbb`).
    public var selector: [UInt8] { ABIWord.selector(signature) }

    /// Selector followed by the argument words.
    public func encoded() -> [UInt8] {
        var out = selector
        switch self {
        case .transfer(let to, let amount):
            out += ABIWord.address(to) + ABIWord.uint(amount)
        case .transferFrom(let from, let to, let amount):
            out += ABIWord.address(from) + ABIWord.address(to) + ABIWord.uint(amount)
        case .approve(let spender, let amount):
            out += ABIWord.address(spender) + ABIWord.uint(amount)
        case .balanceOf(let owner):
            out += ABIWord.address(owner)
        case .allowance(let owner, let spender):
            out += ABIWord.address(owner) + ABIWord.address(spender)
        case .totalSupply, .decimals, .symbol, .name:
            break
        }
        return out
    }

    /// Decodes calldata strictly: a known selector, exactly the argument words, clean address words.
    /// - Throws: ``ABIDecodingError``.
    public init(calldata: [UInt8]) throws(ABIDecodingError) {
        guard calldata.count >= 4 else {
            throw ABIDecodingError(.wrongLength(expected: 4, actual: calldata.count), at: 0)
        }
        let selector = Array(calldata[0..<4])
        guard let template = Self.templates.first(where: { $0.selector == selector }) else {
            throw ABIDecodingError(.unknownSelector(selector), at: 0)
        }
        try ABIWord.requireLength(calldata, 4 + 32 * template.words)
        switch template.call {
        case .transfer:
            self = .transfer(to: try ABIWord.readAddress(calldata, at: 4), amount: ABIWord.readUInt(calldata, at: 36))
        case .transferFrom:
            self = .transferFrom(
                from: try ABIWord.readAddress(calldata, at: 4), to: try ABIWord.readAddress(calldata, at: 36),
                amount: ABIWord.readUInt(calldata, at: 68))
        case .approve:
            self = .approve(
                spender: try ABIWord.readAddress(calldata, at: 4), amount: ABIWord.readUInt(calldata, at: 36))
        case .balanceOf:
            self = .balanceOf(owner: try ABIWord.readAddress(calldata, at: 4))
        case .allowance:
            self = .allowance(
                owner: try ABIWord.readAddress(calldata, at: 4), spender: try ABIWord.readAddress(calldata, at: 36))
        default:
            self = template.call
        }
    }

    /// One representative of each function, its selector and its argument word count.
    private static let templates: [(call: ERC20Call, selector: [UInt8], words: Int)] = {
        let calls: [(ERC20Call, Int)] = [
            (.transfer(to: .zero, amount: 0), 2), (.transferFrom(from: .zero, to: .zero, amount: 0), 3),
            (.approve(spender: .zero, amount: 0), 2), (.balanceOf(owner: .zero), 1),
            (.allowance(owner: .zero, spender: .zero), 2), (.totalSupply, 0), (.decimals, 0), (.symbol, 0),
            (.name, 0),
        ]
        return calls.map { ($0.0, $0.0.selector, $0.1) }
    }()
}
