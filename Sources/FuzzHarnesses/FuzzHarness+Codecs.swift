import ByteCoding
import CBORCoding
import EthereumTransactions
import RLPCoding

extension FuzzHarness {
    /// RLP: the strict reader accepts only canonical encodings, so re-encoding gives back the input.
    @Sendable public static func rlp(_ data: [UInt8]) {
        guard let item = try? RLP.decode(data) else { return }
        let encoded = RLP.encode(item)
        check(encoded == data, "rlp: encode(decode(b)) == b", "input \(data.fuzzHex) re-encoded \(encoded.fuzzHex)")
        check((try? RLP.decode(encoded)) == item, "rlp: decode(encode(x)) == x")
        // The cursor API must agree with the tree: one item spanning the input.
        var reader = RLPReader(data)
        guard let range = try? reader.skipItem() else {
            violated("rlp: RLPReader.skipItem rejects what decode accepted")
        }
        check(range == 0..<data.count && reader.isAtEnd, "rlp: skipItem spans the input", "\(range)")
    }

    /// Transactions (EIP-2718 envelope, legacy, 2930, 1559): the decoder accepts exactly the canonical encoding,
    /// so building the transaction again from its parts gives back the input; the hex entry point agrees.
    @Sendable public static func transaction(_ data: [UInt8]) {
        let decoded: SignedTransaction
        do {
            decoded = try SignedTransaction(decoding: data)
        } catch {
            // The hex path must reject the same input (with the same error) when given its hex form.
            if data.count <= 512 {
                do {
                    _ = try SignedTransaction(hex: "0x" + Hex.encode(data))
                    violated("transaction: hex path accepts what the byte path rejects", data.fuzzHex)
                } catch let hexError {
                    check(hexError == error, "transaction: hex and byte paths throw the same error")
                }
            }
            return
        }
        let rebuilt = SignedTransaction(transaction: decoded.transaction, signature: decoded.signature)
        check(
            rebuilt.encoded == data, "transaction: encode(decode(b)) == b",
            "input \(data.fuzzHex) re-encoded \(rebuilt.encoded.fuzzHex)")
        check(rebuilt.hash == decoded.hash, "transaction: hash of the re-encoding")
        check(
            (try? SignedTransaction(hex: Hex.encodePrefixed(data))) == decoded, "transaction: hex path decodes the same"
        )
        check(decoded.signingHash().count == 32, "transaction: signing hash is 32 bytes")
        _ = decoded.transaction.signingPayload()
        _ = decoded.intrinsicGas
        _ = decoded.maximumCost
        let sender = try? decoded.recoverSender()
        _ = decoded.json(sender: sender)
    }

    /// CBOR (the IC profile): decode(encode(v)) == v, and since the encoder only changes the width of heads,
    /// an input whose re-encoding has its length used preferred heads everywhere and must come back unchanged.
    @Sendable public static func cbor(_ data: [UInt8]) {
        guard let value = try? CBORDecoder().decode(data) else { return }
        let encoded = CBOREncoder.encode(value)
        check(encoded.count <= data.count, "cbor: re-encoding is never longer", "\(data.fuzzHex) -> \(encoded.fuzzHex)")
        if encoded.count == data.count {
            check(encoded == data, "cbor: encode(decode(b)) == b for preferred serialization", data.fuzzHex)
        }
        check((try? CBORDecoder().decode(encoded)) == value, "cbor: decode(encode(v)) == v", data.fuzzHex)
        let described = CBOREncoder.encode(value, selfDescribed: true)
        // One more level of nesting: may exceed maxDepth, so only a successful decode is compared.
        if let tagged = try? CBORDecoder().decode(described) {
            check(tagged == .tagged(CBORValue.selfDescribeTag, value), "cbor: self-described round trip")
        }
        _ = value.untagged.mapEntries
        _ = value["request_type"]
    }
}
