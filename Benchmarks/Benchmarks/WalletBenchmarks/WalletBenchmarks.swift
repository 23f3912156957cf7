import BenchCOpenSSL
import Benchmark
import CryptoCore
import EthereumTransactions
import HDWallet
import SecretStorage

/// Issue 3 figures, each beside the raw OpenSSL call it is judged against (same run):
/// - keystore decrypt, scrypt n=262144 r=8 p=1: at most 1.2× raw `EVP_PBE_scrypt`;
/// - mnemonic → seed: at least 800 seeds/s (raw `PKCS5_PBKDF2_HMAC` SHA-512 × 2048: about 900/s);
/// - `m/44'/60'/0'/0/i` → address from a master key: at least 20,000 derivations/s.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 1_000_000)

    // MARK: Keystore decrypt vs raw scrypt

    let password = Array("correct horse battery staple".utf8)
    let salt = [UInt8](repeating: 0x5a, count: 32)
    let privateKey = [UInt8](repeating: 0x11, count: 32)
    let scryptConfig = Benchmark.Configuration(
        metrics: [.throughput, .wallClock, .mallocCountTotal, .peakMemoryResident], maxDuration: .seconds(12),
        maxIterations: 12)
    let keystore = try! Keystore.encrypt(
        privateKey: privateKey, password: password, kdf: .scrypt(n: 262_144, r: 8, p: 1, keyLength: 32, salt: salt))
    Benchmark("keystore decrypt scrypt n=262144 r=8 p=1 (Sandnet)", configuration: scryptConfig) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! keystore.decrypt(password: password)) }
    }
    Benchmark("scrypt n=262144 r=8 p=1 (raw OpenSSL EVP_PBE_scrypt)", configuration: scryptConfig) { benchmark in
        var out = [UInt8](repeating: 0, count: 32)
        for _ in benchmark.scaledIterations {
            let ok = password.withUnsafeBufferPointer { pw in
                pw.withMemoryRebound(to: CChar.self) { chars in
                    EVP_PBE_scrypt(chars.baseAddress, pw.count, salt, salt.count, 262_144, 8, 1, 1 << 30, &out, 32)
                }
            }
            precondition(ok == 1)
            blackHole(out)
        }
    }

    // MARK: Mnemonic -> seed vs raw PBKDF2

    let mnemonic = try! Mnemonic(entropy: [UInt8](repeating: 0x7f, count: 16))
    Benchmark("mnemonic to seed, 12 words (Sandnet)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(mnemonic.seed(passphrase: "TREZOR")) }
    }
    Benchmark("mnemonic to seed, 12 words, from text (Sandnet)") { benchmark in
        let phrase = mnemonic.phrase
        for _ in benchmark.scaledIterations { blackHole(Mnemonic.seed(phrase: phrase, passphrase: "TREZOR")) }
    }
    let sentence = Array(mnemonic.phrase.utf8)
    let seedSalt = Array("mnemonicTREZOR".utf8)
    Benchmark("PBKDF2-HMAC-SHA512 x2048 (raw OpenSSL PKCS5_PBKDF2_HMAC)") { benchmark in
        var out = [UInt8](repeating: 0, count: 64)
        for _ in benchmark.scaledIterations {
            let ok = sentence.withUnsafeBufferPointer { pw in
                pw.withMemoryRebound(to: CChar.self) { chars in
                    PKCS5_PBKDF2_HMAC(
                        chars.baseAddress, Int32(pw.count), seedSalt, Int32(seedSalt.count), 2048, EVP_sha512(), 64,
                        &out)
                }
            }
            precondition(ok == 1)
            blackHole(out)
        }
    }

    // MARK: BIP-44 Ethereum derivation

    let master = try! ExtendedKey(seed: mnemonic.seed(passphrase: "TREZOR"))
    Benchmark("m/44'/60'/0'/0/i address, cached parent (Sandnet)", configuration: .init(scalingFactor: .kilo)) {
        benchmark in
        let accounts = try! EthereumAccounts(master: master)
        var i: UInt32 = 0
        for _ in benchmark.scaledIterations {
            blackHole(try! accounts.address(i))
            i &+= 1
        }
    }
    Benchmark("m/44'/60'/0'/0/i address, full path from master (Sandnet)") { benchmark in
        var i: UInt32 = 0
        for _ in benchmark.scaledIterations {
            blackHole(try! master.derived(.ethereum(index: i)).ethereumAddress)
            i &+= 1
        }
    }

    // The parts of one derivation, to see where the time goes.
    let chainCode = [UInt8](repeating: 0x42, count: 32)
    let childData = [UInt8](repeating: 0x03, count: 37)
    Benchmark("part: HMAC-SHA512 of 37 bytes (CryptoCore)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(HMAC.authenticate(childData, key: chainCode, digest: .sha512)) }
    }
    Benchmark("part: HMAC-SHA512 of 37 bytes (raw OpenSSL HMAC)", configuration: .init(scalingFactor: .kilo)) {
        benchmark in
        var out = [UInt8](repeating: 0, count: 64)
        var length: UInt32 = 0
        for _ in benchmark.scaledIterations {
            _ = BenchCOpenSSL.HMAC(EVP_sha512(), chainCode, 32, childData, childData.count, &out, &length)
            blackHole(out)
        }
    }
    Benchmark("part: secp256k1 public key of a private key (CryptoCore)", configuration: .init(scalingFactor: .kilo)) {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! Secp256k1.publicKey(of: privateKey)) }
    }
}
