import Testing
@testable import Store

/// A store on a new temporary file, and shortcuts for the tests that use it.
struct StoreFixture {
    let directory: TemporaryDirectory
    let store: Store

    init(configuration: Store.Configuration = Store.Configuration()) throws {
        directory = try TemporaryDirectory()
        store = try Store(path: directory.path("hlsq.sqlite"), configuration: configuration)
    }

    var path: String { store.path }

    /// A new queue holding items titled `titles`, in order.
    func queue(_ titles: [String], name: String = "queue") throws -> (Store.Queue, [Store.Item]) {
        let queue = try store.createQueue(name: name)
        let items = try store.insertItems(titles.map(Self.attributes), into: queue.id)
        return (queue, items)
    }

    static func attributes(_ title: String) -> Store.ItemAttributes {
        Store.ItemAttributes(url: "https://media.example/\(title).m3u8", title: title)
    }

    /// The titles of the queue's list, in order.
    func titles(_ queue: Store.QueueID) throws -> [String] {
        try store.items(in: queue).map { $0.title ?? "" }
    }

    /// The rows `body` inserted, updated or deleted.
    func rowsWritten(_ body: () throws -> Void) throws -> Int64 {
        let before = store.database.totalChanges
        try body()
        return store.database.totalChanges - before
    }
}
