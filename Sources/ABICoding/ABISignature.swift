import KeccakHashing

/// A function (or error, or event) signature with its inputs and, optionally, its outputs, parsed from the
/// human-readable form Foundry's `cast` takes: `"allowance(address,address)(uint256)"`,
/// `"aggregate3((address,bool,bytes)[])((bool,bytes)[])"`, `"latestRoundData()(uint80,int256,uint256,uint256,uint80)"`.
public struct ABISignature: Sendable, Hashable, CustomStringConvertible {
    /// Limits on parsed signatures: nesting depth, components per tuple, fixed array length and static size.
    public static let maxDepth = 32
    public static let maxComponents = 256
    public static let maxFixedArrayLength = 65_536
    public static let maxStaticSize = 1 << 20
    /// Longest signature text accepted.
    public static let maxLength = 4_096

    public let name: String
    public let inputs: [ABIType]
    public let outputs: [ABIType]
    /// keccak256 of ``canonical``, first 4 bytes.
    public let selector: [UInt8]

    /// Parses `name(inputs)` or `name(inputs)(outputs)`; a `returns` between the lists, `function ` before the name
    /// and parameter names are accepted.
    ///
    /// - Throws: ``ABISignatureError`` with the byte offset, naming the limit when one is passed.
    public init(_ text: String) throws(ABISignatureError) {
        guard text.utf8.count <= Self.maxLength else {
            throw ABISignatureError("longer than \(Self.maxLength) bytes", at: Self.maxLength, in: text)
        }
        var parser = ABISignatureParser(text)
        parser.skipSpaces()
        var name = parser.identifier()
        if name == "function" || name == "error" || name == "event" {
            parser.skipSpaces()
            name = parser.identifier()
        }
        guard let name else { throw parser.error("expected a function name") }
        self.name = name
        inputs = try parser.list(depth: 1)
        parser.skipSpaces()
        let mark = parser.position
        if parser.identifier() != "returns" { parser.position = mark }
        parser.skipSpaces()
        outputs = parser.atEnd ? [] : try parser.list(depth: 1)
        parser.skipSpaces()
        guard parser.atEnd else { throw parser.error("unexpected text after the signature") }
        selector = Array(Keccak256.hash(utf8: name + ABIType.tuple(inputs).description)[0..<4])
    }

    /// A signature written in the source (a programmer error if it does not parse).
    public init(literal: StaticString) {
        do {
            try self.init(literal.description)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// `name(type1,type2)`: what the selector hashes.
    public var canonical: String { name + ABIType.tuple(inputs).description }

    /// `name(inputs)(outputs)`, canonical types.
    public var description: String { canonical + (outputs.isEmpty ? "" : ABIType.tuple(outputs).description) }

    /// The selector as a big-endian integer, for `switch`.
    public var selectorValue: UInt32 { ABI.selectorValue(selector[...]) }

    /// Selector followed by the encoded arguments.
    public func encodeCall(_ arguments: [ABIValue]) throws(ABIEncodingError) -> [UInt8] {
        var out = selector
        out += try ABI.encode(arguments, as: inputs)
        return out
    }

    /// The arguments of `calldata`, whose selector must be this one. Error offsets count from the selector.
    public func decodeCall(
        _ calldata: [UInt8], options: ABIDecoder.Options = .strict
    ) throws(ABIDecodingError) -> [ABIValue] {
        guard calldata.count >= 4 else {
            throw ABIDecodingError(.wrongLength(expected: 4, actual: calldata.count), at: 0)
        }
        guard calldata[0..<4].elementsEqual(selector) else {
            throw ABIDecodingError(.unknownSelector(Array(calldata[0..<4])), at: 0)
        }
        return try ABIDecoder.decode(inputs, from: calldata[4...], options: options, reportingFrom: 0)
    }

    /// The arguments after the selector (the selector is not checked).
    public func decodeArguments(
        _ calldata: [UInt8], options: ABIDecoder.Options = .strict
    ) throws(ABIDecodingError) -> [ABIValue] {
        try ABIDecoder.decode(inputs, from: calldata.dropFirst(4), options: options, reportingFrom: 0)
    }

    public func encodeOutput(_ values: [ABIValue]) throws(ABIEncodingError) -> [UInt8] {
        try ABI.encode(values, as: outputs)
    }

    public func decodeOutput(
        _ data: [UInt8], options: ABIDecoder.Options = .strict
    ) throws(ABIDecodingError) -> [ABIValue] {
        try ABIDecoder.decode(outputs, from: data[...], options: options)
    }
}
