import EthereumTypes

/// Decodes ABI data into ``ABIValue``s, strictly: every word in range for its type (addresses, bools, `uint<M>`,
/// `int<M>`, `bytes<M>`), every offset and length inside the data, element counts bounded by the bytes left, and a
/// BUDGET: the values may not take more bytes encoded than the data has. An encoding without sharing never exceeds
/// it (a canonical one meets it exactly); elements that share one offset (legal for Solidity's decoder, bounded there
/// only by the gas memory costs) are refused with ``ABIDecodingError/Kind/budgetExceeded(limit:)`` before any of
/// the amplified work is done.
public struct ABIDecoder {
    /// How lenient the decoder is beyond the checks it always makes.
    public struct Options: Sendable, Equatable {
        /// Bytes after the last one the values use are accepted (Solidity accepts them) or refused.
        public var allowsTrailingBytes: Bool
        /// The padding after `bytes`/`string` content must be present and zero, or is not read (Solidity's decoder
        /// copies the content only).
        public var checksPadding: Bool
        /// An offset must point past the head it is part of (eth-abi's `InvalidPointer`), or anywhere in the data.
        public var checksOffsets: Bool
        /// Decoded size limit in bytes; nil: the size of the data.
        public var budget: Int?

        public init(allowsTrailingBytes: Bool, checksPadding: Bool, checksOffsets: Bool, budget: Int? = nil) {
            self.allowsTrailingBytes = allowsTrailingBytes
            self.checksPadding = checksPadding
            self.checksOffsets = checksOffsets
            self.budget = budget
        }

        /// No trailing bytes, padding present and zero, offsets past their head (eth-abi 6's checks).
        public static let strict = Options(allowsTrailingBytes: false, checksPadding: true, checksOffsets: true)
        /// What a Solidity contract's decoder accepts (coder v2): trailing bytes, unread padding, any offset inside
        /// the data.
        public static let solidity = Options(allowsTrailingBytes: true, checksPadding: false, checksOffsets: false)
    }

    let data: ArraySlice<UInt8>
    let options: Options
    /// Added to a position in `data` to give the offset errors report.
    let bias: Int
    let limit: Int
    var spent = 0
    /// One past the last byte read.
    var extent = 0

    /// Decodes `data` as the tuple `types`.
    ///
    /// - Parameter reportingFrom: the index of `data`'s base that error offsets count from (default: the slice's
    ///   start), e.g. 0 for the arguments of calldata so that offsets count the selector.
    /// - Throws: ``ABIDecodingError``.
    public static func decode(
        _ types: [ABIType], from data: ArraySlice<UInt8>, options: Options = .strict, reportingFrom: Int? = nil
    ) throws(ABIDecodingError) -> [ABIValue] {
        var decoder = ABIDecoder(
            data: data, options: options, bias: data.startIndex - (reportingFrom ?? data.startIndex),
            limit: options.budget ?? data.count)
        if !options.allowsTrailingBytes && !types.contains(where: \.isDynamic) {
            let size = types.reduce(0) { $0 + $1.headSize }
            guard data.count == size else {
                throw ABIDecodingError(
                    .wrongLength(expected: decoder.bias + size, actual: decoder.bias + data.count), at: 0)
            }
        }
        let values = try decoder.tuple(types, at: 0)
        if !options.allowsTrailingBytes && decoder.extent < data.count {
            throw ABIDecodingError(
                .wrongLength(expected: decoder.bias + decoder.extent, actual: decoder.bias + data.count),
                at: decoder.bias + decoder.extent)
        }
        return values
    }

    /// Decodes `data` as one value of `type` (for example a tuple), as ``decode(_:from:options:reportingFrom:)``.
    public static func decode(
        _ type: ABIType, from data: ArraySlice<UInt8>, options: Options = .strict
    ) throws(ABIDecodingError) -> ABIValue {
        try decode([type], from: data, options: options)[0]
    }

    // MARK: Reading

    func failure(_ kind: ABIDecodingError.Kind, at position: Int) -> ABIDecodingError {
        ABIDecodingError(kind, at: bias + position)
    }

    mutating func charge(_ bytes: Int, at position: Int) throws(ABIDecodingError) {
        spent += bytes
        guard spent <= limit else { throw failure(.budgetExceeded(limit: limit), at: position) }
    }

    /// The word at `position` (relative to the data's start).
    mutating func word(at position: Int) throws(ABIDecodingError) -> UInt256 {
        guard position >= 0, position <= data.count - 32 else {
            throw failure(.wrongLength(expected: bias + position + 32, actual: bias + data.count), at: position)
        }
        extent = max(extent, position + 32)
        let start = data.startIndex + position
        return UInt256(bigEndian: data[start..<start + 32])!
    }

    /// An offset word at `position`, relative to `base`: where a dynamic value starts (in strict mode, at or after
    /// `headEnd`).
    mutating func offset(at position: Int, base: Int, headEnd: Int) throws(ABIDecodingError) -> Int {
        guard let offset = try word(at: position).uint64Value, offset <= UInt64(data.count - base),
            !options.checksOffsets || base + Int(offset) >= headEnd
        else { throw failure(.offsetOutOfRange, at: position) }
        return base + Int(offset)
    }

    mutating func tuple(_ types: [ABIType], at base: Int) throws(ABIDecodingError) -> [ABIValue] {
        var values: [ABIValue] = []
        values.reserveCapacity(types.count)
        let headEnd = base + types.reduce(0) { $0 + $1.headSize }
        var head = base
        for type in types {
            values.append(try component(type, head: head, base: base, headEnd: headEnd))
            head += type.headSize
        }
        return values
    }

    /// A component whose head is at `head` in a tuple starting at `base` whose heads end at `headEnd`.
    mutating func component(_ type: ABIType, head: Int, base: Int, headEnd: Int) throws(ABIDecodingError) -> ABIValue {
        guard type.isDynamic else { return try value(type, at: head) }
        try charge(32, at: head)
        return try value(type, at: try offset(at: head, base: base, headEnd: headEnd))
    }

    /// `count` elements of `element` whose heads start at `base`.
    mutating func elements(_ element: ABIType, count: Int, at base: Int) throws(ABIDecodingError) -> [ABIValue] {
        var values: [ABIValue] = []
        values.reserveCapacity(count)
        let size = element.headSize
        for i in 0..<count {
            if size == 0 { try charge(32, at: base) }  // `()` elements: still bounded by the budget
            values.append(try component(element, head: base + size * i, base: base, headEnd: base + size * count))
        }
        return values
    }

    mutating func value(_ type: ABIType, at position: Int) throws(ABIDecodingError) -> ABIValue {
        switch type {
        case .uint(let bits):
            let v = try word(at: position)
            guard v.bitWidthUsed <= bits else { throw failure(.dirtyWord, at: position) }
            try charge(32, at: position)
            return .uint(v)
        case .int(let bits):
            let v = try word(at: position)
            guard Self.isSignExtended(v, bits: bits) else { throw failure(.dirtyWord, at: position) }
            try charge(32, at: position)
            return .int(v)
        case .address:
            let v = try word(at: position)
            guard v.bitWidthUsed <= 160 else { throw failure(.dirtyWord, at: position) }
            try charge(32, at: position)
            let start = data.startIndex + position
            return .address(Address(data[start + 12..<start + 32])!)
        case .bool:
            let v = try word(at: position)
            guard v <= UInt256(1) else { throw failure(.dirtyWord, at: position) }
            try charge(32, at: position)
            return .bool(!v.isZero)
        case .fixedBytes(let n):
            _ = try word(at: position)
            let start = data.startIndex + position
            guard data[start + n..<start + 32].allSatisfy({ $0 == 0 }) else { throw failure(.dirtyWord, at: position) }
            try charge(32, at: position)
            return .fixedBytes(Array(data[start..<start + n]))
        case .bytes:
            return .bytes(try content(at: position))
        case .string:
            let bytes = try content(at: position)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw failure(.invalidString, at: position + 32)
            }
            return .string(text)
        case .array(let element):
            let available = data.count - position - 32
            guard let count = try word(at: position).uint64Value,
                count <= UInt64(available / max(element.headSize, 32))
            else { throw failure(.lengthOutOfRange, at: position) }
            try charge(32, at: position)
            return .array(try elements(element, count: Int(count), at: position + 32))
        case .fixedArray(let element, let count):
            return .array(try elements(element, count: count, at: position))
        case .tuple(let components):
            return .tuple(try tuple(components, at: position))
        }
    }

    /// The content of `bytes` or `string` whose length word is at `position`.
    mutating func content(at position: Int) throws(ABIDecodingError) -> [UInt8] {
        let available = UInt64(max(0, data.count - position - 32))
        guard let length = try word(at: position).uint64Value, length <= available else {
            throw failure(.lengthOutOfRange, at: position)
        }
        let count = Int(length)
        let padded = (count + 31) / 32 * 32
        try charge(32 + padded, at: position)
        let start = data.startIndex + position + 32
        if options.checksPadding {
            guard padded <= Int(available) else { throw failure(.lengthOutOfRange, at: position) }
            guard data[start + count..<start + padded].allSatisfy({ $0 == 0 }) else {
                throw failure(.nonZeroPadding, at: position + 32 + count)
            }
            extent = max(extent, position + 32 + padded)
        } else {
            extent = max(extent, position + 32 + count)
        }
        return Array(data[start..<start + count])
    }

    /// Whether `v` is an `int<bits>` in two's complement: every bit above bit `bits - 1` equals it.
    static func isSignExtended(_ v: UInt256, bits: Int) -> Bool {
        guard bits < 256 else { return true }
        let high = v >> (bits - 1)
        return high.isZero || high == UInt256.max >> (bits - 1)
    }
}
