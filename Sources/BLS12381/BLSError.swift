/// Why bytes are not a BLS12-381 value the signer accepts.
public enum BLSError: Error, Sendable, Equatable {
    /// A field element, key or point of the wrong size.
    case invalidLength(expected: Int, actual: Int)
    /// A 48-byte field element not below p.
    case notInField
    /// A secret key of zero or not below the group order r.
    case scalarOutOfRange
}
