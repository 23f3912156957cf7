/// Bounds of the local relay (README, "WalletConnect v2"); each error that hits one names it.
public struct RelayLimits: Sendable, Equatable {
    /// Largest `message` (base64 text) of one publish. The hosted relay's bound is not public; an envelope of a
    /// large eth_signTypedData_v4 is a few tens of kilobytes.
    public var maxMessageBytes = 256 * 1_024
    /// Topics one connection may be subscribed to.
    public var maxTopicsPerConnection = 1_000
    /// Messages stored per topic (the mailbox).
    public var maxMessagesPerTopic = 1_000
    /// Bytes of message text stored in all mailboxes together.
    public var maxMailboxBytes = 64 << 20
    /// Deliveries sent to one connection and not yet acknowledged.
    public var maxPendingPerConnection = 10_000
    /// Items in one batch call (reown's `irn_batchSubscribe` limit).
    public var maxBatch = 500
    /// Longest TTL a publish may ask for, in seconds (30 days).
    public var maxTTL: Int64 = 30 * 86_400
    /// An unacknowledged delivery is sent again after this many milliseconds ...
    public var redeliveryInterval: Int64 = 5_000
    /// ... at most this many times in all, then dropped for that connection (it stays in the mailbox).
    public var maxDeliveryAttempts = 3
    /// Publishes kept in the relay's log (``RelayCore/log``), oldest dropped first.
    public var logSize = 1_000

    public init() {}
}
