import Synchronization

/// The tasks running handlers, kept so that shutdown can cancel and await them.
///
/// Invariant: `running` holds exactly the tasks started and not yet finished. A task is
/// created outside the lock (creating one may wake a thread, which must not happen while
/// other threads wait for the lock), so it may finish before it is registered; it then
/// leaves its id in `finishedEarly` and the registration is skipped.
final class HandlerTasks: Sendable {
    private struct State {
        var nextID: UInt64 = 0
        var running: [UInt64: Task<Void, Never>] = [:]
        var finishedEarly: Set<UInt64> = []
    }

    private let state = Mutex(State())

    /// Starts `operation` in a new task. Returns at once.
    func start(_ operation: @escaping @Sendable () async -> Void) {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        let task = Task {
            await operation()
            self.finished(id)
        }
        state.withLock { state in
            if state.finishedEarly.remove(id) == nil {
                state.running[id] = task
            }
        }
    }

    private func finished(_ id: UInt64) {
        state.withLock { state in
            if state.running.removeValue(forKey: id) == nil {
                state.finishedEarly.insert(id)
            }
        }
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
