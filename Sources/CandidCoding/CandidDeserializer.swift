/// Decodes Candid binary messages (Candid spec, "Deserialisation").
///
/// A message is decoded at its wire types and coerced to the expected types in one metered pass. Untrusted input
/// never traps: every failure is a `CandidDecodingError` with the byte offset.
public enum CandidDeserializer {
    /// Decodes a message and coerces its arguments to the expected types.
    ///
    /// - Parameters:
    ///   - bytes: The complete message, starting with `DIDL`.
    ///   - types: The expected argument types.
    ///   - options: Resource limits.
    /// - Returns: One value per expected type, shaped by that type.
    /// - Throws: `CandidDecodingError` when the message is malformed, exceeds limits, or does not coerce.
    public static func decode(
        _ bytes: [UInt8],
        as types: CandidArgumentTypes,
        options: CandidDecodingOptions = .init()
    ) throws(CandidDecodingError) -> [CandidValue] {
        let result = bytes.withUnsafeBytes { buffer -> Result<[CandidValue], CandidDecodingError> in
            do throws(CandidDecodingError) {
                return .success(try decode(buffer, as: types, options: options))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes a single-argument message (the common request/response shape) without building an argument array.
    ///
    /// - Parameters:
    ///   - bytes: The complete message.
    ///   - types: Expected types; must hold exactly one argument type.
    ///   - options: Resource limits.
    /// - Returns: The first argument, coerced to the expected type.
    /// - Throws: `CandidDecodingError` when the message is malformed, exceeds limits, or does not coerce.
    public static func decodeOne(
        _ bytes: [UInt8],
        as types: CandidArgumentTypes,
        options: CandidDecodingOptions = .init()
    ) throws(CandidDecodingError) -> CandidValue {
        precondition(types.arguments.count == 1, "decodeOne needs exactly one expected type")
        let result = bytes.withUnsafeBytes { buffer -> Result<CandidValue, CandidDecodingError> in
            do throws(CandidDecodingError) {
                if types.matchesHeader(of: buffer) {
                    let cursor = CandidByteCursor(buffer, position: types.header.count)
                    var reader = CandidValueReader(
                        cursor: cursor, wire: types.table, expected: types.table, options: options)
                    try reader.charge(types.header.count &* 4)
                    let value = try reader.readExact(types.arguments[0])
                    guard reader.cursor.isAtEnd else {
                        throw reader.cursor.fail(
                            .trailingBytes, "\(reader.cursor.remaining) bytes remain after the last argument value")
                    }
                    return .success(value)
                }
                return .success(try decode(buffer, as: types, options: options)[0])
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes a message held in a raw buffer; see `decode(_:as:options:)`.
    public static func decode(
        _ buffer: UnsafeRawBufferPointer,
        as types: CandidArgumentTypes,
        options: CandidDecodingOptions = .init()
    ) throws(CandidDecodingError) -> [CandidValue] {
        if types.matchesHeader(of: buffer) {
            // Typed fast path: the wire types are exactly the expected types.
            let cursor = CandidByteCursor(buffer, position: types.header.count)
            var reader = CandidValueReader(cursor: cursor, wire: types.table, expected: types.table, options: options)
            try reader.charge(types.header.count &* 4)
            return try reader.readExactArguments(types.arguments)
        }
        var cursor = CandidByteCursor(buffer)
        let header = try CandidMessageHeader.parse(&cursor, options: options)
        var reader = CandidValueReader(cursor: cursor, wire: header.table, expected: types.table, options: options)
        try reader.charge(cursor.position &* 4)
        return try reader.readArguments(wireArguments: header.arguments, expectedArguments: types.arguments)
    }

    /// Decodes a message at its own wire types, without an expected type.
    ///
    /// - Returns: The values and the wire argument types (composite types are named `t0`, `t1`, ... in the
    ///   returned environment).
    /// - Throws: `CandidDecodingError` when the message is malformed or exceeds limits.
    public static func decodeUntyped(
        _ bytes: [UInt8],
        options: CandidDecodingOptions = .init()
    ) throws(CandidDecodingError) -> CandidMessage {
        let result = bytes.withUnsafeBytes { buffer -> Result<CandidMessage, CandidDecodingError> in
            do throws(CandidDecodingError) {
                return .success(try decodeUntyped(buffer, options: options))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    static func decodeUntyped(
        _ buffer: UnsafeRawBufferPointer,
        options: CandidDecodingOptions
    ) throws(CandidDecodingError) -> CandidMessage {
        var cursor = CandidByteCursor(buffer)
        let header = try CandidMessageHeader.parse(&cursor, options: options)
        var reader = CandidValueReader(cursor: cursor, wire: header.table, expected: header.table, options: options)
        try reader.charge(cursor.position &* 4)
        let values = try reader.readArguments(wireArguments: header.arguments, expectedArguments: header.arguments)
        var environment = CandidTypeEnvironment()
        let types = header.arguments.map { header.table.candidType($0, environment: &environment) }
        return CandidMessage(values: values, types: types, environment: environment)
    }
}
