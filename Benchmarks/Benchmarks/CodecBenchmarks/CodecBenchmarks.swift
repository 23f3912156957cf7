import BenchCKeccak
import BenchCSecp256k1
import Benchmark
import CryptoCore
import EthereumTypes
import KeccakHashing
import RLPCoding

/// Issue 2 figures: keccak ≥ 300 MB/s on 1 MiB and ≥ 1.5 M 32-byte hashes/s; the secp256k1 wrapper within
/// 10 % of raw libsecp256k1; RLP decode/encode of 1,000 signed EIP-1559 transactions ≥ 150× pyrlp.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.throughput, .wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 1_000_000)

    let mebibyte = [UInt8](repeating: 0x5a, count: 1 << 20)
    Benchmark("keccak256 1 MiB", configuration: .init(metrics: [.throughput, .wallClock], maxIterations: 2_000)) {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(Keccak256.hash(mebibyte)) }
    }

    let word = [UInt8](repeating: 0xa5, count: 32)
    Benchmark("keccak256 32 bytes", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Keccak256.hash(word)) }
    }
    // The digest held inline (`Keccak256Digest`, no allocation): the API for hot paths that keep or compare 32 bytes.
    Benchmark("keccak256 32 bytes returning Keccak256Digest", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(Keccak256.digest(word)) }
    }
    // The same work into a caller's buffer (no result array), side by side with the unrolled C reference.
    Benchmark("keccak256 32 bytes into a buffer", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var out = [UInt8](repeating: 0, count: 32)
        word.withUnsafeBytes { input in
            out.withUnsafeMutableBytes { output in
                for _ in benchmark.scaledIterations {
                    Keccak256.hash(input, into: output)
                    blackHole(output[0])
                }
            }
        }
    }
    Benchmark("keccak256 1 MiB (C reference, plain C)", configuration: .init(metrics: [.throughput, .wallClock], maxIterations: 2_000)) {
        benchmark in
        var out = [UInt8](repeating: 0, count: 32)
        for _ in benchmark.scaledIterations {
            bench_keccak256(mebibyte, mebibyte.count, &out)
            blackHole(out)
        }
    }
    Benchmark("keccak256 32 bytes (C reference, plain C)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var out = [UInt8](repeating: 0, count: 32)
        word.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                for _ in benchmark.scaledIterations {
                    bench_keccak256(input.baseAddress, 32, output.baseAddress)
                    blackHole(output[0])
                }
            }
        }
    }
    // C reference agrees with the Swift hash (a benchmark of a wrong hash measures nothing).
    var check = [UInt8](repeating: 0, count: 32)
    bench_keccak256(mebibyte, mebibyte.count, &check)
    precondition(check == Keccak256.hash(mebibyte), "C reference keccak disagrees with Keccak256")
    bench_keccak256(word, word.count, &check)
    precondition(check == Keccak256.hash(word), "C reference keccak disagrees with Keccak256")
    precondition(check == Array(Keccak256.digest(word)), "C reference keccak disagrees with Keccak256.digest")

    // secp256k1: wrapper vs raw, same digest and key.
    let key: [UInt8] = (1...32).map { UInt8($0) }
    let digest: [UInt8] = (0..<32).map { UInt8($0 &* 7) }
    let signature = try! Secp256k1.sign(digest: digest, privateKey: key)
    Benchmark("secp256k1 sign (Sandnet)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! Secp256k1.sign(digest: digest, privateKey: key)) }
    }
    Benchmark("secp256k1 recover (Sandnet)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! Secp256k1.recover(digest: digest, signature: signature)) }
    }
    let ctx = secp256k1_context_create(UInt32(SECP256K1_CONTEXT_NONE))!
    Benchmark("secp256k1 sign (raw C)") { benchmark in
        var sig = secp256k1_ecdsa_recoverable_signature()
        var compact = [UInt8](repeating: 0, count: 64)
        var recid: Int32 = 0
        for _ in benchmark.scaledIterations {
            _ = secp256k1_ecdsa_sign_recoverable(ctx, &sig, digest, key, nil, nil)
            _ = secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, &compact, &recid, &sig)
            blackHole(compact)
        }
    }
    Benchmark("secp256k1 recover (raw C)") { benchmark in
        var sig = secp256k1_ecdsa_recoverable_signature()
        let compact = signature.r + signature.s
        var pub = secp256k1_pubkey()
        var out = [UInt8](repeating: 0, count: 65)
        var len = 65
        for _ in benchmark.scaledIterations {
            _ = secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &sig, compact, Int32(signature.recoveryID))
            _ = secp256k1_ecdsa_recover(ctx, &pub, &sig, digest)
            len = 65
            _ = secp256k1_ec_pubkey_serialize(ctx, &out, &len, &pub, UInt32(SECP256K1_EC_UNCOMPRESSED))
            blackHole(out)
        }
    }

    // RLP: a list of 1,000 signed EIP-1559 transfers, each as its own RLP list
    // [chainId, nonce, tip, maxFee, gas, to, value, data, accessList, yParity, r, s].
    let txList = RLPFixtures.eip1559TransferList(count: 1_000)
    Benchmark("rlp decode 1000 eip1559 txs (tree)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try! RLP.decode(txList)) }
    }
    Benchmark("rlp decode 1000 eip1559 txs (cursor)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(RLPFixtures.walk(txList)) }
    }
    let tree = try! RLP.decode(txList)
    Benchmark("rlp encode 1000 eip1559 txs (tree)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(RLP.encode(tree)) }
    }
    Benchmark("rlp encode 1000 eip1559 txs (encoder)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(RLPFixtures.eip1559TransferList(count: 1_000)) }
    }
}

enum RLPFixtures {
    static let to = [UInt8](repeating: 0x35, count: 20)
    static let r = [UInt8](repeating: 0x7a, count: 32)
    static let s = [UInt8](repeating: 0x3b, count: 32)
    static let empty: [UInt8] = []

    static func eip1559TransferList(count: Int) -> [UInt8] {
        var encoder = RLPEncoder(capacity: count * 120)
        encoder.appendList { list in
            for i in 0..<count {
                list.appendList { tx in
                    tx.appendUInt64(11_155_111)
                    tx.appendUInt64(UInt64(i))
                    tx.appendUInt64(1_000_000_000)
                    tx.appendUInt64(3_000_000_000)
                    tx.appendUInt64(21_000)
                    tx.appendBytes(to)
                    tx.appendUInt64(1_000_000_000_000_000_000)
                    tx.appendBytes(empty)
                    tx.appendList { _ in }
                    tx.appendUInt64(1)
                    tx.appendBytes(r)
                    tx.appendBytes(s)
                }
            }
        }
        return encoder.bytes
    }

    /// Walks every field of every transaction with the non-allocating reader.
    static func walk(_ bytes: [UInt8]) -> Int {
        var reader = RLPReader(bytes)
        var outer = try! reader.readList()
        var fields = 0
        while !outer.isAtEnd {
            var tx = try! outer.readList()
            _ = try! tx.readUInt64()
            _ = try! tx.readUInt64()
            _ = try! tx.readUInt64()
            _ = try! tx.readUInt64()
            _ = try! tx.readUInt64()
            _ = try! tx.readFixedBytes(20)
            _ = try! tx.readUnsignedIntegerBytes(maxBytes: 32)
            _ = try! tx.readBytes()
            _ = try! tx.readList()
            _ = try! tx.readUInt64()
            _ = try! tx.readUnsignedIntegerBytes(maxBytes: 32)
            _ = try! tx.readUnsignedIntegerBytes(maxBytes: 32)
            fields += 12
        }
        return fields
    }
}
