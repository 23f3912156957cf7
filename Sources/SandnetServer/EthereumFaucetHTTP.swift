import ByteCoding
import EthereumNode
import EthereumTypes
import JSONCoding
import NativeContracts

/// chainflag/eth-faucet's HTTP API over the node's faucet: `POST /api/claim` and `GET /api/info`. The faucet throws
/// typed errors (``FaucetError``); the statuses and bodies are chosen here.
extension EthereumFaucet {
    /// An answer of `POST /api/claim`: the HTTP status, the JSON body and, for 429, the seconds to wait.
    public struct HTTPReply: Sendable, Equatable {
        public var status: Int
        public var body: JSON
        public var retryAfter: UInt64?

        /// `{"msg": text}`, the shape of every answer of eth-faucet's API.
        static func message(_ text: String, status: Int, retryAfter: UInt64? = nil) -> Self {
            Self(status: status, body: .object([("msg", .string(text))]), retryAfter: retryAfter)
        }
    }

    /// `POST /api/claim` with `{"address": "0x…"}` (and optionally `"token": "USDC"`, a symbol or address) from
    /// `clientIP`: 200 `{"msg": "Txhash: 0x…"}`, 400 for a bad body, address or token, 429 with the wait, 500 when
    /// the faucet is dry or the transfer failed.
    public func claim(httpBody: [UInt8], clientIP: String?) -> HTTPReply {
        guard let json = try? JSON.parse(httpBody), case .object(let members) = json,
            members.allSatisfy({ $0.0 == "address" || $0.0 == "token" }), let text = json["address"]?.stringValue
        else {
            return .message("invalid request body: expected {\"address\": \"0x…\"}", status: 400)
        }
        guard let address = try? Address(parsing: text) else {
            return .message("invalid address", status: 400)
        }
        do {
            let hash: [UInt8]
            if let member = json["token"] {
                guard let name = member.stringValue, let token = token(named: name) else {
                    let known = tokens.map(\.symbol).joined(separator: ", ")
                    return .message("unknown token: this chain has \(known)", status: 400)
                }
                hash = try claim(address: address, token: token, clientIP: clientIP)
            } else {
                hash = try claim(address: address, clientIP: clientIP)
            }
            return .message("Txhash: \(Hex.encodePrefixed(hash))", status: 200)
        } catch {
            return .message(error.message, status: Self.httpStatus(error), retryAfter: Self.retryAfter(error))
        }
    }

    /// eth-faucet's status for a refused claim: 429 while a cooldown runs, 500 otherwise.
    static func httpStatus(_ error: FaucetError) -> Int {
        if case .cooldown = error { return 429 }
        return 500
    }

    static func retryAfter(_ error: FaucetError) -> UInt64? {
        if case .cooldown(let wait) = error { return wait }
        return nil
    }

    /// `GET /api/info` in eth-faucet's shape.
    public var info: JSON {
        let configuration = self.configuration
        return .object([
            ("account", .string(address.checksummed)),
            (
                "network",
                .string(configuration.chain.chainID == 11_155_111 ? "sepolia" : "chain \(configuration.chain.chainID)")
            ),
            ("payout", .string(Units.format(configuration.faucetAmount, decimals: 18))),
            ("symbol", .string("ETH")),
            (
                "tokens",
                .array(
                    tokens.map { token in
                        .object([
                            ("symbol", .string(token.symbol)), ("address", .string(token.address.checksummed)),
                            ("payout", .string(Units.format(tokenPayout(token), decimals: Int(token.decimals)))),
                        ])
                    })
            ),
            // The native NFT collections (issue 30): address, standard ("ERC721"/"ERC1155"), name and symbol.
            (
                "nfts",
                .array(
                    collections.map { collection in
                        .object([
                            ("address", .string(collection.address.checksummed)),
                            ("standard", .string(collection.standard == .erc721 ? "ERC721" : "ERC1155")),
                            ("name", .string(collection.name)), ("symbol", .string(collection.symbol)),
                        ])
                    })
            ),
        ])
    }
}
