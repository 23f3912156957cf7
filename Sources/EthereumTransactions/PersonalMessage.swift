import CryptoCore
import EthereumTypes
import KeccakHashing

/// EIP-191 version `0x45` messages, as `personal_sign` and `eth_sign` sign them:
/// `keccak256("\x19Ethereum Signed Message:\n" ‖ decimal(len(message)) ‖ message)`.
public enum PersonalMessage {
    /// The prefixed bytes that are hashed.
    public static func prefixed(_ message: [UInt8]) -> [UInt8] {
        Array("\u{19}Ethereum Signed Message:\n\(message.count)".utf8) + message
    }

    /// The EIP-191 digest of `message`.
    public static func hash(_ message: [UInt8]) -> [UInt8] {
        Keccak256.hash(prefixed(message))
    }

    /// Signs `message` as `personal_sign` does.
    /// - Throws: ``Secp256k1Error/invalidPrivateKey``.
    public static func sign(_ message: [UInt8], privateKey: [UInt8]) throws(Secp256k1Error) -> EthereumSignature {
        try EthereumSignature.sign(digest: hash(message), privateKey: privateKey)
    }

    /// The address that signed `message` (`personal_ecRecover`).
    /// - Throws: ``SignatureError``.
    public static func recover(_ message: [UInt8], signature: EthereumSignature) throws(SignatureError) -> Address {
        try signature.recoverAddress(digest: hash(message))
    }
}
