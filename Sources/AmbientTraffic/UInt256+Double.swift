import EthereumTypes

extension UInt256 {
    /// The nearest double (exact below 2^53; the generator compares price limits, never does money arithmetic
    /// in floating point).
    var approximateDouble: Double {
        let (a, b, c, d) = limbs
        return ((Double(d) * 0x1.0p64 + Double(c)) * 0x1.0p64 + Double(b)) * 0x1.0p64 + Double(a)
    }
}
