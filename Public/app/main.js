// The dashboard's entry point: builds the API client, the store and the views, loads the
// snapshots, and follows the event stream. Nothing polls: after the first snapshots, every
// change arrives as an event (a few answers to the page's own requests are applied too).

import { createApi, storedToken } from "./api.js";
import { createEventStream } from "./events.js";
import { createStore } from "./store.js";
import { createAlerts } from "./views/alerts.js";
import { bindSidebar } from "./views/sidebar.js";
import { bindQueueList } from "./views/queue-list.js";
import { bindAddPanel } from "./views/add-panel.js";
import { bindNowPlaying } from "./views/now-playing.js";
import { bindInspector } from "./views/inspector.js";
import { bindLivePanel } from "./views/live-panel.js";

const CONNECTION_TEXT = {
  connecting: "Connecting…",
  open: "Live updates",
  closed: "Disconnected, retrying…",
};

/**
 * Asks for the API token in the page's dialog; resolves when it is submitted.
 * @param {boolean} refused whether the token kept so far was just refused
 */
function askForToken(refused) {
  const dialog = document.getElementById("token-dialog");
  const form = document.getElementById("token-form");
  const input = document.getElementById("token-input");
  document.getElementById("token-refused").hidden = !refused;
  return new Promise((resolve) => {
    function submit(event) {
      event.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      form.removeEventListener("submit", submit);
      dialog.close();
      input.value = "";
      resolve(token);
    }
    form.addEventListener("submit", submit);
    dialog.showModal();
    input.focus();
  });
}
// Nothing works without the token, so Escape does not close its dialog.
document.getElementById("token-dialog").addEventListener("cancel", (event) => event.preventDefault());

const api = createApi({ askForToken });
const store = createStore();
const alerts = createAlerts(document.getElementById("alerts"), document.getElementById("announcer"));

/** The queue named in the address (`#queue=q-1`), if any. */
function queueFromHash() {
  return new URLSearchParams(location.hash.slice(1)).get("queue");
}

/**
 * Shows a queue: selects it and loads its snapshot.
 * @param {string|null} queueId
 */
async function openQueue(queueId) {
  if (queueId && queueFromHash() !== queueId) history.replaceState(null, "", `#queue=${encodeURIComponent(queueId)}`);
  store.selectQueue(queueId);
  if (!queueId) return null;
  try {
    const snapshot = await api.getQueue(queueId);
    store.applySnapshot(snapshot);
    return snapshot;
  } catch (error) {
    alerts.error("Open queue", error);
    return null;
  }
}

/** Loads the queue list and the shown queue (at start and after a resync). */
async function loadSnapshots() {
  const { queues } = await api.listQueues();
  store.setQueues(queues);
  const wanted = store.state.selectedQueueId ?? queueFromHash();
  const queueId = queues.some((queue) => queue.id === wanted) ? wanted : queues[0]?.id ?? null;
  store.selectQueue(null); // so that openQueue loads it afresh
  const snapshot = await openQueue(queueId);
  // The list again, now at least as new as the snapshot: the stream resumes after the
  // snapshot's last event, so nothing between the two reads is missed.
  store.setQueues((await api.listQueues()).queues);
  return snapshot?.lastEventId ?? null;
}

const nowPlaying = bindNowPlaying({ store, api, alerts });
const queueList = bindQueueList({ store, api, alerts });
bindSidebar({ store, api, alerts, openQueue });
bindAddPanel({ store, api, alerts });
bindInspector({ store, api, alerts });
const livePanel = bindLivePanel({ store });

// ---- Queue-wide actions ----

async function queueCommand(command, action) {
  const queueId = store.state.selectedQueueId;
  if (!queueId) return;
  try {
    store.applySnapshot(await api.command(queueId, { command }));
  } catch (error) {
    alerts.error(action, error);
  }
}
document.getElementById("shuffle-button").addEventListener("click", () => queueCommand("shuffle", "Shuffle"));
document.getElementById("clear-button").addEventListener("click", () => {
  if (window.confirm("Remove every item from this queue? History is kept.")) queueCommand("clear", "Clear queue");
});
document.getElementById("export-link").addEventListener("click", async (event) => {
  event.preventDefault();
  const queueId = store.state.selectedQueueId;
  if (!queueId) return;
  try {
    const text = await api.request("GET", api.exportURL(queueId));
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "audio/x-mpegurl" }));
    link.download = `${store.state.queue?.name || queueId}.m3u8`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  } catch (error) {
    alerts.error("Export", error);
  }
});

// ---- What follows the store everywhere ----

const connection = document.getElementById("connection");
const heading = document.getElementById("queue-heading");
let fetchingWholeQueue = false;
let starting = true;
store.subscribe((state) => {
  // The shown queue was deleted (here or elsewhere): show the first one left.
  if (!starting && state.selectedQueueId === null && state.queues.length > 0) openQueue(state.queues[0].id);
  connection.dataset.state = state.connection;
  connection.textContent = CONNECTION_TEXT[state.connection];
  heading.textContent = state.queue ? state.queue.name : "";
  document.title = state.queue ? `${state.queue.name} · hlsq` : "hlsq";
  // The inspector starts on the current item, and goes back to it when its item is gone.
  if (state.queue) {
    const { items, history, currentItemId } = state.queue;
    const known = (id) => items.some((item) => item.id === id) || history.some((item) => item.id === id);
    if (state.selectedItemId === null || !known(state.selectedItemId)) {
      if (currentItemId !== state.selectedItemId) store.selectItem(currentItemId);
    }
  }
  // A snapshot of a long queue from an event or an answer lists only its first items: read the whole queue.
  if (state.needsSnapshot && !fetchingWholeQueue) {
    fetchingWholeQueue = true;
    api.getQueue(state.selectedQueueId)
      .then((snapshot) => store.applySnapshot(snapshot))
      .catch((error) => alerts.error("Reload queue", error))
      .finally(() => { fetchingWholeQueue = false; });
  }
});

addEventListener("hashchange", () => {
  const queueId = queueFromHash();
  if (queueId && queueId !== store.state.selectedQueueId) openQueue(queueId);
});

// ---- The clock ----

function frame() {
  const { itemId, time } = nowPlaying.frame(Date.now());
  queueList.drawPlayhead(itemId, time);
  requestAnimationFrame(frame);
}
setInterval(() => livePanel.tick(Date.now()), 1000);

// ---- Start ----

const events = createEventStream({
  onEvent: (type, data, id) => store.applyEvent(type, data, id),
  onResync: async (reason) => {
    alerts.info(`Refreshing: ${reason}`);
    store.forgetEventIds();
    try {
      await loadSnapshots();
    } catch (error) {
      alerts.error("Refresh", error);
    }
  },
  onState: (state) => store.setConnection(state),
  // EventSource cannot show a 401: ask the API, which prompts for the token when needed.
  beforeReconnect: () => api.listQueues().then(() => {}, () => {}),
  token: storedToken,
});

async function start() {
  let afterId = null;
  try {
    afterId = await loadSnapshots();
  } catch (error) {
    alerts.error("Load queues", error);
  }
  starting = false;
  events.start(afterId);
  requestAnimationFrame(frame);
}

start();
