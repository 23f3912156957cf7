import ByteCoding

/// A compiled argument (or result) type sequence, ready for repeated encoding and decoding.
///
/// Candid spec, "Parameters and results": a message carries a type table and a sequence of argument types.
/// Compiling once and reusing the value keeps the hot paths free of type resolution.
public struct CandidArgumentTypes: Sendable {
    let table: CandidTypeTable
    let arguments: [Int32]
    /// `DIDL`, the type table and the argument type list, precomputed for encoding.
    let header: [UInt8]
    /// The source types.
    public let types: [CandidType]
    /// The environment the types were compiled in.
    public let environment: CandidTypeEnvironment

    /// Compiles argument types.
    ///
    /// - Parameters:
    ///   - types: The argument types in order.
    ///   - environment: Definitions for `.named` references.
    /// - Throws: `CandidTypeError` for unknown names, vacuous definitions or duplicate labels.
    public init(_ types: [CandidType], environment: CandidTypeEnvironment = .init()) throws(CandidTypeError) {
        var builder = CandidTypeTableBuilder(environment: environment)
        var arguments: [Int32] = []
        for type in types { arguments.append(try builder.ref(type)) }
        self.init(table: builder.table, arguments: arguments, types: types, environment: environment)
    }

    init(table: CandidTypeTable, arguments: [Int32], types: [CandidType], environment: CandidTypeEnvironment) {
        self.table = table
        self.arguments = arguments
        self.types = types
        self.environment = environment
        var header: [UInt8] = Array("DIDL".utf8)
        table.append(to: &header)
        LEB128.append(UInt64(arguments.count), to: &header)
        for ref in arguments { LEB128.append(signed: Int64(ref), to: &header) }
        self.header = header
    }

    /// Whether the message starts with exactly this header (same table, same argument types).
    @inline(__always)
    func matchesHeader(of buffer: UnsafeRawBufferPointer) -> Bool {
        guard buffer.count >= header.count else { return false }
        return header.withUnsafeBytes { expected in
            guard let left = expected.baseAddress, let right = buffer.baseAddress else { return expected.isEmpty }
            var index = 0
            let count = expected.count
            while index &+ 8 <= count {
                if left.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    != right.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                {
                    return false
                }
                index &+= 8
            }
            while index < count {
                if left.load(fromByteOffset: index, as: UInt8.self) != right.load(fromByteOffset: index, as: UInt8.self)
                {
                    return false
                }
                index &+= 1
            }
            return true
        }
    }

    /// Number of arguments.
    public var count: Int { arguments.count }
}
