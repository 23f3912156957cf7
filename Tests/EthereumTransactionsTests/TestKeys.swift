import ByteCoding
import EthereumTransactions
import EthereumTypes

/// Keys and transactions shared by the tests. Expected encodings and hashes were cross-checked with
/// eth-account 0.14 (Python), an independent implementation.
enum TestKeys {
    /// Anvil/Hardhat dev account #0 (`test … junk` mnemonic), address 0xf39F…2266.
    static let key = try! Hex.decode("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
    static let sender = try! Address(parsing: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")
    /// Dev account #1.
    static let recipient = try! Address(parsing: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")

    static func bytes(_ hex: String) -> [UInt8] { try! Hex.decode(hex) }

    /// A 0.1 ETH EIP-1559 transfer on Sepolia.
    static let transfer = Transaction.dynamicFee(
        DynamicFeeTransaction(
            chainID: 11_155_111, nonce: 7, maxPriorityFeePerGas: UInt256(2_000_000_000 as UInt64),
            maxFeePerGas: UInt256(30_000_000_000 as UInt64), gas: 21_000, to: recipient,
            value: UInt256(100_000_000_000_000_000 as UInt64)))

    /// Signs `tx` with ``key``.
    static func signed(_ tx: Transaction) -> SignedTransaction { try! tx.signed(privateKey: key) }

    /// An EIP-1559 transaction with the given fields and everything else a plain transfer.
    static func dynamicFee(
        chainID: UInt64 = 1, nonce: UInt64 = 0, tip: UInt256 = 1, feeCap: UInt256 = 2, gas: UInt64 = 21_000,
        to: Address? = recipient, data: [UInt8] = []
    ) -> SignedTransaction {
        signed(
            .dynamicFee(
                DynamicFeeTransaction(
                    chainID: chainID, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: feeCap, gas: gas, to: to,
                    value: 0, data: data)))
    }
}
