import ABICoding
import EthereumTypes

/// How a call ended, with geth's texts for the failures.
public struct CallOutcome: Sendable, Equatable {
    public enum Failure: Sendable, Equatable {
        /// REVERT with data: geth answers code 3, "execution reverted" (+ ": reason" for `Error(string)` and
        /// `Panic(uint256)`), and the data.
        case reverted(data: [UInt8])
        /// INVALID: geth answers -32000 "invalid opcode: INVALID".
        case invalidOpcode
        /// More gas than the call was given: geth answers -32000 "out of gas".
        case outOfGas
    }

    /// Return data (success) or revert data.
    public var output: [UInt8]
    public var failure: Failure?
    /// Gas the call uses as a transaction: intrinsic + execution − refund (at least the EIP-7623 floor).
    public var gasUsed: UInt64
    /// The smallest gas limit with which the call as a transaction succeeds (gas used before the refund):
    /// what `eth_estimateGas` answers.
    public var gasRequired: UInt64
    public var logs: [Log]

    public var succeeded: Bool { failure == nil }

    /// geth's message for the failure (`core/vm/errors.go`, `accounts/abi` `UnpackRevert`).
    public var failureMessage: String? {
        switch failure {
        case nil: return nil
        case .invalidOpcode: return "invalid opcode: INVALID"
        case .outOfGas: return "out of gas"
        case .reverted(let data):
            guard let reason = RevertReason.decode(data) else { return "execution reverted" }
            return "execution reverted: \(reason)"
        }
    }
}

/// geth's reading of revert data (`accounts/abi.UnpackRevert`): `Error(string)` gives its text, `Panic(uint256)`
/// the reason Solidity documents for the code.
public enum RevertReason {
    static let panicReasons: [UInt64: String] = [
        0x00: "generic panic", 0x01: "assert(false)", 0x11: "arithmetic underflow or overflow",
        0x12: "division or modulo by zero", 0x21: "enum overflow", 0x22: "invalid encoded storage byte array accessed",
        0x31: "out-of-bounds array access; popping on an empty array",
        0x32: "out-of-bounds access of an array or bytesN", 0x41: "out of memory", 0x51: "uninitialized function",
    ]

    public static func decode(_ data: [UInt8]) -> String? {
        guard data.count >= 36 else { return nil }
        let body = data[4...]
        if data[0..<4].elementsEqual(ABI.errorSelector) {
            return (try? ABIDecoder.decode(.string, from: body, options: .solidity))?.stringValue
        }
        if data[0..<4].elementsEqual(ABI.panicSelector) {
            guard let code = (try? ABIDecoder.decode(.uint256, from: body, options: .solidity))?.uintValue else {
                return nil
            }
            if let small = code.uint64Value, let reason = panicReasons[small] { return reason }
            return "unknown panic code: 0x" + code.hexDigits
        }
        return nil
    }
}
