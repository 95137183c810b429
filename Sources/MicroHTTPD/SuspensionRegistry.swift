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
/// Invariant: a connection is in `suspended` exactly while it is suspended and not yet asked
/// to resume, so each suspension is paired with one resume. Once `isStopping` is set, every
/// suspended connection has been resumed and no new suspension is allowed, so the daemon can
/// be stopped.
final class SuspensionRegistry: Sendable {
    private struct State {
        var isStopping = false
        var suspended: [ObjectIdentifier: ConnectionHandle] = [:]
    }

    // libmicrohttpd's suspend and resume are called with this lock held so that a resume can
    // never overtake its suspend, nor reach a daemon that is being stopped. libmicrohttpd takes
    // its own internal lock inside them, but never calls back into us holding it.
    private let state = Mutex(State())

    /// Suspends `connection` on behalf of `owner`. Returns false, without suspending, once the
    /// server is stopping: the caller must then end the request instead of waiting.
    ///
    /// Only from libmicrohttpd's access handler or content reader for that connection.
    func suspend(_ connection: ConnectionHandle, for owner: ObjectIdentifier) -> Bool {
        state.withLock { state in
            guard !state.isStopping else { return false }
            assert(state.suspended[owner] == nil, "a connection is suspended twice")
            MHD_suspend_connection(connection.pointer)
            state.suspended[owner] = connection
            return true
        }
    }

    /// Resumes the connection that `owner` suspended, if it is still suspended. From any thread.
    func resume(for owner: ObjectIdentifier) {
        state.withLock { state in
            guard let connection = state.suspended.removeValue(forKey: owner) else { return }
            MHD_resume_connection(connection.pointer)
        }
    }

    /// Whether shutdown has begun: woken connections must then end their request.
    var isStopping: Bool {
        state.withLock { $0.isStopping }
    }

    /// Resumes every suspended connection and refuses later suspensions, so that
    /// `MHD_stop_daemon` may be called.
    func resumeAllForShutdown() {
        state.withLock { state in
            state.isStopping = true
            for connection in state.suspended.values {
                MHD_resume_connection(connection.pointer)
            }
            state.suspended.removeAll()
        }
    }
}
