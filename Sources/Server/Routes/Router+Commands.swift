import Engine
import MediaTime
import MicroHTTPD

// POST /api/queues/{id}/commands.

extension Router {
    /// Each command's members besides `command`.
    static let commandMembers: [String: Set<String>] = [
        "play": [], "pause": [], "advance": [], "previous": [], "shuffle": [], "clear": [], "cancelPendingSeeks": [],
        "jump": ["itemId"],
        "seek": ["time", "toleranceBefore", "toleranceAfter"],
        "skip": ["by"],
        "setRate": ["rate"],
    ]

    func perform(_ queue: QueueID, _ request: HTTPRequest) async throws(APIError) -> HTTPResponse {
        let command = try Self.playbackCommand(request)
        let result = try await call { engine throws(EngineError) in try await engine.perform(command, on: queue) }
        return snapshotResponse(result.queue, seekID: result.seekID)
    }

    /// The command a body asks for: 422 for an unknown command, a missing member or a member
    /// the command does not take.
    static func playbackCommand(_ request: HTTPRequest) throws(APIError) -> PlaybackCommand {
        let everyMember = commandMembers.values.reduce(into: Set(["command"])) { $0.formUnion($1) }
        let loose = try RequestBody.jsonObject(request, allowed: everyMember)
        guard let name = try loose.string("command") else {
            throw .validationFailed(field: "command", "a command needs its name in \"command\"")
        }
        guard let members = commandMembers[name] else {
            throw .validationFailed(
                field: "command", "unknown command \"\(name)\"; expected \(commandMembers.keys.sorted().joined(separator: ", "))")
        }
        let body = try JSONFields(.object(loose.object), allowed: members.union(["command"]))
        func required(_ member: String) throws(APIError) -> Double {
            guard let value = try body.number(member) else {
                throw .validationFailed(field: member, "\(name) needs \(member)")
            }
            return value
        }
        switch name {
        case "play": return .play
        case "pause": return .pause
        case "advance": return .advance
        case "previous": return .previous
        case "shuffle": return .shuffle
        case "clear": return .clear
        case "cancelPendingSeeks": return .cancelPendingSeeks
        case "jump":
            guard let item = try body.string("itemId") else { throw .validationFailed(field: "itemId", "jump needs itemId") }
            return .jump(ItemID(item))
        case "seek":
            let time = try required("time")
            let before = try body.number("toleranceBefore") ?? 0
            let after = try body.number("toleranceAfter") ?? 0
            for (member, value) in [("toleranceBefore", before), ("toleranceAfter", after)] where value < 0 {
                throw .validationFailed(field: member, "\(member) is 0 or more seconds")
            }
            return .seek(to: Self.time(time), toleranceBefore: Self.time(before), toleranceAfter: Self.time(after))
        case "skip":
            return .skip(by: Self.time(try required("by")))
        default:
            return .setRate(try required("rate"))
        }
    }
}
