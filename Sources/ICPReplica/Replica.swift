import ByteCoding
import CBORCoding
import CryptoCore
import ICPIdentity
import ICPLedger
import ICPLedgerService
import ICPLedgerStorage

/// A development replica hosting the ICP ledger canister behind the IC HTTP interface (interface spec §HTTP
/// interface): `status`, `query`, `call` (asynchronous v2 and synchronous v3/v4) and `read_state` with request
/// statuses, over one in-process ``LedgerService`` whose ledger a ``PersistentICPLedger`` owns: an update's changes
/// are written (when the ledger is kept in a store) and only then committed; a failed write answers the call with
/// ``LedgerService/storageReject(_:)`` and changes nothing.
///
/// Lock order: the replica's state lock, then the ledger owner's lock (never the other way round).
///
/// Calls execute when they arrive (there are no rounds), so a `/call` that answered 202 already has its status in
/// the state tree. Envelopes are authenticated as the replica does (``Envelope/authenticate(now:maxExpiryAhead:)``);
/// certificates are BLS-signed with ``DevelopmentKeys`` (verifiable against the root key in `/api/v2/status`).
///
/// Response bodies are plain CBOR maps, without the self-describe tag: cbor2 ≥ 6 decodes a tagged map as an
/// immutable `frozendict`, which ic-py 1.0.1's `type(result) != dict` check rejects. Certificates keep the tag.
public final class Replica: Sendable {
    public struct Configuration: Sendable {
        /// How far in the future an `ingress_expiry` may lie: 5 minutes plus 30 seconds of drift (ic
        /// `MAX_INGRESS_TTL` + `PERMITTED_DRIFT_AT_VALIDATOR`).
        public var maxExpiryAhead: UInt64 = 330 * 1_000_000_000
        /// How long a request status stays readable after the request's expiry.
        public var statusRetention: UInt64 = 300 * 1_000_000_000
        public var keys = DevelopmentKeys.standard
        /// The certified `/time` advances in steps of this many nanoseconds (the IC's batch time advances per
        /// round), so reads of one state within a step share one signed root. 1 s by default; 1 certifies the
        /// clock to the nanosecond.
        public var timeTick: UInt64 = 1_000_000_000
        /// The id of the one (root) subnet; `/subnet/<id>/public_key` is the root key.
        public var subnetID: Principal = DevelopmentKeys.defaultSubnetID
        public var implementationVersion = "sandnet"

        public init() {}
    }

    /// The outcome of an update call, as kept under `/request_status/<id>`.
    public struct RequestRecord: Sendable, Equatable {
        public var sender: Principal
        public var expiry: UInt64
        public var response: CanisterResponse
    }

    struct State {
        var records: [[UInt8]: RequestRecord] = [:]
        /// Request ids in arrival order, for pruning.
        var order: [[UInt8]] = []
        var orderStart = 0
        /// Added to the clock for the ledger (not for ingress expiry checks): `sandnet_icpIncreaseTime`.
        var ledgerTimeOffset: UInt64 = 0
    }

    public let configuration: Configuration
    /// Queries and reads share it; calls and other changes hold it exclusively (so no read holds a copy of the
    /// ledger while a call commits to it).
    let state: ReplicaStateLock<State>
    /// The ledger canister's state and its storage.
    public let ledger: PersistentICPLedger
    let clock: @Sendable () -> UInt64

    /// - Parameters:
    ///   - ledger: the ledger's owner (in memory or over a store).
    ///   - clock: nanoseconds since the epoch (the ledger time and the certified `/time`).
    public init(
        ledger: PersistentICPLedger, configuration: Configuration = Configuration(),
        clock: @escaping @Sendable () -> UInt64
    ) {
        self.configuration = configuration
        self.state = ReplicaStateLock(State())
        self.ledger = ledger
        self.clock = clock
    }

    /// A replica over `service`'s ledger, kept in memory only.
    public convenience init(
        service: LedgerService, configuration: Configuration = Configuration(), clock: @escaping @Sendable () -> UInt64
    ) {
        self.init(ledger: PersistentICPLedger(service.ledger), configuration: configuration, clock: clock)
    }

    public var canisterID: Principal { LedgerService.canisterID }
    /// The ledger canister's id (ryjl3-tyaaa-aaaaa-aaaba-cai, as on mainnet).
    public static var ledgerCanisterID: Principal { LedgerService.canisterID }
    public var now: UInt64 { clock() }
    /// The ledger's time: the clock plus every ``increaseLedgerTime(by:)``.
    public var ledgerNow: UInt64 { Self.shifted(clock(), by: state.withReadLock { $0.ledgerTimeOffset }) }

    /// The ledger's clock never passes 2^64 − 1 ns after the epoch (2554-07-21T23:34:33Z): ICP timestamps are
    /// `nat64` nanoseconds.
    public static let maxLedgerTime = UInt64.max

    /// `now + offset`, stopping at ``maxLedgerTime`` rather than wrapping (the clock never runs backwards).
    static func shifted(_ now: UInt64, by offset: UInt64) -> UInt64 {
        let (sum, overflow) = now.addingReportingOverflow(offset)
        return overflow ? maxLedgerTime : sum
    }

    /// Moves the ledger's clock forward (deduplication windows, approval expiries) without touching the time
    /// ingress expiries are checked against.
    ///
    /// - Returns: The total offset in nanoseconds, or nil (and nothing changes) when the ledger's clock would
    ///   pass ``maxLedgerTime``.
    @discardableResult
    public func increaseLedgerTime(by nanos: UInt64) -> UInt64? {
        let now = clock()
        return state.withLock { state -> UInt64? in
            let (offset, o1) = state.ledgerTimeOffset.addingReportingOverflow(nanos)
            let (_, o2) = now.addingReportingOverflow(offset)
            guard !o1 && !o2 else { return nil }
            state.ledgerTimeOffset = offset
            return offset
        }
    }

    /// Mints `amount` to `account` as the minting account at the ledger's time (faucets, tests): one block, written
    /// and then committed under the replica's lock.
    ///
    /// - Returns: the block index.
    /// - Throws: ``MintError``: the ledger refused (an overflow) or its storage failed; nothing changed then.
    @discardableResult
    public func mint(to account: AccountIdentifier, amount: Tokens) throws(MintError) -> UInt64 {
        let clockNow = clock()
        return try state.withLock { state throws(MintError) -> UInt64 in
            let now = Self.shifted(clockNow, by: state.ledgerTimeOffset)
            let minted: Result<UInt64, LedgerTrap>
            do throws(ICPLedgerStorageError) {
                minted = try ledger.perform { ledger in
                    do throws(LedgerTrap) {
                        return try ledger.mint(to: account, amount: amount, now: now).map { .success($0) }
                    } catch {
                        return LedgerOutcome(.failure(error))
                    }
                }
            } catch {
                throw .storage(error)
            }
            switch minted {
            case .success(let index): return index
            case .failure(let trap): throw .refused(trap)
            }
        }
    }

    /// Why ``mint(to:amount:)`` changed nothing.
    public enum MintError: Error, Hashable, Sendable, CustomStringConvertible {
        case refused(LedgerTrap)
        case storage(ICPLedgerStorageError)

        public var description: String {
            switch self {
            case .refused(let trap): return trap.message
            case .storage(let error): return error.description
            }
        }
    }

    /// Runs `body` on the ledger service (the ledger as last committed) under the replica's lock, held exclusively:
    /// no call runs meanwhile.
    public func withService<T>(_ body: (LedgerService) throws -> T) rethrows -> T {
        try state.withLock { _ in try body(LedgerService(ledger: ledger.ledger)) }
    }

    /// Runs `body` on the ledger service with the replica's lock shared: reads run concurrently with each other
    /// and with queries, and wait only for calls.
    public func readService<T>(_ body: (LedgerService) throws -> T) rethrows -> T {
        try state.withReadLock { _ in try body(LedgerService(ledger: ledger.ledger)) }
    }

    /// An update on the ledger: its changes written, then committed; a failed write is answered with
    /// ``LedgerService/storageReject(_:)``. The caller holds the state lock exclusively.
    func update(method: String, arg: [UInt8], caller: Principal, now: UInt64) -> CanisterResponse {
        do {
            return try ledger.perform { ledger in
                LedgerService(ledger: ledger).update(method: method, arg: arg, caller: caller, now: now)
            }
        } catch {
            return LedgerService.storageReject(error.description)
        }
    }

    /// A query on the ledger as last committed. The caller holds the state lock (either side).
    func query(method: String, arg: [UInt8], caller: Principal, now: UInt64) -> CanisterResponse {
        LedgerService(ledger: ledger.ledger).query(method: method, arg: arg, caller: caller, now: now)
    }

    // MARK: In-process calls (no envelope)

    /// A call as `caller` without HTTP or signatures: what scenarios and the command line use in-process.
    public func call(method: String, arg: [UInt8], caller: Principal, kind: CallKind) -> CanisterResponse {
        let clockNow = clock()
        switch kind {
        case .query:
            return state.withReadLock { state in
                query(method: method, arg: arg, caller: caller, now: Self.shifted(clockNow, by: state.ledgerTimeOffset))
            }
        case .update:
            return state.withLock { state in
                update(
                    method: method, arg: arg, caller: caller, now: Self.shifted(clockNow, by: state.ledgerTimeOffset))
            }
        }
    }

    // MARK: HTTP endpoints

    /// `GET /api/v2/status`: CBOR with the root key, as dev replicas serve it.
    public func status() -> ReplicaResponse {
        let body = CBORValue.map([
            "ic_api_version": .text("0.18.0"),
            "impl_source": .text("https://github.com/sandnet"),
            "impl_version": .text(configuration.implementationVersion),
            "replica_health_status": .text("healthy"),
            "root_key": .bytes(configuration.keys.rootKey),
        ])
        return .cbor(CBOREncoder.encode(body))
    }

    /// `POST /api/v2/canister/<ecid>/query` (and v3).
    public func query(effectiveCanister: String, body: [UInt8]) -> ReplicaResponse {
        do {
            let (envelope, now) = try authenticated(body, kind: .query, effectiveCanister: effectiveCanister)
            let request = envelope.request
            let response: CanisterResponse
            if request.canisterID == canisterID {
                // The shared side: queries run concurrently with each other (only calls hold the lock exclusively).
                response = state.withReadLock {
                    query(
                        method: request.methodName ?? "", arg: request.arg ?? [], caller: request.sender,
                        now: Self.shifted(now, by: $0.ledgerTimeOffset))
                }
            } else {
                response = Self.canisterNotFound(request.canisterID)
            }
            return .cbor(CBOREncoder.encode(queryResponse(response, requestID: request.id, now: now)))
        } catch {
            return .error(error)
        }
    }

    /// `POST /api/v2/canister/<ecid>/call` (202, `synchronous: false`) or v3/v4 (`synchronous: true`: 200 with
    /// `{status: "replied", certificate}`).
    public func call(effectiveCanister: String, body: [UInt8], synchronous: Bool) -> ReplicaResponse {
        do {
            let (envelope, now) = try authenticated(body, kind: .call, effectiveCanister: effectiveCanister)
            let request = envelope.request
            let canisterID = self.canisterID
            let retention = configuration.statusRetention
            state.withLock { state in
                Self.prune(&state, now: now, retention: retention)
                guard state.records[request.id] == nil else { return }  // a resubmission runs once
                let response: CanisterResponse
                if request.canisterID == canisterID {
                    response = update(
                        method: request.methodName ?? "", arg: request.arg ?? [], caller: request.sender,
                        now: Self.shifted(now, by: state.ledgerTimeOffset))
                } else {
                    response = Self.canisterNotFound(request.canisterID)
                }
                state.records[request.id] = RequestRecord(
                    sender: request.sender, expiry: request.ingressExpiry, response: response)
                state.order.append(request.id)
            }
            guard synchronous else { return .accepted }
            let tree = try stateTree(
                paths: [[Array("request_status".utf8), request.id]], sender: request.sender, now: now)
            let certificate = configuration.keys.certificate(for: tree.hashTree)
            return .cbor(
                CBOREncoder.encode(.map(["status": .text("replied"), "certificate": .bytes(certificate)])))
        } catch {
            return .error(error)
        }
    }

    /// `POST /api/v2/canister/<ecid>/read_state` (and v3, and `/subnet/<id>/read_state`).
    public func readState(effectiveCanister: String?, body: [UInt8]) -> ReplicaResponse {
        do {
            let (envelope, now) = try authenticated(body, kind: .readState, effectiveCanister: effectiveCanister)
            let tree = try stateTree(paths: envelope.request.paths, sender: envelope.request.sender, now: now)
            let certificate = configuration.keys.certificate(for: tree.hashTree)
            return .cbor(CBOREncoder.encode(.map(["certificate": .bytes(certificate)])))
        } catch {
            return .error(error)
        }
    }

    /// The status of an update call, if the replica still holds it.
    public func requestStatus(_ requestID: [UInt8]) -> RequestRecord? {
        state.withReadLock { $0.records[requestID] }
    }

    // MARK: Internals

    func authenticated(_ body: [UInt8], kind: IngressRequest.Kind, effectiveCanister: String?) throws(ReplicaError)
        -> (Envelope, UInt64)
    {
        var effective: Principal?
        if let effectiveCanister {
            do { effective = try Principal(text: effectiveCanister) } catch {
                throw .notFound("Invalid effective canister id \(effectiveCanister): \(error)")
            }
        }
        let envelope = try Envelope(cbor: body, kind: kind)
        let now = clock()
        try envelope.authenticate(now: now, maxExpiryAhead: configuration.maxExpiryAhead)
        if let effective, let canister = envelope.request.canisterID, canister != effective {
            throw .canisterMismatch(url: effective.text, request: canister.text)
        }
        return (envelope, now)
    }

    static func canisterNotFound(_ canister: Principal?) -> CanisterResponse {
        .reject(
            code: .destinationInvalid, message: "Canister \(canister?.text ?? "aaaaa-aa") not found",
            errorCode: "IC0301")
    }

    static func prune(_ state: inout State, now: UInt64, retention: UInt64) {
        while state.orderStart < state.order.count {
            let id = state.order[state.orderStart]
            guard let record = state.records[id] else {
                state.orderStart += 1
                continue
            }
            guard record.expiry &+ retention < now else { break }
            state.records[id] = nil
            state.orderStart += 1
        }
        if state.orderStart > 4096 && state.orderStart * 2 > state.order.count {
            state.order.removeFirst(state.orderStart)
            state.orderStart = 0
        }
    }

    /// `{status, reply | reject_*, signatures}` with the node's signature over it.
    func queryResponse(_ response: CanisterResponse, requestID: [UInt8], now: UInt64) -> CBORValue {
        var fields: [(String, CBORValue)]
        switch response {
        case .reply(let arg):
            fields = [("status", .text("replied")), ("reply", .map(["arg": .bytes(arg)]))]
        case .reject(let code, let message, let errorCode):
            fields = [
                ("status", .text("rejected")), ("reject_code", .unsigned(code.rawValue)),
                ("reject_message", .text(message)),
            ]
            if let errorCode { fields.append(("error_code", .text(errorCode))) }
        }
        let signed = CBORValue.map(
            (fields + [("timestamp", .unsigned(now)), ("request_id", .bytes(requestID))]).map {
                CBORMapEntry(key: .text($0.0), value: $0.1)
            })
        // Every field is a text, blob, nat or map, so the hash exists.
        let hash = (try? RequestID.hashOfMap(signed)) ?? []
        let signature = CBORValue.map([
            "timestamp": .unsigned(now), "signature": .bytes(configuration.keys.signResponse(hash)),
            "identity": .bytes(configuration.keys.nodeID.bytes),
        ])
        fields.append(("signatures", .array([signature])))
        return .map(fields.map { CBORMapEntry(key: .text($0.0), value: $0.1) })
    }

    /// The part of the state tree that `paths` ask for, plus `/time` (always revealed).
    func stateTree(paths: [[[UInt8]]], sender: Principal, now: UInt64) throws(ReplicaError) -> StateTree {
        var tree = StateTree.node([:])
        let tick = max(configuration.timeTick, 1)
        tree.insert([Array("time".utf8)], .leaf(LEB128.unsigned(now - now % tick)))
        // Only the records asked for are read (copying the table would make the next call copy it again).
        let records = state.withReadLock { state in
            var asked: [[UInt8]: RequestRecord] = [:]
            for path in paths where path.count >= 2 && path[0] == Array("request_status".utf8) {
                asked[path[1]] = state.records[path[1]]
            }
            return asked
        }
        for path in paths {
            guard let first = path.first.map({ String(decoding: $0, as: UTF8.self) }) else { continue }
            switch first {
            case "request_status":
                guard path.count >= 2 else { continue }
                guard let record = records[path[1]] else { continue }
                guard record.sender == sender else {
                    throw .forbidden("Request IDs must be for requests signed by the caller.")
                }
                tree.insert([path[0], path[1]], Self.statusTree(record.response))
            case "canister":
                guard path.count >= 3, path[1] == canisterID.bytes else { continue }
                tree.insert(Array(path.prefix(2)), canisterTree())
            case "subnet":
                tree.insert([path[0], configuration.subnetID.bytes], subnetTree())
            default: continue
            }
        }
        return tree
    }

    static func statusTree(_ response: CanisterResponse) -> StateTree {
        switch response {
        case .reply(let arg):
            return .node([("status", .leaf(Array("replied".utf8))), ("reply", .leaf(arg))])
        case .reject(let code, let message, let errorCode):
            var children: [(String, StateTree)] = [
                ("status", .leaf(Array("rejected".utf8))), ("reject_code", .leaf(LEB128.unsigned(code.rawValue))),
                ("reject_message", .leaf(Array(message.utf8))),
            ]
            if let errorCode { children.append(("error_code", .leaf(Array(errorCode.utf8)))) }
            return .node(children)
        }
    }

    /// `/subnet/<id>`: the root key, the canister ranges (CBOR pairs of canister id bytes, covering every id of a
    /// local replica's first subnet, the ledger's among them) and the node key that signs query responses, which
    /// agents read to verify query signatures.
    func subnetTree() -> StateTree {
        let ranges = CBORValue.array([.array([.bytes(Self.canisterRange.lower), .bytes(Self.canisterRange.upper)])])
        return .node([
            ("public_key", .leaf(configuration.keys.rootKey)),
            ("canister_ranges", .leaf(CBOREncoder.encode(ranges))),
            (
                "node",
                .node([
                    configuration.keys.nodeID.bytes: .node([("public_key", .leaf(configuration.keys.nodePublicKey.der))]
                    )
                ])
            ),
        ])
    }

    /// Canister ids 0x0000000000000000_0101 ... 0x00000000000FFFFF_0101.
    static let canisterRange: (lower: [UInt8], upper: [UInt8]) = (
        [0, 0, 0, 0, 0, 0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 0x0f, 0xff, 0xff, 1, 1]
    )

    func canisterTree() -> StateTree {
        .node([
            ("module_hash", .leaf(Digest.sha256.hash(Array("sandnet ICP ledger".utf8)))),
            ("controllers", .leaf(CBOREncoder.encode(.array([]), selfDescribed: true))),
            ("metadata", .node([("candid:service", .leaf(Array(LedgerService.candidInterface.utf8)))])),
        ])
    }
}
