import ByteCoding
import CryptoCore

/// A BIP-32 extended key: a secp256k1 key with its chain code and position in the tree.
///
/// Chain-neutral: what a chain makes of the key (an Ethereum address, an ICP principal) lives with that chain's
/// code. Private keys keep their public key (uncompressed, so addresses need no point decompression); the
/// compressed form BIP-32 hashes and serializes is derived from it for free. `description` never shows the
/// private key.
public struct ExtendedKey: Sendable, Hashable, CustomStringConvertible {
    /// Which pair of version bytes the key serializes with.
    public enum Network: Sendable, Hashable {
        /// `xprv` 0x0488ADE4 / `xpub` 0x0488B21E.
        case mainnet
        /// `tprv` 0x04358394 / `tpub` 0x043587CF.
        case testnet

        var privateVersion: UInt32 { self == .mainnet ? 0x0488_ADE4 : 0x0435_8394 }
        var publicVersion: UInt32 { self == .mainnet ? 0x0488_B21E : 0x0435_87CF }
    }

    public let network: Network
    /// 0 for the master key.
    public let depth: UInt8
    /// The first 4 bytes of HASH160 of the parent's compressed public key (0 for the master key).
    public let parentFingerprint: UInt32
    /// The index this key was derived at (hardened indices include 0x80000000).
    public let childIndex: UInt32
    /// 32 bytes.
    public let chainCode: [UInt8]
    /// 32 bytes, or nil for a public extended key.
    public let privateKey: [UInt8]?
    /// 65 bytes, `0x04 ‖ X ‖ Y`.
    public let uncompressedPublicKey: [UInt8]

    /// True when the key can derive hardened children and sign.
    public var isPrivate: Bool { privateKey != nil }

    /// The 33-byte SEC1 compressed public key (`0x02|0x03 ‖ X`).
    public var publicKey: [UInt8] { Self.compress(uncompressedPublicKey) }

    /// The first 4 bytes of HASH160 (RIPEMD-160 of SHA-256) of the compressed public key, big-endian.
    public var fingerprint: UInt32 { Self.fingerprint(ofCompressed: publicKey) }

    /// The same key without its private part.
    public var neutered: ExtendedKey {
        ExtendedKey(
            network: network, depth: depth, parentFingerprint: parentFingerprint, childIndex: childIndex,
            chainCode: chainCode, privateKey: nil, uncompressedPublicKey: uncompressedPublicKey)
    }

    public var description: String {
        "ExtendedKey(\(isPrivate ? "private" : "public"), depth \(depth), index \(childIndex), "
            + "fingerprint \(String(fingerprint, radix: 16)))"
    }

    init(
        network: Network, depth: UInt8, parentFingerprint: UInt32, childIndex: UInt32, chainCode: [UInt8],
        privateKey: [UInt8]?, uncompressedPublicKey: [UInt8]
    ) {
        self.network = network
        self.depth = depth
        self.parentFingerprint = parentFingerprint
        self.childIndex = childIndex
        self.chainCode = chainCode
        self.privateKey = privateKey
        self.uncompressedPublicKey = uncompressedPublicKey
    }

    // MARK: Master key

    /// The master key of a seed: I = HMAC-SHA512("Bitcoin seed", seed); key I_L, chain code I_R.
    /// - Throws: ``ExtendedKeyError/invalidSeedLength(_:)`` outside 16–64 bytes,
    ///   ``ExtendedKeyError/invalidMasterKey`` when I_L is 0 or ≥ n.
    public init(seed: [UInt8], network: Network = .mainnet) throws(ExtendedKeyError) {
        guard seed.count >= 16, seed.count <= 64 else { throw .invalidSeedLength(seed.count) }
        let i = HMAC.authenticate(seed, key: Array("Bitcoin seed".utf8), digest: .sha512)
        let key = Array(i[0..<32])
        guard Secp256k1.isValidPrivateKey(key), let pub = try? Secp256k1.publicKey(of: key) else {
            throw .invalidMasterKey
        }
        self.init(
            network: network, depth: 0, parentFingerprint: 0, childIndex: 0, chainCode: Array(i[32..<64]),
            privateKey: key, uncompressedPublicKey: pub)
    }

    // MARK: Derivation

    /// The child at `index` (CKDpriv for private keys, CKDpub for public ones).
    /// - Throws: ``ExtendedKeyError/hardenedDerivationFromPublicKey(index:)``,
    ///   ``ExtendedKeyError/invalidChild(index:)`` (skip to the next index), ``ExtendedKeyError/depthOverflow``.
    public func child(_ index: UInt32) throws(ExtendedKeyError) -> ExtendedKey {
        try child(index, parentFingerprint: fingerprint)
    }

    /// The key at `path`, taken relative to this key (`m` means this key).
    public func derived(_ path: DerivationPath) throws(ExtendedKeyError) -> ExtendedKey {
        var key = self
        for index in path.indices { key = try key.child(index) }
        return key
    }

    /// CKD with the parent's fingerprint already known (callers deriving many siblings compute it once).
    package func child(_ index: UInt32, parentFingerprint: UInt32) throws(ExtendedKeyError) -> ExtendedKey {
        guard depth < 255 else { throw .depthOverflow }
        let hardened = index >= DerivationPath.hardenedOffset
        // data = (0x00 ‖ k_par or serP(K_par)) ‖ ser32(i): 37 bytes.
        var data = [UInt8](repeating: 0, count: 37)
        if hardened {
            guard let privateKey else { throw .hardenedDerivationFromPublicKey(index: index) }
            data.withUnsafeMutableBufferPointer { d in
                for j in 0..<32 { d[1 + j] = privateKey[j] }
            }
        } else {
            data.withUnsafeMutableBufferPointer { d in
                d[0] = 0x02 | (uncompressedPublicKey[64] & 1)
                for j in 0..<32 { d[1 + j] = uncompressedPublicKey[1 + j] }
            }
        }
        data.replaceSubrange(33..<37, with: BigEndian.bytes(index))
        let i = HMAC.authenticate(data, key: chainCode, digest: .sha512)
        let tweak = Array(i[0..<32])
        let childPrivate: [UInt8]?
        let childPublic: [UInt8]
        do {
            if let privateKey {
                let key = try Secp256k1.privateKeyTweakAdd(privateKey, tweak: tweak)
                childPrivate = key
                childPublic = try Secp256k1.publicKey(of: key)
            } else {
                childPrivate = nil
                childPublic = try Secp256k1.publicKeyTweakAdd(uncompressedPublicKey, tweak: tweak, compressed: false)
            }
        } catch {
            throw .invalidChild(index: index)
        }
        return ExtendedKey(
            network: network, depth: depth + 1, parentFingerprint: parentFingerprint, childIndex: index,
            chainCode: Array(i[32..<64]), privateKey: childPrivate, uncompressedPublicKey: childPublic)
    }

    // MARK: Helpers

    static func compress(_ uncompressed: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 33)
        out[0] = 0x02 | (uncompressed[64] & 1)
        for j in 0..<32 { out[1 + j] = uncompressed[1 + j] }
        return out
    }

    static func fingerprint(ofCompressed publicKey: [UInt8]) -> UInt32 {
        let hash = Digest.ripemd160.hash(Digest.sha256.hash(publicKey))
        return BigEndian.read(UInt32.self, from: hash, at: 0)
    }
}
