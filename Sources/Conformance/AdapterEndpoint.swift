import JSONCoding

/// What an implementation answered to one adapter request.
public enum AdapterResponse: Sendable, Equatable {
    /// `{"id": N, "result": {...}}`
    case result(JSON)
    /// `{"id": N, "error": "..."}`: the implementation rejected the input.
    case error(String)
    /// `{"id": N, "unsupported": true}`: the implementation cannot do this operation (or this input).
    case unsupported(String)
}

/// A broken adapter: it crashed, wrote something that is not a response, or did not answer in time.
public struct AdapterError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// An implementation of the adapter operations (docs/adapters.md): an external process or Sandnet itself.
public protocol AdapterEndpoint: AnyObject {
    /// How reports name it.
    var label: String { get }
    /// The operations it supports (the `hello` handshake).
    func hello() throws(AdapterError) -> Set<String>
    /// Performs one operation.
    func call(_ op: String, _ input: JSON) throws(AdapterError) -> AdapterResponse
}

/// Every operation of the protocol, in documentation order.
public enum AdapterOperation {
    public static let all = [
        "rlp.encode", "rlp.decode", "eip55.checksum", "bip39.from_entropy", "bip39.seed", "bip32.derive",
        "keystore.decrypt", "tx.decode", "tx.recover", "tx.sign", "candid.encode", "candid.decode", "icp.principal",
        "icp.account_id",
    ]
}
