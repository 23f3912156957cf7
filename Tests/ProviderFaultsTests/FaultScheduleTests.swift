import JSONCoding
import ProviderFaults
import Testing

@Suite struct FaultScheduleTests {
    static func call(_ method: String, _ id: Int = 1) -> FaultSchedule.Call {
        FaultSchedule.Call(method: method, id: .int(id))
    }

    @Test func skipEveryAndCountPickExactCalls() {
        var schedule = FaultSchedule(rules: [FaultRule(shape: .tooManyRequests, skip: 2, every: 3, count: 2)])
        var hit: [Int] = []
        for n in 1...20 {
            let decision = schedule.decide(path: "/", client: nil, calls: [Self.call("eth_chainId")], batch: false)
            if !decision.passes { hit.append(n) }
        }
        #expect(hit == [5, 8])
        #expect(schedule.rules[0].seen == 20)
        #expect(schedule.rules[0].fired == 2)
    }

    @Test func probabilityReplaysForASeedAndDiffersForAnother() {
        func pattern(seed: UInt64) -> [Bool] {
            var schedule = FaultSchedule(seed: seed, rules: [FaultRule(shape: .headerNotFound, probability: 0.3)])
            return (0..<200).map { _ in
                !schedule.decide(path: "/", client: nil, calls: [Self.call("eth_getBalance")], batch: false).passes
            }
        }
        let first = pattern(seed: 42)
        #expect(first == pattern(seed: 42))
        #expect(first != pattern(seed: 43))
        let rate = Double(first.filter { $0 }.count) / 200
        #expect(rate > 0.2 && rate < 0.4)
    }

    @Test func pathsClientsAndMethodsScopeARule() {
        var schedule = FaultSchedule(rules: [
            FaultRule(shape: .infuraDailyCap, paths: ["/v3/wallet"], clients: ["10.0.0.2"])
        ])
        #expect(schedule.decide(path: "/", client: "10.0.0.2", calls: [Self.call("eth_chainId")], batch: false).passes)
        #expect(
            schedule.decide(path: "/v3/wallet", client: "10.0.0.3", calls: [Self.call("eth_chainId")], batch: false)
                .passes)
        #expect(
            !schedule.decide(path: "/v3/wallet", client: "10.0.0.2", calls: [Self.call("eth_chainId")], batch: false)
                .passes)
        // header-not-found watches block-reading methods only, unless told otherwise.
        var lagging = FaultSchedule(rules: [FaultRule(shape: .headerNotFound)])
        #expect(lagging.decide(path: "/", client: nil, calls: [Self.call("eth_chainId")], batch: false).passes)
        #expect(!lagging.decide(path: "/", client: nil, calls: [Self.call("eth_getBalance")], batch: false).passes)
    }

    @Test func perItemShapesReplaceSomeCallsOfABatch() {
        var schedule = FaultSchedule(rules: [FaultRule(shape: .alchemyComputeUnits, skip: 2)])
        let calls = (1...4).map { Self.call("eth_blockNumber", $0) }
        let decision = schedule.decide(path: "/", client: nil, calls: calls, batch: true)
        #expect(decision.response == nil)
        #expect(decision.replaced.keys.sorted() == [2, 3])
        #expect(decision.replaced[2]?["id"] == .int(3))
        #expect(decision.replaced[2]?["error"]?["code"] == .int(429))
        // Once every call is replaced, the batch is answered whole with HTTP 200.
        let all = schedule.decide(path: "/", client: nil, calls: calls, batch: true)
        #expect(all.response?.status == 200)
        #expect(all.response.map { (try? JSON.parse($0.body))?.arrayValue?.count } == 4)
    }

    @Test func latencyAddsSeededJitterAndTimeoutHolds() {
        var schedule = FaultSchedule(
            seed: 9,
            rules: [
                FaultRule(shape: .latency(milliseconds: 100, jitter: 50)),
                FaultRule(shape: .timeout(seconds: 30), skip: 1, count: 1),
            ])
        let first = schedule.decide(path: "/", client: nil, calls: [Self.call("eth_chainId")], batch: false)
        #expect(first.passes)
        #expect(first.delay >= .milliseconds(100) && first.delay <= .milliseconds(150))
        let second = schedule.decide(path: "/", client: nil, calls: [Self.call("eth_chainId")], batch: false)
        #expect(second.response?.status == 504)
        #expect(second.delay >= .seconds(30) + .milliseconds(100))
        var replay = FaultSchedule(
            seed: 9,
            rules: [
                FaultRule(shape: .latency(milliseconds: 100, jitter: 50)),
                FaultRule(shape: .timeout(seconds: 30), skip: 1, count: 1),
            ])
        #expect(
            replay.decide(path: "/", client: nil, calls: [Self.call("eth_chainId")], batch: false).delay == first.delay)
    }

    @Test func configurationRoundTripsAndNamesBadFields() throws {
        let config = try JSON.parse(
            #"{"seed":7,"rules":[{"shape":"infura-rate-limit","backoffSeconds":5,"paths":["/v3/key"],"every":2,"retryAfter":1},{"shape":"latency","milliseconds":20,"jitter":5}]}"#
        )
        let schedule = try FaultSchedule(json: config)
        #expect(schedule.rules.count == 2)
        #expect(schedule.rules[0].shape == .infuraRateLimit(backoffSeconds: 5))
        #expect(
            schedule.json.serialized
                == #"{"seed":7,"rules":[{"shape":"infura-rate-limit","backoffSeconds":5,"paths":["/v3/key"],"every":2,"retryAfter":1,"seen":0,"fired":0},{"shape":"latency","milliseconds":20,"jitter":5,"seen":0,"fired":0}]}"#
        )
        #expect(
            throws: FaultConfigurationError(
                "rules[0]: unknown fault shape \"nope\"; known: \(FaultShape.names.joined(separator: ", "))")
        ) {
            try FaultSchedule(json: JSON.parse(#"{"rules":[{"shape":"nope"}]}"#))
        }
        #expect(throws: FaultConfigurationError("rules[0]: every: want an integer in 1…2147483647, got 0")) {
            try FaultSchedule(json: JSON.parse(#"{"rules":[{"shape":"http-429","every":0}]}"#))
        }
        #expect(throws: FaultConfigurationError("rules[0]: unknown field \"evry\"")) {
            try FaultSchedule(json: JSON.parse(#"{"rules":[{"shape":"http-429","evry":2}]}"#))
        }
    }
}
