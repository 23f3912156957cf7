import ByteCoding
import EthereumNode
import EthereumTypes
import Foundation
import JSONCoding
import NativeContracts
import Testing

@testable import SandnetServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The native NFT collections end to end over HTTP on 127.0.0.1 (issue 30): listed by `/api/info`, read and moved
/// with JSON-RPC, their metadata and images served by the node, the broken styles.
@Suite(.serialized) struct NFTRoutesTests {
    static let shapes = "0x5a4d000000000000000000000000000000000721"
    static let items = "0x5a4d000000000000000000000000000000001155"

    func get(_ node: RunningNode, _ path: String) async throws -> (Int, String, String) {
        let (data, response) = try await URLSession.shared.data(
            from: URL(string: "http://127.0.0.1:\(node.port)\(path)")!)
        let http = response as! HTTPURLResponse
        return (
            http.statusCode, http.value(forHTTPHeaderField: "Content-Type") ?? "", String(decoding: data, as: UTF8.self)
        )
    }

    func call(_ node: RunningNode, _ to: String, _ data: [UInt8]) async throws -> [UInt8] {
        let reply = try await node.rpc(
            "eth_call",
            [.object([("to", .string(to)), ("data", .string(Hex.encodePrefixed(data)))]), .string("latest")])
        return try Hex.decodePrefixed(reply["result"]?.stringValue ?? "")
    }

    @Test func collectionsAreListedReadAndServed() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let (status, _, infoText) = try await get(node, "/api/info")
        #expect(status == 200)
        let info = try JSON.parse(Array(infoText.utf8))
        let nfts = info["nfts"]?.arrayValue ?? []
        #expect(nfts.count == 2)
        #expect(nfts.first?["standard"]?.stringValue == "ERC721")
        #expect(nfts.first?["name"]?.stringValue == "Sandnet Shapes")
        #expect(nfts.last?["standard"]?.stringValue == "ERC1155")
        // Dev account 0 holds Shapes 1–3; its tokenURI points at this node's metadata.
        let dev0 = node.node.devAccounts[0].address
        let owner = try await call(node, Self.shapes, NFTCollection.ownerOfCalldata(UInt256(1)))
        #expect(Array(owner.suffix(20)) == dev0.bytes)
        let code = try await node.rpc("eth_getCode", [.string(Self.shapes), .string("latest")])
        #expect(code["result"]?.stringValue == Hex.encodePrefixed([0xfe] + Array("sandnet:native:ERC721".utf8)))
        let (jsonStatus, type, json) = try await get(node, "/nft/\(Self.shapes)/1.json")
        #expect(jsonStatus == 200 && type == "application/json")
        let metadata = try JSON.parse(Array(json.utf8))
        #expect(metadata["name"]?.stringValue == "Sandnet Shapes #1")
        #expect(metadata["attributes"]?.arrayValue?.count == 3)
        let image = metadata["image"]?.stringValue ?? ""
        #expect(image == "http://127.0.0.1:8545/nft/\(Self.shapes)/1.svg")
        let (svgStatus, svgType, svg) = try await get(node, "/nft/\(Self.shapes)/1.svg")
        #expect(svgStatus == 200 && svgType == "image/svg+xml" && svg.hasPrefix("<svg "))
        // ERC-1155: the {id} file name is 64 hex digits.
        let (itemStatus, _, item) = try await get(node, "/nft/\(Self.items)/\(NFTMetadata.hexID(UInt256(2))).json")
        #expect(itemStatus == 200)
        #expect(try JSON.parse(Array(item.utf8))["decimals"] == .number("0"))
        let (missing, _, _) = try await get(node, "/nft/\(Self.shapes)/1.txt")
        #expect(missing == 404)
    }

    @Test func mintAndBurnAreRealTransactions() async throws {
        let node = try await RunningNode.start()
        defer { node.stop() }
        let bob = node.node.devAccounts[5].address.lowercased
        let minted = try await node.rpc("anvil_mintERC721", [.string(Self.shapes), .string(bob), .string("0x2a")])
        let hash = minted["result"]?.stringValue ?? ""
        let receipt = try await node.rpc("eth_getTransactionReceipt", [.string(hash)])
        let log = receipt["result"]?["logs"]?.arrayValue?.first
        #expect(receipt["result"]?["status"]?.stringValue == "0x1")
        #expect(log?["topics"]?.arrayValue?.count == 4)
        #expect(log?["topics"]?.arrayValue?[3].stringValue == Hex.encodePrefixed(UInt256(42).bigEndianBytes))
        // Minting it again reverts with OpenZeppelin's ERC721InvalidSender(0x0).
        let again = try await node.rpc("anvil_mintERC721", [.string(Self.shapes), .string(bob), .string("0x2a")])
        #expect(again["error"]?["code"] == .number("3"))
        let burned = try await node.rpc("anvil_burnERC721", [.string(Self.shapes), .string("0x2a")])
        #expect(burned["result"]?.stringValue?.count == 66)
        let gone = try await node.rpc(
            "eth_call",
            [
                .object([
                    ("to", .string(Self.shapes)),
                    ("data", .string(Hex.encodePrefixed(NFTCollection.ownerOfCalldata(UInt256(42))))),
                ])
            ])
        #expect(gone["error"]?["code"] == .number("3"))
        let item = try await node.rpc(
            "anvil_mintERC1155", [.string(Self.items), .string(bob), .string("0x7"), .string("0x3")])
        #expect(item["result"]?.stringValue?.count == 66)
    }

    @Test func brokenStylesAreServedAsAsked() throws {
        let ipfs = NFTCollection(
            address: try Address(parsing: "0x00000000000000000000000000000000000001f5"), name: "Pins", symbol: "PIN",
            standard: .erc721, style: .ipfs)
        let missing = NFTCollection(
            address: try Address(parsing: "0x00000000000000000000000000000000000001f6"), name: "Gone", symbol: "GONE",
            standard: .erc721, style: .missing)
        let slow = NFTCollection(
            address: try Address(parsing: "0x00000000000000000000000000000000000001f7"), name: "Slow", symbol: "SLOW",
            standard: .erc1155, style: .slowImage)
        let all = [ipfs, missing, slow]
        let cid = NFTMetadata.ipfsCID(ipfs)
        #expect(NFTMetadata.tokenURI(ipfs, UInt256(3)) == "ipfs://\(cid)/3.json")
        let pinned = NFTFile.resolve(all, ipfs: true, directory: cid, name: "3.json")
        #expect(pinned.status == 200 && pinned.body.contains("\"image\":\"ipfs://\(cid)/3.svg\""))
        #expect(NFTFile.resolve(all, ipfs: false, directory: cid, name: "3.json").status == 404)
        #expect(NFTFile.resolve(all, ipfs: false, directory: missing.address.lowercased, name: "3.json").status == 404)
        #expect(NFTFile.resolve(all, ipfs: false, directory: missing.address.lowercased, name: "3.svg").status == 200)
        let image = NFTFile.resolve(all, ipfs: false, directory: slow.address.lowercased, name: "7.svg")
        #expect(image.status == 200 && image.delaySeconds == NFTMetadata.slowImageDelay)
        #expect(NFTFile.resolve(all, ipfs: false, directory: slow.address.lowercased, name: "7.json").delaySeconds == 0)
    }
}
