import ByteCoding
import EthereumLedger
import EthereumTypes
import Foundation
import MerkleTrie
import TestSupport
import Testing

/// Real mainnet and Sepolia blocks (Vectors/generated/blocks.json, re-verified by scripts/verify-blocks.py):
/// our header encoding must reproduce each block hash, and our tries the transactions and receipts roots.
@Suite struct RealBlockTests {
    struct File: Decodable {
        struct Entry: Decodable {
            let name: String
            let header: [String: String]
            let hash: String
            let transactions: [String]?
            let receipts: [String]?
        }
        let blocks: [Entry]
    }

    static func load() throws -> File {
        let url = URL(fileURLWithPath: TestVectors.packageRoot + "/Vectors/generated/blocks.json")
        return try JSONDecoder().decode(File.self, from: Data(contentsOf: url))
    }

    static func header(_ fields: [String: String]) throws -> BlockHeader {
        func bytes(_ k: String) throws -> [UInt8] { try Hex.decode(fields[k] ?? "0x") }
        func u64(_ k: String) throws -> UInt64 { try Quantity.parseUInt64(fields[k] ?? "0x0") }
        func u256(_ k: String) throws -> UInt256 { try Quantity.parseUInt256(fields[k] ?? "0x0") }
        var h = BlockHeader(
            parentHash: try bytes("parentHash"), coinbase: try Address(parsing: fields["miner"]!),
            stateRoot: try bytes("stateRoot"), transactionsRoot: try bytes("transactionsRoot"),
            receiptsRoot: try bytes("receiptsRoot"), number: try u64("number"), gasLimit: try u64("gasLimit"),
            gasUsed: try u64("gasUsed"), timestamp: try u64("timestamp"), extraData: try bytes("extraData"),
            mixHash: try bytes("mixHash"), baseFeePerGas: try u256("baseFeePerGas"))
        h.ommersHash = try bytes("sha3Uncles")
        h.logsBloom = try bytes("logsBloom")
        h.difficulty = try u256("difficulty")
        h.nonce = try bytes("nonce")
        h.withdrawalsRoot = try fields["withdrawalsRoot"].map { try Hex.decode($0) }
        h.blobGasUsed = try fields["blobGasUsed"].map { try Quantity.parseUInt64($0) }
        h.excessBlobGas = try fields["excessBlobGas"].map { try Quantity.parseUInt64($0) }
        h.parentBeaconBlockRoot = try fields["parentBeaconBlockRoot"].map { try Hex.decode($0) }
        h.requestsHash = try fields["requestsHash"].map { try Hex.decode($0) }
        return h
    }

    @Test func headerHashesAndRoots() throws {
        let file = try Self.load()
        #expect(file.blocks.count == 5)
        var txRoots = 0
        var receiptRoots = 0
        for block in file.blocks {
            let header = try Self.header(block.header)
            #expect(Hex.encodePrefixed(header.hash) == block.hash, "\(block.name)")
            if let txs = block.transactions, !txs.isEmpty {
                let trie = PatriciaTrie(orderedValues: try txs.map { try Hex.decode($0) })
                #expect(trie.rootHash == header.transactionsRoot, "\(block.name) transactionsRoot")
                #expect(PatriciaTrie.orderedRoot(try txs.map { try Hex.decode($0) }) == header.transactionsRoot)
                txRoots += 1
            }
            if let receipts = block.receipts, !receipts.isEmpty {
                let trie = PatriciaTrie(orderedValues: try receipts.map { try Hex.decode($0) })
                #expect(trie.rootHash == header.receiptsRoot, "\(block.name) receiptsRoot")
                #expect(PatriciaTrie.orderedRoot(try receipts.map { try Hex.decode($0) }) == header.receiptsRoot)
                receiptRoots += 1
            }
        }
        #expect(txRoots == 4)
        #expect(receiptRoots == 2)
    }
}
