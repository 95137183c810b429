import MediaTime

/// Every command of ``QueuePlayer`` as a value, so that the engine can validate a command,
/// persist it, and then apply it (validate → persist → apply → publish).
public enum QueueCommand: Hashable, Sendable {
    case insert(PlayerItem, after: ItemID?)
    case insertAt(PlayerItem, index: Int)
    case remove(ItemID)
    case removeAll
    case move(ItemID, after: ItemID?)
    case moveTo(ItemID, index: Int)
    case shuffle(seed: UInt64)
    case advanceToNextItem
    case previous
    case jump(to: ItemID)
    case play
    case pause
    case setRate(Double)
    case seek(to: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime)
    case skip(by: MediaTime)
    case cancelPendingSeeks
    case setActionAtItemEnd(ActionAtItemEnd)
    case setConsume(Bool)
    case setLoopMode(LoopMode)
    case setDefaultRate(Double)
    case setAutomaticallyWaitsToMinimizeStalling(Bool)
    case setPreferences(PlayerItem.Preferences, of: ItemID)
    case setLoop(ItemLoop?, of: ItemID)
    case setTitle(String?, of: ItemID)
    case selectMediaOption(MediaSelection, for: MediaCharacteristic, of: ItemID)
}

extension QueuePlayer {
    /// Why `command` would be refused, or nil if it would be accepted, as of the last
    /// transition. Applying it later re-validates at that instant: an item that ended in
    /// between can make the answer change, so call ``tick()`` first for the closest answer.
    public func validate(_ command: QueueCommand) -> QueueRefusal? {
        let result: Result<Void, QueueRefusal>
        switch command {
        case .insert(let item, let anchor):
            result = insertionPoint(for: item, after: anchor).map { _ in }
        case .insertAt(let item, let index):
            result = insertionPoint(for: item, at: index).map { _ in }
        case .remove(let id):
            result = slotInQueue(id).map { _ in }
        case .move(let id, let anchor):
            result = movePlacement(for: id, after: anchor).map { _ in }
        case .moveTo(let id, let index):
            result = movePlacement(for: id, to: index).map { _ in }
        case .advanceToNextItem:
            result = validateAdvance()
        case .previous:
            result = previousTarget().map { _ in }
        case .jump(let id):
            result = jumpTarget(id).map { _ in }
        case .play:
            result = validateRate(settings.defaultRate)
        case .setRate(let newRate):
            result = validateRate(newRate)
        case .seek(let target, let before, let after):
            result = seekLanding(target, toleranceBefore: before, toleranceAfter: after).map { _ in }
        case .skip(let offset):
            result = skipLanding(offset).map { _ in }
        case .setLoopMode(let mode):
            var changed = settings
            changed.loopMode = mode
            result = Self.validateSettings(changed)
        case .setDefaultRate(let defaultRate):
            var changed = settings
            changed.defaultRate = defaultRate
            result = Self.validateSettings(changed)
        case .setPreferences(let preferences, let id):
            result = slotInQueue(id).flatMap { _ in Self.validatePreferences(preferences) }
        case .setLoop(let loop, let id):
            result = slotInQueue(id).flatMap { _ in loop.map(Self.validateLoop) ?? .success(()) }
        case .setTitle(_, let id):
            result = slotInQueue(id).map { _ in }
        case .selectMediaOption(let selection, let characteristic, let id):
            result = slotInQueue(id).flatMap { Self.validateSelection(selection, for: characteristic, in: list[$0]) }
        case .removeAll, .shuffle, .pause, .cancelPendingSeeks, .setActionAtItemEnd, .setConsume,
             .setAutomaticallyWaitsToMinimizeStalling:
            result = .success(())
        }
        if case .failure(let refusal) = result { return refusal }
        return nil
    }

    /// Carries out `command` with the method of the same name.
    public mutating func apply(_ command: QueueCommand) throws(QueueRefusal) -> QueueOutcome {
        switch command {
        case .insert(let item, let anchor): try insert(item, after: anchor)
        case .insertAt(let item, let index): try insert(item, at: index)
        case .remove(let id): try remove(id)
        case .removeAll: removeAll()
        case .move(let id, let anchor): try move(id, after: anchor)
        case .moveTo(let id, let index): try move(id, to: index)
        case .shuffle(let seed): shuffle(seed: seed)
        case .advanceToNextItem: try advanceToNextItem()
        case .previous: try previous()
        case .jump(let id): try jump(to: id)
        case .play: try play()
        case .pause: pause()
        case .setRate(let newRate): try setRate(newRate)
        case .seek(let target, let before, let after): try seek(to: target, toleranceBefore: before, toleranceAfter: after)
        case .skip(let offset): try skip(by: offset)
        case .cancelPendingSeeks: cancelPendingSeeks()
        case .setActionAtItemEnd(let action): setActionAtItemEnd(action)
        case .setConsume(let consume): setConsume(consume)
        case .setLoopMode(let mode): try setLoopMode(mode)
        case .setDefaultRate(let defaultRate): try setDefaultRate(defaultRate)
        case .setAutomaticallyWaitsToMinimizeStalling(let waits): setAutomaticallyWaitsToMinimizeStalling(waits)
        case .setPreferences(let preferences, let id): try setPreferences(preferences, of: id)
        case .setLoop(let loop, let id): try setLoop(loop, of: id)
        case .setTitle(let title, let id): try setTitle(title, of: id)
        case .selectMediaOption(let selection, let characteristic, let id):
            try selectMediaOption(selection, for: characteristic, of: id)
        }
    }
}
