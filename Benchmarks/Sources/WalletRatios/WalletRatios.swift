import BenchCOpenSSL
import CryptoCore
import EthereumTransactions
import HDWallet
import SecretStorage

/// Sandnet against the raw OpenSSL call, interleaved A/B/B/A in one process so that load from other work on
/// the machine hits both sides alike (package-benchmark runs one benchmark after the other, and on a shared
/// machine the load drifts between them). Run: `swift run -c release WalletRatios`.
@main
struct WalletRatios {
    static func main() {
        let clock = ContinuousClock()
        func seconds(_ body: () -> Void) -> Double {
            let d = clock.measure(body)
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        /// Medians, the best of each side, and the median of the per-round Sandnet/raw ratios.
        func report(_ name: String, _ sandnet: [Double], _ raw: [Double], unit: String, higherIsBetter: Bool) {
            let ratio = median(zip(sandnet, raw).map { $0 / $1 })
            let best = { (values: [Double]) in higherIsBetter ? values.max()! : values.min()! }
            print(
                "\(name): Sandnet median \(fmt(median(sandnet))) \(unit) (best \(fmt(best(sandnet)))), "
                    + "raw OpenSSL median \(fmt(median(raw))) \(unit) (best \(fmt(best(raw)))), "
                    + "median Sandnet/raw ratio \(fmt(ratio))")
        }

        // Keystore decrypt (scrypt n=262144 r=8 p=1) vs EVP_PBE_scrypt.
        let password = Array("correct horse battery staple".utf8)
        let salt = [UInt8](repeating: 0x5a, count: 32)
        let keystore = try! Keystore.encrypt(
            privateKey: [UInt8](repeating: 0x11, count: 32), password: password,
            kdf: .scrypt(n: 262_144, r: 8, p: 1, keyLength: 32, salt: salt))
        func rawScrypt() {
            var out = [UInt8](repeating: 0, count: 32)
            let ok = password.withUnsafeBufferPointer { pw in
                pw.withMemoryRebound(to: CChar.self) { chars in
                    EVP_PBE_scrypt(chars.baseAddress, pw.count, salt, salt.count, 262_144, 8, 1, 1 << 30, &out, 32)
                }
            }
            precondition(ok == 1)
        }
        var sandnet: [Double] = []
        var raw: [Double] = []
        for round in 0..<8 {
            if round % 2 == 0 {
                sandnet.append(seconds { _ = try! keystore.decrypt(password: password) })
                raw.append(seconds(rawScrypt))
            } else {
                raw.append(seconds(rawScrypt))
                sandnet.append(seconds { _ = try! keystore.decrypt(password: password) })
            }
        }
        report(
            "keystore decrypt scrypt n=262144 r=8 p=1 (time)", sandnet.map { $0 * 1000 }, raw.map { $0 * 1000 },
            unit: "ms", higherIsBetter: false)

        // Mnemonic -> seed vs PKCS5_PBKDF2_HMAC (chunks of 50 seeds).
        let mnemonic = try! Mnemonic(entropy: [UInt8](repeating: 0x7f, count: 16))
        let sentence = Array(mnemonic.phrase.utf8)
        let seedSalt = Array("mnemonicTREZOR".utf8)
        func rawSeed() {
            var out = [UInt8](repeating: 0, count: 64)
            let ok = sentence.withUnsafeBufferPointer { pw in
                pw.withMemoryRebound(to: CChar.self) { chars in
                    PKCS5_PBKDF2_HMAC(
                        chars.baseAddress, Int32(pw.count), seedSalt, Int32(seedSalt.count), 2048, EVP_sha512(), 64,
                        &out)
                }
            }
            precondition(ok == 1)
        }
        sandnet = []
        raw = []
        func sandnetChunk() -> Double { seconds { for _ in 0..<50 { _ = mnemonic.seed(passphrase: "TREZOR") } } / 50 }
        func rawChunk() -> Double { seconds { for _ in 0..<50 { rawSeed() } } / 50 }
        for round in 0..<20 {
            if round % 2 == 0 {
                sandnet.append(sandnetChunk())
                raw.append(rawChunk())
            } else {
                raw.append(rawChunk())
                sandnet.append(sandnetChunk())
            }
        }
        report(
            "mnemonic -> seed (throughput)", sandnet.map { 1 / $0 }, raw.map { 1 / $0 }, unit: "seeds/s",
            higherIsBetter: true)

        // m/44'/60'/0'/0/i addresses from a master key with the parent cached (chunks of 2,000).
        let master = try! ExtendedKey(seed: mnemonic.seed(passphrase: "TREZOR"))
        let accounts = try! EthereumAccounts(master: master)
        var rates: [Double] = []
        var index: UInt32 = 0
        for _ in 0..<15 {
            let t = seconds {
                for _ in 0..<2_000 {
                    _ = try! accounts.address(index)
                    index &+= 1
                }
            }
            rates.append(2_000 / t)
        }
        print(
            "m/44'/60'/0'/0/i addresses (cached parent): median \(fmt(median(rates))) /s, best \(fmt(rates.max()!)) /s")
    }

    static func fmt(_ value: Double) -> String {
        let rounded = (value * 100).rounded() / 100
        return rounded >= 100 ? String(Int(rounded)) : String(rounded)
    }
}
