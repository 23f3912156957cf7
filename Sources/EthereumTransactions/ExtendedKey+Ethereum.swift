import EthereumTypes
import HDWallet

extension ExtendedKey {
    /// The Ethereum address of the public key: the last 20 bytes of Keccak-256 of `X ‖ Y` (Yellow Paper
    /// appendix F, `A(p_r)`).
    public var ethereumAddress: Address {
        guard let address = Address(publicKey: uncompressedPublicKey) else {
            preconditionFailure("an ExtendedKey always holds a 65-byte uncompressed secp256k1 public key")
        }
        return address
    }
}
