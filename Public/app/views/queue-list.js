// The queue's items and history: status, duration and a buffer bar per item; reorder by
// dragging the handle (pointer events, so mouse, pen and touch all work) or with
// Alt+ArrowUp/Down on a focused item; jump, remove and inspect.

import { h, drawRanges } from "./dom.js";
import { icon } from "./icons.js";
import { formatTime, timelineOf, fractionOf, isSeconds } from "../time.js";

const STATUS_LABELS = { unknown: "Not loaded", loading: "Loading", readyToPlay: "Ready", failed: "Failed" };

/**
 * Binds the queue list.
 * @param {object} context
 * @param {ReturnType<import("../store.js").createStore>} context.store
 * @param {ReturnType<import("../api.js").createApi>} context.api
 * @param {ReturnType<import("./alerts.js").createAlerts>} context.alerts
 * @returns {{drawPlayhead: (itemId: string|null, time: number) => void}}
 */
export function bindQueueList({ store, api, alerts }) {
  const list = document.getElementById("item-list");
  const empty = document.getElementById("item-list-empty");
  const historyList = document.getElementById("history-list");
  const historyCount = document.getElementById("history-count");
  /** itemId → {element, item, parts} */
  const rows = new Map();
  let drag = null;

  const queueId = () => store.state.selectedQueueId;
  const titleOf = (item) => item.title || item.url;

  async function run(action, body) {
    try {
      return await body();
    } catch (error) {
      alerts.error(action, error);
      return null;
    }
  }

  async function move(item, index) {
    const items = store.state.queue.items;
    const snapshot = await run("Move item", () => api.moveItem(queueId(), item.id, { index }));
    if (!snapshot) return;
    store.applySnapshot(snapshot);
    const position = snapshot.items.findIndex((entry) => entry.id === item.id);
    alerts.announce(`${titleOf(item)} moved to position ${position + 1} of ${snapshot.items.length}`);
    if (items.length !== snapshot.items.length) {
      alerts.announce(`${items.length - snapshot.items.length} item(s) passed into history`);
    }
  }

  async function jump(item) {
    const snapshot = await run("Play item", () => api.command(queueId(), { command: "jump", itemId: item.id }));
    if (snapshot) store.applySnapshot(snapshot);
  }

  async function remove(item) {
    const index = store.state.queue.items.findIndex((entry) => entry.id === item.id);
    const done = await run("Remove item", async () => { await api.removeItem(queueId(), item.id); return true; });
    if (!done) return;
    alerts.announce(`${titleOf(item)} removed`);
    // Keep the keyboard where it was: on the item that took this one's place.
    const refreshed = await run("Reload queue", () => api.getQueue(queueId()));
    if (refreshed) store.applySnapshot(refreshed);
    const next = store.state.queue?.items[Math.min(index, (store.state.queue?.items.length ?? 1) - 1)];
    if (next) rows.get(next.id)?.element.focus();
  }

  async function addAgain(item) {
    const added = await run("Add item", () => api.addItem(queueId(), { url: item.url, title: item.title ?? undefined }));
    if (added) alerts.announce(`${titleOf(item)} added again`);
  }

  function bufferBar() {
    return h("div", { class: "buffer-bar", "aria-hidden": "true" },
      h("div", { class: "layer", dataset: { layer: "seekable" } }),
      h("div", { class: "layer", dataset: { layer: "loaded" } }),
      h("div", { class: "playhead" }));
  }

  function drawBufferRanges(bar, item) {
    const timeline = timelineOf(item);
    const [seekable, loaded] = bar.children;
    drawRanges(seekable, timeline ? item.seekableTimeRanges ?? [] : [], timeline ?? { start: 0, end: 0 });
    drawRanges(loaded, timeline ? item.loadedTimeRanges ?? [] : [], timeline ?? { start: 0, end: 0 });
  }

  function drawBufferPlayhead(bar, item, time) {
    const timeline = timelineOf(item);
    const playhead = bar.children[2];
    playhead.hidden = !timeline;
    if (timeline) playhead.style.left = `calc(${(fractionOf(time, timeline) * 100).toFixed(3)}% - 1px)`;
  }

  function describe(item, position, count) {
    const parts = [titleOf(item), STATUS_LABELS[item.status] ?? item.status];
    if (item.isLive) parts.push("live");
    else if (isSeconds(item.duration)) parts.push(formatTime(item.duration));
    if (item.id === store.state.queue?.currentItemId) parts.push("current item");
    parts.push(`${position + 1} of ${count}`);
    return parts.join(", ");
  }

  function buildRow(item) {
    const element = h("li", { class: "item", tabindex: "0", dataset: { itemId: item.id } });
    const handle = h("span", { class: "drag-handle", "aria-hidden": "true", title: "Drag to reorder" }, icon("grip"));
    const title = h("span", { class: "item-title" });
    const badge = h("span", { class: "badge" });
    const live = h("span", { class: "badge", dataset: { kind: "live" }, text: "LIVE" });
    const duration = h("span", { class: "item-duration" });
    const bar = bufferBar();
    const forward = h("span", { class: "item-forward" });
    const url = h("span", { class: "item-url" });
    const error = h("p", { class: "item-error" });
    const play = h("button", { type: "button", class: "button small", text: "Play" });
    const inspect = h("button", { type: "button", class: "button small", text: "Details" });
    const removeButton = h("button", { type: "button", class: "button small danger", text: "Remove" });
    element.append(handle,
      h("div", { class: "item-main" }, title, h("div", { class: "item-meta" }, badge, live, duration, bar, forward), url, error),
      h("div", { class: "item-tools" }, play, inspect, removeButton));
    const row = { element, item: null, parts: { title, badge, live, duration, bar, forward, url, error, play, inspect, removeButton } };
    play.addEventListener("click", () => jump(row.item));
    inspect.addEventListener("click", () => store.selectItem(row.item.id));
    removeButton.addEventListener("click", () => remove(row.item));
    element.addEventListener("click", (event) => {
      if (!event.target.closest("button")) store.selectItem(row.item.id);
    });
    element.addEventListener("keydown", (event) => onRowKey(event, row));
    handle.addEventListener("pointerdown", (event) => startDrag(event, row));
    return row;
  }

  function updateRow(row, item, position, count) {
    const { parts } = row;
    row.item = item;
    parts.title.textContent = titleOf(item);
    parts.badge.textContent = STATUS_LABELS[item.status] ?? item.status;
    parts.badge.dataset.status = item.status;
    parts.live.hidden = !item.isLive;
    parts.duration.textContent = item.isLive ? "" : formatTime(item.duration);
    parts.forward.textContent = item.status === "readyToPlay" && isSeconds(item.buffer?.forwardBufferSeconds)
      ? `${item.buffer.forwardBufferSeconds.toFixed(1)} s ahead` : "";
    parts.url.textContent = item.url;
    parts.url.title = item.url;
    parts.error.textContent = item.error ? item.error.message : "";
    parts.error.hidden = !item.error;
    parts.play.setAttribute("aria-label", `Play ${titleOf(item)}`);
    parts.inspect.setAttribute("aria-label", `Details of ${titleOf(item)}`);
    parts.removeButton.setAttribute("aria-label", `Remove ${titleOf(item)}`);
    drawBufferRanges(parts.bar, item);
    drawBufferPlayhead(parts.bar, item, item.currentTime ?? 0);
  }

  function onRowKey(event, row) {
    if (event.target !== row.element) return; // keys on the row's buttons are theirs
    const items = store.state.queue?.items ?? [];
    const index = items.findIndex((entry) => entry.id === row.item.id);
    const focusAt = (i) => { const target = items[i]; if (target) rows.get(target.id)?.element.focus(); };
    switch (event.key) {
      case "ArrowUp":
      case "ArrowDown": {
        event.preventDefault();
        const step = event.key === "ArrowUp" ? -1 : 1;
        if (event.altKey) {
          const target = index + step;
          if (target >= 0 && target < items.length) move(row.item, target);
        } else {
          focusAt(index + step);
        }
        break;
      }
      case "Home": event.preventDefault(); focusAt(0); break;
      case "End": event.preventDefault(); focusAt(items.length - 1); break;
      case "Enter": event.preventDefault(); jump(row.item); break;
      case " ": event.preventDefault(); store.selectItem(row.item.id); break;
      case "Delete":
      case "Backspace": event.preventDefault(); remove(row.item); break;
      default: break;
    }
  }

  // ---- Dragging ----

  function startDrag(event, row) {
    if (event.button !== 0) return;
    event.preventDefault();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    drag = { row, pointerId: event.pointerId, target: null, startY: event.clientY };
    row.element.classList.add("is-dragging");
    const onMove = (moveEvent) => updateDrag(moveEvent.clientY);
    const onEnd = (endEvent) => {
      handle.removeEventListener("pointermove", onMove);
      handle.removeEventListener("pointerup", onEnd);
      handle.removeEventListener("pointercancel", onEnd);
      finishDrag(endEvent.type === "pointerup");
    };
    handle.addEventListener("pointermove", onMove);
    handle.addEventListener("pointerup", onEnd);
    handle.addEventListener("pointercancel", onEnd);
  }

  function clearDropMarks() {
    for (const { element } of rows.values()) element.classList.remove("drop-before", "drop-after");
  }

  function updateDrag(y) {
    const items = store.state.queue?.items ?? [];
    const others = items.filter((item) => item.id !== drag.row.item.id).map((item) => rows.get(item.id).element);
    // The final index is the number of other rows whose middle is above the pointer.
    let index = 0;
    for (const element of others) {
      const box = element.getBoundingClientRect();
      if (y > box.top + box.height / 2) index += 1;
    }
    drag.row.element.style.transform = `translateY(${y - drag.startY}px)`;
    drag.target = index;
    clearDropMarks();
    if (index < others.length) others[index].classList.add("drop-before");
    else others.at(-1)?.classList.add("drop-after");
  }

  function finishDrag(dropped) {
    const { row, target } = drag;
    drag = null;
    clearDropMarks();
    row.element.classList.remove("is-dragging");
    row.element.style.transform = "";
    const index = store.state.queue.items.findIndex((item) => item.id === row.item.id);
    if (dropped && target !== null && target !== index) move(row.item, target);
  }

  // ---- Rendering ----

  function render(state) {
    const queue = state.queue;
    if (!queue) {
      list.replaceChildren();
      historyList.replaceChildren();
      rows.clear();
      empty.hidden = true;
      return;
    }
    if (drag) return; // the list stays still under the pointer; the next change redraws it
    const focusedId = list.contains(document.activeElement) ? document.activeElement.closest("[data-item-id]")?.dataset.itemId : null;
    const focusedLabel = document.activeElement?.getAttribute("aria-label");
    const wasRow = document.activeElement?.classList.contains("item");
    const seen = new Set();
    queue.items.forEach((item, position) => {
      seen.add(item.id);
      let row = rows.get(item.id);
      if (!row) {
        row = buildRow(item);
        rows.set(item.id, row);
      }
      if (row.item !== item || row.position !== position || row.count !== queue.items.length || row.current !== queue.currentItemId) {
        updateRow(row, item, position, queue.items.length);
        row.position = position;
        row.count = queue.items.length;
        row.current = queue.currentItemId;
      }
      row.element.setAttribute("aria-label", describe(item, position, queue.items.length));
      row.element.setAttribute("aria-current", item.id === queue.currentItemId ? "true" : "false");
      row.element.dataset.inspected = String(item.id === state.selectedItemId);
      row.parts.inspect.setAttribute("aria-pressed", String(item.id === state.selectedItemId));
      const expected = list.children[position];
      if (expected !== row.element) list.insertBefore(row.element, expected ?? null);
    });
    for (const [id, row] of rows) {
      if (!seen.has(id)) {
        row.element.remove();
        rows.delete(id);
      }
    }
    empty.hidden = queue.items.length > 0;
    if (focusedId && rows.has(focusedId) && !list.contains(document.activeElement)) {
      const element = rows.get(focusedId).element;
      const control = !wasRow && focusedLabel ? element.querySelector(`[aria-label="${CSS.escape(focusedLabel)}"]`) : null;
      (control ?? element).focus();
    }
    renderHistory(queue.history);
  }

  let shownHistory = null;
  function renderHistory(history) {
    if (history === shownHistory) return;
    shownHistory = history;
    historyCount.textContent = String(history.length);
    historyList.replaceChildren(...[...history].reverse().map((item) =>
      h("li", { class: "item", dataset: { itemId: item.id } },
        h("div", { class: "item-main" },
          h("span", { class: "item-title", text: titleOf(item) }),
          h("div", { class: "item-meta" },
            h("span", { class: "badge", dataset: { status: item.status }, text: STATUS_LABELS[item.status] ?? item.status }),
            h("span", { text: item.isLive ? "live" : formatTime(item.duration) }),
            h("span", { class: "item-url", text: item.url }))),
        h("div", { class: "item-tools" },
          // A failed item is skipped into the history: its error log is read from there.
          h("button", {
            type: "button", class: "button small", text: "Details", "aria-label": `Details of ${titleOf(item)}`,
            onclick: () => store.selectItem(item.id),
          }),
          h("button", {
            type: "button", class: "button small", text: "Add again", "aria-label": `Add ${titleOf(item)} again`,
            onclick: () => addAgain(item),
          })))));
  }

  store.subscribe(render);

  return {
    /**
     * Moves the current item's playhead mark between events (called every frame).
     * @param {string|null} itemId
     * @param {number} time
     */
    drawPlayhead(itemId, time) {
      const row = itemId ? rows.get(itemId) : null;
      if (row?.item) drawBufferPlayhead(row.parts.bar, row.item, time);
    },
  };
}
