import Testing
@testable import Store

@Suite struct JournalTests {
    let fixture: StoreFixture
    var store: Store { fixture.store }

    init() throws {
        fixture = try StoreFixture(configuration: Store.Configuration(journalLimit: 100))
    }

    private func event(_ sequence: Int64, _ queue: Store.QueueID? = nil, payload: String = "{}") -> Store.JournalEvent {
        Store.JournalEvent(sequence: sequence, queueID: queue, type: "itemsChanged", payload: payload)
    }

    @Test func appendsAndReadsBack() throws {
        let queue = try store.createQueue(name: "q")
        #expect(try store.lastEventSequence() == nil)
        let events = [
            event(1, queue.id, payload: #"{"items":[1,2],"title":"Café \u0000"}"#),
            event(2),
            event(5, queue.id, payload: #"{"rate":1.5}"#),
        ]
        try store.appendEvents(events)
        #expect(try store.lastEventSequence() == 5)
        #expect(try store.events(after: 0) == events)
        #expect(try store.events(after: 1) == Array(events.dropFirst()))
        #expect(try store.events(after: 0, queue: queue.id) == [events[0], events[2]])
        #expect(try store.events(after: 0, limit: 2) == Array(events.prefix(2)))
        // The journal outlives the queue.
        try store.deleteQueue(queue.id)
        #expect(try Store(path: fixture.path).events(after: 0).count == 3)
    }

    @Test func keepsOnlyTheNewestSequenceNumbers() throws {
        for sequence in 1...250 {
            try store.appendEvent(event(Int64(sequence)))
        }
        let kept = try store.events(after: 0)
        #expect(kept.map(\.sequence) == Array(151...250))
    }

    @Test func refusesEventsOutOfOrder() throws {
        try store.appendEvent(event(10))
        let error = try #require(throws: StoreError.self) { try store.appendEvents([event(11), event(11)]) }
        #expect(error.code == .outOfOrder)
        #expect(try store.events(after: 0).map(\.sequence) == [10])
    }

    @Test func refusesAPayloadThatIsNotJSONAndTheWholeBatch() throws {
        let error = try #require(throws: DatabaseError.self) {
            try store.appendEvents([event(1), event(2, payload: "{not json")])
        }
        #expect(error.resultCode == .constraint)
        #expect(error.message.contains("json_valid"))
        #expect(try store.events(after: 0).isEmpty)
    }

    @Test func aMutationAndItsEventCommitTogether() throws {
        let queue = try store.createQueue(name: "q")
        #expect(throws: DatabaseError.self) {
            try store.transaction {
                try store.insertItem(StoreFixture.attributes("a"), into: queue.id)
                try store.appendEvent(event(1, queue.id, payload: "not json"))
            }
        }
        #expect(try store.items(in: queue.id).isEmpty)
        try store.transaction {
            try store.insertItem(StoreFixture.attributes("a"), into: queue.id)
            try store.appendEvent(event(1, queue.id))
        }
        #expect(try store.items(in: queue.id).count == 1)
        #expect(try store.lastEventSequence() == 1)
    }
}
