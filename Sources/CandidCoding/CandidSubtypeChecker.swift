/// Decides `t1 <: t2` between a wire type and an expected type (Candid spec, "Subtyping").
///
/// Used when decoding function and service references, whose wire type must be a subtype of the expected type.
/// Recursive types are handled coinductively: a pair already under consideration is assumed to hold.
struct CandidSubtypeChecker {
    let wire: CandidTypeTable
    let expected: CandidTypeTable
    let maximumDepth: Int
    private var assumed: Set<Key> = []
    private var depth = 0

    struct Key: Hashable {
        var left: Int32
        var leftIsWire: Bool
        var right: Int32
    }

    init(wire: CandidTypeTable, expected: CandidTypeTable, maximumDepth: Int) {
        self.wire = wire
        self.expected = expected
        self.maximumDepth = maximumDepth
    }

    /// Whether the wire type is a subtype of the expected type.
    mutating func isSubtype(_ wireRef: Int32, _ expectedRef: Int32, cursor: CandidByteCursor)
        throws(CandidDecodingError) -> Bool
    {
        // Pairs proven inside one check may rest on assumptions that later failed; never reuse them across checks.
        assumed.removeAll(keepingCapacity: true)
        return try check(wireRef, leftIsWire: true, expectedRef, cursor: cursor)
    }

    private func table(_ isWire: Bool) -> CandidTypeTable { isWire ? wire : expected }

    private mutating func check(_ left: Int32, leftIsWire: Bool, _ right: Int32, cursor: CandidByteCursor)
        throws(CandidDecodingError) -> Bool
    {
        let leftTable = table(leftIsWire)
        let rightTable = table(!leftIsWire)
        if right == CandidTypeTable.reserved || left == CandidTypeTable.empty { return true }
        if right >= 0, case .opt = rightTable.nodes[Int(right)] { return true }
        if left < 0 || right < 0 {
            if left == right { return true }
            if left == CandidTypeTable.nat && right == CandidTypeTable.int { return true }
            if right == CandidTypeTable.principal, left >= 0, case .service = leftTable.nodes[Int(left)] { return true }
            return false
        }
        let key = Key(left: left, leftIsWire: leftIsWire, right: right)
        if assumed.contains(key) { return true }
        depth += 1
        defer { depth -= 1 }
        guard depth <= maximumDepth else {
            throw cursor.fail(.depthExceeded, "subtype check exceeds the depth limit \(maximumDepth)")
        }
        assumed.insert(key)
        let result = try checkNodes(leftTable.nodes[Int(left)], leftIsWire, rightTable.nodes[Int(right)], cursor)
        if !result { assumed.remove(key) }
        return result
    }

    private mutating func checkNodes(
        _ left: CandidTypeTable.Node, _ leftIsWire: Bool, _ right: CandidTypeTable.Node, _ cursor: CandidByteCursor
    ) throws(CandidDecodingError) -> Bool {
        let rightTable = table(!leftIsWire)
        let leftTable = table(leftIsWire)
        switch (left, right) {
        case (.vec(let leftInner), .vec(let rightInner)):
            return try check(leftInner, leftIsWire: leftIsWire, rightInner, cursor: cursor)
        case (.record(let leftFields), .record(let rightFields)):
            for field in rightFields {
                if let match = leftFields.binarySearch(id: field.id) {
                    guard try check(match.type, leftIsWire: leftIsWire, field.type, cursor: cursor) else {
                        return false
                    }
                } else if !rightTable.acceptsNull(field.type) {
                    return false
                }
            }
            return true
        case (.variant(let leftFields), .variant(let rightFields)):
            for field in leftFields {
                guard let match = rightFields.binarySearch(id: field.id),
                    try check(field.type, leftIsWire: leftIsWire, match.type, cursor: cursor)
                else { return false }
            }
            return true
        case (.function(let leftFunction), .function(let rightFunction)):
            guard leftFunction.modes == rightFunction.modes else { return false }
            // Arguments are contravariant: (right args) <: (left args) as tuple records.
            for (index, leftArgument) in leftFunction.arguments.enumerated() {
                if index < rightFunction.arguments.count {
                    guard
                        try check(
                            rightFunction.arguments[index], leftIsWire: !leftIsWire, leftArgument, cursor: cursor)
                    else { return false }
                } else if !leftTable.acceptsNull(leftArgument) {
                    return false
                }
            }
            // Results are covariant: (left results) <: (right results).
            for (index, rightResult) in rightFunction.results.enumerated() {
                if index < leftFunction.results.count {
                    guard try check(leftFunction.results[index], leftIsWire: leftIsWire, rightResult, cursor: cursor)
                    else { return false }
                } else if !rightTable.acceptsNull(rightResult) {
                    return false
                }
            }
            return true
        case (.service(let leftMethods), .service(let rightMethods)):
            for method in rightMethods {
                guard let match = leftMethods.first(where: { $0.name == method.name }),
                    try check(match.type, leftIsWire: leftIsWire, method.type, cursor: cursor)
                else { return false }
            }
            return true
        default:
            return false
        }
    }
}
