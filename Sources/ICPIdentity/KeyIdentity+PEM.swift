import ByteCoding

/// Private keys in the PEM files dfx, ic-py and OpenSSL write.
extension KeyIdentity {
    static let oidEd25519: [UInt8] = [0x2b, 0x65, 0x70]  // 1.3.101.112
    static let oidECPublicKey: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]  // 1.2.840.10045.2.1
    static let oidSecp256k1: [UInt8] = [0x2b, 0x81, 0x04, 0x00, 0x0a]  // 1.3.132.0.10

    /// Reads the first private key of a PEM file:
    /// - `EC PRIVATE KEY`: SEC 1 `ECPrivateKey` (RFC 5915) on secp256k1 (`dfx identity new --storage-mode plaintext`
    ///   for secp256k1, `openssl ecparam -name secp256k1 -genkey`); an `EC PARAMETERS` block before it is skipped;
    /// - `PRIVATE KEY`: PKCS #8 (RFC 5958) holding Ed25519 (RFC 8410; dfx's default identity, v1 or v2 with the
    ///   public key) or an `ECPrivateKey` on secp256k1.
    ///
    /// - Throws: ``KeyIdentityError/invalidPEM(_:)``, ``KeyIdentityError/unsupportedKeyAlgorithm(_:)`` (P-256 and
    ///   others), ``KeyIdentityError/invalidPrivateKey``.
    public init(pem: String) throws(KeyIdentityError) {
        var label: Substring?
        var body = ""
        for rawLine in pem.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingWhitespace()
            if line.hasPrefix("-----BEGIN "), line.hasSuffix("-----") {
                let name = line.dropFirst(11).dropLast(5)
                if name == "EC PRIVATE KEY" || name == "PRIVATE KEY" {
                    label = name
                    body = ""
                }
            } else if line.hasPrefix("-----END ") {
                if label != nil, line.dropFirst(9).dropLast(5) == label! { break }
            } else if label != nil {
                body += line
            }
        }
        guard let label else { throw .invalidPEM("no 'EC PRIVATE KEY' or 'PRIVATE KEY' block") }
        guard let der = Base64.decode(body) else { throw .invalidPEM("the \(label) block is not base64") }
        if label == "EC PRIVATE KEY" {
            try self.init(secp256k1PrivateKey: try Self.ecPrivateKey(der, curveFromAlgorithm: nil))
        } else {
            try self.init(pkcs8: der)
        }
    }

    init(pkcs8 der: [UInt8]) throws(KeyIdentityError) {
        var outer = DERReader(der)
        var info = try outer.sequence("PrivateKeyInfo")
        _ = try info.element(tag: 0x02, "version")
        var algorithm = try info.sequence("AlgorithmIdentifier")
        let oid = try algorithm.element(tag: 0x06, "algorithm OID")
        let parameters = algorithm.isAtEnd ? nil : try algorithm.element(tag: 0x06, "curve OID")
        let privateKey = try info.element(tag: 0x04, "privateKey")
        if oid == Self.oidEd25519 {
            var inner = DERReader(privateKey)
            let seed = try inner.element(tag: 0x04, "CurvePrivateKey")
            try self.init(ed25519PrivateKey: seed)
        } else if oid == Self.oidECPublicKey {
            try self.init(secp256k1PrivateKey: try Self.ecPrivateKey(privateKey, curveFromAlgorithm: parameters))
        } else {
            throw .unsupportedKeyAlgorithm(DERReader.oidText(oid))
        }
    }

    /// The 32 private-key bytes of an RFC 5915 `ECPrivateKey`, after checking the curve is secp256k1.
    static func ecPrivateKey(_ der: [UInt8], curveFromAlgorithm: [UInt8]?) throws(KeyIdentityError) -> [UInt8] {
        var outer = DERReader(der)
        var key = try outer.sequence("ECPrivateKey")
        _ = try key.element(tag: 0x02, "version")
        let privateKey = try key.element(tag: 0x04, "privateKey")
        var curve = curveFromAlgorithm
        if !key.isAtEnd, key.peekTag == 0xa0 {
            var parameters = DERReader(try key.element(tag: 0xa0, "parameters"))
            curve = try parameters.element(tag: 0x06, "namedCurve")
        }
        if let curve, curve != oidSecp256k1 { throw .unsupportedKeyAlgorithm(DERReader.oidText(curve)) }
        guard privateKey.count <= 32 else { throw .invalidPrivateKey }
        return [UInt8](repeating: 0, count: 32 - privateKey.count) + privateKey
    }
}

/// Reads definite-length DER TLVs (X.690 §8.1) from a byte string; enough for key files.
struct DERReader {
    let bytes: [UInt8]
    var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset >= bytes.count }
    var peekTag: UInt8? { isAtEnd ? nil : bytes[offset] }

    mutating func element(tag: UInt8, _ what: String) throws(KeyIdentityError) -> [UInt8] {
        guard offset < bytes.count else { throw .invalidPEM("DER ends before \(what)") }
        guard bytes[offset] == tag else {
            throw .invalidPEM("DER tag 0x\(String(bytes[offset], radix: 16)) where \(what) belongs (offset \(offset))")
        }
        offset += 1
        guard offset < bytes.count else { throw .invalidPEM("DER ends inside the length of \(what)") }
        var length = Int(bytes[offset])
        offset += 1
        if length & 0x80 != 0 {
            let count = length & 0x7f
            guard count >= 1, count <= 3, offset + count <= bytes.count else {
                throw .invalidPEM("bad DER length of \(what)")
            }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[offset])
                offset += 1
            }
        }
        guard length <= bytes.count - offset else { throw .invalidPEM("DER \(what) runs past the end") }
        defer { offset += length }
        return Array(bytes[offset..<(offset + length)])
    }

    mutating func sequence(_ what: String) throws(KeyIdentityError) -> DERReader {
        DERReader(try element(tag: 0x30, what))
    }

    /// Dotted text of an OID's content bytes (X.690 §8.19), for error messages.
    static func oidText(_ content: [UInt8]) -> String {
        guard let first = content.first else { return "(empty)" }
        var parts = [String(first < 80 ? first / 40 : 2), String(first < 80 ? first % 40 : first - 80)]
        var value = 0
        for byte in content.dropFirst() {
            value = value << 7 | Int(byte & 0x7f)
            if byte & 0x80 == 0 {
                parts.append(String(value))
                value = 0
            }
        }
        return parts.joined(separator: ".")
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var result = self
        while let first = result.first, first.isWhitespace { result = result.dropFirst() }
        while let last = result.last, last.isWhitespace { result = result.dropLast() }
        return result
    }
}
