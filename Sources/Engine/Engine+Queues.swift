import Foundation
import QueueCore
import Store

/// What `updateQueue` changes; nil fields stay as they are.
public struct QueueChanges: Sendable, Hashable {
    public var name: String?
    public var actionAtItemEnd: ActionAtItemEnd?
    public var consume: Bool?
    public var loopMode: LoopMode?
    public var defaultRate: Double?
    public var automaticallyWaitsToMinimizeStalling: Bool?

    public init(
        name: String? = nil, actionAtItemEnd: ActionAtItemEnd? = nil, consume: Bool? = nil, loopMode: LoopMode? = nil,
        defaultRate: Double? = nil, automaticallyWaitsToMinimizeStalling: Bool? = nil
    ) {
        self.name = name
        self.actionAtItemEnd = actionAtItemEnd
        self.consume = consume
        self.loopMode = loopMode
        self.defaultRate = defaultRate
        self.automaticallyWaitsToMinimizeStalling = automaticallyWaitsToMinimizeStalling
    }
}

extension Engine {
    /// The longest queue name accepted, in characters.
    static let maximumNameLength = 200

    /// Creates an empty, paused queue.
    ///
    /// Refused: `validationFailed` for an empty or overlong `name`, or settings the player
    /// refuses (`defaultRate` outside (0, 2], an invalid `loop`).
    public func createQueue(name: String, settings: QueueSettings = QueueSettings()) throws(EngineError) -> QueueState {
        try requireRunning()
        let name = try Self.validName(name)
        let player: QueuePlayer
        do {
            player = try QueuePlayer(
                settings: settings, configuration: playerConfiguration, clock: clock)
        } catch {
            throw EngineError(error, RefusalContext(field: error.reason == .invalidLoop ? "loop" : "defaultRate"))
        }
        let stored: Store.Queue
        do {
            stored = try store.createQueue(name: name, settings: StoreRecords.settings(settings))
        } catch {
            throw Self.storageFailure(error)
        }
        let id = QueueID(stored.id)
        running[id] = RunningQueue(id: id, name: name, player: player, now: clock.monotonicNow())
        if let created = publishQueueUpdated(id, created: true) { return created }
        return try state(id)
    }

    /// Every queue, in the order they were created.
    public func queues() throws(EngineError) -> [QueueSummary] {
        try requireRunning()
        return running.keys.sorted().compactMap { id in
            tick(id)
            return queueSummary(id)
        }
    }

    /// The queue's snapshot at this instant.
    public func queue(_ id: QueueID) throws(EngineError) -> QueueState {
        try requireQueue(id)
        tick(id)
        return try state(id)
    }

    /// Renames the queue and changes its settings, in one transaction. Returns the queue's
    /// snapshot, which lists at most ``EngineConfiguration/eventItemLimit`` items.
    ///
    /// Refused: `notFound`; `validationFailed` with `field` `name`, `defaultRate` or `loop`.
    public func updateQueue(_ id: QueueID, _ changes: QueueChanges) throws(EngineError) -> QueueState {
        let name = try changes.name.map { name throws(EngineError) in try Self.validName(name) }
        var commands: [(QueueCommand, String)] = []
        if let action = changes.actionAtItemEnd { commands.append((.setActionAtItemEnd(action), "actionAtItemEnd")) }
        if let consume = changes.consume { commands.append((.setConsume(consume), "consume")) }
        if let mode = changes.loopMode { commands.append((.setLoopMode(mode), "loop")) }
        if let rate = changes.defaultRate { commands.append((.setDefaultRate(rate), "defaultRate")) }
        if let waits = changes.automaticallyWaitsToMinimizeStalling {
            commands.append((.setAutomaticallyWaitsToMinimizeStalling(waits), "automaticallyWaitsToMinimizeStalling"))
        }
        let committed = try commit(id, renaming: name, check: { player in Self.firstRefusal(of: commands, by: player) }) { store, _ in
            if let name { try store.renameQueue(id.stored, to: name) }
            return (commands.map(\.0), [])
        }
        return try snapshot(id, committed)
    }

    /// Deletes the queue with its items and history, and stops its loaders.
    public func deleteQueue(_ id: QueueID) throws(EngineError) {
        try requireQueue(id)
        do {
            try store.deleteQueue(id.stored)
        } catch {
            throw Self.storageFailure(error)
        }
        for (item, session) in sessions where session.queueID == id {
            stopLoader(for: item)
        }
        running[id] = nil
        publish([.queueDeleted], about: id)
        rescheduleTimer()
    }

    // MARK: - Helpers

    var playerConfiguration: QueueConfiguration {
        QueueConfiguration(preloadCount: configuration.preloadCount, historyLimit: configuration.historyLimit)
    }

    static func validName(_ name: String) throws(EngineError) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw EngineError(.validationFailed, field: "name", "a queue needs a name")
        }
        guard trimmed.count <= maximumNameLength else {
            throw EngineError(.validationFailed, field: "name", "a queue name has at most \(maximumNameLength) characters")
        }
        return trimmed
    }

    /// The first refusal of `commands` (each with the request field it comes from).
    static func firstRefusal(of commands: [(QueueCommand, String)], by player: QueuePlayer) -> EngineError? {
        for (command, field) in commands {
            if let refusal = player.validate(command) { return EngineError(refusal, RefusalContext(field: field)) }
        }
        return nil
    }
}
