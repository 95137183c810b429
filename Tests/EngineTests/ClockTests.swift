@testable import Engine
import Foundation
import MediaTime
import Testing

/// The Engine's timer: it sleeps until the next deadline and nothing else.
@Suite struct ClockTests {
    @Test func theManualClockWakesSleepersAtTheirDeadline() async throws {
        let clock = ManualEngineClock()
        let sleeper = Task { try await clock.sleep(until: MonotonicInstant(nanoseconds: 2_000_000_000)) }
        try await eventually("the task sleeps") { clock.sleeperCount == 1 ? true : nil }
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1, "not due yet")
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.sleeperCount == 0)
        let cancelled = Task { try await clock.sleep(until: MonotonicInstant(nanoseconds: 9_000_000_000)) }
        try await eventually("the second task sleeps") { clock.sleeperCount == 1 ? true : nil }
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func idleQueuesArmNoTimer() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Idle").id
        let item = try await engine.addItem(NewItem(url: Shared.localMovie), to: queue)
        try await fixture.waitUntilLoaded(item.id, in: queue)
        // Let any paced event settle, then nothing may be sleeping.
        fixture.clock.advance(by: .seconds(1))
        try await eventually("the timer is disarmed") { fixture.clock.sleeperCount == 0 ? true : nil }
        _ = try await engine.perform(.play, on: queue)
        try await eventually("playing arms the timer") { fixture.clock.sleeperCount == 1 ? true : nil }
        _ = try await engine.perform(.pause, on: queue)
        try await eventually("pausing disarms it") { fixture.clock.sleeperCount == 0 ? true : nil }
    }

    @Test func theTimerEndsAnItemAtItsEndWithoutAnyRequest() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Timer", settings: QueueSettings(actionAtItemEnd: .pause)).id
        let recorder = EventRecorder(engine.events.subscribe(queue: queue))
        let item = try await engine.addItem(NewItem(url: Shared.localMovie), to: queue)
        try await fixture.waitUntilLoaded(item.id, in: queue)
        _ = try await engine.perform(.play, on: queue)
        // The item's loading events came at one instant of the manual clock: the last
        // itemUpdated waits its turn, 250 ms later.
        try await eventually("the paced event is due") { () -> Bool? in
            fixture.clock.earliestDeadline == MonotonicInstant(nanoseconds: 250_000_000) ? true : nil
        }
        fixture.clock.advance(by: .milliseconds(250))
        // Then the timer sleeps until the periodic save, then until the next, then until
        // the item's end.
        try await eventually("the timer aims at the first save") { () -> Bool? in
            fixture.clock.earliestDeadline == MonotonicInstant(nanoseconds: 5_000_000_000) ? true : nil
        }
        fixture.clock.advance(by: .milliseconds(4_750))
        try await eventually("the timer aims at the second save") { () -> Bool? in
            fixture.clock.earliestDeadline == MonotonicInstant(nanoseconds: 10_000_000_000) ? true : nil
        }
        fixture.clock.advance(by: .seconds(5))
        try await eventually("the timer aims at the end") { () -> Bool? in
            fixture.clock.earliestDeadline == MonotonicInstant(nanoseconds: 12_000_000_000) ? true : nil
        }
        fixture.clock.advance(by: .seconds(2))
        let ended = try await recorder.wait(for: "the end") {
            if case .didPlayToEndTime(item.id) = $0.payload { true } else { false }
        }
        try await recorder.wait(for: "the pause at the end") { event in
            guard event.id > ended.id, case .rateChanged(let status) = event.payload else { return false }
            return status.rate == 0 && status.currentTime == seconds(12)
        }
    }

    @Test func theSystemClockDrivesPlaybackInRealTime() async throws {
        let fixture = try await EngineFixture(clock: ManualEngineClock()) { $0.clock = SystemEngineClock() }
        let engine = fixture.engine
        let queue = try await engine.createQueue(name: "Real time", settings: QueueSettings(actionAtItemEnd: .pause)).id
        let recorder = EventRecorder(engine.events.subscribe(queue: queue))
        let item = try await engine.addItem(NewItem(url: Shared.localMovie), to: queue)
        try await fixture.waitUntilLoaded(item.id, in: queue)
        _ = try await engine.perform(.seek(to: milliseconds(11_700)), on: queue)
        let started = ContinuousClock.now
        _ = try await engine.perform(.play, on: queue)
        try await recorder.wait(for: "the end, 0.3 s later") {
            if case .didPlayToEndTime(item.id) = $0.payload { true } else { false }
        }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(300), "not before the end: \(elapsed)")
        #expect(try await engine.queue(queue).currentTime == seconds(12))
    }
}
