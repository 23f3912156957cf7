import EthereumTypes
import Hummingbird
import NIOCore
import NativeContracts

/// What the node serves for a path under `/nft/` or `/ipfs/`: a collection's metadata JSON or SVG image, with the
/// broken cases its style asks for (``NFTCollection/MetadataStyle``). A pure function of the collections and the path.
struct NFTFile: Equatable {
    var status: Int
    var contentType: String
    var body: String
    /// Seconds to wait before answering (a `slow-image` collection's images).
    var delaySeconds: Int = 0

    static func notFound(_ text: String) -> NFTFile {
        NFTFile(status: 404, contentType: "application/json", body: "{\"error\":\"\(text)\"}")
    }

    /// The file `name` (`<id>.json` or `<id>.svg`, the id decimal or 64 hex digits) of the collection `directory`
    /// names: its address under `/nft/`, its content id under `/ipfs/`.
    static func resolve(_ collections: [NFTCollection], ipfs: Bool, directory: String, name: String) -> NFTFile {
        let collection = collections.first { collection in
            ipfs
                ? collection.style == .ipfs && NFTMetadata.ipfsCID(collection) == directory
                : collection.address.lowercased == directory.lowercased()
        }
        guard let collection else { return notFound("no such collection") }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let id = NFTMetadata.parseID(parts[0]) else { return notFound("no such file") }
        switch parts[1] {
        case "json":
            if collection.style == .missing { return notFound("metadata not found") }
            return NFTFile(status: 200, contentType: "application/json", body: NFTMetadata.json(collection, id))
        case "svg":
            return NFTFile(
                status: 200, contentType: "image/svg+xml", body: NFTMetadata.svg(collection, id),
                delaySeconds: collection.style == .slowImage ? NFTMetadata.slowImageDelay : 0)
        default: return notFound("no such file")
        }
    }
}

/// The NFT metadata routes: `GET /nft/<collection address>/<id>.json|.svg` and the local IPFS gateway path
/// `GET /ipfs/<cid>/<id>.json|.svg` (README, "NFTs"). Answered from memory but for a `slow-image` collection's
/// images, which wait (without holding a thread) before answering.
extension NodeServer {
    func addNFTRoutes(to router: Router<NodeRequestContext>) {
        let node = self.node
        let serve: @Sendable (Bool, NodeRequestContext) async throws -> Response = { ipfs, context in
            let file = NFTFile.resolve(
                node.parameters.nativeContracts.collections, ipfs: ipfs,
                directory: context.parameters.get("directory") ?? "", name: context.parameters.get("file") ?? "")
            if file.delaySeconds > 0 { try await Task.sleep(for: .seconds(file.delaySeconds)) }
            return Response(
                status: HTTPResponse.Status(code: file.status),
                headers: [.contentType: file.contentType, .accessControlAllowOrigin: "*"],
                body: .init(byteBuffer: ByteBuffer(string: file.body)))
        }
        router.get("/nft/:directory/:file") { _, context in try await serve(false, context) }
        router.get("/ipfs/:directory/:file") { _, context in try await serve(true, context) }
    }
}
