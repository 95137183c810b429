// The server's event stream (/api/events) as callbacks, resuming where it left off.
//
// EventSource reconnects by itself after a dropped connection and sends `Last-Event-ID`, so
// the server replays what was missed. When EventSource gives up (the server was down, or
// answered 401), this module opens a new one after a short delay with `?lastEventId=` set to
// the last id it saw. When the server no longer holds that id it sends `resync`, and the
// page must refetch its snapshots.

/** Every event type the server sends (docs/API.md, "Events"). */
export const EVENT_TYPES = [
  "queueCreated", "queueUpdated", "queueDeleted", "itemUpdated", "currentItemChanged",
  "timeControlStatusChanged", "rateChanged", "timeJumped", "seekCompleted",
  "didPlayToEndTime", "failedToPlayToEndTime", "playbackStalled",
  "newAccessLogEntry", "newErrorLogEntry", "liveStatus", "liveHealth",
];

/**
 * Follows `/api/events` (all queues).
 * @param {object} options
 * @param {(type: string, data: object, id: number) => void} options.onEvent each event, in order
 * @param {(reason: string) => void} options.onResync the stream could not resume: refetch
 * @param {(state: "connecting"|"open"|"closed") => void} options.onState connection changes
 * @param {() => Promise<void>} options.beforeReconnect awaited before reopening a stream that
 *   EventSource gave up on (for example to get a token after a 401)
 * @param {() => string|null} options.token the token to pass as `?token=`
 */
export function createEventStream({ onEvent, onResync, onState, beforeReconnect, token }) {
  let source = null;
  let lastEventId = null;
  let retryDelay = 500;
  let retryTimer = null;
  let stopped = false;

  function url() {
    const query = new URLSearchParams();
    if (lastEventId !== null) query.set("lastEventId", String(lastEventId));
    const value = token();
    if (value) query.set("token", value);
    const text = query.toString();
    return text ? `/api/events?${text}` : "/api/events";
  }

  function handle(type, message) {
    const id = Number(message.lastEventId);
    if (Number.isFinite(id) && message.lastEventId !== "") lastEventId = id;
    let data;
    try {
      data = JSON.parse(message.data);
    } catch {
      return; // Not ours to interpret: every event the contract lists is JSON.
    }
    if (type === "resync") onResync(data.reason ?? "the server asked for a resync");
    else onEvent(type, data, id);
  }

  function open() {
    if (stopped) return;
    onState("connecting");
    source = new EventSource(url());
    source.addEventListener("open", () => {
      retryDelay = 500;
      onState("open");
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) {
        onState("closed");
        scheduleReopen();
      } else {
        onState("connecting");
      }
    });
    for (const type of [...EVENT_TYPES, "resync"]) {
      source.addEventListener(type, (message) => handle(type, message));
    }
  }

  function scheduleReopen() {
    source?.close();
    source = null;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(async () => {
      try {
        await beforeReconnect();
      } finally {
        open();
      }
    }, retryDelay);
    retryDelay = Math.min(retryDelay * 2, 10_000);
  }

  return {
    /**
     * Opens the stream, resuming after `afterId` (the `lastEventId` of the snapshots the page
     * holds), so nothing between the snapshot and the stream is lost.
     * @param {number|null} afterId
     */
    start(afterId) {
      stopped = false;
      lastEventId = afterId;
      source?.close();
      open();
    },
    /** Closes the stream for good. */
    stop() {
      stopped = true;
      clearTimeout(retryTimer);
      source?.close();
      source = null;
    },
    /** @returns {number|null} the id of the last event received */
    get lastEventId() { return lastEventId; },
  };
}
