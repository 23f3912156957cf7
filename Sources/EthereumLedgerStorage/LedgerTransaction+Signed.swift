import EthereumLedger
import EthereumTransactions
import EthereumTypes

extension LedgerTransaction {
    /// The ledger's form of a decoded, signed transaction: its intrinsic gas and EIP-7623 floor computed, its
    /// sender recovered by the caller (admission) or read back with it (a stored record).
    public init(_ signed: SignedTransaction, sender: Address) {
        let tx = signed.transaction
        let gas = signed.intrinsicGas
        self.init(
            type: tx.type.rawValue, chainID: tx.chainID, nonce: tx.nonce, gasLimit: tx.gas,
            maxFeePerGas: tx.gasFeeCap, maxPriorityFeePerGas: tx.gasTipCap, to: tx.to, value: tx.value, data: tx.data,
            accessList: tx.accessList.map {
                .init(address: $0.address, storageKeys: $0.storageKeys.map(\.bigEndianBytes))
            },
            intrinsicGas: gas.standard, floorGas: gas.floor, hash: signed.hash, sender: sender,
            encoding: signed.encoded,
            v: signed.v, r: signed.signature.r, s: signed.signature.s)
    }
}
