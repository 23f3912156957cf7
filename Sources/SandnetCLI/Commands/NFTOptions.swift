import ArgumentParser
import EthereumTypes
import NativeContracts

/// `sandnet node`'s NFT flags: extra native collections, the metadata style of the default ones, or none of them.
struct NFTOptions: ParsableArguments {
    @Option(
        name: .customLong("nft"),
        help:
            "An extra native NFT collection: ADDRESS:SYMBOL:STANDARD[:STYLE[:NAME]] (standard erc721 or erc1155; style http, data, missing, slow-image or ipfs; repeatable)."
    )
    var collections: [String] = []

    @Option(
        name: .customLong("nft-style"),
        help: "The metadata style of the default collections (http, data, missing, slow-image, ipfs).")
    var defaultStyle = "http"

    @Flag(help: "No default NFT collections (Sandnet Shapes, Sandnet Items).")
    var noDefaultNfts = false

    static let styles = NFTCollection.MetadataStyle.allCases.map(\.rawValue).joined(separator: ", ")

    /// `registry` with the collections these flags ask for (replacing any it has), their metadata served from
    /// `metadataBase` (`http://127.0.0.1:8545`).
    func apply(to registry: NativeContractRegistry, metadataBase: String) throws -> NativeContractRegistry {
        guard let style = NFTCollection.MetadataStyle(rawValue: defaultStyle) else {
            throw CLIError("--nft-style: unknown style '\(defaultStyle)' (one of \(Self.styles))")
        }
        var list: [NFTCollection] = []
        if !noDefaultNfts {
            for var collection in NFTCollection.defaults {
                collection.style = style
                list.append(collection)
            }
        }
        for text in collections { list.append(try Self.parse(flag: text)) }
        for i in list.indices { list[i].metadataBase = metadataBase }
        var base = registry
        for collection in registry.collections { base.remove(collection.address) }
        switch base.adding(list) {
        case .success(let result): return result
        case .failure(let error): throw CLIError("nfts: \(error.message)")
        }
    }

    /// `ADDRESS:SYMBOL:STANDARD[:STYLE[:NAME]]`.
    static func parse(flag text: String) throws -> NFTCollection {
        let parts = text.split(separator: ":", maxSplits: 4, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 3 else { throw CLIError("--nft \(text): expected ADDRESS:SYMBOL:STANDARD[:STYLE[:NAME]]") }
        let address: Address
        do { address = try Address(parsing: parts[0]) } catch { throw CLIError("--nft \(text): \(error)") }
        guard let standard = NFTCollection.Standard(rawValue: parts[2].lowercased()) else {
            throw CLIError("--nft \(text): standard must be erc721 or erc1155")
        }
        var style = NFTCollection.MetadataStyle.http
        if parts.count > 3 {
            guard let s = NFTCollection.MetadataStyle(rawValue: parts[3].lowercased()) else {
                throw CLIError("--nft \(text): unknown style '\(parts[3])' (one of \(styles))")
            }
            style = s
        }
        return NFTCollection(
            address: address, name: parts.count > 4 ? parts[4] : parts[1], symbol: parts[1], standard: standard,
            style: style)
    }
}
