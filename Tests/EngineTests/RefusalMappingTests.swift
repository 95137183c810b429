@testable import Engine
import QueueCore
import Testing

/// The queue core's refusals become the API contract's errors: the code, and the `reason`
/// clients switch on (docs/API.md, 409 `commandRefused` and `cannotInsert`).
@Suite struct RefusalMappingTests {
    struct Mapping: Sendable, CustomTestStringConvertible {
        let refusal: QueueRefusal.Reason
        let isInsertion: Bool
        let code: EngineError.Code
        let reason: String?

        var testDescription: String { "\(refusal)\(isInsertion ? " (insertion)" : "")" }
    }

    static let mappings: [Mapping] = [
        Mapping(refusal: .alreadyInQueue, isInsertion: true, code: .cannotInsert, reason: "alreadyQueued"),
        Mapping(refusal: .itemFailed, isInsertion: true, code: .cannotInsert, reason: "itemFailed"),
        Mapping(refusal: .itemFailed, isInsertion: false, code: .commandRefused, reason: "itemFailed"),
        Mapping(refusal: .anchorNotInQueue, isInsertion: false, code: .commandRefused, reason: "anchorNotInQueue"),
        Mapping(refusal: .positionBeforeCurrentItem, isInsertion: true, code: .cannotInsert, reason: "indexOutOfRange"),
        Mapping(refusal: .indexOutOfRange, isInsertion: false, code: .commandRefused, reason: "indexOutOfRange"),
        Mapping(refusal: .notInQueue, isInsertion: false, code: .notFound, reason: nil),
        Mapping(refusal: .noCurrentItem, isInsertion: false, code: .commandRefused, reason: "noItem"),
        Mapping(refusal: .noNextItem, isInsertion: false, code: .commandRefused, reason: "noNextItem"),
        Mapping(refusal: .noPreviousItem, isInsertion: false, code: .commandRefused, reason: "noHistory"),
        Mapping(refusal: .itemNotReadyToPlay, isInsertion: false, code: .commandRefused, reason: "itemNotReady"),
        Mapping(refusal: .outsideSeekableRanges, isInsertion: false, code: .commandRefused, reason: "outsideSeekableRange"),
        Mapping(refusal: .leavesLinearPlaybackRange, isInsertion: false, code: .commandRefused, reason: "linearPlayback"),
        Mapping(refusal: .jumpsOverLinearPlaybackRange, isInsertion: false, code: .commandRefused, reason: "linearPlayback"),
        Mapping(refusal: .rateNotSupported, isInsertion: false, code: .commandRefused, reason: "rateNotAllowed"),
        Mapping(refusal: .invalidTime, isInsertion: false, code: .validationFailed, reason: nil),
    ]

    @Test(arguments: mappings) func aRefusalBecomesTheContractsError(_ mapping: Mapping) {
        let error = EngineError(QueueRefusal(mapping.refusal, "refused"), RefusalContext(isInsertion: mapping.isInsertion, field: "time"))
        #expect(error.code == mapping.code)
        #expect(error.reason == mapping.reason)
        #expect(error.message == "refused")
        #expect(error.field == (mapping.code == .validationFailed ? "time" : nil))
    }
}
