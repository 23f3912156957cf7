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

    static let aggregate = ABI.selectorValue("aggregate((address,bytes)[])")
    static let tryAggregate = ABI.selectorValue("tryAggregate(bool,(address,bytes)[])")
    static let tryBlockAndAggregate = ABI.selectorValue("tryBlockAndAggregate(bool,(address,bytes)[])")
    static let blockAndAggregate = ABI.selectorValue("blockAndAggregate((address,bytes)[])")
    static let aggregate3 = ABI.selectorValue("aggregate3((address,bool,bytes)[])")
    static let aggregate3Value = ABI.selectorValue("aggregate3Value((address,bool,uint256,bytes)[])")
    static let getBlockHash = ABI.selectorValue("getBlockHash(uint256)")
    static let getBlockNumber = ABI.selectorValue("getBlockNumber()")
    static let getCurrentBlockCoinbase = ABI.selectorValue("getCurrentBlockCoinbase()")
    static let getCurrentBlockDifficulty = ABI.selectorValue("getCurrentBlockDifficulty()")
    static let getCurrentBlockGasLimit = ABI.selectorValue("getCurrentBlockGasLimit()")
    static let getCurrentBlockTimestamp = ABI.selectorValue("getCurrentBlockTimestamp()")
    static let getEthBalance = ABI.selectorValue("getEthBalance(address)")
    static let getLastBlockHash = ABI.selectorValue("getLastBlockHash()")
    static let getBasefee = ABI.selectorValue("getBasefee()")
    static let getChainId = ABI.selectorValue("getChainId()")

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
        let args = ABIArguments(calldata: call.data)
        let payable = [aggregate, tryAggregate, tryBlockAndAggregate, blockAndAggregate, aggregate3, aggregate3Value]
            .contains(selector)
        if !call.value.isZero && !payable { throw .revert([]) }
        let env = m.environment
        do {
            switch selector {
            case aggregate:
                let entries = try pairs(args, at: 0, allowFailure: false)
                let results = try run(entries, caller: call.target, in: &m)
                return ABI.word(env.number) + ABI.word(UInt64(64)) + bytesArray(results.map(\.data))
            case tryAggregate, tryBlockAndAggregate:
                let requireSuccess = try args.bool(0)
                let entries = try pairs(args, at: 32, allowFailure: !requireSuccess)
                let results = try run(entries, caller: call.target, in: &m)
                if selector == tryAggregate { return ABI.word(UInt64(32)) + resultArray(results) }
                return ABI.word(env.number) + blockHash(env.number, in: &m) + ABI.word(UInt64(96))
                    + resultArray(results)
            case blockAndAggregate:
                let entries = try pairs(args, at: 0, allowFailure: false)
                let results = try run(entries, caller: call.target, in: &m)
                return ABI.word(env.number) + blockHash(env.number, in: &m) + ABI.word(UInt64(96))
                    + resultArray(results)
            case aggregate3:
                let entries = try triples(args, withValue: false)
                return ABI.word(UInt64(32)) + resultArray(try run(entries, caller: call.target, in: &m))
            case aggregate3Value:
                let entries = try triples(args, withValue: true)
                var total = UInt256.zero
                for entry in entries {
                    let (sum, overflow) = total.addingReportingOverflow(entry.value)
                    if overflow { throw Halt.revert(ABI.panic(0x11)) }
                    total = sum
                }
                let results = try run(entries, caller: call.target, in: &m)
                if call.value != total { throw Halt.revert(valueMismatch) }
                return ABI.word(UInt64(32)) + resultArray(results)
            case getBlockHash:
                let number = try args.uint(0)
                guard let n = number.uint64Value else { return ABI.word(UInt256.zero) }
                return blockHash(n, in: &m)
            case getBlockNumber: return ABI.word(env.number)
            case getCurrentBlockCoinbase: return ABI.word(env.coinbase)
            case getCurrentBlockDifficulty: return ABI.word(UInt256.zero)
            case getCurrentBlockGasLimit: return ABI.word(env.gasLimit)
            case getCurrentBlockTimestamp: return ABI.word(env.timestamp)
            case getEthBalance:
                let target = try args.address(0)
                m.access(target)
                return ABI.word(m.balance(target))
            case getLastBlockHash: return env.number == 0 ? ABI.word(UInt256.zero) : blockHash(env.number - 1, in: &m)
            case getBasefee: return ABI.word(env.baseFee)
            case getChainId: return ABI.word(env.chainID)
            default: throw Halt.revert([])
            }
        } catch let halt as Halt {
            throw halt
        } catch {
            throw .revert([])
        }
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

    /// `(address target, bytes callData)[]` whose offset word is at `position`.
    static func pairs(_ args: ABIArguments, at position: Int, allowFailure: Bool) throws(ABIArguments.Malformed)
        -> [Entry]
    {
        let array = try args.offset(at: position, base: 0)
        let count = try args.arrayLength(at: array, wordsPerElement: 3)
        let base = array + 32
        var entries: [Entry] = []
        for i in 0..<count {
            let tuple = try args.offset(at: base + 32 * i, base: base)
            let target = try args.address(at: tuple)
            let data = try args.dynamicBytes(at: try args.offset(at: tuple + 32, base: tuple))
            entries.append(Entry(target: target, allowFailure: allowFailure, value: .zero, data: data))
        }
        return entries
    }

    /// `(address target, bool allowFailure, [uint256 value,] bytes callData)[]`.
    static func triples(_ args: ABIArguments, withValue: Bool) throws(ABIArguments.Malformed) -> [Entry] {
        let array = try args.offset(at: 0, base: 0)
        let words = withValue ? 5 : 4
        let count = try args.arrayLength(at: array, wordsPerElement: words)
        let base = array + 32
        var entries: [Entry] = []
        for i in 0..<count {
            let tuple = try args.offset(at: base + 32 * i, base: base)
            let target = try args.address(at: tuple)
            let allowFailure = try args.bool(at: tuple + 32)
            let value = withValue ? try args.word(at: tuple + 64) : .zero
            let dataOffset = try args.offset(at: tuple + (withValue ? 96 : 64), base: tuple)
            entries.append(
                Entry(
                    target: target, allowFailure: allowFailure, value: value,
                    data: try args.dynamicBytes(at: dataOffset)))
        }
        return entries
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
