// The item inspector: the selected item's state, variants, audio and subtitle selection,
// chapters (a click seeks there), and its access and error logs.

import { h, table, facts } from "./dom.js";
import { formatTime, formatSeconds, formatBitrate, formatBytes, formatClock, isSeconds } from "../time.js";

const GROUP_LABELS = { audible: "Audio", legible: "Subtitles" };

/**
 * Binds the inspector.
 * @param {object} context
 * @param {ReturnType<import("../store.js").createStore>} context.store
 * @param {ReturnType<import("../api.js").createApi>} context.api
 * @param {ReturnType<import("./alerts.js").createAlerts>} context.alerts
 */
export function bindInspector({ store, api, alerts }) {
  const body = document.getElementById("inspector-body");
  let fetchedKey = null;
  let shown = null;

  async function fetchDetails(queueId, itemId) {
    try {
      store.setDetails(await api.getItem(queueId, itemId));
    } catch (error) {
      if (error.status !== 404) alerts.error("Item details", error);
    }
  }

  async function selectMedia(item, characteristic, name) {
    try {
      store.setDetails(await api.updateItem(store.state.selectedQueueId, item.id, { selectedMedia: { [characteristic]: name } }));
      alerts.announce(`${GROUP_LABELS[characteristic] ?? characteristic}: ${name ?? "automatic"}`);
    } catch (error) {
      alerts.error(`Select ${GROUP_LABELS[characteristic]?.toLowerCase() ?? characteristic}`, error);
    }
  }

  async function seekToChapter(item, chapter) {
    const queueId = store.state.selectedQueueId;
    try {
      if (store.state.queue?.currentItemId !== item.id) {
        await api.command(queueId, { command: "jump", itemId: item.id });
      }
      store.applySnapshot(await api.command(queueId, { command: "seek", time: chapter.start }));
    } catch (error) {
      alerts.error("Seek to chapter", error);
    }
  }

  function summaryFacts(item, isCurrent) {
    const buffer = item.buffer ?? {};
    const flags = [
      buffer.isPlaybackLikelyToKeepUp ? "likely to keep up" : null,
      buffer.isPlaybackBufferEmpty ? "empty" : null,
      buffer.isPlaybackBufferFull ? "full" : null,
    ].filter(Boolean).join(", ") || "–";
    const pairs = [
      ["Title", item.title || "–"],
      ["URL", h("span", { class: "mono", text: item.url })],
      ["Kind", item.isLive ? `${item.kind}, live` : item.kind],
      ["Status", item.error ? `${item.status}: ${item.error.message}` : item.status],
      ["Duration", item.isLive ? "live" : formatTime(item.duration)],
      ["Position", `${formatTime(item.currentTime)}${isCurrent ? " (current item)" : ""}`],
      ["Forward buffer", formatSeconds(buffer.forwardBufferSeconds)],
      ["Buffer", flags],
    ];
    const preferences = item.preferences;
    if (preferences) {
      pairs.push(["Preferred buffer", preferences.preferredForwardBufferDuration ? formatSeconds(preferences.preferredForwardBufferDuration, 0) : "automatic"]);
      pairs.push(["Peak bit rate", preferences.preferredPeakBitRate ? formatBitrate(preferences.preferredPeakBitRate) : "no cap"]);
    }
    return facts(pairs);
  }

  function mediaSelection(item) {
    return item.mediaSelectionGroups.map((group) => {
      const id = `media-group-${group.characteristic}`;
      const emptyLabel = group.characteristic === "legible" ? "Off" : "Automatic";
      const select = h("select", { id },
        h("option", { value: "", text: emptyLabel }),
        ...group.options.map((option) => h("option", {
          value: option.name,
          text: `${option.name}${option.language ? ` (${option.language})` : ""}${option.isDefault ? " · default" : ""}`,
        })));
      select.value = group.selected ?? "";
      select.addEventListener("change", () => selectMedia(item, group.characteristic, select.value || null));
      return h("div", { class: "stack-form" },
        h("label", { for: id, text: GROUP_LABELS[group.characteristic] ?? group.characteristic }), select);
    });
  }

  function chapterList(item) {
    return h("ol", { class: "chapter-list" }, ...item.chapters.map((chapter) =>
      h("li", {},
        h("button", {
          type: "button", class: "button small",
          "aria-label": `Seek to chapter ${chapter.title || "untitled"} at ${formatTime(chapter.start)}`,
          onclick: () => seekToChapter(item, chapter),
        }, h("span", { text: chapter.title || "Untitled" }), h("span", { class: "mono", text: formatTime(chapter.start) })))));
  }

  function render(state) {
    const item = state.details
      ?? state.queue?.items.find((entry) => entry.id === state.selectedItemId)
      ?? state.queue?.history.find((entry) => entry.id === state.selectedItemId)
      ?? null;
    // Fetch the full item when the selection changes, and again when its status does
    // (variants, renditions and chapters are known once it has loaded).
    const summary = state.queue?.items.find((entry) => entry.id === state.selectedItemId);
    const key = state.selectedItemId ? `${state.selectedQueueId}/${state.selectedItemId}/${summary?.status}` : null;
    if (key && key !== fetchedKey) {
      fetchedKey = key;
      fetchDetails(state.selectedQueueId, state.selectedItemId);
    }
    const isCurrent = item?.id === state.queue?.currentItemId;
    const renderKey = [item, isCurrent];
    if (shown && shown[0] === renderKey[0] && shown[1] === renderKey[1]) return;
    shown = renderKey;
    if (!item) {
      body.replaceChildren(h("p", { class: "empty", text: "Select an item to see its details." }));
      return;
    }
    const sections = [summaryFacts(item, isCurrent)];
    if (!state.details) {
      sections.push(h("p", { class: "hint", text: "Loading details…" }));
      body.replaceChildren(...sections);
      return;
    }
    if (item.variants.length) {
      sections.push(h("h3", { text: "Variants" }), table([
        { title: "", value: (v) => (v.isCurrent ? "▶" : "") },
        { title: "Bandwidth", value: (v) => formatBitrate(v.bandwidth), numeric: true },
        { title: "Resolution", value: (v) => v.resolution ?? "–" },
        { title: "FPS", value: (v) => (isSeconds(v.frameRate) ? String(v.frameRate) : "–"), numeric: true },
        { title: "Codecs", value: (v) => v.codecs ?? "–" },
      ], item.variants, { caption: "Variants" }));
    }
    if (item.mediaSelectionGroups.length) {
      sections.push(h("h3", { text: "Renditions" }), ...mediaSelection(item));
    }
    if (item.chapters.length) {
      sections.push(h("h3", { text: "Chapters" }), chapterList(item));
    }
    if (item.linearPlaybackRanges?.length) {
      sections.push(h("h3", { text: "Linear playback" }), table([
        { title: "From", value: (r) => formatTime(r.start) },
        { title: "To", value: (r) => formatTime(r.end) },
        { title: "Label", value: (r) => r.label ?? "" },
      ], item.linearPlaybackRanges, { caption: "Ranges where seeking is refused" }));
    }
    sections.push(h("h3", { text: `Access log (${item.accessLog.length})` }));
    sections.push(item.accessLog.length ? table([
      { title: "Type", value: (e) => e.playbackType ?? "–" },
      { title: "Req.", value: (e) => String(e.numberOfMediaRequests ?? "–"), numeric: true },
      { title: "Bytes", value: (e) => formatBytes(e.numberOfBytesTransferred), numeric: true },
      { title: "Bit rate", value: (e) => formatBitrate(e.observedBitrate), numeric: true },
      { title: "Stalls", value: (e) => String(e.numberOfStalls ?? 0), numeric: true },
      { title: "Watched", value: (e) => formatSeconds(e.durationWatched), numeric: true },
    ], item.accessLog, {
      caption: "Access log",
      detail: (e) => [e.playbackStartDate ? `started ${formatClock(e.playbackStartDate)}` : null,
        e.indicatedBitrate ? `indicated ${formatBitrate(e.indicatedBitrate)}` : null, e.uri].filter(Boolean).join(" · "),
    }) : h("p", { class: "empty", text: "No entries." }));
    sections.push(h("h3", { text: `Error log (${item.errorLog.length})` }));
    sections.push(item.errorLog.length ? table([
      { title: "Time", value: (e) => formatClock(e.date) },
      { title: "Status", value: (e) => String(e.statusCode ?? "–"), numeric: true },
      { title: "Domain", value: (e) => e.domain ?? "–" },
      { title: "Comment", value: (e) => e.comment ?? "", wrap: true },
    ], item.errorLog, { caption: "Error log", detail: (e) => e.uri ?? null }) : h("p", { class: "empty", text: "No entries." }));
    // Rebuilding must not drop the keyboard focus from a control the person is using.
    const focusedId = body.contains(document.activeElement) ? document.activeElement.id : null;
    body.replaceChildren(...sections);
    if (focusedId) document.getElementById(focusedId)?.focus();
  }

  store.subscribe(render);
}
