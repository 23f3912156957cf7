import ABICoding
import EthereumTypes

/// The ERC-20 events as logs: topic 0 is keccak256 of the event signature, indexed addresses are the next
/// topics (left-padded to 32 bytes), and the amount is the 32-byte data.
public enum ERC20Event: Sendable, Hashable {
    /// `Transfer(address indexed from, address indexed to, uint256 value)`; mints come from the zero address.
    case transfer(from: Address, to: Address, value: UInt256)
    /// `Approval(address indexed owner, address indexed spender, uint256 value)`.
    case approval(owner: Address, spender: Address, value: UInt256)

    /// keccak256("Transfer(address,address,uint256)") = `0xddf252ad…`.
    public static let transferTopic = ABI.eventTopic("Transfer(address,address,uint256)")
    /// keccak256("Approval(address,address,uint256)") = `0x8c5be1e5…`.
    public static let approvalTopic = ABI.eventTopic("Approval(address,address,uint256)")

    public var topics: [[UInt8]] {
        switch self {
        case .transfer(let from, let to, _): return [Self.transferTopic, ABI.word(from), ABI.word(to)]
        case .approval(let owner, let spender, _):
            return [Self.approvalTopic, ABI.word(owner), ABI.word(spender)]
        }
    }

    public var data: [UInt8] {
        switch self {
        case .transfer(_, _, let value), .approval(_, _, let value): return ABI.word(value)
        }
    }

    /// Decodes a log: three 32-byte topics (signature, two addresses) and one data word.
    /// - Throws: ``ABIDecodingError``.
    public init(topics: [[UInt8]], data: [UInt8]) throws(ABIDecodingError) {
        guard topics.count == 3, topics.allSatisfy({ $0.count == 32 }) else {
            throw ABIDecodingError(.wrongEvent, at: 0)
        }
        let first = try ABIDecoder.decode(.address, from: topics[1][...]).addressValue
        let second = try ABIDecoder.decode(.address, from: topics[2][...]).addressValue
        let value = try ABIDecoder.decode(.uint256, from: data[...]).uintValue
        switch topics[0] {
        case Self.transferTopic: self = .transfer(from: first, to: second, value: value)
        case Self.approvalTopic: self = .approval(owner: first, spender: second, value: value)
        default: throw ABIDecodingError(.wrongEvent, at: 0)
        }
    }
}
