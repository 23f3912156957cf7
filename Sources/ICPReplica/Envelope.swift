import ByteCoding
import CBORCoding
import ICPIdentity

/// An authentication envelope `{content, sender_pubkey?, sender_sig?, sender_delegation?}` (interface spec
/// §Authentication), read leniently where clients differ: the self-describe tag is optional and explicit nulls count
/// as absent fields (ic-py sends `sender_pubkey: null` for the anonymous identity).
public struct Envelope: Sendable {
    public var request: IngressRequest
    public var senderPublicKey: [UInt8]?
    public var senderSignature: [UInt8]?
    public var delegations: [SignedDelegation]

    /// One link of a delegation chain.
    public struct SignedDelegation: Sendable, Equatable {
        public var publicKey: [UInt8]
        public var expiration: UInt64
        public var targets: [Principal]?
        public var signature: [UInt8]
        /// The representation-independent hash of the `delegation` map (what the previous key signed).
        public var hash: [UInt8]
    }

    /// The domain separator of delegation signatures.
    public static let delegationDomain: [UInt8] = [0x1A] + Array("ic-request-auth-delegation".utf8)
    /// Longest accepted delegation chain (interface spec: at most 20).
    public static let maxDelegations = 20

    /// Decodes the CBOR body of an endpoint for requests of `kind`.
    public init(cbor body: [UInt8], kind: IngressRequest.Kind) throws(ReplicaError) {
        let value: CBORValue
        do { value = try CBORDecoder().decode(body) } catch { throw .badRequest(kind, "\(error)") }
        guard value.mapEntries != nil else { throw .badRequest(kind, "the envelope is not a map") }
        guard let content = value["content"] else { throw .badRequest(kind, "missing field `content`") }
        request = try IngressRequest(content: content, expected: kind)
        senderPublicKey = try Self.optionalBytes(value["sender_pubkey"], "sender_pubkey", kind)
        senderSignature = try Self.optionalBytes(value["sender_sig"], "sender_sig", kind)
        delegations = []
        if let chain = value["sender_delegation"], !chain.isNull {
            guard let links = chain.arrayValue else { throw .badRequest(kind, "sender_delegation is not an array") }
            for link in links {
                guard let inner = link["delegation"], inner.mapEntries != nil,
                    let publicKey = inner["pubkey"]?.bytesValue, let expiration = inner["expiration"]?.uint64Value,
                    let signature = link["signature"]?.bytesValue
                else { throw .badRequest(kind, "malformed delegation") }
                var targets: [Principal]?
                if let list = inner["targets"], !list.isNull {
                    guard let items = list.arrayValue else {
                        throw .badRequest(kind, "delegation targets are not an array")
                    }
                    var principals: [Principal] = []
                    for item in items {
                        guard let bytes = item.bytesValue, let principal = try? Principal(bytes: bytes) else {
                            throw .badRequest(kind, "a delegation target is not a principal")
                        }
                        principals.append(principal)
                    }
                    targets = principals
                }
                let hash: [UInt8]
                do { hash = try RequestID.hashOfMap(inner) } catch { throw .badRequest(kind, "delegation: \(error)") }
                delegations.append(
                    SignedDelegation(
                        publicKey: publicKey, expiration: expiration, targets: targets, signature: signature, hash: hash
                    ))
            }
        }
    }

    static func optionalBytes(_ value: CBORValue?, _ name: String, _ kind: IngressRequest.Kind) throws(ReplicaError)
        -> [UInt8]?
    {
        guard let value, !value.isNull else { return nil }
        guard let bytes = value.bytesValue else { throw .badRequest(kind, "\(name) is not a byte string") }
        return bytes
    }

    /// Checks what the replica's validator checks (rs/validator `validate_request`): the expiry window, that the
    /// sender is anonymous (and unsigned) or the self-authenticating principal of `sender_pubkey`, the delegation
    /// chain (each link signed by the key before it, unexpired, targeting the canister), and `sender_sig` by the
    /// last key over `"\x0Aic-request" ‖ request id`.
    ///
    /// - Parameters:
    ///   - now: the replica time in nanoseconds.
    ///   - maxExpiryAhead: how far past `now` an expiry may lie (5 minutes plus the permitted drift).
    public func authenticate(now: UInt64, maxExpiryAhead: UInt64) throws(ReplicaError) {
        let request = self.request
        let latest = now &+ maxExpiryAhead
        guard request.ingressExpiry >= now, request.ingressExpiry <= latest else {
            throw .invalidRequest(
                "Invalid request expiry: Specified ingress_expiry not within expected range: Minimum allowed expiry: "
                    + "\(now), Maximum allowed expiry: \(latest), Provided expiry: \(request.ingressExpiry)")
        }
        if request.sender.isAnonymous {
            guard senderPublicKey == nil, senderSignature == nil, delegations.isEmpty else {
                throw .invalidRequest(
                    "Invalid signature: an anonymous request must not carry a public key or signature")
            }
            return
        }
        guard let publicKeyDER = senderPublicKey else {
            throw .invalidRequest("Request is not signed: missing sender_pubkey for sender \(request.sender)")
        }
        guard let signature = senderSignature else {
            throw .invalidRequest("Request is not signed: missing sender_sig for sender \(request.sender)")
        }
        let rootKey = try Self.publicKey(publicKeyDER)
        guard rootKey.principal == request.sender else {
            throw .invalidRequest(
                "Invalid signature: The user id \(request.sender) does not match the public key \(rootKey.principal)")
        }
        guard delegations.count <= Self.maxDelegations else {
            throw .invalidRequest("Invalid delegation: the chain has more than \(Self.maxDelegations) delegations")
        }
        var signer = rootKey
        var seen: Set<[UInt8]> = [rootKey.der]
        for (index, link) in delegations.enumerated() {
            guard signer.verify(signature: link.signature, message: Self.delegationDomain + link.hash) else {
                throw .invalidRequest("Invalid delegation: the signature of delegation \(index) does not verify")
            }
            guard link.expiration >= now else {
                throw .invalidRequest(
                    "Invalid delegation expiry: delegation \(index) expired at \(link.expiration), now is \(now)")
            }
            if let targets = link.targets, let canister = request.canisterID, !targets.contains(canister) {
                throw .invalidRequest("Invalid delegation: canister \(canister) is not a target of delegation \(index)")
            }
            let next = try Self.publicKey(link.publicKey)
            guard seen.insert(next.der).inserted else {
                throw .invalidRequest("Invalid delegation: the chain contains a cycle")
            }
            signer = next
        }
        guard signer.verifyRequest(signature: signature, requestID: request.id) else {
            throw .invalidRequest(
                "Invalid signature: Invalid basic signature: \(signer.algorithm.rawValue) signature could not be "
                    + "verified: public key \(Hex.encode(signer.der)), signature \(Hex.encode(signature))")
        }
    }

    static func publicKey(_ der: [UInt8]) throws(ReplicaError) -> DERPublicKey {
        do { return try DERPublicKey(der: der) } catch {
            throw .invalidRequest(
                "Invalid public key: \(error) (Sandnet verifies Ed25519 and secp256k1 keys; canister signatures and "
                    + "ECDSA P-256 are not supported)")
        }
    }
}
