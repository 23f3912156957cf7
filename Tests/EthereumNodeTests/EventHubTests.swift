import EthereumLedger
import Synchronization
import Testing

@testable import EthereumNode

/// ``EventHub`` skips its locks when nobody subscribes (issue 17); subscribing, cancelling and subscribing again
/// must still deliver exactly to the live subscribers.
@Suite struct EventHubTests {
    @Test func eventsReachLiveSubscribersOnly() async {
        let hub = EventHub()
        hub.publish(.pendingTransaction([0]))  // nobody listens: nothing to deliver, nothing kept
        #expect(hub.subscriberCount == 0)
        let seen = Mutex<[[UInt8]]>([])
        let first = hub.subscribe { event in
            if case .pendingTransaction(let hash) = event { seen.withLock { $0.append(hash) } }
        }
        #expect(hub.subscriberCount == 1)
        hub.publish(.pendingTransaction([1]))
        first.cancel()
        first.cancel()  // a second cancel removes nothing more
        #expect(hub.subscriberCount == 0)
        hub.publish(.pendingTransaction([2]))
        let second = hub.subscribe { event in
            if case .pendingTransaction(let hash) = event { seen.withLock { $0.append(hash) } }
        }
        var stream = hub.subscribe(bufferSize: 4).makeAsyncIterator()
        #expect(hub.subscriberCount == 2)
        hub.publish(.pendingTransaction([3]))
        #expect(seen.withLock { $0 } == [[1], [3]])
        guard case .pendingTransaction(let hash)? = await stream.next() else {
            Issue.record("the stream subscriber gets the event")
            return
        }
        #expect(hash == [3])
        second.cancel()
        #expect(hub.subscriberCount == 1)
    }
}
