import Crypto
import Foundation
import SwiftASN1
import X509

/// Makes the local CA's certificate and the server certificates it signs (pure: keys and the time are passed in).
/// P-256 keys, ECDSA with SHA-256; the extensions Apple's and Python's strict verifiers ask for (basic constraints,
/// key usage, extended key usage `serverAuth`, subject and authority key identifiers, subject alternative names).
public enum CertificateIssuer {
    /// The CA's lifetime: ten years.
    public static let authorityLifetime: TimeInterval = 10 * 365 * 86_400
    /// A server certificate's lifetime: 365 days (below Apple's 825-day limit for TLS server certificates).
    public static let serverLifetime: TimeInterval = 365 * 86_400
    /// A server certificate is renewed when less than this is left: 30 days.
    public static let renewalMargin: TimeInterval = 30 * 86_400
    /// Certificates start an hour early, for a device whose clock is a little behind.
    static let backdating: TimeInterval = 3_600

    /// A self-signed CA certificate for `key`.
    public static func authority(key: P256.Signing.PrivateKey, now: Date, hostName: String) throws -> Certificate {
        let publicKey = Certificate.PublicKey(key.publicKey)
        let name = try DistinguishedName {
            OrganizationName("Sandnet (local development CA, trusted only where you installed it)")
            CommonName("Sandnet local CA \(hostName)")
        }
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
            Critical(KeyUsage(digitalSignature: true, keyCertSign: true, cRLSign: true))
            SubjectKeyIdentifier(hash: publicKey)
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now - backdating, notValidAfter: now + authorityLifetime, issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(key))
    }

    /// A server certificate for `names`, signed by the CA.
    public static func server(
        key: P256.Signing.PublicKey, names: TLSNames, authority: Certificate, authorityKey: P256.Signing.PrivateKey,
        now: Date
    ) throws -> Certificate {
        let publicKey = Certificate.PublicKey(key)
        let subject = try DistinguishedName {
            OrganizationName("Sandnet (local development server)")
            CommonName(names.dnsNames.first ?? names.texts.first ?? "localhost")
        }
        var general: [GeneralName] = names.dnsNames.map { .dnsName($0) }
        general += names.ipAddresses.map { .ipAddress(ASN1OctetString(contentBytes: $0[...])) }
        let authorityIdentifier =
            try authority.extensions.subjectKeyIdentifier?.keyIdentifier
            ?? SubjectKeyIdentifier(hash: authority.publicKey).keyIdentifier
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            try ExtendedKeyUsage([.serverAuth])
            SubjectKeyIdentifier(hash: publicKey)
            AuthorityKeyIdentifier(keyIdentifier: authorityIdentifier)
            SubjectAlternativeNames(general)
        }
        return try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now - backdating, notValidAfter: now + serverLifetime, issuer: authority.subject,
            subject: subject, signatureAlgorithm: .ecdsaWithSHA256, extensions: extensions,
            issuerPrivateKey: Certificate.PrivateKey(authorityKey))
    }

    /// The names in a certificate's subject alternative names.
    public static func names(of certificate: Certificate) throws -> TLSNames {
        var names = TLSNames()
        for name in try certificate.extensions.subjectAlternativeNames ?? SubjectAlternativeNames() {
            switch name {
            case .dnsName(let dns): try names.insert(dns)
            case .ipAddress(let octets):
                guard let text = TLSNames.text(validIP: Array(octets.bytes)) else { continue }
                try names.insert(text)
            default: continue
            }
        }
        return names
    }

    /// Why a server certificate must be issued anew, or nil when it can be kept: other names, near its end, or not
    /// signed by this CA.
    public static func renewalReason(
        of certificate: Certificate, names: TLSNames, authority: Certificate, now: Date
    ) -> String? {
        guard let current = try? Self.names(of: certificate) else { return "its names cannot be read" }
        if current != names { return "the names changed (were \(current), now \(names))" }
        if certificate.notValidAfter.timeIntervalSince(now) < renewalMargin {
            return "it expires on \(certificate.notValidAfter)"
        }
        if certificate.notValidBefore > now { return "it is not valid before \(certificate.notValidBefore)" }
        guard certificate.issuer == authority.subject,
            authority.publicKey.isValidSignature(certificate.signature, for: certificate)
        else { return "it was not signed by this CA" }
        return nil
    }
}

extension TLSNames {
    /// The text of a 4- or 16-byte address, or nil for any other length.
    static func text(validIP bytes: [UInt8]) -> String? {
        bytes.count == 4 || bytes.count == 16 ? text(ip: bytes) : nil
    }
}
