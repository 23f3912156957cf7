import ByteCoding
import Crypto

/// The relay's hashes (WalletConnect specs, relay-client-api.md): a message's id is hex(sha256(message text)); a
/// subscription id is hex(sha256(topic + client id)), the value the JS SDK computes for itself.
public enum RelayHash {
    public static func messageID(_ message: String) -> String {
        Hex.encode(Array(SHA256.hash(data: Array(message.utf8))))
    }

    public static func subscriptionID(topic: String, clientID: String) -> String {
        Hex.encode(Array(SHA256.hash(data: Array((topic + clientID).utf8))))
    }
}
