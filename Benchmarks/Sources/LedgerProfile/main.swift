// A plain executable running one ledger workload in a loop, for profilers (`perf record`, `valgrind
// --tool=callgrind`) and for the 1M-account figures measured in a process of their own:
//
//   LedgerProfile build N        mine a 10,000-transaction block (3 tries), N times (1…1,000)
//   LedgerProfile apply N        submit 10,000 pre-verified transfers and mine them, N times (1…1,000)
//   LedgerProfile create DIR     write 1,000,000 funded genesis accounts to a LevelDB store at DIR
//   LedgerProfile reopen DIR     reopen it; prints the wall time and the process's peak RSS
//   LedgerProfile accounts N     live heap per account (glibc mallinfo2; N in 1,000…1,000,000, fewer drown in
//                                noise): the ledger as the node runs it, N new recipients through transfers in
//                                blocks, and each account structure alone
//   LedgerProfile revert DIR     a 10,000-block chain in a LevelDB store at DIR (one transfer per block), then
//                                100 × (evm_snapshot, one block with a transfer, evm_revert): the revert's cost
import EthereumLedger
import EthereumLedgerStorage
import EthereumTypes
import Foundation
import KeccakHashing
import LevelDBStorage

let now: UInt64 = 1_800_000_000
let recipient = Address([UInt8](repeating: 0xbe, count: 20))!

func senders() -> [Address] {
    (0..<10_000).map { i in Address(Keccak256.hash([UInt8(i & 0xff), UInt8(i >> 8), 1])[12...])! }
}

func fundedLedger(_ senders: [Address]) -> Ledger {
    var config = ChainConfig()
    config.gasLimit = 300_000_000
    config.transactionGasCap = nil
    config.poolLimitTotal = 1_000_000
    var ledger = Ledger(
        config: config, genesis: senders.map { GenesisAccount(address: $0, balance: UInt256(1) << 100) })
    ledger.miningMode = .manual
    return ledger
}

func transfers(_ senders: [Address]) -> [LedgerTransaction] {
    senders.enumerated().map { salt, sender in
        let hash = Keccak256.hash(
            sender.bytes + [0, UInt8(truncatingIfNeeded: salt), UInt8(truncatingIfNeeded: salt >> 8)])
        return LedgerTransaction(
            type: 2, chainID: 11_155_111, nonce: 0, gasLimit: 21_000, maxFeePerGas: UInt256(100_000_000_000 as UInt64),
            maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64), to: recipient, value: UInt256(1), hash: hash,
            sender: sender, encoding: [2] + hash)
    }
}

/// CPU time of the process (all threads): on a shared machine the wall clock mostly measures the wait for a core.
func cpuTime() -> Duration {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}

func peakRSSMegabytes() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024
}

func millionAccounts() -> [GenesisAccount] {
    (0..<1_000_000).map { i -> GenesisAccount in
        var seed = [UInt8](repeating: 0, count: 8)
        for b in 0..<8 { seed[b] = UInt8(truncatingIfNeeded: i >> (b * 8)) }
        return GenesisAccount(address: Address(Keccak256.hash(seed)[12...])!, balance: UInt256(1_000_000 as UInt64))
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(
        "usage: LedgerProfile build|apply|accounts N | create|reopen|revert DIR\n".data(using: .utf8)!)
    exit(2)
}
/// The count argument, or exit 2 naming the allowed range (a profile of 0 rounds or a garbage count would print
/// nothing meaningful or trap).
func count(_ text: String, _ range: ClosedRange<Int>, _ what: String) -> Int {
    guard let n = Int(text), range.contains(n) else {
        FileHandle.standardError.write(
            "LedgerProfile: \(what) must be an integer in \(range.lowerBound)...\(range.upperBound), got '\(text)'\n"
                .data(using: .utf8)!)
        exit(2)
    }
    return n
}
let clock = ContinuousClock()
switch arguments[1] {
case "build", "apply":
    let rounds = count(arguments[2], 1...1_000, "rounds")
    let addresses = senders()
    let txs = transfers(addresses)
    var wall: [Duration] = []
    var cpu: [Duration] = []
    for _ in 0..<rounds {
        var ledger = fundedLedger(addresses)
        if arguments[1] == "build" { for tx in txs { _ = try ledger.submit(tx, now: now) } }
        let (start, startCPU) = (clock.now, cpuTime())
        if arguments[1] == "apply" { for tx in txs { _ = try ledger.submit(tx, now: now) } }
        let blocks = try ledger.mine(now: now)
        (wall, cpu) = (wall + [clock.now - start], cpu + [cpuTime() - startCPU])
        precondition(blocks[0].transactions.count == 10_000)
    }
    print(
        "\(arguments[1]) 10,000 transfers: \(rounds) rounds, CPU min \(cpu.min()!) median \(cpu.sorted()[rounds / 2]), wall min \(wall.min()!)"
    )
case "accounts":
    try accountMemory(count(arguments[2], 1_000...1_000_000, "accounts"))
case "create":
    _ = try PersistentLedger.open(
        config: ChainConfig(), genesis: millionAccounts(), store: LevelDBStore(path: arguments[2]))
    print("created 1,000,000 accounts in \(arguments[2]); peak RSS \(peakRSSMegabytes()) MB")
case "reopen":
    let (start, startCPU) = (clock.now, cpuTime())
    let reopened = try PersistentLedger.open(
        config: ChainConfig(), genesis: [], store: LevelDBStore(path: arguments[2]))
    let (elapsed, elapsedCPU) = (clock.now - start, cpuTime() - startCPU)
    precondition(reopened.ledger.world.addresses.count == 1_000_000)
    print(
        "reopened 1,000,000 accounts in \(elapsed) (CPU \(elapsedCPU)); peak RSS \(String(format: "%.0f", peakRSSMegabytes())) MB"
    )
case "revert":
    let keys = senders().prefix(64)
    var config = ChainConfig()
    config.transactionGasCap = nil
    var persistent = try PersistentLedger.open(
        config: config, genesis: keys.map { GenesisAccount(address: $0, balance: UInt256(1) << 100) },
        store: LevelDBStore(path: arguments[2]))
    try persistent.perform { (ledger: inout Ledger) throws(LedgerError) in ledger.miningMode = .manual }
    func transfer(_ ledger: inout Ledger, _ i: Int) throws(LedgerError) {
        let sender = keys[keys.startIndex + i % keys.count]
        let nonce = ledger.account(sender).nonce
        let hash = Keccak256.hash(
            sender.bytes + [
                UInt8(truncatingIfNeeded: i), UInt8(truncatingIfNeeded: i >> 8), UInt8(truncatingIfNeeded: i >> 16),
            ])
        _ = try ledger.submit(
            LedgerTransaction(
                type: 2, chainID: config.chainID, nonce: nonce, gasLimit: 21_000,
                maxFeePerGas: UInt256(100_000_000_000 as UInt64),
                maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                to: recipient, value: UInt256(1), hash: hash, sender: sender, encoding: [2] + hash),
            now: now)
        _ = try ledger.mine(now: now)
    }
    for i in 0..<10_000 {
        try persistent.perform { (ledger: inout Ledger) throws(LedgerError) in try transfer(&ledger, i) }
    }
    var reverts: [Duration] = []
    for i in 0..<100 {
        let id = persistent.perform { (ledger: inout Ledger) -> UInt64 in ledger.snapshot() }
        try persistent.perform { (ledger: inout Ledger) throws(LedgerError) in try transfer(&ledger, 10_000 + i) }
        let start = cpuTime()
        let reverted = try persistent.perform { (ledger: inout Ledger) throws(LedgerError) -> Bool in
            try ledger.revert(to: id)
        }
        reverts.append(cpuTime() - start)
        precondition(reverted && persistent.ledger.blockNumber == 10_000)
    }
    reverts.sort()
    print(
        "evm_revert over one block at height 10,000 with LevelDB, CPU: median \(reverts[50]), min \(reverts[0]), max \(reverts[99])"
    )
default:
    FileHandle.standardError.write("unknown workload \(arguments[1])\n".data(using: .utf8)!)
    exit(2)
}
