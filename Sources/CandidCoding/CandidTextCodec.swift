/// Text-level convenience API for command-line tools: Candid text in, binary out, and back.
///
/// Candid spec, "Textual representation" and "Binary format". Types can be given as text (`(nat, text)`), or taken
/// from a parsed `.did` interface and a method name.
public enum CandidTextCodec {
    /// Which side of a method signature to use.
    public enum Direction: Sendable {
        /// The method's argument types.
        case arguments
        /// The method's result types.
        case results
    }

    /// Encodes a textual argument list such as `(42 : nat, "x")`.
    ///
    /// - Parameters:
    ///   - arguments: The argument list in Candid text.
    ///   - types: Optional argument types as text, such as `(nat, text)`; without them types are inferred
    ///     (numbers are `int` unless annotated).
    ///   - interface: Optional `.did` interface whose definitions name types used in `types`.
    /// - Returns: The binary message.
    /// - Throws: `CandidToolError` describing the first problem.
    public static func encode(
        _ arguments: String,
        types: String? = nil,
        interface: CandidInterface? = nil
    ) throws(CandidToolError) -> [UInt8] {
        let environment = interface?.environment ?? CandidTypeEnvironment()
        if let types {
            let parsed: [CandidType]
            do { parsed = try CandidTextParser.parseArgumentTypes(types) } catch { throw .text(error) }
            return try encode(arguments, types: parsed, environment: environment)
        }
        let values: [CandidTextValue]
        do { values = try CandidTextParser.parseArguments(arguments) } catch { throw .text(error) }
        var inferredTypes: [CandidType] = []
        var inferredValues: [CandidValue] = []
        for value in values {
            do {
                let (type, typed) = try value.inferred(environment: environment)
                inferredTypes.append(type)
                inferredValues.append(typed)
            } catch {
                throw .text(error)
            }
        }
        do {
            return try CandidSerializer.encode(inferredValues, types: inferredTypes, environment: environment)
        } catch {
            throw .encoding(error)
        }
    }

    /// Encodes a textual argument list at a method's argument or result types.
    ///
    /// - Throws: `CandidToolError` when the method is unknown or the values do not match.
    public static func encode(
        _ arguments: String,
        interface: CandidInterface,
        method: String,
        direction: Direction = .arguments
    ) throws(CandidToolError) -> [UInt8] {
        let function: CandidFunctionType
        do { function = try interface.method(method) } catch { throw .type(error) }
        let types = direction == .arguments ? function.arguments : function.results
        return try encode(arguments, types: types, environment: interface.environment)
    }

    static func encode(_ arguments: String, types: [CandidType], environment: CandidTypeEnvironment)
        throws(CandidToolError) -> [UInt8]
    {
        let compiled: CandidArgumentTypes
        do { compiled = try CandidArgumentTypes(types, environment: environment) } catch { throw .type(error) }
        let values: [CandidValue]
        do {
            values = try CandidTextValue.typed(CandidTextParser.parseArguments(arguments), as: compiled)
        } catch {
            throw .text(error)
        }
        do { return try CandidSerializer.encode(values, as: compiled) } catch { throw .encoding(error) }
    }

    /// Decodes a binary message to Candid text.
    ///
    /// - Parameters:
    ///   - bytes: The message.
    ///   - types: Optional expected types as text; without them the message is printed at its wire types.
    ///   - interface: Optional `.did` interface for named types in `types`.
    ///   - options: Resource limits.
    /// - Returns: The argument list in Candid text, e.g. `(42, "x")`.
    /// - Throws: `CandidToolError` describing the first problem.
    public static func decode(
        _ bytes: [UInt8],
        types: String? = nil,
        interface: CandidInterface? = nil,
        options: CandidDecodingOptions = .init()
    ) throws(CandidToolError) -> String {
        guard let types else {
            do {
                return CandidValue.argumentsText(try CandidDeserializer.decodeUntyped(bytes, options: options).values)
            } catch {
                throw .decoding(error)
            }
        }
        let parsed: [CandidType]
        do { parsed = try CandidTextParser.parseArgumentTypes(types) } catch { throw .text(error) }
        return try decode(bytes, types: parsed, environment: interface?.environment ?? .init(), options: options)
    }

    /// Decodes a binary message at a method's argument or result types and prints it as Candid text.
    ///
    /// - Throws: `CandidToolError` when the method is unknown or the message does not decode.
    public static func decode(
        _ bytes: [UInt8],
        interface: CandidInterface,
        method: String,
        direction: Direction = .arguments,
        options: CandidDecodingOptions = .init()
    ) throws(CandidToolError) -> String {
        let function: CandidFunctionType
        do { function = try interface.method(method) } catch { throw .type(error) }
        let types = direction == .arguments ? function.arguments : function.results
        return try decode(bytes, types: types, environment: interface.environment, options: options)
    }

    static func decode(
        _ bytes: [UInt8],
        types: [CandidType],
        environment: CandidTypeEnvironment,
        options: CandidDecodingOptions
    ) throws(CandidToolError) -> String {
        let compiled: CandidArgumentTypes
        do { compiled = try CandidArgumentTypes(types, environment: environment) } catch { throw .type(error) }
        do {
            return CandidValue.argumentsText(try CandidDeserializer.decode(bytes, as: compiled, options: options))
        } catch {
            throw .decoding(error)
        }
    }

    /// Parses and checks a `.did` file.
    ///
    /// - Returns: A summary: number of definitions, then each method signature.
    /// - Throws: `CandidToolError.text` with line and column on syntax or type errors.
    public static func checkInterface(_ text: String) throws(CandidToolError) -> String {
        do { return try CandidInterface(parsing: text).summary } catch { throw .text(error) }
    }
}
