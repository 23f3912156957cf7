import AmbientTraffic
import ByteCoding
import EthereumLedger
import EthereumNode
import EthereumTypes
import ICPIdentity
import ICPLedger
import ICPLedgerService
import JSONCoding
import TLSCertificates

/// What `sandnet node` prints once it listens: where to connect, what the chain does by itself (and the flag that
/// stops it), and the dev keys. `--json-log` gets the same facts as one JSON line.
enum StartupBanner {
    /// How the chain moves without the user: mining, empty blocks and other users' traffic.
    struct Activity: Equatable {
        var mining: MiningMode
        var emptyBlockInterval: UInt64?
        var feeProfile: FeeProfile

        init(_ configuration: NodeConfiguration) {
            mining = configuration.miningMode
            emptyBlockInterval = configuration.miningMode == .automatic ? configuration.emptyBlockInterval : nil
            feeProfile = configuration.ambient.profile
        }

        var ambient: Bool { feeProfile != .dev }
        var still: Bool { !ambient && emptyBlockInterval == nil && mining == .automatic }

        var lines: [String] {
            var lines: [String] = []
            switch mining {
            case .automatic:
                lines.append(
                    "Mining        automine: a block as soon as a transaction arrives (--block-time N, --no-mining)")
            case .interval(let seconds):
                lines.append("Mining        a block every \(seconds) s, empty or not (without --block-time: automine)")
            case .manual:
                lines.append("Mining        only on request: evm_mine / anvil_mine (without --no-mining: automine)")
            }
            if let emptyBlockInterval {
                lines.append(
                    "Empty blocks  one every \(emptyBlockInterval) s when nothing else was mined "
                        + "(off: --empty-block-interval 0 or --no-ambient)")
            }
            if ambient {
                lines.append(
                    "Other users   fee profile \(feeProfile.rawValue): strangers' transfers and token transactions "
                        + "in most blocks, from the first one (off: --no-ambient)")
            } else {
                lines.append(
                    "Other users   none (fee profile dev); a still chain" + (still ? "" : " apart from mining"))
            }
            return lines
        }

        var json: JSON {
            let mode: String
            var blockTime: JSON = .null
            switch mining {
            case .automatic: mode = "automatic"
            case .interval(let seconds):
                mode = "interval"
                blockTime = .number(String(seconds))
            case .manual: mode = "manual"
            }
            return .object([
                ("mining", .string(mode)), ("blockTime", blockTime),
                ("emptyBlockInterval", emptyBlockInterval.map { .number(String($0)) } ?? .null),
                ("feeProfile", .string(feeProfile.rawValue)), ("ambientTraffic", .bool(ambient)),
            ])
        }
    }

    /// What the banner says about TLS: the file a client trusts and the names the certificate covers.
    struct TLS: Equatable {
        /// The local CA's certificate; nil for the user's own certificate.
        var authorityPath: String?
        var certificatePath: String
        var names: [String]
        var action: TLSServerCredentials.Action

        init(_ credentials: TLSServerCredentials) {
            authorityPath = credentials.certificateAuthorityPath
            certificatePath = credentials.certificatePath
            names = credentials.names
            action = credentials.action
        }

        var lines: [String] {
            var lines: [String] = []
            if let authorityPath {
                let what =
                    switch action {
                    case .createdAuthority: "created now; trust it once per device"
                    case .renewedCertificate: "server certificate renewed for these names"
                    case .reused, .userSupplied: "trust it once per device"
                    }
                lines.append("TLS CA        \(authorityPath)  (\(what); README, \"TLS\")")
            } else {
                lines.append("TLS           your certificate \(certificatePath)")
            }
            lines.append("TLS names     \(names.joined(separator: ", "))")
            return lines
        }

        var json: JSON {
            .object([
                ("caFile", authorityPath.map { .string($0) } ?? .null), ("certificate", .string(certificatePath)),
                ("names", .array(names.map { .string($0) })), ("certificateAction", .string(action.rawValue)),
            ])
        }
    }

    static func render(
        node: SandnetNode, icp: [KeyIdentity], icpEnabled: Bool, host: String, port: Int, dataDir: String?, json: Bool,
        tls: TLS? = nil
    ) -> String {
        let scheme = tls == nil ? "http" : "https"
        let url = "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        let activity = Activity(node.configuration)
        if json {
            return JSON.object([
                ("event", .string("listening")), ("chainId", .number(String(node.configuration.chain.chainID))),
                ("rpcUrl", .string(url)), ("wsUrl", .string(url.replacingOccurrences(of: "http", with: "ws"))),
                ("faucetUrl", .string(url + "/faucet")), ("faucetAccount", .string(node.faucetAddress.checksummed)),
                ("explorerUrl", .string(url + "/explorer")),
                ("dataDir", dataDir.map { .string($0) } ?? .null), ("tls", tls?.json ?? .null),
                ("chain", activity.json),
                ("icpLedger", icpEnabled ? .string(LedgerService.canisterID.text) : .null),
                (
                    "icpIdentities",
                    .array(
                        icp.map {
                            .object([
                                ("principal", .string($0.principal.text)),
                                ("accountId", .string(AccountIdentifier(principal: $0.principal).hex)),
                            ])
                        })
                ),
                (
                    "accounts",
                    .array(
                        node.devAccounts.map {
                            .object([
                                ("address", .string($0.address.checksummed)),
                                ("privateKey", .string(Hex.encodePrefixed($0.privateKey))),
                            ])
                        })
                ),
            ]).serialized
        }
        var lines = [
            "Sandnet \(SandnetVersion.current): fake Sepolia node", "",
            "Chain id      \(node.configuration.chain.chainID)",
            "RPC URL       \(url)",
            "WebSocket     \(url.replacingOccurrences(of: "http", with: "ws"))",
            "Faucet        \(url)/faucet  (POST \(url)/api/claim {\"address\": \"0x…\"})",
            "Faucet funds  \(node.faucetAddress.checksummed)",
            "Explorer      \(url)/explorer  (blocks, transactions, addresses, tokens, pool, fee charts, ICP ledger)",
            "Data          \(dataDir.map { "\($0) (kept across restarts)" } ?? "in memory (lost on exit)")",
        ]
        lines += tls?.lines ?? []
        lines += activity.lines
        lines += ["", "Dev accounts (test keys: public, never use them on a real network)"]
        for (i, account) in node.devAccounts.enumerated() {
            lines.append("(\(i)) \(account.address.checksummed)  \(Hex.encodePrefixed(account.privateKey))")
        }
        if icpEnabled {
            lines += [
                "",
                "ICP ledger    \(LedgerService.canisterID.text) on the IC HTTP interface at \(url) (fetch the root key;",
                "              certificates are BLS-signed). Faucet: POST \(url)/api/icp/claim {\"account\": \"…\"}",
                "ICP dev identities (secp256k1, m/44'/223'/0'/0/i of the mnemonic)",
            ]
            for (i, identity) in icp.enumerated() {
                lines.append(
                    "(\(i)) \(identity.principal.text)  \(AccountIdentifier(principal: identity.principal).hex)")
            }
        }
        lines.append("")
        if dataDir != nil {
            lines.append("Listening on \(url). Ctrl-C stops the node; the chain stays in the data directory.")
        } else {
            lines.append("Listening on \(url). Ctrl-C stops the node; the chain, kept in memory, is discarded.")
        }
        return lines.joined(separator: "\n")
    }
}
