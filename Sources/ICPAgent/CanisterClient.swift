import CandidCoding
import ICPIdentity

/// Calls one canister's methods with Candid values typed by its interface: what generated clients
/// (`sandnet candid generate`) are built on.
public struct CanisterClient: Sendable {
    /// How a method is called (Candid spec, "Function annotations").
    public enum CallKind: Sendable {
        case query
        case compositeQuery
        case update
        /// An update whose reply is not awaited.
        case oneway
    }

    public var agent: Agent
    public var canisterID: Principal
    /// The interface the arguments are encoded and the replies decoded with.
    public let interface: CandidInterface

    public init(agent: Agent, canisterID: Principal, interface: CandidInterface) {
        self.agent = agent
        self.canisterID = canisterID
        self.interface = interface
    }

    /// Calls `method` with `arguments` and returns the decoded reply values.
    ///
    /// - Throws: `CanisterCallError`: the canister's reject (code, message, error code) as a value, or what failed
    ///   in encoding, transport or decoding.
    public func call(_ method: String, _ kind: CallKind, _ arguments: [CandidValue]) async throws(CanisterCallError)
        -> [CandidValue]
    {
        let function: CandidFunctionType
        let argumentTypes: CandidArgumentTypes
        let resultTypes: CandidArgumentTypes
        let bytes: [UInt8]
        do {
            function = try interface.method(method)
            argumentTypes = try CandidArgumentTypes(function.arguments, environment: interface.environment)
            resultTypes = try CandidArgumentTypes(function.results, environment: interface.environment)
            bytes = try CandidSerializer.encode(arguments, as: argumentTypes)
        } catch {
            throw .encoding("\(method): \(error)")
        }
        let reply: AgentReply
        do {
            switch kind {
            case .query, .compositeQuery:
                reply = try await agent.query(canister: canisterID, method: method, arg: bytes)
            case .update, .oneway:
                reply = try await agent.update(canister: canisterID, method: method, arg: bytes)
            }
        } catch {
            throw .transport("\(method): \(error)")
        }
        switch reply {
        case .rejected(let code, let message, let errorCode):
            throw .rejected(code: code, message: message, errorCode: errorCode)
        case .replied(let bytes):
            if kind == .oneway { return [] }
            do { return try CandidDeserializer.decode(bytes, as: resultTypes) } catch {
                throw .decoding("\(method): \(error)")
            }
        }
    }

    /// Reads reply value `index` as `T`.
    public static func result<T: CandidValueConvertible>(
        _ values: [CandidValue], _ index: Int, as type: T.Type = T.self
    ) throws(CanisterCallError) -> T {
        guard index < values.count else { throw .decoding("the reply has \(values.count) values, not \(index + 1)") }
        do { return try T(candidValue: values[index]) } catch { throw .decoding(error.description) }
    }
}

/// Why a canister call did not produce a typed reply.
public enum CanisterCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The canister (or the replica) rejected the call (IC interface spec, "Reject codes").
    case rejected(code: UInt64, message: String, errorCode: String?)
    case encoding(String)
    case transport(String)
    case decoding(String)

    public var description: String {
        switch self {
        case .rejected(let code, let message, let errorCode):
            return "rejected (code \(code)\(errorCode.map { ", \($0)" } ?? "")): \(message)"
        case .encoding(let message): return "encoding failed: \(message)"
        case .transport(let message): return "transport failed: \(message)"
        case .decoding(let message): return "decoding failed: \(message)"
        }
    }
}

extension Principal: CandidValueConvertible {
    public init(candidValue: CandidValue) throws(CandidConversionError) {
        guard case .principal(let principal) = candidValue else { throw .expected("principal", found: candidValue) }
        do { try self.init(bytes: principal.bytes) } catch { throw CandidConversionError("principal: \(error)") }
    }
    public var candidValue: CandidValue { .principal(CandidPrincipal(bytes: bytes)) }
}
