import QueueCore

/// Seeding the demo queue on first run.
extension Engine {
    /// Creates the queue `name` with `items` when the database holds no queue at all (a
    /// first run), and returns it; returns nil, changing nothing, otherwise.
    public func seedDemoQueue(_ items: [NewItem], name: String = "Demo") throws(EngineError) -> QueueState? {
        try requireRunning()
        guard running.isEmpty else { return nil }
        let queue = try createQueue(name: name)
        do {
            if !items.isEmpty { _ = try importItems(items, into: queue.id) }
        } catch {
            // No half-seeded queue: the next start seeds it again.
            try? deleteQueue(queue.id)
            throw error
        }
        return try state(queue.id)
    }
}
