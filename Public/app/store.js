// The page's state: the queue summaries, the selected queue's snapshot, the inspected
// item, and what the live panel has gathered. Only this module changes it; views subscribe
// and read.
//
// Invariants:
// - `queue` is the snapshot of `selectedQueueId`, or null while it loads.
// - `appliedEventId` is the id of the newest event (or snapshot) reflected in `queue`; an
//   event for that queue with a smaller or equal id is older than what is shown and is
//   skipped, so a replayed or late event never undoes a newer snapshot.
// - `playhead` is where the server's playhead was at the local instant `at` (Date.now()
//   milliseconds); views extrapolate from it with `playheadAt`.
// - `details` is the full Item of `selectedItemId` (null until fetched).
// - While the shown queue's snapshot loads, its events wait in `pendingEvents`; once the
//   snapshot is applied, those newer than it are applied in order, so an event that arrives
//   before the snapshot it follows is not lost.
// - `stalls` holds, per item of the shown queue, how many `playbackStalled` events arrived
//   (`announced`) and its stall count (`count`): the server's figure, read from the item's
//   access log, plus the events since. A figure asked for before the latest event is not
//   kept, since it may miss that stall; the view asks again after each event.

import { isSeconds } from "./time.js";

const SPARKLINE_WINDOW_MS = 5 * 60 * 1000;
const HEALTH_LOG_LIMIT = 50;
/** The lists of a full Item that only change when its loading or the person changes them. */
const DETAIL_LISTS = ["variants", "mediaSelectionGroups", "chapters", "linearPlaybackRanges", "accessLog", "errorLog"];

/**
 * Creates the store.
 * @returns the store: `state`, `subscribe`, and the mutations below
 */
export function createStore() {
  const state = {
    connection: "connecting",
    queues: [],
    selectedQueueId: null,
    queue: null,
    appliedEventId: -1,
    needsSnapshot: false,
    playhead: null,
    selectedItemId: null,
    details: null,
    /** itemId → [{at, value}] forward buffer seconds, at most 5 minutes old */
    bufferSamples: new Map(),
    /** itemId → [reload instants (ms)] to show the reload cadence */
    reloads: new Map(),
    /** [{at, itemId, check, state, message}] newest first */
    healthLog: [],
    /** itemId → whether its last live status said the playlist is stale */
    staleItems: new Map(),
    /** itemId → {count: number|null (null until read), announced: number} */
    stalls: new Map(),
  };
  const listeners = new Set();
  let scheduled = false;
  // The smallest (local − server) clock difference seen: the one with the least latency.
  let clockOffset = null;
  /** [type, data, id] of the shown queue, received while its snapshot loads */
  let pendingEvents = [];

  function changed() {
    if (scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      for (const listener of listeners) listener(state);
    });
  }

  function summaryOf(snapshot) {
    return {
      id: snapshot.id,
      name: snapshot.name,
      itemCount: snapshot.itemCount ?? snapshot.items.length,
      currentItemId: snapshot.currentItemId,
      timeControlStatus: snapshot.timeControlStatus,
      rate: snapshot.rate,
    };
  }

  function upsertSummary(summary) {
    const index = state.queues.findIndex((queue) => queue.id === summary.id);
    if (index === -1) state.queues = [...state.queues, summary];
    else state.queues = state.queues.map((queue, i) => (i === index ? summary : queue));
  }

  function localInstantOf(serverTime) {
    const server = Date.parse(serverTime);
    const now = Date.now();
    if (Number.isNaN(server)) return now;
    const offset = now - server;
    if (clockOffset === null || offset < clockOffset) clockOffset = offset;
    return server + clockOffset;
  }

  function anchorFromSnapshot(snapshot) {
    state.playhead = {
      itemId: snapshot.currentItemId,
      time: isSeconds(snapshot.currentTime) ? snapshot.currentTime : 0,
      at: localInstantOf(snapshot.serverTime),
      rate: snapshot.rate,
      playing: snapshot.timeControlStatus === "playing",
    };
  }

  function anchorNow(time) {
    const queue = state.queue;
    state.playhead = {
      itemId: queue.currentItemId,
      time: isSeconds(time) ? time : 0,
      at: Date.now(),
      rate: queue.rate,
      playing: queue.timeControlStatus === "playing",
    };
  }

  function replaceItem(item) {
    const queue = state.queue;
    const swap = (list) => list.map((entry) => (entry.id === item.id ? item : entry));
    state.queue = { ...queue, items: swap(queue.items), history: swap(queue.history) };
    if (state.details?.id === item.id) state.details = { ...state.details, ...item };
  }

  function sampleBuffer(itemId, value) {
    if (!isSeconds(value)) return;
    const now = Date.now();
    const samples = (state.bufferSamples.get(itemId) ?? []).filter((sample) => now - sample.at <= SPARKLINE_WINDOW_MS);
    samples.push({ at: now, value });
    state.bufferSamples.set(itemId, samples);
  }

  function currentItemOf(queue) {
    return queue?.items.find((item) => item.id === queue.currentItemId) ?? null;
  }

  const store = {
    state,

    /**
     * Calls `listener(state)` after each batch of changes.
     * @param {(state: object) => void} listener
     * @returns {() => void} unsubscribes
     */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    /** @param {"connecting"|"open"|"closed"} connection */
    setConnection(connection) {
      state.connection = connection;
      changed();
    },

    /** @param {object[]} queues the summaries of GET /api/queues */
    setQueues(queues) {
      state.queues = queues;
      changed();
    },

    /**
     * Shows another queue; its snapshot comes with `applySnapshot`.
     * @param {string|null} queueId
     */
    selectQueue(queueId) {
      if (state.selectedQueueId === queueId) return;
      state.selectedQueueId = queueId;
      state.queue = null;
      pendingEvents = [];
      state.appliedEventId = -1;
      state.playhead = null;
      state.selectedItemId = null;
      state.details = null;
      state.stalls = new Map();
      changed();
    },

    /**
     * A snapshot from GET, a command's answer or an event. It replaces the shown queue when
     * it is that queue's and newer than what is shown.
     * @param {object} snapshot an event's snapshot and a change's answer list only the first
     *   items of a long queue: `needsSnapshot` then asks for the whole one
     * @returns {boolean} whether it was applied
     */
    applySnapshot(snapshot) {
      upsertSummary(summaryOf(snapshot));
      const isSelected = snapshot.id === state.selectedQueueId;
      // A snapshot as new as the shown one still replaces it when the shown one is truncated.
      const isNewer = snapshot.lastEventId > state.appliedEventId
        || (snapshot.lastEventId === state.appliedEventId && state.needsSnapshot);
      if (isSelected && isNewer) {
        state.queue = snapshot;
        state.appliedEventId = snapshot.lastEventId;
        state.needsSnapshot = (snapshot.itemCount ?? snapshot.items.length) > snapshot.items.length;
        anchorFromSnapshot(snapshot);
        const waiting = pendingEvents;
        pendingEvents = [];
        for (const [type, data, id] of waiting) store.applyEvent(type, data, id);
        changed();
        return true;
      }
      changed();
      return false;
    },

    /**
     * Forgets which events the shown snapshot reflects: after a resync (the server may have
     * restarted, and its event ids with it) the next snapshot and events apply whatever their ids.
     */
    forgetEventIds() {
      state.appliedEventId = -1;
    },

    /**
     * Chooses the item the inspector shows; its details come with `setDetails`.
     * @param {string|null} itemId
     */
    selectItem(itemId) {
      if (state.selectedItemId === itemId) return;
      state.selectedItemId = itemId;
      state.details = null;
      changed();
    },

    /** @param {object} item a full Item for the inspector */
    setDetails(item) {
      if (item.id !== state.selectedItemId) return;
      // A refetch keeps the lists that did not change, so that the views drawn from them
      // (menus, chapter buttons, log tables) are not rebuilt under the person using them.
      const previous = state.details?.id === item.id ? state.details : null;
      const kept = {};
      for (const list of DETAIL_LISTS) {
        if (previous?.[list] && JSON.stringify(previous[list]) === JSON.stringify(item[list])) kept[list] = previous[list];
      }
      state.details = { ...item, ...kept };
      if (item.live) sampleBuffer(item.id, item.buffer?.forwardBufferSeconds);
      changed();
    },

    /**
     * @param {string} itemId
     * @returns {number} the `playbackStalled` events received for the item: pass it to
     *   `setStallCount` with the answer of a request made now
     */
    stallsAnnounced(itemId) {
      return state.stalls.get(itemId)?.announced ?? 0;
    },

    /**
     * The server's stall count of an item: the `numberOfStalls` of its access log, summed.
     * @param {object} item a full Item
     * @param {number} announcedWhenAsked `stallsAnnounced(item.id)` when it was requested
     * @returns {boolean} whether it was kept: not when a stall was announced since
     */
    setStallCount(item, announcedWhenAsked) {
      const announced = store.stallsAnnounced(item.id);
      if (announced !== announcedWhenAsked) return false;
      const count = item.accessLog.reduce((sum, entry) => sum + (entry.numberOfStalls ?? 0), 0);
      state.stalls.set(item.id, { count, announced });
      changed();
      return true;
    },

    /** @returns {object|null} the summary of the current item of the shown queue */
    currentItem() {
      return currentItemOf(state.queue);
    },

    /**
     * Applies one event of the stream.
     * @param {string} type
     * @param {object} data
     * @param {number} id
     */
    applyEvent(type, data, id) {
      if (type === "queueCreated" || type === "queueUpdated") {
        store.applySnapshot({ ...data, lastEventId: Math.max(data.lastEventId ?? id, id) });
        return;
      }
      if (type === "queueDeleted") {
        state.queues = state.queues.filter((queue) => queue.id !== data.queueId);
        if (state.selectedQueueId === data.queueId) store.selectQueue(null);
        changed();
        return;
      }
      if (type === "liveHealth") {
        state.healthLog = [{ at: Date.now(), ...data }, ...state.healthLog].slice(0, HEALTH_LOG_LIMIT);
        changed();
        return;
      }
      if (data.queueId !== state.selectedQueueId) return;
      if (!state.queue) {
        pendingEvents.push([type, data, id]);
        return;
      }
      if (id <= state.appliedEventId) return;
      state.appliedEventId = id;
      const queue = state.queue;
      switch (type) {
        case "itemUpdated":
          replaceItem(data.item);
          if (data.item.isLive) sampleBuffer(data.item.id, data.item.buffer?.forwardBufferSeconds);
          break;
        case "currentItemChanged":
          state.queue = { ...queue, currentItemId: data.itemId };
          anchorNow(0);
          break;
        case "timeControlStatusChanged":
        case "rateChanged":
          state.queue = {
            ...queue,
            timeControlStatus: data.timeControlStatus,
            reasonForWaitingToPlay: data.reasonForWaitingToPlay,
            rate: data.rate,
          };
          anchorNow(data.currentTime);
          break;
        case "timeJumped":
          if (data.itemId === queue.currentItemId) anchorNow(data.to);
          break;
        case "newAccessLogEntry":
          if (state.details?.id === data.itemId) {
            state.details = { ...state.details, accessLog: [...state.details.accessLog, data.entry] };
          }
          break;
        case "newErrorLogEntry":
          if (state.details?.id === data.itemId) {
            state.details = { ...state.details, errorLog: [...state.details.errorLog, data.entry] };
          }
          break;
        case "playbackStalled": {
          // Shown at once; the view reads the server's figure again to confirm it.
          const known = state.stalls.get(data.itemId);
          state.stalls.set(data.itemId, {
            count: known?.count == null ? null : known.count + 1,
            announced: (known?.announced ?? 0) + 1,
          });
          break;
        }
        case "liveStatus": {
          const reloads = [...(state.reloads.get(data.itemId) ?? []), Date.now()].slice(-20);
          state.reloads.set(data.itemId, reloads);
          if (state.details?.id === data.itemId) state.details = { ...state.details, live: data.live };
          const isStale = Boolean(data.live?.isStale);
          const wasStale = state.staleItems.get(data.itemId) ?? false;
          state.staleItems.set(data.itemId, isStale);
          if (isStale !== wasStale) {
            state.healthLog = [{
              at: Date.now(), queueId: data.queueId, itemId: data.itemId, check: "stale",
              state: isStale ? "stale" : "recovered",
              message: isStale
                ? `the playlist has not changed for ${Math.round(data.live.playlistAge ?? 0)} s`
                : "the playlist is changing again",
            }, ...state.healthLog].slice(0, HEALTH_LOG_LIMIT);
          }
          break;
        }
        default:
          // seekCompleted, didPlayToEndTime, failedToPlayToEndTime: the queueUpdated and
          // itemUpdated events that come with them carry the new state.
          break;
      }
      changed();
    },
  };
  return store;
}
