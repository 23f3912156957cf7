import ByteCoding
import EthereumTypes
import KeccakHashing
import NativeContracts
import Testing

/// A registry with one ERC-721 and one ERC-1155 collection and a state at their genesis; `run` executes and applies.
struct NFTHarness {
    static let shapes = Native.address("0x5a4d000000000000000000000000000000000721")
    static let items = Native.address("0x5a4d000000000000000000000000000000001155")
    static let owner = Native.address("0x00000000000000000000000000000000000000AA")

    var registry: NativeContractRegistry
    var state = MemoryState(registry: NativeContractRegistry())

    init() {
        let shapes = NFTCollection(
            address: Self.shapes, name: "Shapes", symbol: "SHAPE", standard: .erc721, royaltyReceiver: Native.carol,
            royaltyBasisPoints: 500,
            holdings: [
                .init(holder: Native.alice, id: 1), .init(holder: Native.alice, id: 2),
                .init(holder: Native.bob, id: 7),
            ],
            owner: Self.owner)
        let items = NFTCollection(
            address: Self.items, name: "Items", symbol: "ITEM", standard: .erc1155,
            holdings: [.init(holder: Native.alice, id: 1, amount: 10)], owner: Self.owner)
        guard case .success(let registry) = NativeContractRegistry().adding([shapes, items]) else {
            preconditionFailure("collections")
        }
        self.registry = registry
        for collection in registry.collections {
            state.words[collection.address] = collection.genesisStorage
            state.withCode.insert(collection.address)
        }
    }

    @discardableResult
    mutating func run(from: Address, to: Address, _ data: [UInt8]) -> ExecutionResult {
        let result = registry.execute(
            NativeCall(caller: from, target: to, data: data), state: state, environment: Native.environment)
        if result.succeeded { state.apply(result) }
        return result
    }

    mutating func word(_ to: Address, _ data: [UInt8]) -> [UInt8] { run(from: Native.alice, to: to, data).output }

    static func id(_ n: UInt64) -> [UInt8] { UInt256(n).bigEndianBytes }
    static func error(_ signature: String, _ words: [[UInt8]]) -> [UInt8] { Native.call(signature, words) }
}

@Suite struct NFTContractTests {
    static let transferTopic = Keccak256.hash(utf8: "Transfer(address,address,uint256)")

    @Test func erc721ReadsAtOpenZeppelinSlots() throws {
        var h = NFTHarness()
        let s = NFTHarness.shapes
        #expect(h.word(s, Native.call("balanceOf(address)", [Native.word(Native.alice)])) == NFTHarness.id(2))
        #expect(h.word(s, Native.call("ownerOf(uint256)", [NFTHarness.id(7)])) == Native.word(Native.bob))
        #expect(h.word(s, Native.call("totalSupply()")) == NFTHarness.id(3))
        #expect(h.word(s, Native.call("tokenByIndex(uint256)", [NFTHarness.id(2)])) == NFTHarness.id(7))
        #expect(
            h.word(
                s, Native.call("tokenOfOwnerByIndex(address,uint256)", [Native.word(Native.alice), NFTHarness.id(1)]))
                == NFTHarness.id(2))
        // OpenZeppelin 5's `_owners` mapping at slot 2: keccak256(pad32(id) ‖ pad32(2)).
        let slot = UInt256(bigEndian: Keccak256.hash(UInt256(7).bigEndianBytes + UInt256(2).bigEndianBytes))!
        #expect(h.state.storage(s, slot: slot) == UInt256(bigEndian: Native.word(Native.bob))!)
        // balanceOf(0x0) and ownerOf of a missing token revert with OpenZeppelin 5's custom errors.
        let zero = h.run(from: Native.alice, to: s, Native.call("balanceOf(address)", [Native.word(Address.zero)]))
        #expect(
            zero.outcome == .revert(data: NFTHarness.error("ERC721InvalidOwner(address)", [Native.word(Address.zero)])))
        let missing = h.run(from: Native.alice, to: s, Native.call("ownerOf(uint256)", [NFTHarness.id(99)]))
        #expect(
            missing.outcome == .revert(data: NFTHarness.error("ERC721NonexistentToken(uint256)", [NFTHarness.id(99)])))
        // ERC-165: ERC721, Metadata, Enumerable, ERC-2981, ERC-4906; not ERC-1155.
        for (id, expected) in [
            ("80ac58cd", true), ("5b5e139f", true), ("780e9d63", true), ("2a55205a", true),
            ("49064906", true), ("01ffc9a7", true), ("d9b67a26", false),
        ] {
            let word = Native.bytes(id) + [UInt8](repeating: 0, count: 28)
            #expect(
                h.word(s, Native.call("supportsInterface(bytes4)", [word])) == Native.word(UInt256(expected ? 1 : 0)))
        }
        // ERC-2981: 5 % of 1 ETH to the receiver.
        let royalty = h.word(
            s, Native.call("royaltyInfo(uint256,uint256)", [NFTHarness.id(1), NFTHarness.id(1_000_000)]))
        #expect(royalty == Native.word(Native.carol) + NFTHarness.id(50_000))
    }

    @Test func erc721TransferEventsGasAndEnumeration() throws {
        var h = NFTHarness()
        let s = NFTHarness.shapes
        let transfer = Native.call(
            "transferFrom(address,address,uint256)",
            [Native.word(Native.alice), Native.word(Native.bob), NFTHarness.id(1)])
        let result = h.run(from: Native.alice, to: s, transfer)
        #expect(result.succeeded)
        // Transfer(from, to, tokenId): three indexed arguments, the id is topics[3], no data.
        #expect(result.logs.count == 1)
        #expect(
            result.logs.first?.topics == [
                Self.transferTopic, Native.word(Native.alice), Native.word(Native.bob), NFTHarness.id(1),
            ])
        #expect(result.logs.first?.data == [])
        #expect(h.word(s, Native.call("ownerOf(uint256)", [NFTHarness.id(1)])) == Native.word(Native.bob))
        #expect(h.word(s, Native.call("balanceOf(address)", [Native.word(Native.bob)])) == NFTHarness.id(2))
        // Alice's remaining token moved to index 0 (OpenZeppelin's swap-and-pop); Bob's new one is his index 1.
        #expect(
            h.word(
                s, Native.call("tokenOfOwnerByIndex(address,uint256)", [Native.word(Native.alice), NFTHarness.id(0)]))
                == NFTHarness.id(2))
        #expect(
            h.word(s, Native.call("tokenOfOwnerByIndex(address,uint256)", [Native.word(Native.bob), NFTHarness.id(1)]))
                == NFTHarness.id(1))
        // The model: OpenZeppelin's 19,075 of storage and log gas + the derived 9,783 overhead + Enumerable's words.
        #expect(result.gasUsed > 28_858)
        // A stranger may not move it: ERC721InsufficientApproval(carol, 1).
        let stolen = h.run(
            from: Native.carol, to: s,
            Native.call(
                "transferFrom(address,address,uint256)",
                [Native.word(Native.bob), Native.word(Native.carol), NFTHarness.id(1)]))
        #expect(
            stolen.outcome
                == .revert(
                    data: NFTHarness.error(
                        "ERC721InsufficientApproval(address,uint256)", [Native.word(Native.carol), NFTHarness.id(1)])))
        // Wrong `from`: ERC721IncorrectOwner(alice, 1, bob).
        let wrong = h.run(
            from: Native.bob, to: s,
            Native.call(
                "transferFrom(address,address,uint256)",
                [Native.word(Native.alice), Native.word(Native.carol), NFTHarness.id(1)]))
        #expect(
            wrong.outcome
                == .revert(
                    data: NFTHarness.error(
                        "ERC721IncorrectOwner(address,uint256,address)",
                        [Native.word(Native.alice), NFTHarness.id(1), Native.word(Native.bob)])))
    }

    @Test func erc721SafeTransferReceiverRule() throws {
        var h = NFTHarness()
        let s = NFTHarness.shapes
        // To an account without code: succeeds.
        let ok = h.run(
            from: Native.alice, to: s,
            Native.call(
                "safeTransferFrom(address,address,uint256)",
                [Native.word(Native.alice), Native.word(Native.carol), NFTHarness.id(2)]))
        #expect(ok.succeeded)
        // To a native contract (the ERC-1155 collection): ERC721InvalidReceiver, nothing moves.
        let refused = h.run(
            from: Native.bob, to: s,
            Native.call(
                "safeTransferFrom(address,address,uint256)",
                [Native.word(Native.bob), Native.word(NFTHarness.items), NFTHarness.id(7)]))
        #expect(
            refused.outcome
                == .revert(data: NFTHarness.error("ERC721InvalidReceiver(address)", [Native.word(NFTHarness.items)])))
        #expect(h.word(s, Native.call("ownerOf(uint256)", [NFTHarness.id(7)])) == Native.word(Native.bob))
    }

    @Test func erc721ApprovalsMintAndBurn() throws {
        var h = NFTHarness()
        let s = NFTHarness.shapes
        let approve = h.run(
            from: Native.alice, to: s,
            Native.call("approve(address,uint256)", [Native.word(Native.carol), NFTHarness.id(1)]))
        #expect(approve.logs.first?.topics.count == 4)
        #expect(h.word(s, Native.call("getApproved(uint256)", [NFTHarness.id(1)])) == Native.word(Native.carol))
        let op = h.run(
            from: Native.alice, to: s,
            Native.call("setApprovalForAll(address,bool)", [Native.word(Address.zero), NFTHarness.id(1)]))
        #expect(
            op.outcome == .revert(data: NFTHarness.error("ERC721InvalidOperator(address)", [Native.word(Address.zero)]))
        )
        // Only the owner mints; a mint is a Transfer from 0x0.
        let denied = h.run(
            from: Native.alice, to: s,
            Native.call("safeMint(address,uint256)", [Native.word(Native.alice), NFTHarness.id(9)]))
        #expect(
            denied.outcome
                == .revert(data: NFTHarness.error("OwnableUnauthorizedAccount(address)", [Native.word(Native.alice)])))
        let mint = h.run(
            from: NFTHarness.owner, to: s,
            Native.call("safeMint(address,uint256)", [Native.word(Native.carol), NFTHarness.id(9)]))
        #expect(mint.logs.first?.topics[1] == Native.word(Address.zero))
        #expect(h.word(s, Native.call("totalSupply()")) == NFTHarness.id(4))
        let burn = h.run(from: Native.carol, to: s, Native.call("burn(uint256)", [NFTHarness.id(9)]))
        #expect(burn.logs.first?.topics[2] == Native.word(Address.zero))
        #expect(h.word(s, Native.call("totalSupply()")) == NFTHarness.id(3))
    }

    @Test func erc1155TransfersBatchesAndErrors() throws {
        var h = NFTHarness()
        let i = NFTHarness.items
        #expect(
            h.word(i, Native.call("balanceOf(address,uint256)", [Native.word(Native.alice), NFTHarness.id(1)]))
                == NFTHarness.id(10))
        // OpenZeppelin 5 answers balanceOf(0x0, id) with 0.
        #expect(
            h.word(i, Native.call("balanceOf(address,uint256)", [Native.word(Address.zero), NFTHarness.id(1)]))
                == NFTHarness.id(0))
        let single = h.run(
            from: Native.alice, to: i,
            Native.call(
                "safeTransferFrom(address,address,uint256,uint256,bytes)",
                [
                    Native.word(Native.alice), Native.word(Native.bob), NFTHarness.id(1), NFTHarness.id(3),
                    NFTHarness.id(160),
                    NFTHarness.id(0),
                ]))
        #expect(single.succeeded)
        #expect(
            single.logs.first?.topics == [
                Keccak256.hash(utf8: "TransferSingle(address,address,address,uint256,uint256)"),
                Native.word(Native.alice),
                Native.word(Native.alice), Native.word(Native.bob),
            ])
        #expect(single.logs.first?.data == NFTHarness.id(1) + NFTHarness.id(3))
        let short = h.run(
            from: Native.bob, to: i,
            Native.call(
                "safeTransferFrom(address,address,uint256,uint256,bytes)",
                [
                    Native.word(Native.bob), Native.word(Native.carol), NFTHarness.id(1), NFTHarness.id(4),
                    NFTHarness.id(160),
                    NFTHarness.id(0),
                ]))
        #expect(
            short.outcome
                == .revert(
                    data: NFTHarness.error(
                        "ERC1155InsufficientBalance(address,uint256,uint256,uint256)",
                        [Native.word(Native.bob), NFTHarness.id(3), NFTHarness.id(4), NFTHarness.id(1)])))
        let notApproved = h.run(
            from: Native.carol, to: i,
            Native.call(
                "safeTransferFrom(address,address,uint256,uint256,bytes)",
                [
                    Native.word(Native.bob), Native.word(Native.carol), NFTHarness.id(1), NFTHarness.id(1),
                    NFTHarness.id(160),
                    NFTHarness.id(0),
                ]))
        #expect(
            notApproved.outcome
                == .revert(
                    data: NFTHarness.error(
                        "ERC1155MissingApprovalForAll(address,address)",
                        [Native.word(Native.carol), Native.word(Native.bob)])))
        // A batch of two ids emits TransferBatch with both arrays.
        _ = h.run(
            from: NFTHarness.owner, to: i,
            Native.call(
                "mint(address,uint256,uint256,bytes)",
                [Native.word(Native.alice), NFTHarness.id(2), NFTHarness.id(5), NFTHarness.id(128), NFTHarness.id(0)]))
        let batch = h.run(
            from: Native.alice, to: i,
            Native.call(
                "safeBatchTransferFrom(address,address,uint256[],uint256[],bytes)",
                [
                    Native.word(Native.alice), Native.word(Native.carol), NFTHarness.id(160), NFTHarness.id(256),
                    NFTHarness.id(352), NFTHarness.id(2), NFTHarness.id(1), NFTHarness.id(2), NFTHarness.id(2),
                    NFTHarness.id(1), NFTHarness.id(2), NFTHarness.id(0),
                ]))
        #expect(batch.succeeded)
        #expect(
            batch.logs.first?.topics.first
                == Keccak256.hash(utf8: "TransferBatch(address,address,address,uint256[],uint256[])"))
        #expect(
            h.word(i, Native.call("balanceOf(address,uint256)", [Native.word(Native.carol), NFTHarness.id(2)]))
                == NFTHarness.id(2))
    }

    @Test func metadataURIsAndJSON() throws {
        var collection = NFTCollection.items
        // ERC-1155's {id}: 64 lowercase hex digits (erc-1155.md's example id 314592 → …4cce0).
        #expect(NFTMetadata.hexID(UInt256(314_592)) == String(repeating: "0", count: 59) + "4cce0")
        #expect(
            NFTMetadata.uri(collection, UInt256(5))
                == "http://127.0.0.1:8545/nft/0x5a4d000000000000000000000000000000001155/{id}.json")
        collection.style = .ipfs
        #expect(NFTMetadata.uri(collection, UInt256(5)).hasPrefix("ipfs://bafkrei"))
        var shapes = NFTCollection.shapes
        #expect(
            NFTMetadata.tokenURI(shapes, UInt256(7))
                == "http://127.0.0.1:8545/nft/0x5a4d000000000000000000000000000000000721/7.json")
        shapes.style = .data
        let uri = NFTMetadata.tokenURI(shapes, UInt256(7))
        #expect(uri.hasPrefix("data:application/json;base64,"))
        let json = String(decoding: Base64.decode(String(uri.dropFirst(29))) ?? [], as: UTF8.self)
        #expect(json == NFTMetadata.json(shapes, UInt256(7)))
        #expect(json.contains("\"name\":\"Sandnet Shapes #7\""))
        #expect(json.contains("\"image\":\"data:image/svg+xml;base64,"))
        #expect(json.contains("\"attributes\":[{\"trait_type\":\"Shape\""))
        // Deterministic images.
        #expect(NFTMetadata.svg(shapes, UInt256(7)) == NFTMetadata.svg(shapes, UInt256(7)))
        #expect(NFTMetadata.svg(shapes, UInt256(7)) != NFTMetadata.svg(shapes, UInt256(8)))
    }
}
