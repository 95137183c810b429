@testable import Engine
import MediaTime
import Testing

@Suite struct EventHubTests {
    let first = QueueID(number: 1)
    let second = QueueID(number: 2)

    /// An event that names its own position, so order is checkable.
    func stalled(_ name: String) -> EngineEvent.Payload {
        .playbackStalled(itemID: ItemID(name))
    }

    func itemName(_ delivery: EventDelivery) -> String? {
        guard case .event(let event) = delivery, case .playbackStalled(let id) = event.payload else { return nil }
        return id.rawValue
    }

    /// Takes the next `count` deliveries of a stream.
    func take(_ count: Int, from stream: AsyncStream<EventDelivery>) async -> [EventDelivery] {
        var taken: [EventDelivery] = []
        for await delivery in stream {
            taken.append(delivery)
            if taken.count == count { break }
        }
        return taken
    }

    @Test func numbersEventsInOrderFromTheFirstID() {
        let hub = EventHub(firstID: EventID(500))
        #expect(hub.lastEventID == EventID(499))
        let events = hub.publish([stalled("a"), stalled("b")], about: first) + hub.publish([stalled("c")], about: second)
        #expect(events.map(\.id.rawValue) == [500, 501, 502])
        #expect(events.map(\.name) == ["playbackStalled", "playbackStalled", "playbackStalled"])
        #expect(hub.lastEventID == EventID(502))
        #expect(hub.checkInvariants())
    }

    @Test func subscribersGetTheirQueuesEventsInOrder() async {
        let hub = EventHub()
        let all = hub.subscribe()
        let onlySecond = hub.subscribe(queue: second)
        hub.publish([stalled("1")], about: first)
        hub.publish([stalled("2"), stalled("3")], about: second)
        hub.publish([stalled("4")], about: first)
        #expect(await take(4, from: all).compactMap(itemName) == ["1", "2", "3", "4"])
        #expect(await take(2, from: onlySecond).compactMap(itemName) == ["2", "3"])
    }

    @Test func resumingAfterAnIDReplaysTheMissedEventsThenLiveOnes() async {
        let hub = EventHub()
        hub.publish((1...5).map { stalled("\($0)") }, about: first)
        hub.publish([stalled("x")], about: second)
        let resumed = hub.subscribe(queue: first, after: EventID(2))
        hub.publish([stalled("6")], about: first)
        #expect(await take(4, from: resumed).compactMap(itemName) == ["3", "4", "5", "6"])
        guard case .events(let replayed) = hub.replay(after: EventID(4)) else {
            Issue.record("expected events")
            return
        }
        #expect(replayed.map(\.id.rawValue) == [5, 6, 7])
        guard case .events(let none) = hub.replay(after: hub.lastEventID) else {
            Issue.record("expected no events")
            return
        }
        #expect(none.isEmpty)
    }

    @Test func anIDThatLeftTheRingOrIsFromTheFutureAsksForAResync() async {
        let hub = EventHub(firstID: EventID(100), configuration: .init(ringCapacity: 4))
        hub.publish((1...10).map { stalled("\($0)") }, about: first)
        #expect(hub.checkInvariants())
        guard case .events(let kept) = hub.replay(after: EventID(105)) else {
            Issue.record("id 105 is just before the oldest kept event")
            return
        }
        #expect(kept.map(\.id.rawValue) == [106, 107, 108, 109])
        guard case .resync = hub.replay(after: EventID(104)) else {
            Issue.record("event 105 is gone")
            return
        }
        guard case .resync = hub.replay(after: EventID(42_000)) else {
            Issue.record("an id from a previous run that went further")
            return
        }
        let stream = hub.subscribe(after: EventID(3))
        hub.publish([stalled("11")], about: first)
        let deliveries = await take(2, from: stream)
        guard case .resync = deliveries.first else {
            Issue.record("the first delivery must be the resync: \(deliveries)")
            return
        }
        #expect(itemName(deliveries[1]) == "11", "live events follow the resync")
    }

    @Test func theRingIsBoundedByTheItemsItsSnapshotsHold() {
        let hub = EventHub(configuration: .init(ringCapacity: 100, ringWeightLimit: 10))
        hub.publish((1...30).map { stalled("\($0)") }, about: first)
        #expect(hub.checkInvariants())
        guard case .events(let kept) = hub.replay(after: EventID(20)) else {
            Issue.record("the last ten events weigh ten")
            return
        }
        #expect(kept.count == 10)
        guard case .resync = hub.replay(after: EventID(19)) else {
            Issue.record("the eleventh newest is gone")
            return
        }
    }

    @Test func aSlowSubscriberIsDroppedWithoutHoldingUpPublishing() async {
        let hub = EventHub(configuration: .init(subscriberBufferSize: 8))
        let slow = hub.subscribe()
        let fast = hub.subscribe(queue: second)
        #expect(hub.subscriberCount == 2)
        // Nobody reads `slow`: publishing goes on regardless.
        hub.publish((1...50).map { stalled("\($0)") }, about: first)
        #expect(hub.subscriberCount == 1, "the slow subscriber was dropped")
        #expect(hub.droppedSubscriberCount == 1)
        var received: [EventDelivery] = []
        for await delivery in slow { received.append(delivery) }
        #expect(received.compactMap(itemName) == (1...8).map(String.init), "what it had buffered, in order")
        guard case .dropped = received.last else {
            Issue.record("the stream ends with .dropped: \(received)")
            return
        }
        // The dropped client resumes from its last id without a gap.
        let resumed = hub.subscribe(after: EventID(8))
        #expect(await take(42, from: resumed).compactMap(itemName) == (9...50).map(String.init))
        hub.publish([stalled("fast")], about: second)
        #expect(await take(1, from: fast).compactMap(itemName) == ["fast"])
    }

    @Test func closingEndsEverySubscription() async {
        let hub = EventHub()
        let stream = hub.subscribe()
        hub.publish([stalled("1")], about: first)
        hub.close()
        var received: [EventDelivery] = []
        for await delivery in stream { received.append(delivery) }
        #expect(received.compactMap(itemName) == ["1"])
        #expect(hub.subscriberCount == 0)
    }

    @Test func endingTheIterationUnsubscribes() async {
        let hub = EventHub()
        let task = Task {
            for await _ in hub.subscribe() {}
        }
        while hub.subscriberCount == 0 { await Task.yield() }
        task.cancel()
        await task.value
        #expect(hub.subscriberCount == 0)
    }
}
