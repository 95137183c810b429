import Engine
import MicroHTTPD

// GET /metrics.

extension Router {
    func metrics() async -> HTTPResponse {
        var states: [QueueState] = []
        if let summaries = try? await engine.queues() {
            for summary in summaries {
                // A queue deleted meanwhile is simply left out.
                if let state = try? await engine.queue(summary.id) { states.append(state) }
            }
        }
        var itemsByStatus = ["unknown": 0, "loading": 0, "readyToPlay": 0, "failed": 0]
        var sums: [String: EngineTotals.Sums] = [:]
        for queue in states {
            for item in queue.items {
                let status = switch item.item.status {
                case .unknown: "unknown"
                case .loading: "loading"
                case .readyToPlay: "readyToPlay"
                case .failed: "failed"
                }
                itemsByStatus[status, default: 0] += 1
            }
            for item in queue.items + queue.history {
                let key = "\(queue.id)/\(item.id.rawValue)"
                let itemSums = EngineTotals.sums(of: item)
                // History may hold several entries of one item; its log is the same each time.
                sums[key] = itemSums
            }
        }
        let totals = totals.update(with: sums)

        var text = PrometheusText()
        text.family("hlsq_queues", .gauge, help: "Queues on this server.")
        text.sample("hlsq_queues", states.count)
        text.family("hlsq_items", .gauge, help: "Items in the queues' lists, by status.")
        for (status, count) in itemsByStatus.sorted(by: { $0.key < $1.key }) {
            text.sample("hlsq_items", labels: ["status": status], count)
        }
        text.family("hlsq_stalls_total", .counter, help: "Playback stalls counted in the items' access logs.")
        text.sample("hlsq_stalls_total", totals.stalls)
        text.family("hlsq_bytes_transferred_total", .counter, help: "Bytes the loaders transferred, from the access logs.")
        text.sample("hlsq_bytes_transferred_total", Double(totals.bytes))
        text.family("hlsq_live_playlist_age_seconds", .gauge, help: "How old each live item's playlist was at its last reload.")
        let live = states.flatMap { queue in queue.items.compactMap { item in item.live.map { (queue.id, item.id, $0) } } }
        for (queue, item, state) in live {
            let age = state.status.playlistAge.components
            text.sample("hlsq_live_playlist_age_seconds", labels: ["queue": queue.description, "item": item.rawValue],
                        Double(age.seconds) + Double(age.attoseconds) / 1e18)
        }
        text.family("hlsq_live_stale", .gauge, help: "1 when a live item's playlist has stopped changing for too long.")
        for (queue, item, state) in live {
            text.sample("hlsq_live_stale", labels: ["queue": queue.description, "item": item.rawValue],
                        state.status.isStale ? 1 : 0)
        }
        text.family("hlsq_http_requests_total", .counter, help: "HTTP requests answered, by route and status.")
        for (key, count) in requests.snapshot {
            text.sample("hlsq_http_requests_total", labels: ["route": key.route, "status": String(key.status)], count)
        }
        text.family("hlsq_sse_clients", .gauge, help: "Event streams open now.")
        text.sample("hlsq_sse_clients", eventStreams.count)
        text.family("hlsq_sse_clients_dropped_total", .counter, help: "Event streams dropped for falling behind.")
        text.sample("hlsq_sse_clients_dropped_total", engine.events.droppedSubscriberCount)
        text.family("hlsq_events_total", .counter, help: "Events the engine published since it started.")
        text.sample("hlsq_events_total", engine.events.publishedCount)
        return HTTPResponse(
            status: .ok,
            headers: ["Content-Type": PrometheusText.contentType, "Cache-Control": "no-store"],
            bytes: Array(text.text.utf8))
    }
}
