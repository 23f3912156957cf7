import EthereumLedger
import EthereumLedgerStorage
import EthereumTransactions
import EthereumTypes

/// Really signed transfers, for tests that store transactions: the data directory keeps each transaction in its
/// EIP-2718 encoding and decodes it with the wallet's codec.
enum Signed {
    struct Signer {
        let key: [UInt8]
        let address: Address
    }

    static func signer(_ byte: UInt8) -> Signer {
        let key = [UInt8](repeating: byte, count: 32)
        let probe = try! Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: 1, nonce: 0, maxPriorityFeePerGas: .zero, maxFeePerGas: .zero, gas: 0, to: nil, value: .zero)
        ).signed(privateKey: key)
        return Signer(key: key, address: try! probe.recoverSender())
    }

    static let alice = signer(0xa1)
    static let bob = signer(0xb0)

    static func sign(_ transaction: Transaction, by signer: Signer = alice) -> LedgerTransaction {
        LedgerTransaction(try! transaction.signed(privateKey: signer.key), sender: signer.address)
    }

    static func transfer(
        from: Signer = alice, to: Address = bob.address, nonce: UInt64, value: UInt256 = Fixtures.gwei,
        maxFee: UInt256 = Fixtures.gwei * 3, tip: UInt256 = Fixtures.gwei
    ) -> LedgerTransaction {
        let signed = try! Transaction.dynamicFee(
            DynamicFeeTransaction(
                chainID: 11_155_111, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee, gas: 21_000, to: to,
                value: value)
        ).signed(privateKey: from.key)
        return LedgerTransaction(signed, sender: from.address)
    }
}
