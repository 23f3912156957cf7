import ByteCoding
import CryptoCore
import EthereumLedger
import EthereumTransactions
import EthereumTypes
import Foundation
import HDWallet
import JSONCoding
import JSONRPC
import KeccakHashing
import SecretStorage

extension ScenarioExecution {
    /// Runs one action; returns the fields stored under the step's id.
    func execute(_ step: Step) async throws -> [String: String] {
        switch step.action {
        case .faucet(let to, let amount):
            return try await faucet(to: to, amount: amount)
        case .send(let spec):
            return try await send(spec)
        case .token(let spec):
            return try await tokenStep(spec)
        case .subscribe(let spec):
            return try await subscribeStep(spec, id: step.id ?? "subscription \(step.index + 1)")
        case .wait(let transaction, let confirmations, let timeout):
            return try await wait(for: try resolve(transaction), confirmations: confirmations, timeout: timeout)
        case .mine(let blocks, let interval):
            guard let interval else {
                _ = try await call("anvil_mine", [Self.hex(blocks)])
                return try await headFields()
            }
            // One rule on every node (Anvil's): each block `interval` seconds after the one before, the first
            // included. The runner sets each timestamp, as nodes disagree on the first block.
            var timestamp = try quantity(try await latestBlock()["timestamp"], "timestamp")
            for _ in 0..<blocks {
                timestamp = timestamp + UInt256(interval)
                _ = try await call("evm_setNextBlockTimestamp", [Self.hex(timestamp)])
                _ = try await call("anvil_mine", [Self.hex(UInt64(1))])
            }
            return try await headFields()
        case .advanceTime(let seconds):
            do {
                try await backend.advanceTime(seconds: seconds)
            } catch let error as RPCError where error.code == -32601 {
                throw StepSkip("the node at \(backend.label) has no evm_increaseTime (\(error.message))")
            }
            return [:]
        case .setNextBaseFee(let expression):
            _ = try await call("anvil_setNextBlockBaseFeePerGas", [Self.hex(try await amount(expression))])
            return [:]
        case .fillBlocks(let blocks, let from):
            try await fillBlocks(blocks, from: from)
            return try await headFields()
        case .reorg(let depth, let requeue):
            _ = try await call("anvil_reorg", [Self.hex(depth), requeue ? .bool(true) : .array([])])
            return try await headFields()
        case .drop(let transaction):
            let hash = try resolve(transaction)
            currentTransaction = hash
            let result = try await call("anvil_dropTransaction", [.string(hash)])
            if result.isNull {
                throw StepFailure("transaction \(hash) is not pending, so it cannot be dropped", transactionHash: hash)
            }
            return [:]
        case .automine(let on):
            _ = try await call("evm_setAutomine", [.bool(on)])
            return [:]
        case .feeProfile(let name):
            _ = try await call("sandnet_setFeeProfile", [.string(name)])
            return [:]
        case .faults(let schedule):
            if backend.isInProcess { throw StepSkip("provider faults need the HTTP server (--rpc-url)") }
            _ = try await call("sandnet_setFaults", [schedule])
            return [:]
        case .snapshot(let name):
            let id = try await call("evm_snapshot", [])
            snapshots[name] = id.stringValue ?? id.serialized
            return ["id": snapshots[name]!]
        case .revert(let name):
            guard let id = snapshots[name] else {
                throw StepFailure("snapshot '\(name)' was not taken (its step did not run)")
            }
            let reverted = try await call("evm_revert", [.string(id)])
            if reverted.boolValue != true {
                throw StepFailure("evm_revert(\(id)) returned \(reverted.serialized)", expected: "true")
            }
            return [:]
        case .signMessage(let account, let message, let hex, let compare):
            return try await signMessage(
                account: account, message: try resolve(message), hex: hex, compareWithNode: compare)
        case .signTypedData(let account, let json, let compare):
            return try await signTypedData(account: account, json: json, compareWithNode: compare)
        case .keystoreExport(let spec):
            return try keystoreExport(spec, id: step.id ?? "keystore")
        case .keystoreImport(let source, let password, let name):
            let keystore: Keystore
            switch source {
            case .step(let id):
                guard let stored = keystores[id] else {
                    throw StepFailure("keystore '\(id)' was not created (its step did not run)")
                }
                keystore = stored
            case .file(let template):
                keystore = try Keystore(contentsOf: try filePath(template))
            }
            let key = try keystore.decrypt(password: try resolve(password))
            try addAccount(name, key: key)
            return ["address": try self.account(name).address.checksummed]
        case .keystoreChangePassword(let name, let password, let newPassword):
            guard let keystore = keystores[name] else {
                throw StepFailure("keystore '\(name)' was not created (its step did not run)")
            }
            let id = step.id ?? "keystore"
            let kdf = seededKDF(like: keystore.kdf, label: id)
            let changed = try keystore.changingPassword(
                from: Array(try resolve(password).utf8), to: Array(try resolve(newPassword).utf8), kdf: kdf)
            keystores[id] = changed
            return keystoreFields(changed, file: nil)
        case .newAccount(let name, let mnemonic, let path, let passphrase):
            var phrase: String?
            switch mnemonic {
            case .fresh(let words)?:
                phrase = try Mnemonic(entropy: seededBytes("mnemonic:" + name, count: words * 4 / 3)).phrase
            case .phrase(let template)?:
                phrase = try resolve(template)
            case nil:
                phrase = nil
            }
            return try newAccount(name, phrase: phrase, path: path, passphrase: try resolve(passphrase))
        case .sendRaw(let template):
            let raw = try resolve(template)
            let bytes: [UInt8]
            do { bytes = try Hex.decodePrefixed(raw) } catch {
                throw StepFailure("'\(raw)' is not 0x hex: \(error)", location: template.location)
            }
            let hash = Hex.encodePrefixed(Keccak256.hash(bytes))
            currentTransaction = hash
            if let id = currentStepID { results[id, default: [:]].merge(["hash": hash, "raw": raw]) { _, new in new } }
            _ = try await backend.call("eth_sendRawTransaction", [.string(raw)])
            return ["hash": hash, "raw": raw]
        case .check(let assertions):
            try await check(assertions)
            return [:]
        case .icp(let spec):
            return try await icp(spec)
        }
    }

    /// Adds account `name`: derived from `phrase` at `path`, or a bare key from the seed.
    func newAccount(_ name: String, phrase: String?, path: String, passphrase: String) throws -> [String: String] {
        var fields: [String: String] = [:]
        let key: [UInt8]
        if let phrase {
            key = try Self.derive(phrase: phrase, path: path, passphrase: passphrase)
            fields["mnemonic"] = phrase
            fields["path"] = path
        } else {
            key = randomKey(label: "newAccount:" + name)
        }
        try addAccount(name, key: key)
        let account = try self.account(name)
        fields["address"] = account.address.checksummed
        fields["privateKey"] = Hex.encodePrefixed(key)
        return fields
    }

    func headFields() async throws -> [String: String] {
        let block = try await latestBlock()
        return [
            "blockNumber": try quantity(block["number"], "number").description,
            "blockHash": block["hash"]?.stringValue ?? "",
            "baseFeePerGas": try quantity(block["baseFeePerGas"], "baseFeePerGas").description,
            "timestamp": try quantity(block["timestamp"], "timestamp").description,
        ]
    }

    // MARK: Faucet and sends

    func faucet(to name: String, amount: AmountExpression?) async throws -> [String: String] {
        let to = try account(name).address
        var params: [JSON] = [.string(to.lowercased)]
        let value = try await amount.asyncMap { try await self.amount($0) }
        if let value { params.append(Self.hex(value)) }
        let hashJSON: JSON
        do {
            hashJSON = try await backend.call("sandnet_faucet", params)
        } catch let error as RPCError where error.code == -32601 {
            // Anvil, Hardhat: no faucet method; pay from dev account 0 as a faucet would.
            let funder = try DevAccounts.key(0)
            accounts[Self.faucetFallback] = (try Self.address(of: funder), funder)
            var spec = SendSpec(
                from: Self.faucetFallback, to: nil, value: nil, kind: .eip1559, nonce: nil, gas: nil, gasPrice: nil,
                maxFeePerGas: nil, maxPriorityFeePerGas: nil, chainID: nil, data: nil, accessList: [])
            spec.to = Template(to.checksummed, at: SourceLocation(file: scenario.file, line: 1, column: 1))
            var fields = try await send(spec, value: value ?? UInt256(1_000_000_000_000_000_000 as UInt64))
            fields["to"] = to.checksummed
            return fields
        }
        guard let hash = hashJSON.stringValue else {
            throw StepFailure("sandnet_faucet returned \(hashJSON.serialized)")
        }
        currentTransaction = hash
        var fields = ["hash": hash, "to": to.checksummed]
        if let value { fields["value"] = value.description }
        let tx = try await call("eth_getTransactionByHash", [.string(hash)])
        if let v = tx["value"], let wei = try? quantity(v, "value") { fields["value"] = wei.description }
        if let from = tx["from"]?.stringValue { fields["from"] = from }
        return fields
    }

    /// The account name used for faucet claims on nodes without a faucet; a space keeps it from clashing with
    /// names a file can declare.
    static let faucetFallback = "faucet (dev account 0)"

    static func address(of key: [UInt8]) throws -> Address {
        guard let address = Address(publicKey: try Secp256k1.publicKey(of: key)) else { throw StepFailure("bad key") }
        return address
    }

    /// Builds, signs and submits a transaction with wallet defaults for every field not given.
    func send(_ spec: SendSpec, value fixedValue: UInt256? = nil) async throws -> [String: String] {
        let sender = try account(spec.from)
        var signedChainID = try await spec.chainID.asyncMap { try await self.small($0) }
        if signedChainID == nil { signedChainID = try await self.chainID() }
        let nonce: UInt64
        if let n = spec.nonce {
            nonce = try await small(n)
        } else {
            let pending = try await call(
                "eth_getTransactionCount", [.string(sender.address.lowercased), .string("pending")])
            guard let n = try quantity(pending, "eth_getTransactionCount").uint64Value else {
                throw StepFailure("nonce too large")
            }
            nonce = n
        }
        var to: Address?
        if let template = spec.to {
            let text = try resolve(template)
            do { to = try Address(parsing: text) } catch {
                throw StepFailure("'\(text)' is not an address: \(error)", location: template.location)
            }
        }
        var value = UInt256.zero
        if let fixedValue {
            value = fixedValue
        } else if let v = spec.value {
            value = try await amount(v)
        }
        var data: [UInt8] = []
        if let template = spec.data {
            let text = try resolve(template)
            do { data = try Hex.decodePrefixed(text) } catch {
                throw StepFailure("data '\(text)' is not 0x-prefixed hex: \(error)", location: template.location)
            }
        }
        var accessList: [AccessListEntry] = []
        for (addressTemplate, keyTemplates) in spec.accessList {
            let address = try Address(parsing: try resolve(addressTemplate))
            var keys: [UInt256] = []
            for k in keyTemplates {
                let text = try resolve(k)
                guard text.hasPrefix("0x"), let key = UInt256(hexDigits: text.dropFirst(2)) else {
                    throw StepFailure("storage key '\(text)' is not 32-byte hex", location: k.location)
                }
                keys.append(key)
            }
            accessList.append(AccessListEntry(address: address, storageKeys: keys))
        }
        let intrinsic = IntrinsicGas(
            data: data, isContractCreation: to == nil, accessListAddresses: accessList.count,
            accessListStorageKeys: accessList.reduce(0) { $0 + $1.storageKeys.count })
        var gas = intrinsic.minimumGasLimit(for: .prague)
        if let g = spec.gas { gas = try await small(g) }
        let transaction: Transaction
        let chainID = signedChainID ?? 0
        var fields: [String: String] = [:]
        switch spec.kind {
        case .legacy, .eip2930:
            let gasPrice: UInt256
            if let g = spec.gasPrice {
                gasPrice = try await amount(g)
            } else {
                gasPrice = try quantity(try await call("eth_gasPrice", []), "eth_gasPrice")
            }
            fields["gasPrice"] = gasPrice.description
            if spec.kind == .legacy {
                transaction = .legacy(
                    LegacyTransaction(
                        chainID: chainID, nonce: nonce, gasPrice: gasPrice, gas: gas, to: to, value: value, data: data))
            } else {
                transaction = .accessList(
                    AccessListTransaction(
                        chainID: chainID, nonce: nonce, gasPrice: gasPrice, gas: gas, to: to, value: value, data: data,
                        accessList: accessList))
            }
        case .eip1559:
            let tip: UInt256
            if let t = spec.maxPriorityFeePerGas {
                tip = try await amount(t)
            } else {
                tip = try quantity(try await call("eth_maxPriorityFeePerGas", []), "eth_maxPriorityFeePerGas")
            }
            let maxFee: UInt256
            if let m = spec.maxFeePerGas {
                maxFee = try await amount(m)
            } else {
                // The common wallet policy: twice the latest base fee plus the tip.
                let baseFee = try quantity(try await latestBlock()["baseFeePerGas"], "baseFeePerGas")
                guard let fee = FeeMarket.defaultMaxFee(baseFee: baseFee, tip: tip) else {
                    throw StepFailure("max fee per gas higher than 2^256-1 (2 × base fee \(baseFee) + tip \(tip))")
                }
                maxFee = fee
            }
            fields["maxFeePerGas"] = maxFee.description
            fields["maxPriorityFeePerGas"] = tip.description
            transaction = .dynamicFee(
                DynamicFeeTransaction(
                    chainID: chainID, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee, gas: gas, to: to,
                    value: value, data: data, accessList: accessList))
        }
        let signed = try transaction.signed(privateKey: sender.privateKey)
        let hash = Hex.encodePrefixed(signed.hash)
        currentTransaction = hash
        fields.merge([
            "hash": hash, "from": sender.address.checksummed, "to": to?.checksummed ?? "", "nonce": String(nonce),
            "value": value.description, "gas": String(gas), "type": String(transaction.type.rawValue),
            "raw": Hex.encodePrefixed(signed.encoded), "chainId": String(chainID),
        ]) { _, new in new }
        // Kept even when submission fails, so later steps can ask about a refused transaction.
        if let id = currentStepID { results[id, default: [:]].merge(fields) { _, new in new } }
        _ = try await backend.call("eth_sendRawTransaction", [.string(Hex.encodePrefixed(signed.encoded))])
        return fields
    }

    /// Waits for a receipt and `confirmations` blocks; on dev nodes mines what is missing instead of
    /// waiting.
    func wait(for hash: String, confirmations: UInt64, timeout: Double) async throws -> [String: String] {
        currentTransaction = hash
        let deadline = Date().addingTimeInterval(timeout)
        var canMine = true
        while true {
            let receipt = try await call("eth_getTransactionReceipt", [.string(hash)])
            if !receipt.isNull {
                let mined = try quantity(receipt["blockNumber"], "blockNumber")
                let head = try quantity(try await call("eth_blockNumber", []), "eth_blockNumber")
                let have = head >= mined ? head - mined + 1 : 0
                if have >= UInt256(confirmations) {
                    let gasUsed = try quantity(receipt["gasUsed"], "gasUsed")
                    let price = try quantity(receipt["effectiveGasPrice"], "effectiveGasPrice")
                    return [
                        "hash": hash, "blockNumber": mined.description,
                        "blockHash": receipt["blockHash"]?.stringValue ?? "",
                        "gasUsed": gasUsed.description, "effectiveGasPrice": price.description,
                        "fee": (gasUsed * price).description,
                        "status": try quantity(receipt["status"], "status").description,
                    ]
                }
                if canMine, try await mine(blocks: UInt64(confirmations) - (have.uint64Value ?? 0)) { continue }
            } else {
                let known = try await call("eth_getTransactionByHash", [.string(hash)])
                if known.isNull {
                    throw StepFailure(
                        "transaction \(hash) is unknown to the node (dropped, replaced or removed by a reorg)",
                        expected: "a receipt", actual: "no such transaction", transactionHash: hash)
                }
                if canMine, try await mine(blocks: 1) { continue }
            }
            canMine = false
            if Date() >= deadline {
                throw StepFailure(
                    "timed out after \(Int(timeout)) s waiting for \(confirmations) confirmation(s)",
                    expected: "\(confirmations) confirmation(s)", actual: "still waiting", transactionHash: hash)
            }
            try await Task.sleep(nanoseconds: 250_000_000)
        }
    }

    /// Mines on nodes that can; false when the node has no `anvil_mine`.
    func mine(blocks: UInt64) async throws -> Bool {
        do {
            _ = try await backend.call("anvil_mine", [Self.hex(max(blocks, 1))])
            return true
        } catch let error as RPCError where error.code == -32601 {
            return false
        }
    }

    /// Fills `count` blocks to their gas limit with calldata-heavy transfers (the EIP-7623 floor makes each
    /// non-zero calldata byte cost 40 gas), so each block's base fee rises by the EIP-1559 maximum of 12.5%.
    func fillBlocks(_ count: Int, from name: String) async throws {
        let key = name.isEmpty ? try DevAccounts.key(9) : try account(name).privateKey
        let sender = try Self.address(of: key)
        let automine = (try? await backend.call("anvil_getAutomine", []))?.boolValue ?? true
        _ = try await call("evm_setAutomine", [.bool(false)])
        let chainID = try await self.chainID()
        for _ in 0..<count {
            let head = try await latestBlock()
            guard let gasLimit = try quantity(head["gasLimit"], "gasLimit").uint64Value else {
                throw StepFailure("gas limit too large")
            }
            let baseFee = try await nextBaseFee()
            let pending = try await call("eth_getTransactionCount", [.string(sender.lowercased), .string("pending")])
            guard var nonce = try quantity(pending, "nonce").uint64Value else { throw StepFailure("nonce too large") }
            // At most 2^24 gas (EIP-7825) and 128,000 bytes of calldata (under geth's 128 KiB transaction limit).
            let perTransaction = min(gasLimit, 1 << 24, 21_000 + 128_000 * 40)
            var remaining = gasLimit
            let tip = UInt256(1_000_000_000 as UInt64)
            guard let maxFee = FeeMarket.defaultMaxFee(baseFee: baseFee, tip: tip) else {
                throw StepFailure("max fee per gas higher than 2^256-1 (2 × base fee \(baseFee) + tip \(tip))")
            }
            while remaining >= 21_040 {
                let bytes = (min(perTransaction, remaining) - 21_000) / 40
                let gas = 21_000 + bytes * 40
                let tx = Transaction.dynamicFee(
                    DynamicFeeTransaction(
                        chainID: chainID, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee,
                        gas: gas,
                        to: sender, value: .zero, data: [UInt8](repeating: 0xff, count: Int(bytes))))
                let signed = try tx.signed(privateKey: key)
                _ = try await backend.call("eth_sendRawTransaction", [.string(Hex.encodePrefixed(signed.encoded))])
                remaining -= gas
                nonce += 1
            }
            _ = try await call("anvil_mine", [Self.hex(UInt64(1))])
        }
        if automine { _ = try await call("evm_setAutomine", [.bool(true)]) }
    }

    // MARK: Signing

    func signMessage(account name: String, message: String, hex: Bool, compareWithNode: Bool) async throws -> [String:
        String]
    {
        let signer = try account(name)
        let bytes: [UInt8]
        if hex {
            do { bytes = try Hex.decodePrefixed(message) } catch {
                throw StepFailure("message is not 0x hex: \(error)")
            }
        } else {
            bytes = Array(message.utf8)
        }
        let signature = try PersonalMessage.sign(bytes, privateKey: signer.privateKey)
        let recovered = try PersonalMessage.recover(bytes, signature: signature)
        guard recovered == signer.address else {
            throw StepFailure(
                "personal_sign signature does not recover to the signer", expected: signer.address.checksummed,
                actual: recovered.checksummed)
        }
        if compareWithNode {
            let remote = try await call(
                "personal_sign", [.string(Hex.encodePrefixed(bytes)), .string(signer.address.lowercased)])
            let local = Hex.encodePrefixed(signature.bytes)
            guard remote.stringValue?.lowercased() == local else {
                throw StepFailure(
                    "the node's personal_sign differs from ours", expected: local, actual: remote.serialized)
            }
        }
        return [
            "signature": Hex.encodePrefixed(signature.bytes), "signer": recovered.checksummed,
            "digest": Hex.encodePrefixed(PersonalMessage.hash(bytes)),
        ]
    }

    func signTypedData(account name: String, json: String, compareWithNode: Bool) async throws -> [String: String] {
        let signer = try account(name)
        let typed = try TypedData(json: Array(json.utf8))
        let signature = try typed.sign(privateKey: signer.privateKey)
        let recovered = try typed.recover(signature: signature)
        guard recovered == signer.address else {
            throw StepFailure(
                "EIP-712 signature does not recover to the signer", expected: signer.address.checksummed,
                actual: recovered.checksummed)
        }
        if compareWithNode {
            let remote = try await call("eth_signTypedData_v4", [.string(signer.address.lowercased), .string(json)])
            let local = Hex.encodePrefixed(signature.bytes)
            guard remote.stringValue?.lowercased() == local else {
                throw StepFailure(
                    "the node's eth_signTypedData_v4 differs from ours", expected: local, actual: remote.serialized)
            }
        }
        return [
            "signature": Hex.encodePrefixed(signature.bytes), "signer": recovered.checksummed,
            "digest": Hex.encodePrefixed(try typed.signingHash()),
        ]
    }

    // MARK: Keystores

    /// The KDF with salt from the seed, so keystore files are the same on every run.
    func seededKDF(_ spec: KeystoreExportSpec.KDF, label: String) -> KeystoreKDF {
        switch spec {
        case .scrypt(let n, let r, let p):
            return .scrypt(n: n, r: r, p: p, keyLength: 32, salt: seededBytes("salt:" + label, count: 32))
        case .pbkdf2(let iterations):
            return .pbkdf2(iterations: iterations, keyLength: 32, salt: seededBytes("salt:" + label, count: 32))
        }
    }

    func seededKDF(like kdf: KeystoreKDF, label: String) -> KeystoreKDF {
        switch kdf {
        case .scrypt(let n, let r, let p, let keyLength, _):
            return .scrypt(n: n, r: r, p: p, keyLength: keyLength, salt: seededBytes("salt:" + label, count: 32))
        case .pbkdf2(let iterations, let keyLength, _):
            return .pbkdf2(iterations: iterations, keyLength: keyLength, salt: seededBytes("salt:" + label, count: 32))
        }
    }

    func keystoreExport(_ spec: KeystoreExportSpec, id: String) throws -> [String: String] {
        let owner = try account(spec.account)
        let uuid = seededBytes("uuid:" + id, count: 16)
        let keystore = try Keystore.encrypt(
            privateKey: owner.privateKey, password: try resolve(spec.password), kdf: seededKDF(spec.kdf, label: id),
            iv: seededBytes("iv:" + id, count: 16), id: Self.uuidString(uuid), cipher: spec.cipher)
        keystores[id] = keystore
        var path: String?
        if let file = spec.file {
            let url = try directory().appendingPathComponent(file)
            // An app's sandbox has its folders (Documents/keystore/…): create them, as the app's installer would.
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try keystore.write(to: url.path, replacing: true)
            path = url.path
        }
        return keystoreFields(keystore, file: path)
    }

    /// A file a step names: `${…}` resolved now; a relative result is relative to the scenario file.
    func filePath(_ template: Template) throws -> String {
        let path = try resolve(template)
        let directory = (scenario.file as NSString).deletingLastPathComponent
        if path.hasPrefix("/") || directory.isEmpty || template.references.isEmpty { return path }
        return directory + "/" + path
    }

    func keystoreFields(_ keystore: Keystore, file: String?) -> [String: String] {
        var fields = [
            "address": keystore.address?.checksummed ?? "",
            "json": String(decoding: keystore.jsonData(), as: UTF8.self),
            "id": keystore.id,
            "cipher": keystore.cipher.rawValue,
        ]
        if let file { fields["file"] = file }
        return fields
    }

    /// A version-4 UUID string from 16 bytes.
    static func uuidString(_ bytes: [UInt8]) -> String {
        var b = bytes
        b[6] = (b[6] & 0x0f) | 0x40
        b[8] = (b[8] & 0x3f) | 0x80
        let hex = Hex.encode(b)
        let parts = [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(
                hex[
                    hex.index(
                        hex.startIndex, offsetBy: range.lowerBound)..<hex.index(
                            hex.startIndex, offsetBy: range.upperBound)])
        }
        return parts.joined(separator: "-")
    }
}

extension Optional {
    /// `map` with an async transform.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        switch self {
        case .some(let value): return try await transform(value)
        case .none: return nil
        }
    }
}
