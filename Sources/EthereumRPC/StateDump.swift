import EthereumNode
import EthereumTypes
import JSONCoding
import JSONRPC

/// Anvil-style JSON state dumps: `{"block": n, "accounts": {address: {nonce, balance, code}}}`, as
/// `anvil_dumpState`/`anvil_loadState` and `--dump-state`/`--load-state` read and write them. Loading merges accounts
/// into the current chain (balance, nonce, code), as `anvil_loadState` does.
public enum StateDump {
    public static func dump(_ node: SandnetNode) -> JSON {
        let (block, accounts) = node.dev.dumpState()
        return .object([
            ("block", Format.q(block)),
            (
                "accounts",
                .object(
                    accounts.map { address, a in
                        (
                            address.lowercased,
                            .object([
                                ("nonce", Format.q(a.nonce)), ("balance", Format.q(a.balance)),
                                ("code", Format.data(a.code)),
                            ])
                        )
                    })
            ),
        ])
    }

    /// Reads a dump's JSON text and merges it into `node`; every account is read and checked before any is
    /// written, so a refused dump changes nothing.
    public static func load(_ text: [UInt8], into node: SandnetNode) throws {
        let dump: JSON
        do { dump = try JSON.parse(text) } catch { throw NodeError.invalidStateDump("\(error)") }
        try node.dev.loadState(try accounts(dump))
    }

    static func accounts(_ dump: JSON) throws(NodeError) -> [AccountOverride] {
        guard case .object(let accounts)? = dump["accounts"] else {
            throw .invalidStateDump("state dump has no accounts object")
        }
        var changes: [AccountOverride] = []
        for (key, value) in accounts {
            let address: Address
            do { address = try Arg.address(.string(key)) } catch { throw .invalidStateDump("\(error)") }
            do {
                changes.append(
                    AccountOverride(
                        address: address, balance: try value["balance"].map(Arg.uint256),
                        nonce: try value["nonce"].map(Arg.number), code: try value["code"].map(Arg.data)))
            } catch {
                throw .invalidStateDump("\(key): \(error)")
            }
        }
        return changes
    }
}
