import ABICoding
import JSONCoding
import NativeContracts

/// The Solidity JSON ABIs of the native contracts (what `contract&action=getabi` answers and `functionName` shows):
/// exactly the functions and events Sandnet's native implementations handle, per token profile (see
/// `NativeContracts/TokenContract.swift`, `Multicall3.swift`).
public enum NativeABI {
    /// One function or event: `name(type name, …)` with outputs, mutability and (events) indexed inputs.
    struct Entry {
        enum Kind {
            case function(mutability: String)
            case event
        }
        var kind: Kind
        var name: String
        var inputs: [(type: String, name: String, indexed: Bool)]
        var outputs: [(type: String, name: String)]

        static func view(_ name: String, _ inputs: [(String, String)], returns outputs: [(String, String)]) -> Entry {
            Entry(
                kind: .function(mutability: "view"), name: name, inputs: inputs.map { ($0.0, $0.1, false) },
                outputs: outputs.map { ($0.0, $0.1) })
        }

        static func write(
            _ name: String, _ inputs: [(String, String)], returns outputs: [(String, String)] = [],
            payable: Bool = false
        ) -> Entry {
            Entry(
                kind: .function(mutability: payable ? "payable" : "nonpayable"), name: name,
                inputs: inputs.map { ($0.0, $0.1, false) }, outputs: outputs.map { ($0.0, $0.1) })
        }

        static func event(_ name: String, _ inputs: [(String, String, Bool)]) -> Entry {
            Entry(kind: .event, name: name, inputs: inputs.map { ($0.0, $0.1, $0.2) }, outputs: [])
        }

        /// `transfer(address to, uint256 value)`: Etherscan's `functionName`.
        var functionName: String { name + "(" + inputs.map { "\($0.type) \($0.name)" }.joined(separator: ", ") + ")" }

        var selector: [UInt8] { ABI.selector(name + "(" + inputs.map(\.type).joined(separator: ",") + ")") }

        var json: JSON {
            func parameter(_ type: String, _ name: String) -> [(String, JSON)] {
                [("internalType", .string(type)), ("name", .string(name)), ("type", .string(type))]
            }
            switch kind {
            case .function(let mutability):
                return .object([
                    ("inputs", .array(inputs.map { .object(parameter($0.type, $0.name)) })),
                    ("name", .string(name)),
                    ("outputs", .array(outputs.map { .object(parameter($0.type, $0.name)) })),
                    ("stateMutability", .string(mutability)), ("type", .string("function")),
                ])
            case .event:
                return .object([
                    ("anonymous", .bool(false)),
                    (
                        "inputs",
                        .array(
                            inputs.map {
                                .object(
                                    [("indexed", .bool($0.indexed))] + parameter($0.type, $0.name))
                            })
                    ),
                    ("name", .string(name)), ("type", .string("event")),
                ])
            }
        }
    }

    static func erc20(_ profile: TokenProfile) -> [Entry] {
        let bool: [(String, String)] = profile.returnsBool ? [("bool", "")] : []
        var entries: [Entry] = [
            .view("name", [], returns: [("string", "")]), .view("symbol", [], returns: [("string", "")]),
            .view("decimals", [], returns: [("uint8", "")]), .view("totalSupply", [], returns: [("uint256", "")]),
            .view("balanceOf", [("address", "account")], returns: [("uint256", "")]),
            .view("allowance", [("address", "owner"), ("address", "spender")], returns: [("uint256", "")]),
            .write("transfer", [("address", "to"), ("uint256", "value")], returns: bool),
            .write("approve", [("address", "spender"), ("uint256", "value")], returns: bool),
            .write("transferFrom", [("address", "from"), ("address", "to"), ("uint256", "value")], returns: bool),
        ]
        if profile.hasAllowanceAdjustment {
            entries += [
                .write(
                    "increaseAllowance", [("address", "spender"), ("uint256", "addedValue")], returns: [("bool", "")]),
                .write(
                    "decreaseAllowance", [("address", "spender"), ("uint256", "subtractedValue")],
                    returns: [("bool", "")]),
            ]
        }
        if profile.permitVersion != nil {
            entries += [
                .write(
                    "permit",
                    [
                        ("address", "owner"), ("address", "spender"), ("uint256", "value"), ("uint256", "deadline"),
                        ("uint8", "v"), ("bytes32", "r"), ("bytes32", "s"),
                    ]),
                .view("nonces", [("address", "owner")], returns: [("uint256", "")]),
                .view("DOMAIN_SEPARATOR", [], returns: [("bytes32", "")]),
            ]
        }
        if profile == .weth9 {
            entries += [
                .write("deposit", [], payable: true), .write("withdraw", [("uint256", "wad")]),
                .event("Deposit", [("address", "dst", true), ("uint256", "wad", false)]),
                .event("Withdrawal", [("address", "src", true), ("uint256", "wad", false)]),
            ]
        }
        entries += [
            .event("Transfer", [("address", "from", true), ("address", "to", true), ("uint256", "value", false)]),
            .event(
                "Approval", [("address", "owner", true), ("address", "spender", true), ("uint256", "value", false)]),
        ]
        return entries
    }

    /// Multicall3's published ABI (github.com/mds1/multicall, `Multicall3.sol`): the aggregate functions take
    /// structs, written here in JSON as solc emits them.
    static let multicall3JSON: String = """
        [{"inputs":[{"components":[{"internalType":"address","name":"target","type":"address"},\
        {"internalType":"bytes","name":"callData","type":"bytes"}],"internalType":"struct Multicall3.Call[]",\
        "name":"calls","type":"tuple[]"}],"name":"aggregate","outputs":[{"internalType":"uint256",\
        "name":"blockNumber","type":"uint256"},{"internalType":"bytes[]","name":"returnData","type":"bytes[]"}],\
        "stateMutability":"payable","type":"function"},\
        {"inputs":[{"components":[{"internalType":"address","name":"target","type":"address"},\
        {"internalType":"bool","name":"allowFailure","type":"bool"},{"internalType":"bytes","name":"callData",\
        "type":"bytes"}],"internalType":"struct Multicall3.Call3[]","name":"calls","type":"tuple[]"}],\
        "name":"aggregate3","outputs":[{"components":[{"internalType":"bool","name":"success","type":"bool"},\
        {"internalType":"bytes","name":"returnData","type":"bytes"}],"internalType":"struct Multicall3.Result[]",\
        "name":"returnData","type":"tuple[]"}],"stateMutability":"payable","type":"function"},\
        {"inputs":[{"components":[{"internalType":"address","name":"target","type":"address"},\
        {"internalType":"bool","name":"allowFailure","type":"bool"},{"internalType":"uint256","name":"value",\
        "type":"uint256"},{"internalType":"bytes","name":"callData","type":"bytes"}],\
        "internalType":"struct Multicall3.Call3Value[]","name":"calls","type":"tuple[]"}],"name":"aggregate3Value",\
        "outputs":[{"components":[{"internalType":"bool","name":"success","type":"bool"},{"internalType":"bytes",\
        "name":"returnData","type":"bytes"}],"internalType":"struct Multicall3.Result[]","name":"returnData",\
        "type":"tuple[]"}],"stateMutability":"payable","type":"function"},\
        {"inputs":[{"components":[{"internalType":"address","name":"target","type":"address"},\
        {"internalType":"bytes","name":"callData","type":"bytes"}],"internalType":"struct Multicall3.Call[]",\
        "name":"calls","type":"tuple[]"}],"name":"blockAndAggregate","outputs":[{"internalType":"uint256",\
        "name":"blockNumber","type":"uint256"},{"internalType":"bytes32","name":"blockHash","type":"bytes32"},\
        {"components":[{"internalType":"bool","name":"success","type":"bool"},{"internalType":"bytes",\
        "name":"returnData","type":"bytes"}],"internalType":"struct Multicall3.Result[]","name":"returnData",\
        "type":"tuple[]"}],"stateMutability":"payable","type":"function"},\
        {"inputs":[],"name":"getBasefee","outputs":[{"internalType":"uint256","name":"basefee","type":"uint256"}],\
        "stateMutability":"view","type":"function"},\
        {"inputs":[{"internalType":"uint256","name":"blockNumber","type":"uint256"}],"name":"getBlockHash",\
        "outputs":[{"internalType":"bytes32","name":"blockHash","type":"bytes32"}],"stateMutability":"view",\
        "type":"function"},\
        {"inputs":[],"name":"getBlockNumber","outputs":[{"internalType":"uint256","name":"blockNumber",\
        "type":"uint256"}],"stateMutability":"view","type":"function"},\
        {"inputs":[],"name":"getChainId","outputs":[{"internalType":"uint256","name":"chainid","type":"uint256"}],\
        "stateMutability":"view","type":"function"},\
        {"inputs":[],"name":"getCurrentBlockCoinbase","outputs":[{"internalType":"address","name":"coinbase",\
        "type":"address"}],"stateMutability":"view","type":"function"},\
        {"inputs":[],"name":"getCurrentBlockDifficulty","outputs":[{"internalType":"uint256","name":"difficulty",\
        "type":"uint256"}],"stateMutability":"view","type":"function"},\
        {"inputs":[],"name":"getCurrentBlockGasLimit","outputs":[{"internalType":"uint256","name":"gaslimit",\
        "type":"uint256"}],"stateMutability":"view","type":"function"},\
        {"inputs":[],"name":"getCurrentBlockTimestamp","outputs":[{"internalType":"uint256","name":"timestamp",\
        "type":"uint256"}],"stateMutability":"view","type":"function"},\
        {"inputs":[{"internalType":"address","name":"addr","type":"address"}],"name":"getEthBalance",\
        "outputs":[{"internalType":"uint256","name":"balance","type":"uint256"}],"stateMutability":"view",\
        "type":"function"},\
        {"inputs":[],"name":"getLastBlockHash","outputs":[{"internalType":"bytes32","name":"blockHash",\
        "type":"bytes32"}],"stateMutability":"view","type":"function"},\
        {"inputs":[{"internalType":"bool","name":"requireSuccess","type":"bool"},{"components":[\
        {"internalType":"address","name":"target","type":"address"},{"internalType":"bytes","name":"callData",\
        "type":"bytes"}],"internalType":"struct Multicall3.Call[]","name":"calls","type":"tuple[]"}],\
        "name":"tryAggregate","outputs":[{"components":[{"internalType":"bool","name":"success","type":"bool"},\
        {"internalType":"bytes","name":"returnData","type":"bytes"}],"internalType":"struct Multicall3.Result[]",\
        "name":"returnData","type":"tuple[]"}],"stateMutability":"payable","type":"function"},\
        {"inputs":[{"internalType":"bool","name":"requireSuccess","type":"bool"},{"components":[\
        {"internalType":"address","name":"target","type":"address"},{"internalType":"bytes","name":"callData",\
        "type":"bytes"}],"internalType":"struct Multicall3.Call[]","name":"calls","type":"tuple[]"}],\
        "name":"tryBlockAndAggregate","outputs":[{"internalType":"uint256","name":"blockNumber","type":"uint256"},\
        {"internalType":"bytes32","name":"blockHash","type":"bytes32"},{"components":[{"internalType":"bool",\
        "name":"success","type":"bool"},{"internalType":"bytes","name":"returnData","type":"bytes"}],\
        "internalType":"struct Multicall3.Result[]","name":"returnData","type":"tuple[]"}],\
        "stateMutability":"payable","type":"function"}]
        """

    /// Multicall3's functions as Etherscan names them (`aggregate3((address,bool,bytes)[] calls)`).
    static let multicall3Functions: [([UInt8], String)] = [
        ("aggregate((address,bytes)[])", "aggregate((address,bytes)[] calls)"),
        ("aggregate3((address,bool,bytes)[])", "aggregate3((address,bool,bytes)[] calls)"),
        ("aggregate3Value((address,bool,uint256,bytes)[])", "aggregate3Value((address,bool,uint256,bytes)[] calls)"),
        ("blockAndAggregate((address,bytes)[])", "blockAndAggregate((address,bytes)[] calls)"),
        ("tryAggregate(bool,(address,bytes)[])", "tryAggregate(bool requireSuccess, (address,bytes)[] calls)"),
        (
            "tryBlockAndAggregate(bool,(address,bytes)[])",
            "tryBlockAndAggregate(bool requireSuccess, (address,bytes)[] calls)"
        ),
    ].map { (ABI.selector($0.0), $0.1) }

    /// The ABI of the native contract `contract` as a JSON value.
    public static func abi(_ contract: NativeContractRegistry.Contract) -> JSON {
        switch contract {
        case .token(let token): return .array(erc20(token.profile).map(\.json))
        case .multicall3:
            guard let json = try? JSON.parse(multicall3JSON) else { preconditionFailure("Multicall3's ABI is JSON") }
            return json
        }
    }

    /// Etherscan's `functionName` for a call to `contract` with `input` ("" when not one of its functions).
    public static func functionName(_ contract: NativeContractRegistry.Contract?, input: [UInt8]) -> String {
        guard input.count >= 4, let contract else { return "" }
        let selector = Array(input.prefix(4))
        switch contract {
        case .token(let token):
            return erc20(token.profile).first { entry in
                if case .function = entry.kind { return entry.selector == selector }
                return false
            }?.functionName ?? ""
        case .multicall3:
            return multicall3Functions.first { $0.0 == selector }?.1 ?? ""
        }
    }
}
