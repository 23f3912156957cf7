/// Who may connect to the local relay, decided before the WebSocket upgrade (pure; the server passes the
/// `Authorization: Bearer` header or the `?auth=` query and `?projectId=`).
public struct RelayAdmission: Sendable, Equatable {
    /// How the client JWT is checked.
    public enum Mode: String, Sendable, Equatable, CaseIterable {
        /// As the hosted relay: a token is required; its signature, expiry and `aud` (one of ``audiences``) checked.
        case strict
        /// Signature and expiry checked when a token is sent; any `aud` (pywalletconnect's is fixed to
        /// `wss://relay.walletconnect.com`, and a URL rewrite never matches); no token: an anonymous client id.
        case permissive
    }

    public var mode: Mode
    /// Accepted `aud` values in strict mode (empty: any).
    public var audiences: [String]
    /// Project ids accepted (empty: any).
    public var projectIDs: Set<String>

    public init(mode: Mode = .permissive, audiences: [String] = [], projectIDs: Set<String> = []) {
        self.mode = mode
        self.audiences = audiences
        self.projectIDs = projectIDs
    }

    /// Why a connection was refused (answered with HTTP 401 before the upgrade).
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let reason: String
        public init(reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    /// The client id (the JWT's `iss`) of an admitted connection.
    /// - Parameters:
    ///   - token: from `Authorization: Bearer …` or `?auth=`.
    ///   - anonymousID: the client id given to a connection without a token in permissive mode.
    ///   - now: seconds since 1970.
    public func admit(token: String?, projectID: String?, anonymousID: String, now: Int64) throws(Refusal) -> String {
        if !projectIDs.isEmpty {
            guard let projectID, projectIDs.contains(projectID) else {
                throw Refusal(reason: "project id \(projectID ?? "(none)") is not configured on this relay")
            }
        }
        guard let token, !token.isEmpty else {
            guard mode == .permissive else { throw Refusal(reason: "no client JWT (Authorization: Bearer or ?auth=)") }
            return anonymousID
        }
        do {
            let jwt = try RelayJWT(parsing: token)
            try jwt.verify(now: now, audiences: mode == .strict ? audiences : [])
            return jwt.issuer
        } catch {
            throw Refusal(reason: "\(error)")
        }
    }
}
