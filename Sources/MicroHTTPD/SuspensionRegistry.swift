import CMicroHTTPD
import Synchronization

/// A libmicrohttpd connection pointer that may be handed to another thread.
struct ConnectionHandle: @unchecked Sendable {
    // Sendable because the only use off libmicrohttpd's threads is MHD_resume_connection,
    // which libmicrohttpd allows from any thread, and `SuspensionRegistry` calls it only while
    // the connection is suspended: a suspended connection is never closed, so the pointer is
    // valid until the resume.
    let pointer: OpaquePointer
}

/// Suspends and resumes libmicrohttpd connections, and wakes all of them for shutdown.
///
/// A connection is suspended while its handler runs and while its streaming body has nothing
/// to send; an owner (the request's `Exchange`, or its `StreamingBody`) asks for the resume
/// from whatever thread produced the work. Three rules of libmicrohttpd shape this type:
/// a connection is suspended only from its own callbacks; resuming one that is not suspended
/// is undefined; and `MHD_stop_daemon` requires that no connection is suspended.
///
/// Invariant: a connection is in its shard's `suspended` table exactly while it is suspended
/// and not yet asked to resume, so each suspension is paired with one resume. Once
/// `resumeAllForShutdown` has returned, every suspended connection has been resumed and no
/// new suspension is allowed, so the daemon can be stopped.
final class SuspensionRegistry: Sendable {
    /// One lock and table for part of the connections: resuming costs a system call, made
    /// with the lock held, and with one lock the threads resuming many streams at once (an
    /// event sent to every client) would queue behind each other.
    private final class Shard: Sendable {
        // libmicrohttpd's suspend and resume are called with this lock held so that a resume
        // never overlaps the shutdown. libmicrohttpd takes its own internal lock inside them,
        // but never calls back into us holding it.
        let suspended = Mutex<[ObjectIdentifier: ConnectionHandle]>([:])
    }

    private let shards = (0..<16).map { _ in Shard() }
    private let stopping = Atomic(false)

    private func shard(for owner: ObjectIdentifier) -> Shard {
        shards[Int(UInt(bitPattern: owner.hashValue) % UInt(shards.count))]
    }

    /// Suspends `connection` on behalf of `owner`. Returns false, without suspending, once the
    /// server is stopping: the caller must then end the request instead of waiting.
    ///
    /// Only from libmicrohttpd's access handler or content reader for that connection.
    func suspend(_ connection: ConnectionHandle, for owner: ObjectIdentifier) -> Bool {
        shard(for: owner).suspended.withLock { suspended in
            // Read under the shard's lock: shutdown sets the flag before it empties the
            // shards, so either it sees this entry or this reads true.
            guard !stopping.load(ordering: .sequentiallyConsistent) else { return false }
            assert(suspended[owner] == nil, "a connection is suspended twice")
            MHD_suspend_connection(connection.pointer)
            suspended[owner] = connection
            return true
        }
    }

    /// Resumes the connection that `owner` suspended, if it is still suspended. From any thread.
    func resume(for owner: ObjectIdentifier) {
        shard(for: owner).suspended.withLock { suspended in
            guard let connection = suspended.removeValue(forKey: owner) else { return }
            MHD_resume_connection(connection.pointer)
        }
    }

    /// Whether shutdown has begun: woken connections must then end their request.
    var isStopping: Bool {
        stopping.load(ordering: .sequentiallyConsistent)
    }

    /// Resumes every suspended connection and refuses later suspensions, so that
    /// `MHD_stop_daemon` may be called.
    func resumeAllForShutdown() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        for shard in shards {
            shard.suspended.withLock { suspended in
                for connection in suspended.values {
                    MHD_resume_connection(connection.pointer)
                }
                suspended.removeAll()
            }
        }
    }
}
