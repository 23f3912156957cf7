/// What an HTTP endpoint of the replica answers: a status, a content type and a body. Kept free of any HTTP
/// framework so the replica core stays testable without a server.
public struct ReplicaResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]

    public static let cborContentType = "application/cbor"

    public static func cbor(_ body: [UInt8], status: Int = 200) -> ReplicaResponse {
        ReplicaResponse(status: status, contentType: cborContentType, body: body)
    }

    public static let accepted = ReplicaResponse(status: 202, contentType: "text/plain", body: [])

    public static func error(_ error: ReplicaError) -> ReplicaResponse {
        ReplicaResponse(status: error.httpStatus, contentType: "text/plain", body: Array(error.description.utf8))
    }
}
