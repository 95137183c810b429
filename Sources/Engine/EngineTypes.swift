import Loader
import QueueCore
import Store

// The vocabulary of the Engine's API comes from the queue core and the loader. These
// aliases let the Server name it with `import Engine` alone (and `MediaTime` for times).

public typealias ItemID = QueueCore.ItemID
public typealias PlayerItem = QueueCore.PlayerItem
public typealias QueueSettings = QueueCore.QueueSettings
public typealias ActionAtItemEnd = QueueCore.ActionAtItemEnd
public typealias LoopMode = QueueCore.LoopMode
public typealias ItemLoop = QueueCore.ItemLoop
public typealias TimeControlStatus = QueueCore.TimeControlStatus
public typealias WaitingReason = QueueCore.WaitingReason
public typealias BufferStatus = QueueCore.BufferStatus
public typealias AccessLogEvent = QueueCore.AccessLogEvent
public typealias ErrorLogEvent = QueueCore.ErrorLogEvent
public typealias ItemFailure = QueueCore.ItemFailure
public typealias MediaInformation = QueueCore.MediaInformation
public typealias Variant = QueueCore.Variant
public typealias Resolution = QueueCore.Resolution
public typealias MediaSelectionGroup = QueueCore.MediaSelectionGroup
public typealias MediaSelectionOption = QueueCore.MediaSelectionOption
public typealias MediaCharacteristic = QueueCore.MediaCharacteristic
public typealias MediaSelection = QueueCore.MediaSelection
public typealias Chapter = QueueCore.Chapter
public typealias LinearPlaybackRange = QueueCore.LinearPlaybackRange
public typealias PlaybackType = QueueCore.PlaybackType
public typealias SeekID = QueueCore.SeekID
public typealias WallClockDate = QueueCore.WallClockDate
public typealias MonotonicInstant = QueueCore.MonotonicInstant
public typealias LiveStatus = Loader.LiveStatus
public typealias MediaKind = Loader.MediaKind
public typealias StoreDurability = Store.Durability
