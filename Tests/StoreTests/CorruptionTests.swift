import Foundation
import Testing
@testable import Store

/// `PRAGMA quick_check` at open: a damaged file is refused with a clear message and left
/// exactly as it was.
@Suite struct CorruptionTests {
    /// Ways to damage a real store's file of 4 KiB pages.
    struct Damage: CustomTestStringConvertible, Sendable {
        let name: String
        let apply: @Sendable (inout Data) -> Void

        var testDescription: String { name }

        /// Writes `bytes` at `offset` of page `page` (counted from 1).
        static func overwrite(_ name: String, page: Int, offset: Int, with bytes: [UInt8]) -> Damage {
            Damage(name: name) { file in
                let start = (page - 1) * 4096 + offset
                file.replaceSubrange(start..<start + bytes.count, with: bytes)
            }
        }
    }

    static let damages = [
        Damage.overwrite("a b-tree page's header", page: 4, offset: 0, with: [0x0D, 0xFF, 0xFF, 0x7F, 0xFF]),
        Damage.overwrite("a page's cell pointers", page: 6, offset: 8, with: Array(repeating: 0xFE, count: 64)),
        Damage.overwrite("a page filled with zeros", page: 5, offset: 0, with: Array(repeating: 0, count: 4096)),
        Damage.overwrite("the first half of a page", page: 7, offset: 0,
                         with: (0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 37) }),
        Damage(name: "the last pages cut off") { file in file.removeLast(3 * 4096) },
    ]

    @Test(arguments: damages)
    func refusesADamagedFileAndLeavesItUntouched(_ damage: Damage) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("hlsq.sqlite")
        do {
            let store = try Store(path: path)
            let queue = try store.createQueue(name: "many pages")
            let items = (0..<2_000).map { Store.ItemAttributes(url: "https://example.com/item/\($0).m3u8", title: "Item \($0)") }
            try store.insertItems(items, into: queue.id)
        }
        // Closing the store checkpointed everything into the file.
        #expect(try directory.contents(startingWith: "hlsq.sqlite").keys.sorted() == ["hlsq.sqlite"])
        let url = URL(fileURLWithPath: path)
        var bytes = try Data(contentsOf: url)
        #expect(bytes.count > 8 * 4096)
        damage.apply(&bytes)
        try bytes.write(to: url)

        let error = try #require(throws: StoreError.self) { try Store(path: path) }
        #expect(error.code == .corrupt)
        #expect(error.message.contains("is corrupt"))
        #expect(error.message.contains("left untouched"))
        #expect(try Data(contentsOf: url) == bytes)
        // Nothing beside it either: no log was written or left behind.
        #expect(try directory.contents(startingWith: "hlsq.sqlite").filter { !$0.value.isEmpty }.keys.sorted() == ["hlsq.sqlite"])
    }
}
