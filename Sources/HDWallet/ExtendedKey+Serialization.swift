import ByteCoding
import CryptoCore

extension ExtendedKey {
    /// `xprv…` for a private key, `xpub…` for a public one (BIP-32 serialization, Base58Check).
    public var serialized: String { Base58Check.encode(payload(includePrivate: true)) }

    /// `xpub…` (also for a private key).
    public var serializedPublic: String { Base58Check.encode(payload(includePrivate: false)) }

    func payload(includePrivate: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(78)
        let usePrivate = includePrivate && privateKey != nil
        BigEndian.append(usePrivate ? network.privateVersion : network.publicVersion, to: &out)
        out.append(depth)
        BigEndian.append(parentFingerprint, to: &out)
        BigEndian.append(childIndex, to: &out)
        out.append(contentsOf: chainCode)
        if usePrivate, let privateKey {
            out.append(0)
            out.append(contentsOf: privateKey)
        } else {
            out.append(contentsOf: publicKey)
        }
        return out
    }

    /// Parses and validates `xprv`/`xpub`/`tprv`/`tpub` keys; rejects everything BIP-32's vector 5 lists.
    /// - Throws: ``ExtendedKeyError`` naming the first problem found.
    public init(serialized text: String) throws(ExtendedKeyError) {
        let data: [UInt8]
        do { data = try Base58Check.decode(text) } catch { throw .base58(error) }
        guard data.count == 78 else { throw .invalidLength(data.count) }
        let version = BigEndian.read(UInt32.self, from: data, at: 0)
        let network: Network
        let isPrivate: Bool
        switch version {
        case Network.mainnet.privateVersion: (network, isPrivate) = (.mainnet, true)
        case Network.mainnet.publicVersion: (network, isPrivate) = (.mainnet, false)
        case Network.testnet.privateVersion: (network, isPrivate) = (.testnet, true)
        case Network.testnet.publicVersion: (network, isPrivate) = (.testnet, false)
        default: throw .unknownVersion(version)
        }
        let depth = data[4]
        let parentFingerprint = BigEndian.read(UInt32.self, from: data, at: 5)
        let childIndex = BigEndian.read(UInt32.self, from: data, at: 9)
        let chainCode = Array(data[13..<45])
        let prefix = data[45]
        let keyBytes = Array(data[45..<78])
        if isPrivate {
            if prefix == 0x02 || prefix == 0x03 { throw .privateVersionWithPublicKey }
            guard prefix == 0 else { throw .invalidPrivateKeyPrefix(prefix) }
        } else {
            if prefix == 0 { throw .publicVersionWithPrivateKey }
            guard prefix == 0x02 || prefix == 0x03 else { throw .invalidPublicKeyPrefix(prefix) }
        }
        if depth == 0 {
            guard parentFingerprint == 0 else { throw .zeroDepthWithParentFingerprint }
            guard childIndex == 0 else { throw .zeroDepthWithChildIndex }
        }
        let privateKey: [UInt8]?
        let uncompressed: [UInt8]
        if isPrivate {
            let key = Array(keyBytes[1...])
            guard Secp256k1.isValidPrivateKey(key), let pub = try? Secp256k1.publicKey(of: key) else {
                throw .invalidPrivateKey
            }
            (privateKey, uncompressed) = (key, pub)
        } else {
            guard let pub = try? Secp256k1.normalize(publicKey: keyBytes, compressed: false) else {
                throw .invalidPublicKey
            }
            (privateKey, uncompressed) = (nil, pub)
        }
        self.init(
            network: network, depth: depth, parentFingerprint: parentFingerprint, childIndex: childIndex,
            chainCode: chainCode, privateKey: privateKey, uncompressedPublicKey: uncompressed)
    }
}
