import JSONCoding
import ProviderFaults
import Testing

/// Each shape against the provider's published text (README, "Provider faults", cites each one).
@Suite struct FaultShapeTests {
    func single(_ shape: FaultShape, id: JSON = .int(1), retryAfter: Int? = nil) -> FaultResponse {
        shape.response(ids: [id], batch: false, retryAfter: retryAfter)!
    }

    @Test func infuraLegacyRateLimit() {
        let response = single(.infuraRateLimit(backoffSeconds: 30))
        #expect(response.status == 429)
        #expect(response.headers.map(\.0) == ["Content-Type"])
        #expect(
            response.text
                == #"{"jsonrpc":"2.0","id":1,"error":{"code":-32005,"message":"project ID request rate exceeded","data":{"see":"https://infura.io/docs/ethereum/jsonrpc/ratelimits","current_rps":13.333,"allowed_rps":10.0,"backoff_seconds":30.0}}}"#
        )
    }

    @Test func infuraDailyCapAndKeyThroughput() {
        let cap = single(.infuraDailyCap, id: .int(7))
        #expect(cap.status == 402)
        #expect(
            cap.text
                == #"{"jsonrpc":"2.0","id":7,"error":{"code":402,"event":-33000,"message":"Payment Required","details":"You have reached your daily credit limit. To continue making requests, upgrade your plan or purchase additional credits"}}"#
        )
        let key = single(.infuraKeyThroughput)
        #expect(key.status == 429)
        #expect(
            key.text
                == #"{"jsonrpc":"2.0","id":1,"error":{"code":429,"event":-33300,"message":"Too Many Requests","details":"You have surpassed your user-defined key throughput limit setting. To make more requests with this key, review key setting configurations."}}"#
        )
    }

    @Test func alchemyComputeUnitsSingleAndBatch() {
        let text =
            "Your app has exceeded its compute units per second capacity. If you have retries enabled, you can safely ignore this message. If not, check out https://docs.alchemy.com/reference/throughput"
        let one = single(.alchemyComputeUnits, id: .int(474), retryAfter: 1)
        #expect(one.status == 429)
        #expect(one.headers.map(\.0) == ["Content-Type", "Retry-After"])
        #expect(one.headers.last?.1 == "1")
        #expect(one.text == #"{"jsonrpc":"2.0","id":474,"error":{"code":429,"message":"\#(text)"}}"#)
        let batch = FaultShape.alchemyComputeUnits.response(ids: [.int(1), .string("b")], batch: true, retryAfter: 1)!
        #expect(batch.status == 200)
        #expect(batch.headers.map(\.0) == ["Content-Type"])  // no Retry-After on a 200
        #expect(
            batch.text
                == #"[{"jsonrpc":"2.0","id":1,"error":{"code":429,"message":"\#(text)"}},{"jsonrpc":"2.0","id":"b","error":{"code":429,"message":"\#(text)"}}]"#
        )
    }

    @Test func alchemyMonthlyCapAndQuickNode() {
        let monthly = single(.alchemyMonthlyCap)
        #expect(monthly.status == 403)
        #expect(
            monthly.text
                == #"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"Monthly capacity limit exceeded. Visit https://dashboard.alchemyapi.io/settings/billing to upgrade your scaling policy for continued service."}}"#
        )
        let quick = single(.tooManyRequests, retryAfter: 2)
        #expect(quick.status == 429)
        #expect(quick.headers.last! == ("Retry-After", "2"))
        #expect(
            quick.text
                == #"{"jsonrpc":"2.0","error":{"code":429,"message":"The requests per second (RPS) of your requests are higher than your plan allows."},"id":1}"#
        )
    }

    @Test func loadBalancerPagesAreNginxs() {
        let page = single(.loadBalancer(status: 502))
        #expect(page.status == 502)
        #expect(page.headers.first! == ("Content-Type", "text/html"))
        #expect(
            page.text
                == "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
        )
        #expect(single(.loadBalancer(status: 503)).text.contains("<title>503 Service Temporarily Unavailable</title>"))
        let timeout = single(.timeout(seconds: 60))
        #expect(timeout.status == 504)
        #expect(timeout.text.contains("<center><h1>504 Gateway Time-out</h1></center>\r\n"))
    }

    @Test func laggingBackendAnswersAsGeth() {
        #expect(
            single(.headerNotFound, id: .int(3)).text
                == #"{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"header not found"}}"#)
        #expect(single(.headerNotFound).status == 200)
        #expect(single(.staleRead, id: .int(4)).text == #"{"jsonrpc":"2.0","id":4,"result":null}"#)
    }

    @Test func wholeRequestShapeOnABatchAnswersOneErrorWithNullID() {
        let response = FaultShape.infuraDailyCap.response(ids: [.int(1), .int(2)], batch: true, retryAfter: nil)!
        #expect(response.status == 402)
        #expect(response.text.hasPrefix(#"{"jsonrpc":"2.0","id":null,"error":{"code":402,"#))
    }
}
