import CryptoCore

/// hash_to_curve for the suite `BLS12381G1_XMD:SHA-256_SSWU_RO_` (RFC 9380 §8.8.1): expand_message_xmd with
/// SHA-256, two field elements, the simplified SWU map onto the 11-isogenous curve E′, the isogeny to E, and the
/// cofactor cleared by h_eff.
public enum HashToCurve {
    /// expand_message_xmd with SHA-256 (RFC 9380 §5.3.1).
    ///
    /// - Parameters:
    ///   - message: Any bytes.
    ///   - dst: The domain separation tag, at most 255 bytes (longer tags are a programmer error).
    ///   - length: Output bytes, 1...8160 (255 SHA-256 blocks; a programmer error beyond).
    public static func expandMessageXMD(_ message: [UInt8], dst: [UInt8], length: Int) -> [UInt8] {
        precondition(dst.count <= 255, "expand_message_xmd: DST longer than 255 bytes")
        let blocks = (length + 31) / 32
        precondition(length > 0 && blocks <= 255, "expand_message_xmd: length must be 1...8160")
        let dstPrime = dst + [UInt8(dst.count)]
        var first: [UInt8] = [UInt8](repeating: 0, count: 64)
        first.reserveCapacity(64 + message.count + 3 + dstPrime.count)
        first += message
        first += [UInt8(length >> 8), UInt8(length & 0xff), 0]
        first += dstPrime
        let b0 = Digest.sha256.hash(first)
        var previous = Digest.sha256.hash(b0 + [1] + dstPrime)
        var output = previous
        var index: UInt8 = 2
        while output.count < length {
            var input = zip(b0, previous).map { $0 ^ $1 }
            input.append(index)
            input += dstPrime
            previous = Digest.sha256.hash(input)
            output += previous
            index += 1
        }
        return Array(output.prefix(length))
    }

    /// hash_to_field for 𝔽p with L = 64 (RFC 9380 §5.2): `count` elements from 64 bytes each.
    public static func hashToField(_ message: [UInt8], dst: [UInt8], count: Int) -> [Fp] {
        let bytes = expandMessageXMD(message, dst: dst, length: 64 * count)
        return (0..<count).map { Fp(reducing: bytes[(64 * $0)..<(64 * $0 + 64)]) }
    }

    /// hash_to_curve: a point of G1 (the prime-order subgroup) for `message` under `dst`.
    public static func hashToG1(_ message: [UInt8], dst: [UInt8]) -> G1Point {
        let u = hashToField(message, dst: dst, count: 2)
        return clearCofactor(mapToCurve(u[0]) + mapToCurve(u[1]))
    }

    /// map_to_curve: simplified SWU onto E′ (§6.6.2), then the 11-isogeny to E (Appendix E.2).
    public static func mapToCurve(_ u: Fp) -> G1Point {
        let (x, y) = simplifiedSWU(u)
        return isogenyMap(x: x, y: y)
    }

    /// h_eff = 0xd201000000010001 (§8.8.1): multiplying by it maps E(𝔽p) into G1.
    public static func clearCofactor(_ point: G1Point) -> G1Point {
        point.multiplied(by: [0xd201_0000_0001_0001])
    }

    // MARK: Simplified SWU on E′: y² = x³ + A′x + B′, Z = 11

    static func simplifiedSWU(_ u: Fp) -> (x: Fp, y: Fp) {
        let constants = IsogenyConstants.shared
        let a = constants.a
        let b = constants.b
        let zu2 = constants.z * u.squared
        let tv1 = (zu2.squared + zu2).inverted
        var x1 = constants.minusBOverA * (Fp.one + tv1)
        if tv1.isZero { x1 = constants.bOverZA }
        let gx1 = (x1.squared + a) * x1 + b
        var x = x1
        var y: Fp
        if let root = gx1.squareRoot {
            y = root
        } else {
            let x2 = zu2 * x1
            let gx2 = (x2.squared + a) * x2 + b
            // gx1 · gx2 = Z³u⁶ · gx1², and Z = 11 is not a square, so exactly one of gx1, gx2 is.
            guard let root = gx2.squareRoot else {
                preconditionFailure("simplified SWU: neither gx1 nor gx2 is square")
            }
            x = x2
            y = root
        }
        if u.sgn0 != y.sgn0 { y = -y }
        return (x, y)
    }

    /// The 11-isogeny E′ → E: x = xNum/xDen, y = y′·yNum/yDen, returned in Jacobian coordinates with Z = xDen·yDen
    /// (no inversion).
    static func isogenyMap(x: Fp, y: Fp) -> G1Point {
        let constants = IsogenyConstants.shared
        let xNumerator = horner(constants.xNumerator, x)
        let xDenominator = horner(constants.xDenominator, x)
        let yNumerator = horner(constants.yNumerator, x)
        let yDenominator = horner(constants.yDenominator, x)
        let z = xDenominator * yDenominator
        let yDenominator2 = yDenominator.squared
        // X = x·Z² = xNum·xDen·yDen²; Y = y·Z³ = y′·yNum·xDen³·yDen².
        let bigX = xNumerator * xDenominator * yDenominator2
        let bigY = y * yNumerator * xDenominator.squared * xDenominator * yDenominator2
        return G1Point(x: bigX, y: bigY, z: z)
    }

    /// Σ coefficients[i]·x^i (coefficients from the constant term up).
    static func horner(_ coefficients: [Fp], _ x: Fp) -> Fp {
        var result = Fp.zero
        for coefficient in coefficients.reversed() { result = result * x + coefficient }
        return result
    }
}
