import EthereumTypes

/// The gas model of the native contracts. Execution gas (what a transaction uses beyond its intrinsic
/// 21,000 + calldata) is the sum of
///
/// - storage access as the EVM charges it since Berlin and London: a cold SLOAD 2,100, a warm one 100
///   (EIP-2929), SSTORE per EIP-2200 with EIP-2929's costs (zero → non-zero 20,000, non-zero → other 2,900 after the
///   cold read, no-op 100) and EIP-3529's refund of 4,800 for clearing a word (capped by the ledger at gas used / 5);
/// - logs: 375 + 375 per topic + 8 per data byte (`LOGn`);
/// - ETH sent by a call: 9,000 − the 2,300 stipend an account without code returns (+ 2,600 for a cold address);
///   `ecrecover` 3,000; `BALANCE` of a cold address 2,600;
/// - a per-function overhead of the profile (``TokenProfile/overhead(_:)``): the opcodes, ABI work, proxy hops
///   and configuration reads of the real contract that are not modelled as storage words.
///
/// The overheads are calibrated so that the result matches what such tokens use on mainnet: USDT's transfer to
/// an existing holder whose balance stays non-zero is 46,109 gas with 596 gas of calldata, 41,309 when the sender's
/// balance is emptied (the 4,800 refund) and 63,209 to a fresh holder (mainnet receipts: 46,109, 41,309 and
/// 63,221, the last with 12 more gas of calldata).
public enum GasModel {
    public static let coldSload: UInt64 = 2_100
    public static let warmAccess: UInt64 = 100
    public static let coldAccountAccess: UInt64 = 2_600
    public static let sstoreSet: UInt64 = 20_000
    public static let sstoreReset: UInt64 = 2_900
    public static let clearRefund: UInt64 = 4_800
    public static let logBase: UInt64 = 375
    public static let logTopic: UInt64 = 375
    public static let logDataByte: UInt64 = 8
    public static let callValue: UInt64 = 9_000
    public static let callStipend: UInt64 = 2_300
    public static let newAccount: UInt64 = 25_000
    public static let ecrecover: UInt64 = 3_000
    /// Per sub-call of Multicall3 (the CALL, ABI encoding of the call and its result), beyond the access cost.
    public static let multicallPerCall: UInt64 = 1_100
    /// Multicall3's own dispatch and result encoding.
    public static let multicallBase: UInt64 = 900
    /// Copying return data: 3 per word (RETURNDATACOPY, MSTORE).
    public static let copyPerWord: UInt64 = 3

    /// The gas an SSTORE costs (EIP-2200 with EIP-2929 and EIP-3529), the slot already warm, and the refund
    /// change it makes.
    static func sstore(original: UInt256, current: UInt256, new: UInt256) -> (cost: UInt64, refund: Int64) {
        if current == new { return (warmAccess, 0) }
        if original == current {
            if original.isZero { return (sstoreSet, 0) }
            return (sstoreReset, new.isZero ? Int64(clearRefund) : 0)
        }
        var refund: Int64 = 0
        if !original.isZero {
            if current.isZero { refund -= Int64(clearRefund) }
            if new.isZero { refund += Int64(clearRefund) }
        }
        if original == new {
            refund += original.isZero ? Int64(sstoreSet - warmAccess) : Int64(sstoreReset - warmAccess)
        }
        return (warmAccess, refund)
    }

    static func log(topics: Int, dataBytes: Int) -> UInt64 {
        logBase + logTopic * UInt64(topics) + logDataByte * UInt64(dataBytes)
    }
}
