/// Why the queue player refused a command. A refused command changes nothing.
///
/// The reason is a value of an open set (new reasons do not break callers); the message says
/// what was wrong in words, for the API's error body.
public struct QueueRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Reason: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case alreadyInQueue, itemFailed, anchorNotInQueue, notInQueue, indexOutOfRange
            case positionBeforeCurrentItem, noCurrentItem, noNextItem, noPreviousItem
            case itemNotReadyToPlay, invalidTime, outsideSeekableRanges
            case leavesLinearPlaybackRange, jumpsOverLinearPlaybackRange
            case invalidRate, rateNotSupported, invalidPreference, invalidLoop
            case unknownMediaSelectionGroup, unknownMediaSelectionOption, emptySelectionNotAllowed
            case invalidReport, unknownTimeObserver, invalidTimeObserver, invalidSnapshot
        }

        private let code: Code

        private init(_ code: Code) {
            self.code = code
        }

        public var description: String { code.rawValue }

        /// `canInsert`: the item is already in the list.
        public static let alreadyInQueue = Reason(.alreadyInQueue)
        /// The item failed: it can never be inserted, jumped to or played.
        public static let itemFailed = Reason(.itemFailed)
        /// The `after` item is not in the list.
        public static let anchorNotInQueue = Reason(.anchorNotInQueue)
        /// The item the command names is not in the list.
        public static let notInQueue = Reason(.notInQueue)
        public static let indexOutOfRange = Reason(.indexOutOfRange)
        /// With consume on, nothing can go before the current item.
        public static let positionBeforeCurrentItem = Reason(.positionBeforeCurrentItem)
        public static let noCurrentItem = Reason(.noCurrentItem)
        /// With consume off and no queue loop, the current entry is the last playable one.
        public static let noNextItem = Reason(.noNextItem)
        public static let noPreviousItem = Reason(.noPreviousItem)
        public static let itemNotReadyToPlay = Reason(.itemNotReadyToPlay)
        /// A time that is not numeric, or a negative tolerance.
        public static let invalidTime = Reason(.invalidTime)
        public static let outsideSeekableRanges = Reason(.outsideSeekableRanges)
        /// The playhead is in a linear-playback range and the target is outside it.
        public static let leavesLinearPlaybackRange = Reason(.leavesLinearPlaybackRange)
        /// The target lies past a linear-playback range that starts after the playhead.
        public static let jumpsOverLinearPlaybackRange = Reason(.jumpsOverLinearPlaybackRange)
        /// Not a finite number, or a default rate outside `(0, 2]`.
        public static let invalidRate = Reason(.invalidRate)
        /// A rate above 2 or below 0 that the current item does not allow.
        public static let rateNotSupported = Reason(.rateNotSupported)
        public static let invalidPreference = Reason(.invalidPreference)
        public static let invalidLoop = Reason(.invalidLoop)
        public static let unknownMediaSelectionGroup = Reason(.unknownMediaSelectionGroup)
        public static let unknownMediaSelectionOption = Reason(.unknownMediaSelectionOption)
        public static let emptySelectionNotAllowed = Reason(.emptySelectionNotAllowed)
        /// A loader report that contradicts the item's state (for example `readyToPlay` with
        /// an unknown kind).
        public static let invalidReport = Reason(.invalidReport)
        public static let unknownTimeObserver = Reason(.unknownTimeObserver)
        /// A periodic interval that is not positive, or a boundary list with no numeric time.
        public static let invalidTimeObserver = Reason(.invalidTimeObserver)
        /// A snapshot that breaks an invariant: duplicate ids, a current item not in the list, …
        public static let invalidSnapshot = Reason(.invalidSnapshot)
    }

    public let reason: Reason
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { "\(reason): \(message)" }
}
