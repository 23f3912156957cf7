import Crypto
import Foundation
import SwiftASN1
import X509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The local CA in one directory and the server certificate it signs (the owner of those files; the certificates
/// themselves come from ``CertificateIssuer``). Files: `ca.pem` (the certificate clients trust), `ca-key.pem`,
/// `server.pem` (server certificate, then the CA), `server-key.pem`; keys are written 0600, the directory 0700.
/// Nothing is ever written outside the directory, and no system trust store is touched.
public struct LocalCertificateAuthority: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public var authorityPath: String { directory + "/ca.pem" }
    public var authorityKeyPath: String { directory + "/ca-key.pem" }
    public var certificatePath: String { directory + "/server.pem" }
    public var keyPath: String { directory + "/server-key.pem" }

    /// The server's credentials for `names`: the CA is created on first use and reused after; the server certificate
    /// is reused while it is valid for a month more, carries exactly `names` and was signed by this CA, else issued
    /// anew (with a new key).
    /// - Throws: ``TLSSetupError`` with the file and the reason (unreadable, not PEM, a key that does not match).
    public func credentials(names: TLSNames, now: Date = Date(), hostName: String = "") throws(TLSSetupError)
        -> TLSServerCredentials
    {
        try createDirectory()
        var action = TLSServerCredentials.Action.reused
        let authority: Certificate
        let authorityKey: P256.Signing.PrivateKey
        if FileManager.default.fileExists(atPath: authorityPath)
            || FileManager.default.fileExists(atPath: authorityKeyPath)
        {
            authority = try Self.readCertificates(authorityPath)[0]
            authorityKey = try Self.readP256Key(authorityKeyPath)
            guard authority.publicKey == Certificate.PublicKey(authorityKey.publicKey) else {
                throw TLSSetupError(path: authorityKeyPath, reason: "this key does not belong to \(authorityPath)")
            }
            guard authority.notValidAfter > now + CertificateIssuer.serverLifetime else {
                throw TLSSetupError(
                    path: authorityPath,
                    reason:
                        "the local CA expires on \(authority.notValidAfter); delete the directory to make a new one "
                        + "(and trust the new CA)")
            }
        } else {
            authorityKey = P256.Signing.PrivateKey()
            authority = try Self.wrap(path: authorityPath) {
                try CertificateIssuer.authority(key: authorityKey, now: now, hostName: hostName)
            }
            try Self.store(key: authorityKey, to: authorityKeyPath)
            try Self.store(pem: Self.pem(authority, path: authorityPath), to: authorityPath, mode: 0o644)
            action = .createdAuthority
        }
        var server: Certificate?
        var serverKey: P256.Signing.PrivateKey?
        if action == .reused, FileManager.default.fileExists(atPath: certificatePath),
            let existing = try? Self.readCertificates(certificatePath).first,
            let key = try? Self.readP256Key(keyPath), existing.publicKey == Certificate.PublicKey(key.publicKey),
            CertificateIssuer.renewalReason(of: existing, names: names, authority: authority, now: now) == nil
        {
            server = existing
            serverKey = key
        }
        if server == nil {
            let key = P256.Signing.PrivateKey()
            server = try Self.wrap(path: certificatePath) {
                try CertificateIssuer.server(
                    key: key.publicKey, names: names, authority: authority, authorityKey: authorityKey, now: now)
            }
            serverKey = key
            try Self.store(key: key, to: keyPath)
            let chain = try Self.pem(server!, path: certificatePath) + Self.pem(authority, path: authorityPath)
            try Self.store(pem: chain, to: certificatePath, mode: 0o644)
            if action == .reused { action = .renewedCertificate }
        }
        guard let server, let serverKey else { preconditionFailure("a server certificate was read or issued") }
        return TLSServerCredentials(
            certificateChainPEM: try Self.pem(server, path: certificatePath) + Self.pem(authority, path: authorityPath),
            privateKeyPEM: serverKey.pemRepresentation, certificateAuthorityPath: authorityPath,
            certificatePath: certificatePath, keyPath: keyPath, names: names.texts,
            notValidAfterSeconds: Int64(server.notValidAfter.timeIntervalSince1970), action: action)
    }

    /// The user's own certificate chain and key (`--tls-cert`, `--tls-key`), checked before the node binds: both
    /// readable PEM, the key belongs to the first certificate, and that certificate is valid now.
    /// - Throws: ``TLSSetupError`` naming the file and what is wrong with it.
    public static func userCredentials(certificatePath: String, keyPath: String, now: Date = Date())
        throws(TLSSetupError) -> TLSServerCredentials
    {
        let chain = try readCertificates(certificatePath)
        let leaf = chain[0]
        let keyText = try readText(keyPath)
        let key: Certificate.PrivateKey
        do { key = try Certificate.PrivateKey(pemEncoded: keyText) } catch {
            throw TLSSetupError(path: keyPath, reason: "not a PEM private key (\(error))")
        }
        guard key.publicKey == leaf.publicKey else {
            throw TLSSetupError(
                path: keyPath, reason: "this key does not belong to the certificate in \(certificatePath)")
        }
        if leaf.notValidAfter <= now {
            throw TLSSetupError(path: certificatePath, reason: "the certificate expired on \(leaf.notValidAfter)")
        }
        if leaf.notValidBefore > now {
            throw TLSSetupError(
                path: certificatePath, reason: "the certificate is not valid before \(leaf.notValidBefore)")
        }
        let names = (try? CertificateIssuer.names(of: leaf).texts) ?? []
        return TLSServerCredentials(
            certificateChainPEM: try readText(certificatePath), privateKeyPEM: keyText, certificateAuthorityPath: nil,
            certificatePath: certificatePath, keyPath: keyPath, names: names,
            notValidAfterSeconds: Int64(leaf.notValidAfter.timeIntervalSince1970), action: .userSupplied)
    }

    // MARK: Files

    func createDirectory() throws(TLSSetupError) {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw TLSSetupError(path: directory, reason: "cannot create the directory (\(error.localizedDescription))")
        }
    }

    static func readText(_ path: String) throws(TLSSetupError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file"
            throw TLSSetupError(path: path, reason: reason)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TLSSetupError(path: path, reason: "not PEM text (not UTF-8)")
        }
        return text
    }

    /// The certificates of a PEM file, at least one.
    static func readCertificates(_ path: String) throws(TLSSetupError) -> [Certificate] {
        let text = try readText(path)
        let documents: [PEMDocument]
        do { documents = try PEMDocument.parseMultiple(pemString: text) } catch {
            throw TLSSetupError(path: path, reason: "not a PEM file (\(error))")
        }
        var certificates: [Certificate] = []
        for document in documents where document.discriminator == "CERTIFICATE" {
            do { certificates.append(try Certificate(pemDocument: document)) } catch {
                throw TLSSetupError(path: path, reason: "certificate \(certificates.count + 1) is malformed (\(error))")
            }
        }
        guard !certificates.isEmpty else { throw TLSSetupError(path: path, reason: "no CERTIFICATE block") }
        return certificates
    }

    static func readP256Key(_ path: String) throws(TLSSetupError) -> P256.Signing.PrivateKey {
        let text = try readText(path)
        do { return try P256.Signing.PrivateKey(pemRepresentation: text) } catch {
            throw TLSSetupError(path: path, reason: "not a PEM P-256 private key (\(error))")
        }
    }

    static func pem(_ certificate: Certificate, path: String) throws(TLSSetupError) -> String {
        do { return try certificate.serializeAsPEM().pemString + "\n" } catch {
            throw TLSSetupError(path: path, reason: "cannot encode the certificate (\(error))")
        }
    }

    static func wrap<T>(path: String, _ body: () throws -> T) throws(TLSSetupError) -> T {
        do { return try body() } catch {
            throw TLSSetupError(path: path, reason: "cannot issue the certificate (\(error))")
        }
    }

    static func store(key: P256.Signing.PrivateKey, to path: String) throws(TLSSetupError) {
        try store(pem: key.pemRepresentation + "\n", to: path, mode: 0o600)
    }

    /// Writes through a temporary file created with `mode` (a key is never readable by others, not even for a moment),
    /// then renames it over `path`.
    static func store(pem: String, to path: String, mode: mode_t) throws(TLSSetupError) {
        let temporary = path + ".tmp"
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL, mode)
        guard fd >= 0 else {
            throw TLSSetupError(path: path, reason: "cannot write (\(String(cString: strerror(errno))))")
        }
        let bytes = Array(pem.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, bytes.count - written) }
            if n <= 0 {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                throw TLSSetupError(path: path, reason: "cannot write (\(reason))")
            }
            written += n
        }
        // The umask may have narrowed the mode; a key file stays 0600 either way.
        fchmod(fd, mode)
        close(fd)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw TLSSetupError(path: path, reason: "cannot write (\(reason))")
        }
    }
}
