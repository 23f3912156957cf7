import EthereumTypes

/// A log a native contract emitted (`LOGn`): the contract's address, up to four 32-byte topics, the data.
public struct ContractLog: Sendable, Equatable {
    public var address: Address
    public var topics: [[UInt8]]
    public var data: [UInt8]

    public init(address: Address, topics: [[UInt8]], data: [UInt8]) {
        self.address = address
        self.topics = topics
        self.data = data
    }
}
