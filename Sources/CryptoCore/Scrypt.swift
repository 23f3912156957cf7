/// scrypt's ROMix in Swift (RFC 7914 §3–§6), for parameters OpenSSL refuses. PBKDF2 comes from OpenSSL.
enum Scrypt {
    static func derive(
        password: [UInt8], salt: [UInt8], n: Int, r: Int, p: Int, keyLength: Int
    ) throws(KeyDerivation.ParameterError) -> [UInt8] {
        let blockBytes = 128 * r
        var b = try KeyDerivation.pbkdf2(
            password: password, salt: salt, iterations: 1, keyLength: p * blockBytes, digest: .sha256)
        let wordsPerBlock = 32 * r
        var x = [UInt32](repeating: 0, count: wordsPerBlock)
        var y = [UInt32](repeating: 0, count: wordsPerBlock)
        var v = [UInt32](repeating: 0, count: wordsPerBlock * n)
        for block in 0..<p {
            let base = block * blockBytes
            for i in 0..<wordsPerBlock {
                let o = base + i * 4
                x[i] = UInt32(b[o]) | UInt32(b[o + 1]) << 8 | UInt32(b[o + 2]) << 16 | UInt32(b[o + 3]) << 24
            }
            x.withUnsafeMutableBufferPointer { xp in
                y.withUnsafeMutableBufferPointer { yp in
                    v.withUnsafeMutableBufferPointer { vp in
                        roMix(x: xp.baseAddress!, y: yp.baseAddress!, v: vp.baseAddress!, n: n, r: r)
                    }
                }
            }
            for i in 0..<wordsPerBlock {
                let o = base + i * 4
                let w = x[i]
                b[o] = UInt8(truncatingIfNeeded: w)
                b[o + 1] = UInt8(truncatingIfNeeded: w >> 8)
                b[o + 2] = UInt8(truncatingIfNeeded: w >> 16)
                b[o + 3] = UInt8(truncatingIfNeeded: w >> 24)
            }
        }
        return try KeyDerivation.pbkdf2(
            password: password, salt: b, iterations: 1, keyLength: keyLength, digest: .sha256)
    }

    static func roMix(
        x: UnsafeMutablePointer<UInt32>, y: UnsafeMutablePointer<UInt32>, v: UnsafeMutablePointer<UInt32>, n: Int,
        r: Int
    ) {
        let words = 32 * r
        for i in 0..<n {
            (v + i * words).update(from: x, count: words)
            blockMix(x, y, r: r)
        }
        for _ in 0..<n {
            let j = Int(x[(2 * r - 1) * 16]) & (n - 1)
            let vj = v + j * words
            for k in 0..<words { x[k] ^= vj[k] }
            blockMix(x, y, r: r)
        }
    }

    /// BlockMix_salsa20/8: `b` is 2r 64-byte blocks; `scratch` is the same size.
    static func blockMix(_ b: UnsafeMutablePointer<UInt32>, _ scratch: UnsafeMutablePointer<UInt32>, r: Int) {
        var t = (
            UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0),
            UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0), UInt32(0)
        )
        withUnsafeMutableBytes(of: &t) { raw in
            let tp = raw.baseAddress!.assumingMemoryBound(to: UInt32.self)
            tp.update(from: b + (2 * r - 1) * 16, count: 16)
            for i in 0..<(2 * r) {
                let bi = b + i * 16
                for k in 0..<16 { tp[k] ^= bi[k] }
                salsa20_8(tp)
                // Even blocks go to the first half, odd blocks to the second (RFC 7914 §4).
                let dest = scratch + ((i & 1) * r + (i >> 1)) * 16
                dest.update(from: tp, count: 16)
            }
        }
        b.update(from: scratch, count: 32 * r)
    }

    // swift-format-ignore: AlwaysUseLowerCamelCase
    // The name of the function in RFC 7914 §3 (Salsa20/8 core).
    @inline(__always)
    static func salsa20_8(_ s: UnsafeMutablePointer<UInt32>) {
        var x0 = s[0]
        var x1 = s[1]
        var x2 = s[2]
        var x3 = s[3]
        var x4 = s[4]
        var x5 = s[5]
        var x6 = s[6]
        var x7 = s[7]
        var x8 = s[8]
        var x9 = s[9]
        var x10 = s[10]
        var x11 = s[11]
        var x12 = s[12]
        var x13 = s[13]
        var x14 = s[14]
        var x15 = s[15]
        @inline(__always) func rotl(_ v: UInt32, _ c: UInt32) -> UInt32 { (v &<< c) | (v &>> (32 &- c)) }
        for _ in 0..<4 {
            x4 ^= rotl(x0 &+ x12, 7)
            x8 ^= rotl(x4 &+ x0, 9)
            x12 ^= rotl(x8 &+ x4, 13)
            x0 ^= rotl(x12 &+ x8, 18)
            x9 ^= rotl(x5 &+ x1, 7)
            x13 ^= rotl(x9 &+ x5, 9)
            x1 ^= rotl(x13 &+ x9, 13)
            x5 ^= rotl(x1 &+ x13, 18)
            x14 ^= rotl(x10 &+ x6, 7)
            x2 ^= rotl(x14 &+ x10, 9)
            x6 ^= rotl(x2 &+ x14, 13)
            x10 ^= rotl(x6 &+ x2, 18)
            x3 ^= rotl(x15 &+ x11, 7)
            x7 ^= rotl(x3 &+ x15, 9)
            x11 ^= rotl(x7 &+ x3, 13)
            x15 ^= rotl(x11 &+ x7, 18)
            x1 ^= rotl(x0 &+ x3, 7)
            x2 ^= rotl(x1 &+ x0, 9)
            x3 ^= rotl(x2 &+ x1, 13)
            x0 ^= rotl(x3 &+ x2, 18)
            x6 ^= rotl(x5 &+ x4, 7)
            x7 ^= rotl(x6 &+ x5, 9)
            x4 ^= rotl(x7 &+ x6, 13)
            x5 ^= rotl(x4 &+ x7, 18)
            x11 ^= rotl(x10 &+ x9, 7)
            x8 ^= rotl(x11 &+ x10, 9)
            x9 ^= rotl(x8 &+ x11, 13)
            x10 ^= rotl(x9 &+ x8, 18)
            x12 ^= rotl(x15 &+ x14, 7)
            x13 ^= rotl(x12 &+ x15, 9)
            x14 ^= rotl(x13 &+ x12, 13)
            x15 ^= rotl(x14 &+ x13, 18)
        }
        s[0] &+= x0
        s[1] &+= x1
        s[2] &+= x2
        s[3] &+= x3
        s[4] &+= x4
        s[5] &+= x5
        s[6] &+= x6
        s[7] &+= x7
        s[8] &+= x8
        s[9] &+= x9
        s[10] &+= x10
        s[11] &+= x11
        s[12] &+= x12
        s[13] &+= x13
        s[14] &+= x14
        s[15] &+= x15
    }
}
