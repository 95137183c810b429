import MediaTime
import QueueCore
import Store

// The Store keeps its own record types (it does not import the queue core); these are the
// translations both ways. Ids: a queue is `q-N` for the Store's queue N, an item is the
// decimal text of the Store's item number.

extension QueueID {
    var stored: Store.QueueID { Store.QueueID(rawValue: number) }

    init(_ stored: Store.QueueID) {
        self.init(number: stored.rawValue)
    }
}

extension ItemID {
    /// The Store's number for this item; nil for an id the Store did not make.
    var stored: Store.ItemID? {
        guard let number = Int64(rawValue), number > 0, String(number) == rawValue else { return nil }
        return Store.ItemID(rawValue: number)
    }

    init(_ stored: Store.ItemID) {
        self.init(String(stored.rawValue))
    }
}

enum StoreRecords {
    // MARK: Core → Store

    static func settings(_ settings: QueueSettings) -> Store.QueueSettings {
        Store.QueueSettings(
            actionAtItemEnd: actionAtItemEnd(settings.actionAtItemEnd), consume: settings.consume,
            loopMode: loopMode(settings.loopMode), defaultRate: settings.defaultRate,
            automaticallyWaitsToMinimizeStalling: settings.automaticallyWaitsToMinimizeStalling)
    }

    static func actionAtItemEnd(_ action: ActionAtItemEnd) -> Store.ActionAtItemEnd {
        switch action {
        case .advance: .advance
        case .pause: .pause
        case .none: .none
        }
    }

    static func loopMode(_ mode: LoopMode) -> Store.LoopMode {
        switch mode {
        case .off: .off
        case .item(let loop): .item(self.loop(loop))
        case .queue: .queue
        }
    }

    static func loop(_ loop: ItemLoop) -> Store.ItemLoop {
        Store.ItemLoop(plays: loop.plays, timeRange: loop.timeRange)
    }

    static func attributes(_ item: PlayerItem) -> Store.ItemAttributes {
        var selections: [String: Store.MediaSelection] = [:]
        for (characteristic, selection) in item.mediaSelections {
            switch selection {
            case .automatic: continue
            case .off: selections[characteristic.rawValue] = .off
            case .option(let name): selections[characteristic.rawValue] = .option(name)
            }
        }
        return Store.ItemAttributes(
            url: item.url, title: item.title, kind: kind(item.kind), status: status(item.status),
            playhead: item.currentTime,
            preferences: Store.ItemPreferences(
                preferredForwardBufferDuration: item.preferences.preferredForwardBufferDuration,
                preferredPeakBitRate: item.preferences.preferredPeakBitRate,
                forwardPlaybackEndTime: item.preferences.forwardPlaybackEndTime,
                reversePlaybackEndTime: item.preferences.reversePlaybackEndTime),
            mediaSelections: selections, loop: item.loop.map(loop))
    }

    static func kind(_ kind: PlayerItem.Kind) -> Store.ItemKind {
        switch kind {
        case .hls: .hls
        case .mediaFile: .mediaFile
        case .unknown: .unknown
        }
    }

    static func status(_ status: PlayerItem.Status) -> Store.ItemStatus {
        switch status {
        case .unknown: .unknown
        case .loading: .loading
        case .readyToPlay: .readyToPlay
        case .failed(let failure): .failed(Store.ItemFailure(domain: failure.domain, code: failure.code, message: failure.message))
        }
    }

    // MARK: Store → Core

    static func settings(_ stored: Store.QueueSettings) -> QueueSettings {
        QueueSettings(
            actionAtItemEnd: actionAtItemEnd(stored.actionAtItemEnd), consume: stored.consume,
            loopMode: loopMode(stored.loopMode), defaultRate: stored.defaultRate,
            automaticallyWaitsToMinimizeStalling: stored.automaticallyWaitsToMinimizeStalling)
    }

    static func actionAtItemEnd(_ stored: Store.ActionAtItemEnd) -> ActionAtItemEnd {
        switch stored {
        case .advance: .advance
        case .pause: .pause
        case .none: .none
        }
    }

    static func loopMode(_ stored: Store.LoopMode) -> LoopMode {
        switch stored {
        case .off: .off
        case .item(let loop): .item(self.loop(loop))
        case .queue: .queue
        }
    }

    static func loop(_ stored: Store.ItemLoop) -> ItemLoop {
        ItemLoop(plays: stored.plays, timeRange: stored.timeRange)
    }

    /// The item as the queue core restores it: what the loaders knew is learned again.
    static func item(_ stored: Store.Item) -> PlayerItem {
        let attributes = stored.attributes
        var selections: [MediaCharacteristic: MediaSelection] = [:]
        for (key, selection) in attributes.mediaSelections {
            guard let characteristic = MediaCharacteristic(rawValue: key) else { continue }
            switch selection {
            case .off: selections[characteristic] = .off
            case .option(let name): selections[characteristic] = .option(name)
            }
        }
        let failure: ItemFailure? = if case .failed(let stored) = attributes.status {
            ItemFailure(domain: stored.domain, code: stored.code, message: stored.message)
        } else {
            nil
        }
        let playhead = attributes.playhead.isNumeric && attributes.playhead >= .zero ? attributes.playhead : .zero
        return PlayerItem(
            id: ItemID(stored.id), url: attributes.url, title: attributes.title, kind: kind(attributes.kind),
            preferences: PlayerItem.Preferences(
                preferredForwardBufferDuration: attributes.preferences.preferredForwardBufferDuration,
                preferredPeakBitRate: attributes.preferences.preferredPeakBitRate,
                forwardPlaybackEndTime: attributes.preferences.forwardPlaybackEndTime,
                reversePlaybackEndTime: attributes.preferences.reversePlaybackEndTime),
            loop: attributes.loop.map(loop), mediaSelections: selections, currentTime: playhead, failure: failure)
    }

    static func kind(_ stored: Store.ItemKind) -> PlayerItem.Kind {
        switch stored {
        case .hls: .hls
        case .mediaFile: .mediaFile
        case .unknown: .unknown
        }
    }
}
