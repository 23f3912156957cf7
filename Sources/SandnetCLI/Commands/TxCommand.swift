import ArgumentParser
import ByteCoding
import EthereumTransactions
import EthereumTypes

struct TxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tx", abstract: "Decode and sign Ethereum transactions (legacy, EIP-2930, EIP-1559).",
        subcommands: [Decode.self, Sign.self])

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode a raw signed transaction to JSON, with its hash and recovered sender.",
            discussion: """
                Prints the fields with the names JSON-RPC clients use (type, chainId, nonce, gas, gasPrice or \
                maxPriorityFeePerGas/maxFeePerGas, to, value, input, accessList, v, yParity, r, s, hash, from). \
                "from" is null when no sender recovers (an invalid signature); --chain-id also runs the \
                stateless validity checks and fails with geth's error text.
                """)

        @Argument(help: "The raw transaction as 0x hex (eth_sendRawTransaction's parameter).")
        var raw: String

        @Option(name: .customLong("chain-id"), help: "Validate against this chain id under Osaka rules.")
        var chainID: UInt64?

        func run() throws {
            let tx: SignedTransaction
            do { tx = try SignedTransaction(hex: raw) } catch { throw CLIError(error.description) }
            var sender: Address?
            if let chainID {
                do { sender = try tx.validate(ValidationRules(chainID: chainID, fork: .osaka)) } catch {
                    throw CLIError(error.message)
                }
            } else {
                sender = try? tx.recoverSender()
            }
            var json = tx.json(sender: sender)
            if sender == nil, case .object(var members) = json {
                members.append(("from", .null))
                json = .object(members)
            }
            print(json.rendered())
        }
    }

    struct Sign: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Build and sign a transaction; prints the raw transaction hex.",
            discussion: """
                Amounts and fees take units: "0.1 ether", "2 gwei", "21000" (a bare number is wei). --type 2 \
                (EIP-1559, the default) needs --max-fee and --tip; --type 0 (legacy, EIP-155) and 1 (EIP-2930) \
                need --gas-price. --gas defaults to the intrinsic gas (21000 for a plain transfer). The signed \
                transaction is checked with the stateless rules of Osaka before it is printed.
                Key sources (exactly one): --private-key HEX (or '-' for standard input), --mnemonic "…" with \
                --path (default m/44'/60'/0'/0/0) and --passphrase, or --keystore FILE with --password-file, \
                --password-env or a prompt.
                """)

        @OptionGroup var key: KeyOptions

        @Option(help: "Recipient address; omit to create a contract from --data.")
        var to: String?

        @Option(help: "Amount to send, e.g. \"0.1 ether\".")
        var value = "0"

        @Option(name: .customLong("chain-id"), help: "Chain id (1 mainnet, 11155111 Sepolia).")
        var chainID: UInt64

        @Option(help: "The sender's next nonce.")
        var nonce: UInt64

        @Option(name: .customLong("max-fee"), help: "EIP-1559 maxFeePerGas, e.g. \"30 gwei\".")
        var maxFee: String?

        @Option(help: "EIP-1559 maxPriorityFeePerGas, e.g. \"2 gwei\".")
        var tip: String?

        @Option(name: .customLong("gas-price"), help: "gasPrice for --type 0 or 1.")
        var gasPrice: String?

        @Option(help: "Gas limit (default: the intrinsic gas of the transaction).")
        var gas: UInt64?

        @Option(help: "Calldata or init code as 0x hex.")
        var data = "0x"

        @Option(help: "Transaction type: 0 legacy (EIP-155), 1 EIP-2930, 2 EIP-1559.")
        var type: UInt8 = 2

        @Flag(help: "Print the signed transaction as JSON instead of raw hex.")
        var json = false

        func run() throws {
            let privateKey = try key.load()
            let recipient: Address?
            do { recipient = try to.map { try Address(parsing: $0) } } catch { throw CLIError("--to: \(error)") }
            let calldata: [UInt8]
            do { calldata = try Hex.decode(data) } catch { throw CLIError("--data: \(error)") }
            let amount = try Self.amount(value, option: "--value")
            let gasLimit =
                gas
                ?? IntrinsicGas(
                    data: calldata, isContractCreation: recipient == nil, accessListAddresses: 0,
                    accessListStorageKeys: 0
                ).minimumGasLimit(for: .osaka)
            let transaction: Transaction
            switch type {
            case 2:
                guard gasPrice == nil else {
                    throw CLIError("--gas-price is for --type 0 or 1; use --max-fee and --tip")
                }
                guard let maxFee, let tip else { throw CLIError("--type 2 needs --max-fee and --tip") }
                transaction = .dynamicFee(
                    DynamicFeeTransaction(
                        chainID: chainID, nonce: nonce, maxPriorityFeePerGas: try Self.amount(tip, option: "--tip"),
                        maxFeePerGas: try Self.amount(maxFee, option: "--max-fee"), gas: gasLimit, to: recipient,
                        value: amount, data: calldata))
            case 0, 1:
                guard maxFee == nil, tip == nil else { throw CLIError("--max-fee and --tip are for --type 2") }
                guard let gasPrice else { throw CLIError("--type \(type) needs --gas-price") }
                let price = try Self.amount(gasPrice, option: "--gas-price")
                transaction =
                    type == 0
                    ? .legacy(
                        LegacyTransaction(
                            chainID: chainID, nonce: nonce, gasPrice: price, gas: gasLimit, to: recipient,
                            value: amount,
                            data: calldata))
                    : .accessList(
                        AccessListTransaction(
                            chainID: chainID, nonce: nonce, gasPrice: price, gas: gasLimit, to: recipient,
                            value: amount,
                            data: calldata))
            default:
                throw CLIError("--type \(type): transaction type not supported (use 0, 1 or 2)")
            }
            let signed: SignedTransaction
            do { signed = try transaction.signed(privateKey: privateKey) } catch { throw CLIError("\(error)") }
            let sender: Address
            do { sender = try signed.validate(ValidationRules(chainID: chainID, fork: .osaka)) } catch {
                throw CLIError(error.message)
            }
            print(json ? signed.json(sender: sender).rendered() : Hex.encodePrefixed(signed.encoded))
        }

        static func amount(_ text: String, option: String) throws -> UInt256 {
            do { return try Units.parse(text) } catch { throw CLIError("\(option): \(error)") }
        }
    }
}
