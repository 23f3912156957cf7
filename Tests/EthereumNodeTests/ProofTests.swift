import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTypes
import JSONCoding
import JSONRPC
import KeccakHashing
import NativeContracts
import Testing

/// eth_getProof (EIP-1186) through the typed API and the JSON-RPC layer: the proofs start at the block's state
/// root, end at the account's leaf, answer the blocks geth answers and refuse what geth refuses with its texts. (The
/// trie's proofs are verified node by node in `TrieProofTests`, and by py-trie in Tests/Interop/test_proofs.py.)
@Suite struct ProofTests {
    static func stateRoot(_ node: SandnetNode, _ selector: BlockSelector) -> [UInt8] {
        switch node.chain.block(selector) {
        case .sealed(let block)?: return block.header.stateRoot
        case .pending(let pending)?: return pending.block.header.stateRoot
        case nil: return []
        }
    }

    /// The last node of an inclusion proof is the leaf holding the account's state encoding.
    static func endsAtLeaf(_ proof: [[UInt8]], holding value: [UInt8]) -> Bool {
        guard let last = proof.last else { return false }
        return last.count >= value.count && Array(last.suffix(value.count)) == value
    }

    @Test func headPastAndPendingProofsStartAtTheirStateRoots() throws {
        let (node, _) = try makeNode()
        let sender = node.devAccounts[0].address
        _ = try TypedNodeAPITests.transfer(node, nonce: 0, tip: 1_000_000_000)
        let head = try node.chain.proof(of: sender, slots: [])
        #expect(head.stateRoot == Self.stateRoot(node, .latest))
        #expect(Keccak256.hash(head.accountProof[0]) == head.stateRoot)
        #expect(head.account?.nonce == 1)
        #expect(Self.endsAtLeaf(head.accountProof, holding: head.account!.stateEncoding))

        let genesis = try node.chain.proof(of: sender, slots: [], at: .number(0))
        #expect(genesis.stateRoot == Self.stateRoot(node, .number(0)))
        #expect(genesis.stateRoot != head.stateRoot)
        #expect(genesis.account?.nonce == 0)
        #expect(Keccak256.hash(genesis.accountProof[0]) == genesis.stateRoot)
        #expect(Self.endsAtLeaf(genesis.accountProof, holding: genesis.account!.stateEncoding))

        try node.dev.setAutomine(false)
        _ = try TypedNodeAPITests.transfer(node, nonce: 1, tip: 1_000_000_000)
        let pending = try node.chain.proof(of: sender, slots: [], at: .pending)
        #expect(pending.account?.nonce == 2)
        #expect(pending.stateRoot == Self.stateRoot(node, .pending))
        #expect(try node.chain.proof(of: sender, slots: []).account?.nonce == 1)
    }

    /// An account the trie does not hold: no account, an exclusion proof from the root, storage proofs empty.
    @Test func absentAccountHasAnExclusionProof() throws {
        let (node, _) = try makeNode()
        let absent = Address([UInt8](repeating: 0xbe, count: 20))!
        let proof = try node.chain.proof(of: absent, slots: [UInt256(1)])
        #expect(proof.account == nil)
        #expect(!proof.accountProof.isEmpty)
        #expect(Keccak256.hash(proof.accountProof[0]) == Self.stateRoot(node, .latest))
        #expect(proof.storage.map(\.slot) == [UInt256(1)])
        #expect(proof.storage.map(\.value) == [.zero] && proof.storage.map(\.proof) == [[]])
    }

    /// A native token keeps its state in storage: a holder's balance slot proves its word from the storage root;
    /// an unset slot gets an exclusion proof with value zero.
    @Test func tokenStorageSlotsAreProven() throws {
        let (node, _) = try makeNode()
        let usdc = TokenDefinition.usdc.address
        let holder = node.devAccounts[0].address
        let slot = SolidityStorage.mappingSlot(holder, UInt256(9))
        let word = UInt256(bigEndian: try node.chain.storage(at: usdc, key: slot.bigEndianBytes))!
        let unset = UInt256(0xdead_beef as UInt64)
        let proof = try node.chain.proof(of: usdc, slots: [slot, unset])
        let storageRoot = try #require(proof.account?.storage.root)
        #expect(storageRoot != Keccak256.hash([0x80]))
        #expect(proof.storage[0].value == word)
        #expect(Keccak256.hash(proof.storage[0].proof[0]) == storageRoot)
        #expect(proof.storage[1].value == .zero)
        #expect(Keccak256.hash(proof.storage[1].proof[0]) == storageRoot)
        #expect(proof.storage[1].proof != proof.storage[0].proof)
    }

    /// A developer change not yet sealed is in the `latest` proof (as in eth_getBalance); the next block's root is
    /// the root that proof was made against.
    @Test func unsealedDeveloperChangesAreProvenAsTheNextRoot() throws {
        let (node, _) = try makeNode()
        let address = node.devAccounts[3].address
        try node.dev.setBalance(address, UInt256(7))
        let proof = try node.chain.proof(of: address, slots: [])
        #expect(proof.account?.balance == UInt256(7))
        #expect(proof.stateRoot != Self.stateRoot(node, .latest))
        try node.dev.mine()
        #expect(proof.stateRoot == Self.stateRoot(node, .latest))
    }

    @Test func limitsAndUnavailableBlocks() throws {
        let (node, _) = try makeNode()
        let address = node.devAccounts[0].address
        #expect(throws: NodeError.tooManyStorageKeys(limit: 1_024, got: 1_025)) {
            try node.chain.proof(of: address, slots: [UInt256](repeating: .zero, count: 1_025))
        }
        #expect(throws: NodeError.headerNotFound) { try node.chain.proof(of: address, slots: [], at: .number(5)) }
        try node.dev.mine(blocks: 129)
        let oldest = try node.chain.proof(of: address, slots: [], at: .number(1))
        #expect(oldest.stateRoot == Self.stateRoot(node, .number(1)))
        let genesisRoot = Self.stateRoot(node, .number(0))
        #expect(throws: NodeError.historicalStateUnavailable(root: genesisRoot)) {
            try node.chain.proof(of: address, slots: [], at: .number(0))
        }
        #expect(
            NodeError.historicalStateUnavailable(root: [0xab, 0x01]).description
                == "historical state ab01 is not available")
    }

    // MARK: JSON-RPC

    @Test func rpcShapeMatchesGeth() throws {
        let (node, _) = try makeNode()
        let usdc = TokenDefinition.usdc.address.lowercased
        let result = try node.call(
            "eth_getProof",
            [
                .string(usdc),
                .array([.string("0x1"), .string("0x" + String(repeating: "0", count: 64)), .string("0x")]),
                .string("latest"),
            ])
        guard case .object(let fields) = result else {
            Issue.record("not an object: \(result)")
            return
        }
        #expect(
            fields.map(\.0) == [
                "address", "accountProof", "balance", "codeHash", "nonce", "storageHash", "storageProof",
            ])
        #expect(result["address"] == .string(usdc))
        let keys = result["storageProof"]?.arrayValue?.map { $0["key"] }
        // geth echoes a 32-byte key as data, any other length as a quantity.
        #expect(keys == [.string("0x1"), .string("0x" + String(repeating: "0", count: 64)), .string("0x0")])
        #expect(result["storageProof"]?.arrayValue?.first?["value"] == .string("0x0"))

        let absent = try node.call(
            "eth_getProof", [.string("0x" + String(repeating: "be", count: 20)), .array([.string("0x1")])])
        let zero = JSON.string("0x" + String(repeating: "0", count: 64))
        #expect(absent["codeHash"] == zero && absent["storageHash"] == zero)
        #expect(absent["balance"] == .string("0x0") && absent["nonce"] == .string("0x0"))
        #expect(
            absent["storageProof"]
                == .array([.object([("key", .string("0x1")), ("value", .string("0x0")), ("proof", .array([]))])]))
        let nullKeys = try node.call("eth_getProof", [.string(usdc), .null])
        #expect(nullKeys["storageProof"] == .array([]))
        let dev = try node.call("eth_getProof", [.string(node.devAccounts[0].address.lowercased), .array([])])
        #expect(dev["storageHash"] == .string("0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"))
        #expect(dev["codeHash"] == .string("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"))
    }

    @Test func rpcErrorsAreGeths() throws {
        let (node, _) = try makeNode()
        let address = JSON.string(node.devAccounts[0].address.lowercased)
        func error(_ params: [JSON]) -> RPCError? {
            do {
                _ = try node.call("eth_getProof", params)
                return nil
            } catch { return error as? RPCError }
        }
        let long = "0x" + String(repeating: "1", count: 66)
        #expect(
            error([address, .array([.string(long)])])
                == RPCError(code: -32602, message: "storage key too long (want at most 32 bytes): \"\(long)\""))
        #expect(
            error([address, .array([.string("0xzz")])])
                == RPCError(code: -32602, message: #"invalid hex in storage key: "0xzz""#))
        #expect(
            error([address, .array([.string("q\"")])])
                == RPCError(code: -32602, message: #"invalid hex in storage key: "q\"""#))
        #expect(
            error([address, .array([JSON](repeating: .string("0x1"), count: 1_025))])
                == RPCError(code: -32602, message: "too many storage keys requested (max 1024, got 1025)"))
        #expect(error([address]) == RPCError(code: -32602, message: "missing value for required argument 1"))
        #expect(
            error([address, .string("0x1")])
                == RPCError(
                    code: -32602,
                    message: "invalid argument 1: json: cannot unmarshal string into Go value of type []string"))
        #expect(error([address, .array([]), .string("0x99")]) == RPCError(code: -32000, message: "header not found"))
    }
}
