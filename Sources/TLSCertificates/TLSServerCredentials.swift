/// What a TLS listener needs, in PEM: the server's certificate chain (leaf first) and its private key; with where
/// they came from, for the banner.
public struct TLSServerCredentials: Sendable, Equatable {
    /// The server certificate, then the certificates up to (and including) the local CA.
    public var certificateChainPEM: String
    public var privateKeyPEM: String
    /// The local CA's certificate file (the file a client trusts); nil for the user's own certificate.
    public var certificateAuthorityPath: String?
    public var certificatePath: String
    public var keyPath: String
    /// The names the certificate is valid for.
    public var names: [String]
    /// The last moment the certificate is valid.
    public var notValidAfterSeconds: Int64
    /// What the start did: created the CA, issued a new server certificate, or reused both.
    public var action: Action

    public enum Action: String, Sendable, Equatable {
        case createdAuthority = "created"
        case renewedCertificate = "renewed"
        case reused
        case userSupplied = "user"
    }

    public init(
        certificateChainPEM: String, privateKeyPEM: String, certificateAuthorityPath: String?, certificatePath: String,
        keyPath: String, names: [String], notValidAfterSeconds: Int64, action: Action
    ) {
        self.certificateChainPEM = certificateChainPEM
        self.privateKeyPEM = privateKeyPEM
        self.certificateAuthorityPath = certificateAuthorityPath
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.names = names
        self.notValidAfterSeconds = notValidAfterSeconds
        self.action = action
    }
}
