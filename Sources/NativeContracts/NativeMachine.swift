import EthereumTypes

/// Why a frame stopped early: a revert with data, or INVALID.
enum Halt: Error {
    case revert([UInt8])
    case invalid
}

/// A storage word of an account.
struct SlotKey: Hashable, Comparable {
    var address: Address
    var slot: UInt256

    static func < (a: SlotKey, b: SlotKey) -> Bool { a.address != b.address ? a.address < b.address : a.slot < b.slot }
}

/// The state of one top-level call while it runs: storage and balances as changed so far over the read-only
/// state, the warm sets of EIP-2929, gas, refund and logs. A frame that fails is undone by restoring the copy
/// taken before it (``NativeMachine/Journal``), keeping only the gas it used.
struct NativeMachine {
    let state: any ContractStateReading
    let environment: BlockEnvironment
    let registry: NativeContractRegistry

    /// What a failing frame restores.
    struct Journal {
        var slots: [SlotKey: UInt256]
        var balances: [Address: UInt256]
        var warmSlots: Set<SlotKey>
        var warmAccounts: Set<Address>
        var logs: [ContractLog]
        var refund: Int64
        var transfers: [ExecutionResult.ValueTransfer]
    }

    var journal: Journal
    /// Values at the start of the transaction of every word read or written (EIP-2200's "original").
    var originals: [SlotKey: UInt256] = [:]
    var gas: UInt64 = 0
    var depth = 0
    /// Every storage word and account the call touched, failed frames included (what geth's access-list tracer
    /// records from SLOAD/SSTORE and the account-touching opcodes); never undone.
    var accessedSlots: Set<SlotKey> = []
    var accessedAccounts: Set<Address> = []

    /// Sub-calls may nest this deep (Multicall3 calling itself); deeper calls fail as an EVM call past its
    /// depth limit does.
    static let maxDepth = 16

    init(
        state: any ContractStateReading, environment: BlockEnvironment, registry: NativeContractRegistry,
        origin: Address
    ) {
        self.state = state
        self.environment = environment
        self.registry = registry
        journal = Journal(
            slots: [:], balances: [:], warmSlots: [], warmAccounts: [origin, environment.coinbase], logs: [],
            refund: 0, transfers: [])
    }

    mutating func charge(_ amount: UInt64) { gas &+= amount }

    // MARK: Storage and balances

    mutating func load(_ address: Address, _ slot: UInt256) -> UInt256 {
        let key = SlotKey(address: address, slot: slot)
        accessedSlots.insert(key)
        if journal.warmSlots.insert(key).inserted { charge(GasModel.coldSload) } else { charge(GasModel.warmAccess) }
        return current(key)
    }

    func current(_ key: SlotKey) -> UInt256 {
        if let value = journal.slots[key] { return value }
        if let value = originals[key] { return value }
        return state.storage(key.address, slot: key.slot)
    }

    mutating func store(_ address: Address, _ slot: UInt256, _ value: UInt256) {
        let key = SlotKey(address: address, slot: slot)
        accessedSlots.insert(key)
        if journal.warmSlots.insert(key).inserted { charge(GasModel.coldSload) }
        let original = originals[key] ?? state.storage(address, slot: slot)
        originals[key] = original
        let (cost, refund) = GasModel.sstore(original: original, current: current(key), new: value)
        charge(cost)
        journal.refund += refund
        journal.slots[key] = value
    }

    func balance(_ address: Address) -> UInt256 { journal.balances[address] ?? state.balance(address) }

    /// Touches `address` (EIP-2929): 2,600 the first time, 100 after.
    mutating func access(_ address: Address) {
        accessedAccounts.insert(address)
        charge(journal.warmAccounts.insert(address).inserted ? GasModel.coldAccountAccess : GasModel.warmAccess)
    }

    /// Moves `amount` wei; false (nothing moved) when `from` has less.
    mutating func transfer(_ amount: UInt256, from: Address, to: Address) -> Bool {
        guard !amount.isZero else { return true }
        let fromBalance = balance(from)
        guard fromBalance >= amount else { return false }
        journal.balances[from] = fromBalance - amount
        let (sum, overflow) = balance(to).addingReportingOverflow(amount)
        guard !overflow else { return false }
        journal.balances[to] = sum
        journal.transfers.append(.init(from: from, to: to, amount: amount))
        return true
    }

    mutating func emit(_ address: Address, _ topics: [[UInt8]], _ data: [UInt8]) {
        charge(GasModel.log(topics: topics.count, dataBytes: data.count))
        journal.logs.append(ContractLog(address: address, topics: topics, data: data))
    }

    // MARK: Calls

    enum FrameResult {
        case success([UInt8])
        case revert([UInt8])
        case invalid

        var succeeded: Bool {
            if case .success = self { return true }
            return false
        }

        var output: [UInt8] {
            switch self {
            case .success(let d), .revert(let d): return d
            case .invalid: return []
            }
        }
    }

    /// Runs `call` as a frame: its value moves first; a failure undoes everything the frame did but its gas.
    mutating func run(_ call: NativeCall) -> FrameResult {
        let saved = journal
        guard depth < Self.maxDepth else { return .revert([]) }
        depth += 1
        defer { depth -= 1 }
        guard transfer(call.value, from: call.caller, to: call.target) else {
            journal = saved
            return .revert([])
        }
        var result: FrameResult
        do throws(Halt) {
            switch registry.contract(at: call.target) {
            case .token(let token):
                var contract = TokenContract(token: token)
                result = .success(try contract.execute(call, in: &self))
            case .multicall3:
                result = .success(try Multicall3.execute(call, in: &self))
            case .collection(let collection) where collection.standard == .erc721:
                result = .success(try ERC721Contract(collection: collection).execute(call, in: &self))
            case .collection(let collection):
                result = .success(try ERC1155Contract(collection: collection).execute(call, in: &self))
            case nil:
                // No native code here: an account without code (or genesis code Sandnet does not run) answers
                // success with no data, as a CALL to an account without code does.
                result = .success([])
            }
        } catch {
            switch error {
            case .revert(let data): result = .revert(data)
            case .invalid: result = .invalid
            }
        }
        if !result.succeeded { journal = saved }
        return result
    }

    /// The result of the top-level call.
    func result(_ frame: FrameResult) -> ExecutionResult {
        var result = outcomeResult(frame)
        var accessed: [Address: [UInt256]] = [:]
        for address in accessedAccounts { accessed[address] = [] }
        for key in accessedSlots.sorted() { accessed[key.address, default: []].append(key.slot) }
        result.accessed = accessed
        return result
    }

    private func outcomeResult(_ frame: FrameResult) -> ExecutionResult {
        let outcome: ExecutionResult.Outcome
        switch frame {
        case .success(let data): outcome = .success(returnData: data)
        case .revert(let data): outcome = .revert(data: data)
        case .invalid: outcome = .invalidOpcode
        }
        guard frame.succeeded else {
            return ExecutionResult(
                outcome: outcome, gasUsed: gas, refund: 0, storageWrites: [], valueTransfers: [], logs: [])
        }
        let writes = journal.slots.keys.sorted().compactMap { key -> ExecutionResult.StorageWrite? in
            let value = journal.slots[key]!
            return value == (originals[key] ?? state.storage(key.address, slot: key.slot))
                ? nil : .init(address: key.address, slot: key.slot, value: value)
        }
        return ExecutionResult(
            outcome: outcome, gasUsed: gas, refund: UInt64(max(0, journal.refund)), storageWrites: writes,
            valueTransfers: journal.transfers, logs: journal.logs)
    }
}
