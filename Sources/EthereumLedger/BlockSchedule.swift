import EthereumTypes

/// How blocks are produced.
public enum MiningMode: Sendable, Equatable {
    /// A block as soon as transactions become executable (Anvil's default).
    case automatic
    /// A block every `seconds`, empty or not; the caller's timer calls ``Ledger/mineDue(now:)``.
    case interval(seconds: UInt64)
    /// Only on request (``Ledger/mine(blocks:now:interval:)``).
    case manual
}

/// What the next block gets and when a timer block is due: the clock offset (`evm_increaseTime`, `anvil_setTime`),
/// the timestamp promises (`evm_setNextBlockTimestamp`), the block timestamp interval
/// (`anvil_setBlockTimestampInterval`) and a fixed next base fee (`anvil_setNextBlockBaseFeePerGas`).
///
/// A pure value: every rule takes the head's header and the clock as arguments. A snapshot captures it whole
/// (except ``lastSealClock``, which follows the process's clock).
public struct BlockSchedule: Sendable, Equatable {
    /// The latest timestamp developer methods may ask for: 9999-12-31T23:59:59Z. Block timestamps must keep
    /// increasing and stay below 2^64, and clients format them as dates; this leaves ~1.8 × 10^19 blocks of room.
    public static let maxTimestamp: UInt64 = 253_402_300_799
    /// The longest interval-mining period (`evm_setIntervalMining`) and block timestamp interval: one year.
    public static let maxMiningInterval: UInt64 = 31_536_000

    /// Seconds added to the clock.
    public internal(set) var timeOffset: Int64 = 0
    /// `evm_setNextBlockTimestamp`'s promise.
    var nextTimestamp: UInt64?
    /// `anvil_setNextBlockBaseFeePerGas`'s fee for the next block.
    var nextBaseFee: UInt256?
    /// evm_increaseTime's promise: the next block is at least this late, even when blocks ran ahead of the clock.
    var timestampFloor: UInt64?
    /// anvil_setBlockTimestampInterval: each next block is its parent's timestamp plus this.
    public internal(set) var blockTimestampInterval: UInt64?
    /// The clock when the head was sealed in this process (0 before): timers count from it while a block timestamp
    /// interval decouples block timestamps from the clock.
    var lastSealClock: UInt64 = 0

    /// The timestamp the next block will get after `head`.
    func nextBlockTimestamp(now: UInt64, head: BlockHeader) -> UInt64 {
        if let t = nextTimestamp { return t }
        if let interval = blockTimestampInterval {
            return max(head.timestamp + interval, head.timestamp + 1, timestampFloor ?? 0)
        }
        let (sum, overflow) = Int64(clamping: now).addingReportingOverflow(timeOffset)
        let adjusted = overflow ? (timeOffset < 0 ? 0 : .max) : sum
        let wanted = adjusted < 0 ? 0 : UInt64(adjusted)
        return max(wanted, head.timestamp + 1, timestampFloor ?? 0)
    }

    /// The timestamp and base fee of the block being sealed now after `head` (whose next base fee is `baseFee`);
    /// the promises are used up and the seal's clock is remembered.
    mutating func takeForSeal(now: UInt64, head: BlockHeader) -> UInt64 {
        let timestamp = nextBlockTimestamp(now: now, head: head)
        nextTimestamp = nil
        timestampFloor = nil
        nextBaseFee = nil
        lastSealClock = now
        return timestamp
    }

    /// Fixes the next block's timestamp (`evm_setNextBlockTimestamp`); it must exceed the head's.
    mutating func setNextTimestamp(_ timestamp: UInt64, head: BlockHeader) throws(LedgerError) {
        try Self.checkTimestamp(timestamp)
        guard timestamp > head.timestamp else {
            throw .timestampNotAfterHead(timestamp: timestamp, head: head.timestamp)
        }
        nextTimestamp = timestamp
    }

    /// Moves the clock forward (`evm_increaseTime`); returns the total offset in seconds.
    mutating func increaseTime(_ seconds: UInt64, head: BlockHeader) throws(LedgerError) -> Int64 {
        let limit = Self.maxTimestamp
        guard seconds <= limit, timeOffset <= Int64(limit - seconds), head.timestamp <= limit - seconds else {
            throw .valueOutOfRange(
                "cannot increase time by \(seconds) seconds: the clock may not pass \(limit) (9999-12-31T23:59:59Z)")
        }
        timeOffset += Int64(seconds)
        timestampFloor = max(timestampFloor ?? 0, head.timestamp + seconds)
        return timeOffset
    }

    /// Sets the clock so that now is `timestamp` (`anvil_setTime`, `evm_setTime`); clears the promises. Returns
    /// Anvil's answer: seconds from the next block's timestamp before the call to `timestamp` (0 when earlier).
    mutating func setTime(_ timestamp: UInt64, now: UInt64, head: BlockHeader) throws(LedgerError) -> UInt64 {
        try Self.checkTimestamp(timestamp)
        let before = nextBlockTimestamp(now: now, head: head)
        // Both sides are at most 2^63 − 1 here (maxTimestamp, and a clock clamped to it), so the difference fits.
        timeOffset = Int64(timestamp) - Int64(min(now, Self.maxTimestamp))
        nextTimestamp = nil
        timestampFloor = nil
        return timestamp > before ? timestamp - before : 0
    }

    /// Gives each next block its parent's timestamp plus `seconds` (`anvil_setBlockTimestampInterval`).
    mutating func setBlockTimestampInterval(_ seconds: UInt64) throws(LedgerError) {
        try Self.checkInterval(seconds)
        blockTimestampInterval = seconds
    }

    /// Removes the block timestamp interval; false when none was set.
    mutating func removeBlockTimestampInterval() -> Bool {
        defer { blockTimestampInterval = nil }
        return blockTimestampInterval != nil
    }

    /// Clears the timestamp promises (a rollback).
    mutating func clearPromises() {
        nextTimestamp = nil
        timestampFloor = nil
    }

    /// Whether a timer block `interval` seconds after `head` is due at `now` (see ``Ledger/timerBlockDue(interval:now:)``).
    func timerBlockDue(interval: UInt64, now: UInt64, head: BlockHeader) -> Bool {
        if timerFollowsClock(now: now, head: head) { return clockTimerDue(interval: interval, now: now) }
        let (due, late) = head.timestamp.addingReportingOverflow(interval)
        return !late && nextBlockTimestamp(now: now, head: head) >= due
    }

    /// Interval mining: whether a block is due at `now`, fixing its timestamp when block time decides.
    mutating func intervalBlockDue(seconds: UInt64, now: UInt64, head: BlockHeader) -> Bool {
        if timerFollowsClock(now: now, head: head) { return clockTimerDue(interval: seconds, now: now) }
        let (due, late) = head.timestamp.addingReportingOverflow(seconds)
        let (clock, overflow) = Int64(clamping: now).addingReportingOverflow(timeOffset)
        let adjusted = overflow ? (timeOffset < 0 ? Int64.min : .max) : clock
        guard !late, adjusted >= Int64(clamping: due) else { return false }
        nextTimestamp = nextTimestamp ?? max(due, nextBlockTimestamp(now: now, head: head))
        return true
    }

    /// True while block timestamps do not follow the clock: a block timestamp interval is set, or the clock (with its
    /// offset) reads no later than the head.
    func timerFollowsClock(now: UInt64, head: BlockHeader) -> Bool {
        guard blockTimestampInterval == nil else { return true }
        let (clock, overflow) = Int64(clamping: now).addingReportingOverflow(timeOffset)
        return !overflow && clock <= Int64(clamping: head.timestamp)
    }

    /// `interval` clock seconds have passed since the head was sealed.
    func clockTimerDue(interval: UInt64, now: UInt64) -> Bool {
        let (due, late) = lastSealClock.addingReportingOverflow(interval)
        return !late && now >= due
    }

    /// A timestamp a developer method may set: at most ``maxTimestamp``.
    static func checkTimestamp(_ timestamp: UInt64) throws(LedgerError) {
        guard timestamp <= maxTimestamp else {
            throw .valueOutOfRange(
                "timestamp \(timestamp) is too large: the latest allowed is \(maxTimestamp) (9999-12-31T23:59:59Z)")
        }
    }

    /// An interval a developer method may set: at most ``maxMiningInterval``.
    static func checkInterval(_ seconds: UInt64) throws(LedgerError) {
        guard seconds <= maxMiningInterval else {
            throw .valueOutOfRange("interval \(seconds) is too long: at most \(maxMiningInterval) seconds (one year)")
        }
    }
}
