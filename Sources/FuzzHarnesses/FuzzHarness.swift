/// The harness bodies, one static function per target (see ``FuzzTarget/all``).
///
/// A harness feeds untrusted bytes to a decoder. Rejections (thrown errors) are the expected outcome for most
/// inputs and are ignored. When a decoder accepts an input, the harness checks the round-trip properties that
/// hold for that format; a violation calls ``violated(_:_:)``, which traps: that is how libFuzzer (and the
/// reproducer tests) see a bug. This is the one place in the project where trapping on input is intended.
public enum FuzzHarness {
    /// Reports a violated property and stops the process.
    ///
    /// `detail` is a plain `String`, not an autoclosure: Swift 6.3's release optimiser crashes ("Found ownership
    /// error") on an autoclosure that captures a typed-throws `error` inside its `catch`.
    static func violated(_ property: String, _ detail: String = "") -> Never {
        fatalError("fuzz property violated: \(property) \(detail)")
    }

    /// Checks a property.
    @inline(__always)
    static func check(_ condition: Bool, _ property: String, _ detail: @autoclosure () -> String = "") {
        if !condition { violated(property, detail()) }
    }
}

extension Array where Element == UInt8 {
    /// Lowercase hex, for property-violation messages.
    var fuzzHex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
