import EthereumTypes
import Synchronization

/// Which addresses the node sends from without their keys (Anvil's impersonation): eth_sendTransaction and
/// eth_sendUnsignedTransaction from such an address carry a placeholder signature and the sender as given; the
/// ledger never recovers a sender (it keeps the one admission gave it, on disk too).
///
/// Lock: its one lock is taken alone.
public final class Impersonation: Sendable {
    struct State: Sendable {
        var automatic: Bool
        var addresses: Set<Address> = []

        func covers(_ address: Address) -> Bool { automatic || addresses.contains(address) }
    }

    /// Most addresses impersonated at once (anvil_impersonateAccount); auto-impersonation needs no entry.
    public static let limit = 10_000

    private let state: Mutex<State>

    init(automatic: Bool) { state = Mutex(State(automatic: automatic)) }

    /// anvil_impersonateAccount: eth_sendTransaction from `address` works without its key.
    ///
    /// - Throws: ``NodeError/tooManyImpersonatedAccounts(limit:)`` over ``limit`` addresses.
    public func impersonate(_ address: Address) throws(NodeError) {
        try state.withLock { (state) throws(NodeError) in
            guard state.addresses.count < Self.limit || state.addresses.contains(address) else {
                throw .tooManyImpersonatedAccounts(limit: Self.limit)
            }
            state.addresses.insert(address)
        }
    }

    /// anvil_stopImpersonatingAccount.
    public func stop(_ address: Address) { _ = state.withLock { $0.addresses.remove(address) } }

    /// anvil_autoImpersonateAccount: every address is impersonated while on.
    public func setAutomatic(_ on: Bool) { state.withLock { $0.automatic = on } }

    public func covers(_ address: Address) -> Bool { state.withLock { $0.covers(address) } }

    /// Addresses impersonated one by one now.
    public var count: Int { state.withLock { $0.addresses.count } }
}
