import ByteCoding
import CryptoCore
import HDWallet
import ICPIdentity
import Testing

/// DER public keys, self-authenticating principals, mnemonic derivation and PEM files. Expected principals were
/// computed independently with Python's `cryptography` (SubjectPublicKeyInfo DER) and `hashlib.sha224`.
@Suite struct KeyIdentityTests {
    static let abandon = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"

    @Test func mnemonicAtTheICPPath() throws {
        let identity = try KeyIdentity(mnemonic: Self.abandon)
        #expect(identity.algorithm == .secp256k1)
        #expect(
            Hex.encode(identity.publicKey.der)
                == "3056301006072a8648ce3d020106052b8104000a03420004abdb60eb7c96408414d1e251d41ca0ecf89a4541768cba7eed8174c"
                + "53246d58c56031b23388bc7d275b4b26bf29137bdc181ae4d6b6f64f30db8d4bfd9222c27")
        #expect(identity.principal.text == "tgzar-4lpln-fq34h-6hxo4-wlm3x-6g3or-6hxvr-d6jbw-ooh2b-lzsw4-aqe")
        #expect(
            AccountIdentifier(principal: identity.principal).hex
                == "f24b889e8efba3d8008512e5f928af25be0fea33c9a44e161649f12912907cbd")
        #expect(!"\(identity)".contains(Hex.encode(identity.privateKey)))
        #expect(throws: KeyIdentityError.self) { try KeyIdentity(mnemonic: "abandon abandon") }
    }

    @Test func derRoundTripAndErrors() throws {
        let compressed = try Hex.decode("03abdb60eb7c96408414d1e251d41ca0ecf89a4541768cba7eed8174c53246d58c")
        let key = try DERPublicKey(secp256k1: compressed)
        #expect(key.rawKey.count == 65 && key.rawKey[0] == 0x04)
        #expect(try DERPublicKey(der: key.der) == key)
        let ed = try DERPublicKey(ed25519: [UInt8](repeating: 1, count: 32))
        #expect(ed.der.count == 44)
        #expect(try DERPublicKey(der: ed.der) == ed)
        #expect(throws: DERPublicKeyError.invalidKeyLength(algorithm: .ed25519, length: 31)) {
            try DERPublicKey(ed25519: [UInt8](repeating: 1, count: 31))
        }
        #expect(throws: DERPublicKeyError.invalidPoint) {
            try DERPublicKey(secp256k1: [0x02] + [UInt8](repeating: 0xff, count: 32))
        }
        #expect(throws: DERPublicKeyError.unsupportedEncoding) { try DERPublicKey(der: Array(ed.der.dropLast())) }
    }

    @Test func ed25519RFC8032TestVector1() throws {
        let secret = try Hex.decode("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
        let identity = try KeyIdentity(ed25519PrivateKey: secret)
        #expect(
            Hex.encode(identity.publicKey.rawKey) == "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
        let signature = try Ed25519.sign([], privateKey: secret)
        #expect(
            Hex.encode(signature)
                == "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25"
                + "bf5f0595bbe24655141438e7a100b")
        #expect(Ed25519.verify(signature, message: [], publicKey: identity.publicKey.rawKey))
        #expect(!Ed25519.verify(signature, message: [0], publicKey: identity.publicKey.rawKey))
    }

    // Throwaway keys generated with `openssl ecparam -name secp256k1 -genkey` and `openssl genpkey -algorithm ed25519`.
    static let secp256k1PEM = """
        -----BEGIN EC PRIVATE KEY-----
        MHQCAQEEIGSmb52yzAucOiRGfcethR6kR0PcagGvVVjZU99VjXGyoAcGBSuBBAAK
        oUQDQgAES3ttMUfEWWTytt/qvlo8DhjgGdFlFVKu9Kl8MRubJXCqDp6KoLpYFER7
        5eRV2Shqe4l1jmdz3ZkTaRB0JPQsjg==
        -----END EC PRIVATE KEY-----
        """
    static let secp256k1PKCS8PEM = """
        -----BEGIN PRIVATE KEY-----
        MIGEAgEAMBAGByqGSM49AgEGBSuBBAAKBG0wawIBAQQgZKZvnbLMC5w6JEZ9x62F
        HqRHQ9xqAa9VWNlT31WNcbKhRANCAARLe20xR8RZZPK23+q+WjwOGOAZ0WUVUq70
        qXwxG5slcKoOnoqgulgURHvl5FXZKGp7iXWOZ3PdmRNpEHQk9CyO
        -----END PRIVATE KEY-----
        """
    static let withParametersPEM = """
        -----BEGIN EC PARAMETERS-----
        BgUrgQQACg==
        -----END EC PARAMETERS-----
        -----BEGIN EC PRIVATE KEY-----
        MHQCAQEEIGpj2rgTEQ/xKPuPU0DgOz3RBzUyb37yGH4xeF/1IbgcoAcGBSuBBAAK
        oUQDQgAEFMsYLswD9mGM9IxhLweUszyv3dmYMHYthmhiZHToq2w5pmULvXbbkj9z
        jAhormpU/PQ9qEGk0T0+J+EfIxQU9g==
        -----END EC PRIVATE KEY-----
        """
    static let ed25519PEM = """
        -----BEGIN PRIVATE KEY-----
        MC4CAQAwBQYDK2VwBCIEIO4ghIOLneQcBei6Ya5qqBtfJsRboxfUC7NqWvezY/e8
        -----END PRIVATE KEY-----
        """
    static let p256PEM = """
        -----BEGIN EC PRIVATE KEY-----
        MHcCAQEEICNxPEvAoidIC77lqYXH9b1AWlP7Fpqz0h8s3e7LEgacoAoGCCqGSM49
        AwEHoUQDQgAEAU/x7av6SiswGyooy9vdZ6D27rWfDajaRQrEPYfCoR/yyAtFIHof
        qqhzS4AP79K72LcNMxpUpscpyT9dYEw9fQ==
        -----END EC PRIVATE KEY-----
        """

    @Test(arguments: [
        (secp256k1PEM, "qcbjs-q6mrw-td4f4-t7s23-x7dai-3b3fc-fqhid-m2mbz-kh5og-aiiqh-gqe"),
        (secp256k1PKCS8PEM, "qcbjs-q6mrw-td4f4-t7s23-x7dai-3b3fc-fqhid-m2mbz-kh5og-aiiqh-gqe"),
        (withParametersPEM, "skkv3-gwdbr-kgsr6-syxxx-e3m7c-cwxom-rrpod-rh7gg-5e6dl-fxub2-fqe"),
        (ed25519PEM, "eqtcv-ebtzu-2blkm-shigd-ozrz4-zstyo-upjme-maw46-75znh-loxay-uqe"),
    ])
    func pemFiles(pem: String, principal: String) throws {
        #expect(try KeyIdentity(pem: pem).principal.text == principal)
    }

    @Test func pemErrors() {
        #expect(throws: KeyIdentityError.unsupportedKeyAlgorithm("1.2.840.10045.3.1.7")) {
            try KeyIdentity(pem: Self.p256PEM)
        }
        #expect(throws: KeyIdentityError.invalidPEM("no 'EC PRIVATE KEY' or 'PRIVATE KEY' block")) {
            try KeyIdentity(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        }
        #expect(throws: KeyIdentityError.invalidPEM("the PRIVATE KEY block is not base64")) {
            try KeyIdentity(pem: "-----BEGIN PRIVATE KEY-----\n!!!!\n-----END PRIVATE KEY-----\n")
        }
        #expect(throws: KeyIdentityError.self) {
            try KeyIdentity(pem: "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2Vw\n-----END PRIVATE KEY-----\n")
        }
    }
}
