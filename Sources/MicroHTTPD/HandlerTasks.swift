import Synchronization

/// The tasks running handlers, kept so that shutdown can cancel and await them.
///
/// Invariant: `running` holds exactly the tasks started and not yet finished. A task is
/// inserted under the same lock acquisition that creates it, and removes itself under the
/// lock when done, so even a task that finishes at once is never left behind.
final class HandlerTasks: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var running: [UInt64: Task<Void, Never>] = [:]
    }

    private let state = Mutex(State())

    /// Starts `operation` in a new task. Returns at once.
    func start(_ operation: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.running[id] = Task {
                await operation()
                self.finished(id)
            }
        }
    }

    private func finished(_ id: UInt64) {
        _ = state.withLock { $0.running.removeValue(forKey: id) }
    }

    /// Cancels every running task and waits until all have finished.
    func cancelAllAndWait() async {
        for task in cancelAll() {
            await task.value
        }
    }

    /// Cancels every running task and returns them.
    @discardableResult
    func cancelAll() -> [Task<Void, Never>] {
        let tasks = state.withLock { Array($0.running.values) }
        for task in tasks { task.cancel() }
        return tasks
    }
}
