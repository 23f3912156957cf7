import Foundation
import HDWallet
import SecretStorage

extension FuzzHarness {
    /// The password the keystore seeds are encrypted with, so mutated seeds still reach the MAC and AES paths.
    public static let keystorePassword = Array("fuzz".utf8)

    /// Keystore v3 JSON: parse; the file written back parses to the same keystore; then decrypt with the KDF cost
    /// clamped so one input takes microseconds. Parameters the library must refuse (n not a power of two or
    /// ≥ 2^40, r·p ≥ 2^30, c outside 1…2^24, dklen outside 32…1024) are passed through unchanged, so the
    /// refusal paths are fuzzed too; only the work factor of acceptable parameters is reduced.
    /// A successful decrypt must be reproducible: encrypting the key again with the same KDF, IV and cipher gives
    /// the same ciphertext and MAC (for a 32-byte ciphertext: shorter keys are read left-padded and CBC ciphertext
    /// past 32 bytes carries PKCS#7 padding, and neither is written back that way).
    ///
    /// Input starting with a NUL byte (never valid JSON) selects the parameter mode instead: the KDF parameters a
    /// keystore file can carry, as raw big-endian integers (see ``keystoreParameters(_:)``), so the fuzzer
    /// reaches numeric edge cases that text mutation of JSON rarely builds.
    @Sendable public static func keystore(_ data: [UInt8]) {
        if data.first == 0 {
            keystoreParameters(data.dropFirst())
            return
        }
        guard let parsed = try? Keystore(json: Data(data)) else { return }
        do {
            let again = try Keystore(json: parsed.jsonData())
            check(again == parsed, "keystore: Keystore(json: k.jsonData()) == k", "\(data.fuzzHex)")
        } catch {
            violated("keystore: the written file parses", "\(error) for \(data.fuzzHex)")
        }
        var keystore = parsed
        keystore.kdf = clampedCost(parsed.kdf)
        guard let privateKey = try? keystore.decrypt(password: keystorePassword), keystore.ciphertext.count == 32 else {
            return
        }
        do {
            let encrypted = try Keystore.encrypt(
                privateKey: privateKey, password: keystorePassword, kdf: keystore.kdf, iv: keystore.iv, id: keystore.id,
                cipher: keystore.cipher)
            check(
                encrypted.ciphertext == keystore.ciphertext && encrypted.mac == keystore.mac,
                "keystore: encrypt(decrypt(k)) == k", data.fuzzHex)
        } catch {
            violated("keystore: a decrypted key encrypts again", "\(error)")
        }
    }

    /// Parameter mode: `kind(1) ‖ n or c (8) ‖ r (4) ‖ p (4) ‖ dklen (2) ‖ salt…`, big-endian; kind bit 0 picks
    /// scrypt (0) or PBKDF2 (1). The KDF is run (cost clamped as above) through a keystore's decrypt, which must
    /// throw for bad parameters and report a MAC mismatch otherwise, never trap.
    static func keystoreParameters(_ data: ArraySlice<UInt8>) {
        var bytes = Array(data)
        guard bytes.count >= 19 else { return }
        func integer(_ range: Range<Int>) -> UInt64 { bytes[range].reduce(0) { $0 << 8 | UInt64($1) } }
        let first = integer(1..<9)
        let r = UInt32(integer(9..<13))
        let p = UInt32(integer(13..<17))
        let keyLength = Int(integer(17..<19))
        let salt = Array(bytes[19...])
        let kdf: KeystoreKDF =
            bytes[0] & 1 == 0
            ? .scrypt(n: first, r: r, p: p, keyLength: keyLength, salt: salt)
            : .pbkdf2(iterations: Int(truncatingIfNeeded: first), keyLength: keyLength, salt: salt)
        bytes.removeAll()
        let keystore = Keystore(
            id: "", address: nil, iv: [UInt8](repeating: 0, count: 16), ciphertext: [UInt8](repeating: 0, count: 32),
            kdf: clampedCost(kdf), mac: [UInt8](repeating: 0, count: 32))
        do {
            _ = try keystore.decrypt(password: keystorePassword)
            violated("keystore: a zero MAC matched")
        } catch {
            switch error {
            case .macMismatch, .invalidKDFParameters: break
            default: violated("keystore: unexpected error for KDF parameters", "\(error)")
            }
        }
    }

    /// The same KDF with its work factor reduced to a few microseconds where the library would run it.
    static func clampedCost(_ kdf: KeystoreKDF) -> KeystoreKDF {
        switch kdf {
        case .scrypt(let n, let r, let p, let keyLength, let salt):
            let acceptable =
                n > 1 && n & (n &- 1) == 0 && n < 1 << 40 && r >= 1 && p >= 1
                && UInt64(r) * UInt64(p) < 1 << 30
            guard acceptable else { return kdf }
            return .scrypt(n: min(n, 16), r: min(r, 2), p: min(p, 2), keyLength: keyLength, salt: salt)
        case .pbkdf2(let iterations, let keyLength, let salt):
            guard iterations >= 1, iterations <= KeystoreKDF.maximumIterations else { return kdf }
            return .pbkdf2(iterations: min(iterations, 4), keyLength: keyLength, salt: salt)
        }
    }

    /// BIP-39 sentences: language detection over the ten official lists; a valid sentence gives entropy that
    /// encodes back to the same words, and parses again in its detected language.
    @Sendable public static func mnemonic(_ data: [UInt8]) {
        let phrase = String(decoding: data, as: UTF8.self)
        guard let mnemonic = try? Mnemonic(phrase: phrase) else {
            _ = try? Mnemonic(phrase: phrase, language: .english)
            return
        }
        check(Mnemonic.entropyLengths.contains(mnemonic.entropy.count), "mnemonic: entropy length")
        guard let language = MnemonicLanguage(rawValue: mnemonic.wordlistName),
            let wordlist = try? Wordlist.official(language)
        else { return }
        do {
            let encoded = try Mnemonic(entropy: mnemonic.entropy, wordlist: wordlist)
            check(encoded.words == mnemonic.words, "mnemonic: words(entropy(words)) == words", phrase)
            let reparsed = try Mnemonic(phrase: mnemonic.phrase, language: language)
            check(reparsed.entropy == mnemonic.entropy, "mnemonic: parse(phrase) round trip", phrase)
        } catch {
            violated("mnemonic: a valid sentence round-trips", "\(error) for \(phrase)")
        }
    }
}
