import JSONCoding

extension RelayFaults {
    /// The JSON names of the counts, as `sandnet_setWalletConnectFaults` and `--relay-faults` take them.
    static var fields: [(String, WritableKeyPath<RelayFaults, Int>)] {
        [
            ("dropDeliveries", \.dropDeliveries), ("duplicateDeliveries", \.duplicateDeliveries),
            ("reorderDeliveries", \.reorderDeliveries), ("delayDeliveries", \.delayDeliveries),
            ("withholdPublishAcks", \.withholdPublishAcks), ("closeOnPublish", \.closeOnPublish),
            ("loseSessionDeletes", \.loseSessionDeletes),
        ]
    }

    /// Most a count may be (a script that arms more is a mistake).
    public static let maxCount = 1_000_000

    /// Faults from a JSON object of counts, e.g. `{"dropDeliveries":1,"delayDeliveries":2,"delayMilliseconds":500}`.
    /// - Throws: ``RelayFaultsError`` naming the field.
    public init(json: JSON) throws(RelayFaultsError) {
        self.init()
        guard let members = json.members else { throw RelayFaultsError("faults must be a JSON object") }
        for (key, value) in members {
            guard let n = value.numberText.flatMap({ Int64($0) }), n >= 0 else {
                throw RelayFaultsError("\(key) must be a non-negative integer")
            }
            if key == "delayMilliseconds" {
                guard n <= 600_000 else { throw RelayFaultsError("delayMilliseconds \(n) over the limit of 600000") }
                delayMilliseconds = n
            } else if let field = Self.fields.first(where: { $0.0 == key }) {
                guard n <= Self.maxCount else {
                    throw RelayFaultsError("\(key) \(n) over the limit of \(Self.maxCount)")
                }
                self[keyPath: field.1] = Int(n)
            } else {
                throw RelayFaultsError(
                    "unknown fault \(key) (known: \((Self.fields.map(\.0) + ["delayMilliseconds"]).joined(separator: ", ")))"
                )
            }
        }
    }

    /// The counts still armed, as JSON.
    public var json: JSON {
        .object(
            Self.fields.map { ($0.0, .int(self[keyPath: $0.1])) } + [("delayMilliseconds", .int(delayMilliseconds))])
    }
}

/// A relay fault configuration that cannot be used.
public struct RelayFaultsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
