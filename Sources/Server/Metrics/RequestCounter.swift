import Synchronization

/// Counts answered HTTP requests by route template and status, for
/// `hlsq_http_requests_total{route,status}`. Route templates (not raw paths) keep the number
/// of series bounded whatever clients ask for.
final class RequestCounter: Sendable {
    struct Key: Hashable, Sendable, Comparable {
        let route: String
        let status: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.route, lhs.status) < (rhs.route, rhs.status)
        }
    }

    private let counts = Mutex<[Key: Int]>([:])

    func record(route: String, status: Int) {
        counts.withLock { $0[Key(route: route, status: status), default: 0] += 1 }
    }

    /// Every series so far, sorted by route then status.
    var snapshot: [(key: Key, count: Int)] {
        counts.withLock { $0 }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
