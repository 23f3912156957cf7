/// The symmetric cipher of a keystore's `crypto` section.
///
/// Web3 Secret Storage v3 names only `aes-128-ctr`; web3swift (`EthereumKeystoreV3`) writes `aes-128-cbc` by
/// default. geth refuses such a file (`cipher not supported: aes-128-cbc`) and eth-account decrypts it as CTR
/// without looking at the field, yielding a wrong key; Sandnet reads both and converts CBC files to CTR.
public enum KeystoreCipher: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// AES-128 in counter mode with the IV as the initial 128-bit big-endian counter (the standard).
    case aes128CTR = "aes-128-ctr"
    /// AES-128 in CBC mode. A 32-byte ciphertext is two whole blocks without padding (how web3swift writes a
    /// 32-byte key); any longer multiple of 16 bytes carries PKCS#7 padding.
    case aes128CBC = "aes-128-cbc"

    public var description: String { rawValue }

    /// True for the one cipher every other wallet (geth, eth-account/web3.py, ethers, MetaMask) reads correctly.
    public var isInteroperable: Bool { self == .aes128CTR }
}
