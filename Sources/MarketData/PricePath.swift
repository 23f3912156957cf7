import SeededRandom

/// The market's clock: Unix seconds to the path's ticks of 3.75 s (4 ticks per 15 s, so every multiple of 15 s,
/// and so every chart and candle boundary, falls on a tick).
public enum MarketClock {
    /// 2025-01-01T00:00:00Z: tick 0, where every asset has its ``MarketAsset/anchorPriceUSD``.
    public static let anchorTime: Int64 = 1_735_689_600
    /// 9999-12-31T23:59:59Z, the chain's latest timestamp.
    public static let maxTime: Int64 = 253_402_300_799

    /// The tick that holds Unix second `t` (t in 0…``maxTime``).
    public static func tick(at t: Int64) -> Int64 { floorDivide((t - anchorTime) * 4, 15) }

    /// ⌊a / b⌋ for b > 0.
    public static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}

/// One seeded path of log values per tick, computed on demand and never stored.
///
/// Time is cut into blocks of 2^19 ticks (about 22.8 days). Each block draws, from its own generator (seed, path,
/// block index), its regime, its Brownian increment W(end) ~ N(0, 2^19) and its Merton jumps (a Poisson count, a
/// uniform tick and a normal log size for each). Inside a block W is filled in by a dyadic Brownian bridge: the
/// midpoint of a node of 2^l ticks is the mean of its ends plus √(2^l / 4)·Z, Z drawn from the node's own
/// generator (seed, path, block, level, index). So any tick is computable from the seed alone, a range of ticks
/// visits only the nodes above the requested ticks, and nothing is kept between calls: memory is bounded by the
/// answer, whatever the history length. The log price at tick p of block b is
/// `X(b) + σ·s_r·W(p) + (μ_r + κ·(a − X(b)))·p + Σ jumps ≤ p`, where X(b) is the anchor's log price a carried
/// through the blocks between tick 0 and block b (``levels(from:through:)``: O(|b|) small draws, 16 blocks a year). κ (ln 2 a year) is a
/// weak pull towards the anchor, constant within a block, so that over years an asset stays near its level (a
/// stationary spread of σ/√(2κ) in log price) instead of wandering off as a pure random walk does; within a block
/// the step is exact GBM with Merton jumps.
struct PricePath: Sendable {
    static let blockLevel = 19
    static let blockTicks: Int64 = 1 << 19
    static let ticksPerYear = 31_557_600.0 * 4 / 15
    /// κ·(block length): the pull towards the anchor per block (half-life one year).
    static let reversion = 0.6931471805599453 * Double(blockTicks) / ticksPerYear

    enum Shape: Sendable {
        /// Geometric Brownian motion with Merton jumps and regimes (assets), or without either (currencies).
        case diffusion(volatility: Double, jumpsPerYear: Double, jumpSize: Double, regimes: Bool)
        /// A Brownian bridge pinned to 0 at every block boundary, normalised to about N(0, 1) mid-block: the peg's
        /// wobble and the volume factor.
        case bridge
    }

    let key: UInt64
    let logAnchor: Double
    let shape: Shape
    let forcedRegime: MarketRegime?

    init(seed: UInt64, stream: UInt64, logAnchor: Double, shape: Shape, forcedRegime: MarketRegime? = nil) {
        key = DeterministicMath.mix(DeterministicMath.mix(seed, 0x5A4E_444E_4554), stream)
        self.logAnchor = logAnchor
        self.shape = shape
        self.forcedRegime = forcedRegime
    }

    struct Block {
        var regime: MarketRegime?
        var endW: Double
        var sigma: Double
        var drift: Double
        /// (tick offset in the block, log size), by offset.
        var jumps: [(offset: Int64, size: Double)]
        /// The block's log change before the pull towards the anchor.
        var noise: Double

        /// The block's log change from `level` at its start.
        func delta(from level: Double, anchor: Double) -> Double { noise + PricePath.reversion * (anchor - level) }
    }

    func block(_ b: Int64) -> Block {
        var random = SplitMix64(seed: DeterministicMath.mix(key, UInt64(bitPattern: b)))
        let draw = random.unit()
        guard case .diffusion(let volatility, let jumpsPerYear, let jumpSize, let regimes) = shape else {
            return Block(regime: nil, endW: 0, sigma: 0, drift: 0, jumps: [], noise: 0)
        }
        let regime: MarketRegime? = regimes ? (forcedRegime ?? .drawn(draw)) : nil
        let endW = DeterministicMath.normal(&random) * Double(Self.blockTicks).squareRoot()
        var jumps: [(offset: Int64, size: Double)] = []
        if let regime, jumpsPerYear > 0 {
            let mean = jumpsPerYear * regime.jumpScale * Double(Self.blockTicks) / Self.ticksPerYear
            for _ in 0..<DeterministicMath.poisson(mean, &random) {
                let offset = Int64(random.next() >> UInt64(64 - Self.blockLevel))
                jumps.append((offset, regime.jumpMean + jumpSize * DeterministicMath.normal(&random)))
            }
            jumps.sort { $0.offset < $1.offset }
        }
        let sigma = volatility / Self.ticksPerYear.squareRoot() * (regime?.volatilityScale ?? 1)
        let drift = (regime?.driftPerYear ?? 0) / Self.ticksPerYear
        var noise = sigma * endW + drift * Double(Self.blockTicks)
        for jump in jumps { noise += jump.size }
        return Block(regime: regime, endW: endW, sigma: sigma, drift: drift, jumps: jumps, noise: noise)
    }

    /// The log values at the starts of blocks `b0` through `b1`. From tick 0 forward the pull is applied as
    /// X(k+1) = X(k) + noise(k) + κL·(a − X(k)); before tick 0 the same recursion runs backward in time,
    /// X(k) = X(k+1) − noise(k) + κL·(a − X(k+1)) (a stationary Gaussian AR(1) is reversible, so both directions have
    /// the same law; the inverse of the forward step would be explosive). Within block k the path goes from X(k) to
    /// X(k+1) with the difference from its noise spread evenly over its ticks.
    func levels(from b0: Int64, through b1: Int64) -> [Double] {
        let a = logAnchor
        var out = [Double](repeating: a, count: Int(b1 - b0 + 1))
        if b1 >= 0 {
            var x = a
            var k: Int64 = 0
            while k <= b1 {
                if k >= b0 { out[Int(k - b0)] = x }
                if k == b1 { break }
                x += block(k).delta(from: x, anchor: a)
                k += 1
            }
        }
        if b0 < 0 {
            var x = a
            var k: Int64 = -1
            while k >= b0 {
                x = x - block(k).noise + Self.reversion * (a - x)
                if k <= b1 { out[Int(k - b0)] = x }
                k -= 1
            }
        }
        return out
    }

    /// Log values at ticks `first`, `first + stride`, … (`count` of them, stride ≥ 1). For ``Shape/bridge`` the
    /// normalised bridge value instead (0 at block boundaries).
    func values(first: Int64, stride: Int64, count: Int) -> [Double] {
        precondition(stride >= 1 && count >= 0)
        var out: [Double] = []
        out.reserveCapacity(count)
        guard count > 0 else { return out }
        let last = first + Int64(count - 1) * stride
        let firstBlock = MarketClock.floorDivide(first, Self.blockTicks)
        let lastBlock = MarketClock.floorDivide(last, Self.blockTicks)
        var starts: [Double] = []
        if case .diffusion = shape { starts = levels(from: firstBlock, through: lastBlock + 1) }
        var b = firstBlock
        var p = first
        var w: [Double] = []
        while p <= last {
            let blockStart = b * Self.blockTicks
            let header = block(b)
            let localFirst = p - blockStart
            let localLimit = min(last + 1, blockStart + Self.blockTicks) - blockStart
            w.removeAll(keepingCapacity: true)
            walkBlock(b, endW: header.endW, first: localFirst, stride: stride, limit: localLimit, into: &w)
            var offset = localFirst
            switch shape {
            case .bridge:
                let scale = (Double(Self.blockTicks) / 4).squareRoot()
                for value in w {
                    out.append(value / scale)
                    offset += stride
                }
            case .diffusion:
                let base = starts[Int(b - firstBlock)]
                let end = starts[Int(b - firstBlock) + 1]
                let drift = header.drift + (end - base - header.noise) / Double(Self.blockTicks)
                var jump = 0
                var jumped = 0.0
                for value in w {
                    while jump < header.jumps.count && header.jumps[jump].offset <= offset {
                        jumped += header.jumps[jump].size
                        jump += 1
                    }
                    out.append(base + header.sigma * value + drift * Double(offset) + jumped)
                    offset += stride
                }
            }
            p = blockStart + offset
            b += 1
        }
        return out
    }

    /// W at the requested offsets of block `b` (first, first + stride, … below `limit`), in order.
    private func walkBlock(
        _ b: Int64, endW: Double, first: Int64, stride: Int64, limit: Int64, into out: inout [Double]
    ) {
        let blockKey = DeterministicMath.mix(key ^ 0xB10C_B10C, UInt64(bitPattern: b))
        func next(_ x: Int64) -> Int64 {
            x <= first ? first : first + (x - first + stride - 1) / stride * stride
        }
        func walk(_ level: Int, _ index: Int64, _ w0: Double, _ w1: Double) {
            let start = index << level
            let bound = min(start + (1 << level), limit)
            let q = next(start)
            guard q < bound else { return }
            if q == start && next(start + 1) >= bound {
                out.append(w0)
                return
            }
            var random = SplitMix64(
                seed: DeterministicMath.mix(DeterministicMath.mix(blockKey, UInt64(level)), UInt64(index)))
            let half = Double(Int64(1) << (level - 1))
            let mid = 0.5 * (w0 + w1) + (0.5 * half).squareRoot() * DeterministicMath.normal(&random)
            walk(level - 1, 2 * index, w0, mid)
            walk(level - 1, 2 * index + 1, mid, w1)
        }
        walk(Self.blockLevel, 0, 0, endW)
    }
}
