import ABICoding
import EthereumTypes

/// Multicall3 (github.com/mds1/multicall, deployed at `0xcA11bde05977b3631167028862bE2a173976CA11` on every
/// major chain): batches of calls dispatched to the native contracts, with the contract's revert texts. A call to
/// an address without native code succeeds with no data, as a CALL to an account without code does.
enum Multicall3 {
    static let address: Address = {
        guard let a = try? Address(parsing: "0xcA11bde05977b3631167028862bE2a173976CA11") else {
            preconditionFailure("bad Multicall3 address")
        }
        return a
    }()

    static let aggregate = ABISignature(literal: "aggregate((address,bytes)[])")
    static let tryAggregate = ABISignature(literal: "tryAggregate(bool,(address,bytes)[])")
    static let tryBlockAndAggregate = ABISignature(literal: "tryBlockAndAggregate(bool,(address,bytes)[])")
    static let blockAndAggregate = ABISignature(literal: "blockAndAggregate((address,bytes)[])")
    static let aggregate3 = ABISignature(literal: "aggregate3((address,bool,bytes)[])")
    static let aggregate3Value = ABISignature(literal: "aggregate3Value((address,bool,uint256,bytes)[])")
    static let getBlockHash = ABISignature(literal: "getBlockHash(uint256)")
    static let getBlockNumber = ABISignature(literal: "getBlockNumber()")
    static let getCurrentBlockCoinbase = ABISignature(literal: "getCurrentBlockCoinbase()")
    static let getCurrentBlockDifficulty = ABISignature(literal: "getCurrentBlockDifficulty()")
    static let getCurrentBlockGasLimit = ABISignature(literal: "getCurrentBlockGasLimit()")
    static let getCurrentBlockTimestamp = ABISignature(literal: "getCurrentBlockTimestamp()")
    static let getEthBalance = ABISignature(literal: "getEthBalance(address)")
    static let getLastBlockHash = ABISignature(literal: "getLastBlockHash()")
    static let getBasefee = ABISignature(literal: "getBasefee()")
    static let getChainId = ABISignature(literal: "getChainId()")

    static let callFailed = ABI.errorString("Multicall3: call failed")
    static let valueMismatch = ABI.errorString("Multicall3: value mismatch")

    /// One entry of a batch.
    struct Entry {
        var target: Address
        var allowFailure: Bool
        var value: UInt256
        var data: [UInt8]
    }

    static func execute(_ call: NativeCall, in m: inout NativeMachine) throws(Halt) -> [UInt8] {
        m.charge(GasModel.multicallBase)
        guard call.data.count >= 4 else { throw .revert([]) }  // no receive or fallback function
        let selector = ABI.selectorValue(call.data[0..<4])
        let payable = [aggregate, tryAggregate, tryBlockAndAggregate, blockAndAggregate, aggregate3, aggregate3Value]
            .contains { $0.selectorValue == selector }
        if !call.value.isZero && !payable { throw .revert([]) }
        let env = m.environment
        do {
            switch selector {
            case aggregate.selectorValue:
                let entries = pairs(try arguments(aggregate, call.data)[0], allowFailure: false)
                let results = try run(entries, caller: call.target, in: &m)
                return ABI.word(env.number) + ABI.word(UInt64(64)) + bytesArray(results.map(\.data))
            case tryAggregate.selectorValue, tryBlockAndAggregate.selectorValue:
                let a = try arguments(
                    selector == tryAggregate.selectorValue ? tryAggregate : tryBlockAndAggregate, call.data)
                let entries = pairs(a[1], allowFailure: !a[0].boolValue)
                let results = try run(entries, caller: call.target, in: &m)
                if selector == tryAggregate.selectorValue { return ABI.word(UInt64(32)) + resultArray(results) }
                return ABI.word(env.number) + blockHash(env.number, in: &m) + ABI.word(UInt64(96))
                    + resultArray(results)
            case blockAndAggregate.selectorValue:
                let entries = pairs(try arguments(blockAndAggregate, call.data)[0], allowFailure: false)
                let results = try run(entries, caller: call.target, in: &m)
                return ABI.word(env.number) + blockHash(env.number, in: &m) + ABI.word(UInt64(96))
                    + resultArray(results)
            case aggregate3.selectorValue:
                let entries = triples(try arguments(aggregate3, call.data)[0], withValue: false)
                return ABI.word(UInt64(32)) + resultArray(try run(entries, caller: call.target, in: &m))
            case aggregate3Value.selectorValue:
                let entries = triples(try arguments(aggregate3Value, call.data)[0], withValue: true)
                var total = UInt256.zero
                for entry in entries {
                    let (sum, overflow) = total.addingReportingOverflow(entry.value)
                    if overflow { throw Halt.revert(ABI.panic(0x11)) }
                    total = sum
                }
                let results = try run(entries, caller: call.target, in: &m)
                if call.value != total { throw Halt.revert(valueMismatch) }
                return ABI.word(UInt64(32)) + resultArray(results)
            case getBlockHash.selectorValue:
                let number = try arguments(getBlockHash, call.data)[0].uintValue
                guard let n = number.uint64Value else { return ABI.word(UInt256.zero) }
                return blockHash(n, in: &m)
            case getBlockNumber.selectorValue: return ABI.word(env.number)
            case getCurrentBlockCoinbase.selectorValue: return ABI.word(env.coinbase)
            case getCurrentBlockDifficulty.selectorValue: return ABI.word(UInt256.zero)
            case getCurrentBlockGasLimit.selectorValue: return ABI.word(env.gasLimit)
            case getCurrentBlockTimestamp.selectorValue: return ABI.word(env.timestamp)
            case getEthBalance.selectorValue:
                let target = try arguments(getEthBalance, call.data)[0].addressValue
                m.access(target)
                return ABI.word(m.balance(target))
            case getLastBlockHash.selectorValue:
                return env.number == 0 ? ABI.word(UInt256.zero) : blockHash(env.number - 1, in: &m)
            case getBasefee.selectorValue: return ABI.word(env.baseFee)
            case getChainId.selectorValue: return ABI.word(env.chainID)
            default: throw Halt.revert([])
            }
        } catch let halt as Halt {
            throw halt
        } catch let error as ABIDecodingError {
            // Elements sharing one offset (a few KB naming billions of sub-calls, issue 38): refused before any
            // work with a reason that says why; other calldata the decoder refuses reverts without data, as
            // Solidity's decoder does.
            if case .budgetExceeded = error.kind { throw .revert(ABI.errorString("Multicall3: \(error)")) }
            throw .revert([])
        } catch {
            throw .revert([])
        }
    }

    /// The arguments of `call` for `function`, as Solidity's decoder reads them, with the decoder's budget: the
    /// values may not take more bytes than the calldata has.
    static func arguments(_ function: ABISignature, _ data: [UInt8]) throws(ABIDecodingError) -> [ABIValue] {
        try function.decodeArguments(data, options: .solidity)
    }

    /// BLOCKHASH: the hash of one of the 256 blocks before the current one, zero otherwise.
    static func blockHash(_ number: UInt64, in m: inout NativeMachine) -> [UInt8] {
        m.charge(20)
        let current = m.environment.number
        guard number < current, current - number <= 256, let hash = m.state.blockHash(number) else {
            return ABI.word(UInt256.zero)
        }
        return hash
    }

    /// Runs the entries in order from Multicall3; a failed entry that may not fail reverts the whole batch with
    /// "Multicall3: call failed".
    static func run(_ entries: [Entry], caller: Address, in m: inout NativeMachine) throws(Halt) -> [(
        success: Bool, data: [UInt8]
    )] {
        var results: [(success: Bool, data: [UInt8])] = []
        results.reserveCapacity(entries.count)
        for entry in entries {
            m.charge(GasModel.multicallPerCall)
            m.access(entry.target)
            if !entry.value.isZero { m.charge(GasModel.callValue - GasModel.callStipend) }
            let frame = m.run(NativeCall(caller: caller, target: entry.target, value: entry.value, data: entry.data))
            if !frame.succeeded && !entry.allowFailure { throw .revert(callFailed) }
            let output = frame.output
            m.charge(GasModel.copyPerWord * UInt64((output.count + 31) / 32))
            results.append((frame.succeeded, output))
        }
        return results
    }

    /// `(address target, bytes callData)[]`.
    static func pairs(_ calls: ABIValue, allowFailure: Bool) -> [Entry] {
        calls.elements.map { call in
            let c = call.elements
            return Entry(target: c[0].addressValue, allowFailure: allowFailure, value: .zero, data: c[1].bytesValue)
        }
    }

    /// `(address target, bool allowFailure, [uint256 value,] bytes callData)[]`.
    static func triples(_ calls: ABIValue, withValue: Bool) -> [Entry] {
        calls.elements.map { call in
            let c = call.elements
            return Entry(
                target: c[0].addressValue, allowFailure: c[1].boolValue, value: withValue ? c[2].uintValue : .zero,
                data: c[withValue ? 3 : 2].bytesValue)
        }
    }

    /// The tail of a `bytes[]`: length, offsets, then each element's tail.
    static func bytesArray(_ items: [[UInt8]]) -> [UInt8] {
        var heads: [UInt8] = []
        var tails: [UInt8] = []
        for item in items {
            heads += ABI.word(UInt64(32 * items.count + tails.count))
            tails += ABI.tail(item)
        }
        return ABI.word(UInt64(items.count)) + heads + tails
    }

    /// The tail of a `(bool success, bytes returnData)[]`.
    static func resultArray(_ items: [(success: Bool, data: [UInt8])]) -> [UInt8] {
        var heads: [UInt8] = []
        var tails: [UInt8] = []
        for item in items {
            heads += ABI.word(UInt64(32 * items.count + tails.count))
            tails += ABI.word(item.success) + ABI.word(UInt64(64)) + ABI.tail(item.data)
        }
        return ABI.word(UInt64(items.count)) + heads + tails
    }
}
