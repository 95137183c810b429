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

  function formatRanges(ranges) {
    return ranges?.length ? ranges.map((range) => `${formatTime(range.start)}–${formatTime(range.end)}`).join(", ") : "–";
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
      ["Seekable", formatRanges(item.seekableTimeRanges)],
      ["Loaded", formatRanges(item.loadedTimeRanges)],
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

  function variantsSection(item) {
    return [h("h3", { text: "Variants" }), table([
      { title: "", value: (v) => (v.isCurrent ? "▶" : "") },
      { title: "Bandwidth", value: (v) => formatBitrate(v.bandwidth), numeric: true },
      { title: "Resolution", value: (v) => v.resolution ?? "–" },
      { title: "FPS", value: (v) => (isSeconds(v.frameRate) ? String(v.frameRate) : "–"), numeric: true },
      { title: "Codecs", value: (v) => v.codecs ?? "–" },
    ], item.variants, { caption: "Variants" })];
  }

  function linearPlaybackSection(item) {
    return [h("h3", { text: "Linear playback" }), table([
      { title: "From", value: (r) => formatTime(r.start) },
      { title: "To", value: (r) => formatTime(r.end) },
      { title: "Label", value: (r) => r.label ?? "" },
    ], item.linearPlaybackRanges, { caption: "Ranges where seeking is refused" })];
  }

  function accessLogSection(item) {
    return [h("h3", { text: `Access log (${item.accessLog.length})` }), item.accessLog.length ? table([
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
    }) : h("p", { class: "empty", text: "No entries." })];
  }

  function errorLogSection(item) {
    return [h("h3", { text: `Error log (${item.errorLog.length})` }), item.errorLog.length ? table([
      { title: "Time", value: (e) => formatClock(e.date) },
      { title: "Status", value: (e) => String(e.statusCode ?? "–"), numeric: true },
      { title: "Domain", value: (e) => e.domain ?? "–" },
      { title: "Comment", value: (e) => e.comment ?? "", wrap: true },
    ], item.errorLog, { caption: "Error log", detail: (e) => e.uri ?? null }) : h("p", { class: "empty", text: "No entries." })];
  }

  /**
   * The sections to show, each with the values it is drawn from. While an item plays,
   * itemUpdated events change it several times a second; only the summary depends on what
   * they carry, so the menus, chapter buttons and log tables stay the same elements: an open
   * menu stays open and a click is not lost between press and release.
   */
  function sectionsOf(state, item, isCurrent) {
    if (!item) return [["empty", [], () => [h("p", { class: "empty", text: "Select an item to see its details." })]]];
    const sections = [["summary", [item, isCurrent], () => [summaryFacts(item, isCurrent)]]];
    if (!state.details) return [...sections, ["loading", [], () => [h("p", { class: "hint", text: "Loading details…" })]]];
    // Only the loading window (the current item and the next one) is loaded, so an item
    // further down has no variants, renditions or chapters to show yet.
    if (item.status === "unknown") {
      sections.push(["not-loaded", [], () => [h("p", { class: "hint", text: "Not loaded yet: its variants, renditions and chapters appear when it becomes the current or next item." })]]);
    }
    if (item.variants.length) sections.push(["variants", [item.variants], () => variantsSection(item)]);
    if (item.mediaSelectionGroups.length) {
      sections.push(["renditions", [item.id, item.mediaSelectionGroups], () => [h("h3", { text: "Renditions" }), ...mediaSelection(item)]]);
    }
    if (item.chapters.length) sections.push(["chapters", [item.id, item.chapters], () => [h("h3", { text: "Chapters" }), chapterList(item)]]);
    if (item.linearPlaybackRanges?.length) sections.push(["linear", [item.linearPlaybackRanges], () => linearPlaybackSection(item)]);
    sections.push(["access-log", [item.accessLog], () => accessLogSection(item)]);
    sections.push(["error-log", [item.errorLog], () => errorLogSection(item)]);
    return sections;
  }

  /** name → {element, inputs} of the sections on show */
  const built = new Map();

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
    const wanted = sectionsOf(state, item, isCurrent);
    // A rebuilt section must not drop the keyboard focus from a control the person is using.
    const focused = body.contains(document.activeElement) ? document.activeElement : null;
    const focusedLabel = focused?.getAttribute("aria-label");
    const names = new Set(wanted.map(([name]) => name));
    for (const [name, section] of built) {
      if (!names.has(name)) {
        section.element.remove();
        built.delete(name);
      }
    }
    wanted.forEach(([name, inputs, build], position) => {
      let section = built.get(name);
      const unchanged = section && section.inputs.length === inputs.length
        && section.inputs.every((input, index) => input === inputs[index]);
      if (!unchanged) {
        const element = h("div", { class: "inspector-section", dataset: { section: name } }, ...build());
        if (section) section.element.replaceWith(element);
        section = { element, inputs };
        built.set(name, section);
      }
      const expected = body.children[position];
      if (expected !== section.element) body.insertBefore(section.element, expected ?? null);
    });
    // The placeholder the page starts with.
    for (const child of [...body.children]) if (!child.classList.contains("inspector-section")) child.remove();
    if (focused && !focused.isConnected) {
      const replacement = focused.id ? document.getElementById(focused.id)
        : focusedLabel ? body.querySelector(`[aria-label="${CSS.escape(focusedLabel)}"]`) : null;
      replacement?.focus();
    }
  }

  store.subscribe(render);
}
