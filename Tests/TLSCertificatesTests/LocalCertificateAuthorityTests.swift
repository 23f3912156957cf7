import Crypto
import Foundation
import TLSCertificates
import Testing
import X509

/// A fresh directory per test, removed at the end.
private func withDirectory<T>(_ body: (String) throws -> T) throws -> T {
    let path = NSTemporaryDirectory() + "sandnet-tls-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path + "/tls")
}

private func names(_ texts: String...) throws -> TLSNames {
    var names = TLSNames.loopback
    for text in texts { try names.insert(text) }
    return names
}

private func permissions(_ path: String) throws -> Int {
    try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

private func certificates(_ pem: String) throws -> [Certificate] {
    try pemBlocks(pem).map { try Certificate(pemEncoded: $0) }
}

/// The PEM blocks of a text, each as its own string.
private func pemBlocks(_ text: String) -> [String] {
    var blocks: [String] = []
    var current: [Substring] = []
    for line in text.split(separator: "\n") {
        current.append(line)
        if line.hasPrefix("-----END") {
            blocks.append(current.joined(separator: "\n"))
            current = []
        }
    }
    return blocks
}

@Suite struct LocalCertificateAuthorityTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func firstUseCreatesTheAuthorityAndAServerCertificateForTheNames() throws {
        try withDirectory { dir in
            let ca = LocalCertificateAuthority(directory: dir)
            let credentials = try ca.credentials(names: try names("192.168.1.20", "My-Mac.local"), now: now)
            #expect(credentials.action == .createdAuthority)
            #expect(credentials.certificateAuthorityPath == dir + "/ca.pem")
            #expect(credentials.names == ["localhost", "my-mac.local", "127.0.0.1", "192.168.1.20", "::1"])
            let chain = try certificates(credentials.certificateChainPEM)
            #expect(chain.count == 2)
            let (server, authority) = (chain[0], chain[1])
            // The server certificate: signed by the CA, for exactly these names, serverAuth, not a CA, a year long.
            #expect(server.issuer == authority.subject)
            #expect(authority.publicKey.isValidSignature(server.signature, for: server))
            let sans = try #require(try server.extensions.subjectAlternativeNames)
            #expect(Set(sans.map { "\($0)" }).count == 5)
            #expect(try CertificateIssuer.names(of: server) == names("192.168.1.20", "my-mac.local"))
            #expect(try server.extensions.basicConstraints == .notCertificateAuthority)
            #expect(try server.extensions.extendedKeyUsage?.contains(.serverAuth) == true)
            #expect(
                try server.extensions.authorityKeyIdentifier?.keyIdentifier
                    == authority.extensions.subjectKeyIdentifier?.keyIdentifier)
            #expect(server.notValidAfter == now + CertificateIssuer.serverLifetime)
            #expect(server.notValidBefore < now)
            // The CA: a CA that may sign end-entity certificates only, self-signed, ten years long.
            #expect(try authority.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
            #expect(try authority.extensions.keyUsage?.keyCertSign == true)
            #expect(authority.publicKey.isValidSignature(authority.signature, for: authority))
            #expect(authority.notValidAfter == now + CertificateIssuer.authorityLifetime)
            // The private key served is the server certificate's.
            let key = try P256.Signing.PrivateKey(pemRepresentation: credentials.privateKeyPEM)
            #expect(Certificate.PublicKey(key.publicKey) == server.publicKey)
        }
    }

    @Test func keysAre0600AndCertificatesReadable() throws {
        try withDirectory { dir in
            let ca = LocalCertificateAuthority(directory: dir)
            _ = try ca.credentials(names: .loopback, now: now)
            #expect(try permissions(ca.authorityKeyPath) == 0o600)
            #expect(try permissions(ca.keyPath) == 0o600)
            #expect(try permissions(ca.authorityPath) == 0o644)
            #expect(try permissions(dir) == 0o700)
            #expect(!FileManager.default.fileExists(atPath: ca.keyPath + ".tmp"))
        }
    }

    @Test func aLaterStartReusesTheAuthorityAndTheCertificate() throws {
        try withDirectory { dir in
            let ca = LocalCertificateAuthority(directory: dir)
            let first = try ca.credentials(names: .loopback, now: now)
            let caFile = try String(contentsOfFile: ca.authorityPath, encoding: .utf8)
            let second = try ca.credentials(names: .loopback, now: now + 86_400)
            #expect(second.action == .reused)
            #expect(second.certificateChainPEM == first.certificateChainPEM)
            #expect(second.privateKeyPEM == first.privateKeyPEM)
            #expect(try String(contentsOfFile: ca.authorityPath, encoding: .utf8) == caFile)
        }
    }

    @Test func newNamesRenewTheServerCertificateUnderTheSameAuthority() throws {
        try withDirectory { dir in
            let ca = LocalCertificateAuthority(directory: dir)
            let first = try ca.credentials(names: .loopback, now: now)
            let second = try ca.credentials(names: try names("10.0.0.7"), now: now)
            #expect(second.action == .renewedCertificate)
            #expect(second.privateKeyPEM != first.privateKeyPEM)
            let before = try certificates(first.certificateChainPEM)
            let after = try certificates(second.certificateChainPEM)
            #expect(after[1] == before[1])
            #expect(try CertificateIssuer.names(of: after[0]).texts.contains("10.0.0.7"))
        }
    }

    @Test func aCertificateNearItsEndIsRenewed() throws {
        try withDirectory { dir in
            let ca = LocalCertificateAuthority(directory: dir)
            _ = try ca.credentials(names: .loopback, now: now)
            let almost = now + CertificateIssuer.serverLifetime - CertificateIssuer.renewalMargin + 60
            let later = try ca.credentials(names: .loopback, now: almost)
            #expect(later.action == .renewedCertificate)
            #expect(
                Double(later.notValidAfterSeconds) == (almost + CertificateIssuer.serverLifetime).timeIntervalSince1970)
        }
    }

    @Test func aDamagedAuthorityKeyIsRefusedWithItsPath() throws {
        try withDirectory { dir in
            let ca = LocalCertificateAuthority(directory: dir)
            _ = try ca.credentials(names: .loopback, now: now)
            try "not a key".write(toFile: ca.authorityKeyPath, atomically: true, encoding: .utf8)
            let error = #expect(throws: TLSSetupError.self) { try ca.credentials(names: .loopback, now: now) }
            #expect(error?.path == ca.authorityKeyPath)
            #expect(error?.reason.hasPrefix("not a PEM P-256 private key") == true)
        }
    }

    @Test func userCredentialsAreCheckedBeforeTheNodeStarts() throws {
        try withDirectory { dir in
            let ca = LocalCertificateAuthority(directory: dir)
            _ = try ca.credentials(names: .loopback, now: now)
            // Good: the files the CA wrote, as a user's own.
            let own = try LocalCertificateAuthority.userCredentials(
                certificatePath: ca.certificatePath, keyPath: ca.keyPath, now: now)
            #expect(own.action == .userSupplied)
            #expect(own.certificateAuthorityPath == nil)
            #expect(own.names.contains("::1"))
            // Expired.
            let expired = #expect(throws: TLSSetupError.self) {
                try LocalCertificateAuthority.userCredentials(
                    certificatePath: ca.certificatePath, keyPath: ca.keyPath, now: now + 400 * 86_400)
            }
            #expect(expired?.path == ca.certificatePath)
            #expect(expired?.reason.hasPrefix("the certificate expired on") == true)
            // Mismatched: the CA's key with the server certificate.
            let mismatched = #expect(throws: TLSSetupError.self) {
                try LocalCertificateAuthority.userCredentials(
                    certificatePath: ca.certificatePath, keyPath: ca.authorityKeyPath, now: now)
            }
            #expect(mismatched?.path == ca.authorityKeyPath)
            #expect(mismatched?.reason == "this key does not belong to the certificate in \(ca.certificatePath)")
            // Unreadable and missing.
            let missing = #expect(throws: TLSSetupError.self) {
                try LocalCertificateAuthority.userCredentials(
                    certificatePath: dir + "/nope.pem", keyPath: ca.keyPath, now: now)
            }
            #expect(missing == TLSSetupError(path: dir + "/nope.pem", reason: "no such file"))
            let garbage = dir + "/garbage.pem"
            try "hello".write(toFile: garbage, atomically: true, encoding: .utf8)
            let notPEM = #expect(throws: TLSSetupError.self) {
                try LocalCertificateAuthority.userCredentials(certificatePath: garbage, keyPath: ca.keyPath, now: now)
            }
            #expect(notPEM == TLSSetupError(path: garbage, reason: "no CERTIFICATE block"))
        }
    }

    @Test(arguments: ["", "a..b", "-x.local", "bad name", "ünïcode", "1.2.3.4.5:80"])
    func badNamesAreRefused(_ text: String) {
        var names = TLSNames()
        #expect(throws: TLSSetupError(path: nil, reason: "'\(text)' is neither an IP address nor a DNS name")) {
            try names.insert(text)
        }
    }
}
