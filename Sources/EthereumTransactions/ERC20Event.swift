import EthereumTypes
import KeccakHashing

/// The ERC-20 events as logs: topic 0 is keccak256 of the event signature, indexed addresses are the next
/// topics (left-padded to 32 bytes), and the amount is the 32-byte data.
public enum ERC20Event: Sendable, Hashable {
    /// `Transfer(address indexed from, address indexed to, uint256 value)`; mints come from the zero address.
    case transfer(from: Address, to: Address, value: UInt256)
    /// `Approval(address indexed owner, address indexed spender, uint256 value)`.
    case approval(owner: Address, spender: Address, value: UInt256)

    /// keccak256("Transfer(address,address,uint256)") = `0xddf252ad…`.
    public static let transferTopic = Keccak256.hash(utf8: "Transfer(address,address,uint256)")
    /// keccak256("Approval(address,address,uint256)") = `0x8c5be1e5…`.
    public static let approvalTopic = Keccak256.hash(utf8: "Approval(address,address,uint256)")

    public var topics: [[UInt8]] {
        switch self {
        case .transfer(let from, let to, _): return [Self.transferTopic, ABIWord.address(from), ABIWord.address(to)]
        case .approval(let owner, let spender, _):
            return [Self.approvalTopic, ABIWord.address(owner), ABIWord.address(spender)]
        }
    }

    public var data: [UInt8] {
        switch self {
        case .transfer(_, _, let value), .approval(_, _, let value): return ABIWord.uint(value)
        }
    }

    /// Decodes a log: three 32-byte topics (signature, two addresses) and one data word.
    /// - Throws: ``ABIDecodingError``.
    public init(topics: [[UInt8]], data: [UInt8]) throws(ABIDecodingError) {
        guard topics.count == 3, topics.allSatisfy({ $0.count == 32 }) else {
            throw ABIDecodingError(.wrongEvent, at: 0)
        }
        let first = try ABIWord.readAddress(topics[1], at: 0)
        let second = try ABIWord.readAddress(topics[2], at: 0)
        try ABIWord.requireLength(data, 32)
        let value = ABIWord.readUInt(data, at: 0)
        switch topics[0] {
        case Self.transferTopic: self = .transfer(from: first, to: second, value: value)
        case Self.approvalTopic: self = .approval(owner: first, spender: second, value: value)
        default: throw ABIDecodingError(.wrongEvent, at: 0)
        }
    }
}
