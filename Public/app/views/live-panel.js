// The live panel, for a live item: latency against its target, the forward buffer over the
// last five minutes (fed by events), the playlist reload cadence and age, the media
// sequence, and stale and health alerts as they arrive.

import { h, facts } from "./dom.js";
import { formatSeconds, formatClock, isSeconds } from "../time.js";
import { drawSparkline } from "./sparkline.js";

const WINDOW_MS = 5 * 60 * 1000;

/**
 * Binds the live panel.
 * @param {{store: ReturnType<import("../store.js").createStore>}} context
 * @returns {{tick: (now: number) => void}}
 */
export function bindLivePanel({ store }) {
  const panel = document.getElementById("live-panel");
  const factList = document.getElementById("live-facts");
  const sparkline = document.getElementById("sparkline");
  const sparklineSummary = document.getElementById("sparkline-summary");
  const alertList = document.getElementById("live-alerts");
  let shownAlerts = null;

  function liveItem(state) {
    const item = state.details?.id === state.selectedItemId ? state.details : null;
    const summary = state.queue?.items.find((entry) => entry.id === state.selectedItemId);
    if (!(item?.live || item?.isLive || summary?.isLive)) return null;
    return { id: state.selectedItemId, live: item?.live ?? null, preferences: item?.preferences ?? null };
  }

  function cadence(reloads) {
    if (!reloads || reloads.length < 2) return null;
    const gaps = reloads.slice(1).map((at, i) => at - reloads[i]);
    return gaps.reduce((sum, gap) => sum + gap, 0) / gaps.length / 1000;
  }

  function draw(now) {
    const state = store.state;
    const item = liveItem(state);
    panel.hidden = !item;
    if (!item) return;
    const live = item.live;
    const reloadEvery = cadence(state.reloads.get(item.id));
    const sinceReload = live?.lastReloadAt ? (now - Date.parse(live.lastReloadAt)) / 1000 : null;
    if (!live) {
      facts([["Status", "no live figures yet: the playlist has not been loaded"]], factList);
    } else {
      facts([
        ["Latency", `${formatSeconds(live.latency)} (target ${formatSeconds(live.targetLatency)})`],
        ["Wall-clock latency", formatSeconds(live.wallClockLatency)],
        ["Live edge", formatSeconds(live.liveEdge)],
        ["Media sequence", isSeconds(live.mediaSequence) ? String(live.mediaSequence) : "–"],
        ["Window", formatSeconds(live.windowLength)],
        ["Target duration", formatSeconds(live.targetDuration, 0)],
        ["Reloads", reloadEvery !== null
          ? `every ${reloadEvery.toFixed(1)} s (planned ${formatSeconds(live.reloadInterval)})`
          : `planned every ${formatSeconds(live.reloadInterval)}`],
        ["Last reload", live.lastReloadAt ? `${formatClock(live.lastReloadAt)} (${Math.max(0, sinceReload).toFixed(0)} s ago)` : "–"],
        ["Playlist age", formatSeconds(live.playlistAge)],
        ["Playlist", live.isStale ? h("span", { class: "stale-flag", text: "stale: not changing" }) : "changing"],
        ...live.health.map((check) => [check.check, `${check.message} (since ${formatClock(check.since)})`]),
      ], factList);
    }
    const samples = (state.bufferSamples.get(item.id) ?? []).filter((sample) => now - sample.at <= WINDOW_MS);
    const target = item.preferences?.preferredForwardBufferDuration || null;
    drawSparkline(sparkline, samples, { now, windowMs: WINDOW_MS, target });
    if (samples.length) {
      const values = samples.map((sample) => sample.value);
      sparklineSummary.textContent = `now ${values.at(-1).toFixed(1)} s · min ${Math.min(...values).toFixed(1)} s · max ${Math.max(...values).toFixed(1)} s · ${samples.length} samples`;
    } else {
      sparklineSummary.textContent = "No samples yet.";
    }
    const alerts = state.healthLog.filter((entry) => entry.itemId === item.id);
    if (alerts !== shownAlerts && JSON.stringify(alerts) !== JSON.stringify(shownAlerts)) {
      shownAlerts = alerts;
      alertList.replaceChildren(...(alerts.length ? alerts.map((entry) =>
        h("li", { dataset: { state: entry.state } },
          h("time", { datetime: new Date(entry.at).toISOString(), text: new Date(entry.at).toLocaleTimeString() }),
          h("strong", { text: `${entry.check}: ${entry.state}` }), ` — ${entry.message}`))
        : [h("li", { text: "No alerts." })]));
    }
  }

  store.subscribe(() => draw(Date.now()));
  return {
    /** Redraws what depends on the clock (ages, the sparkline's window); about once a second. */
    tick: draw,
  };
}
