/// Faults the relay injects into its deliveries (README, "WalletConnect v2", faults), as scriptable as the
/// provider faults: counts of the next deliveries or acknowledgements to disturb. A pure value; the relay core
/// applies it and counts each use down.
public struct RelayFaults: Sendable, Equatable {
    /// Drop the next N deliveries (`irn_subscription` never sent; the message stays in the mailbox).
    public var dropDeliveries = 0
    /// Send each of the next N deliveries twice (the second with a fresh id, as a relay retry would).
    public var duplicateDeliveries = 0
    /// Hold each of the next N deliveries back until the delivery after it has been sent (reorder).
    public var reorderDeliveries = 0
    /// Hold each of the next N deliveries for ``delayMilliseconds`` (released by the relay's tick).
    public var delayDeliveries = 0
    public var delayMilliseconds: Int64 = 2_000
    /// Answer none of the next N publishes (the publisher's SDK times out: reown-swift after 60 s).
    public var withholdPublishAcks = 0
    /// Close the next N connections that publish, right after the publish is stored.
    public var closeOnPublish = 0
    /// Drop the next N publishes whose topic is a session topic and whose tag is 1112 (`wc_sessionDelete`).
    public var loseSessionDeletes = 0

    public init() {}

    /// Whether any fault is still armed.
    public var isEmpty: Bool {
        var zero = self
        zero.delayMilliseconds = RelayFaults().delayMilliseconds
        return zero == RelayFaults()
    }
}
