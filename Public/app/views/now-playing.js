// Now playing: the current item, the preview, transport, rate, the seek bar, loop mode and
// the action at item end. Every control sends a command or a settings change to the API;
// what is shown comes from the server's answers and events.
//
// Stalls: while the current item waits for media after it began to play (the server says
// `waitingToPlayAtSpecifiedRate` because `toMinimizeStalls`, which a `playbackStalled`
// leads to), a notice says so in a polite status region, until it plays or pauses. Next to
// it, the item's stall count: the server's figure, read from the item's access log when the
// item becomes current and again after each stall, so a reload shows the same number.

import { bindSeekBar } from "./seek-bar.js";
import { bindPreview } from "./preview.js";
import { bindMediaSession } from "./media-session.js";
import { icon, fillIcons } from "./icons.js";
import { h } from "./dom.js";
import { formatTime, timelineOf, playheadAt, isSeconds } from "../time.js";

const SKIP_SECONDS = 15;
const WAIT_REASONS = {
  toMinimizeStalls: "buffering to avoid a stall",
  evaluatingBufferingRate: "evaluating the buffer",
  noItemToPlay: "no item to play",
};

/**
 * Binds the now-playing panel.
 * @param {object} context
 * @param {ReturnType<import("../store.js").createStore>} context.store
 * @param {ReturnType<import("../api.js").createApi>} context.api
 * @param {ReturnType<import("./alerts.js").createAlerts>} context.alerts
 * @returns {{frame: (now: number) => {itemId: string|null, time: number}}}
 */
export function bindNowPlaying({ store, api, alerts }) {
  const $ = (id) => document.getElementById(id);
  const title = $("now-title");
  const url = $("now-url");
  const status = $("player-status");
  const current = $("time-current");
  const duration = $("time-duration");
  const playPause = $("play-pause");
  const rateSelect = $("rate-select");
  const loopSelect = $("loop-select");
  const loopPlaysField = $("loop-plays-field");
  const loopPlays = $("loop-plays");
  const actionSelect = $("action-select");
  const consumeCheck = $("consume-check");
  const pipButton = $("pip-button");
  const video = $("preview");
  const transport = $("transport");
  const stallLine = $("stall-line");
  const stallCount = $("stall-count");
  const stallNotice = $("stall-notice");
  fillIcons(transport);

  async function send(command, action = "Playback") {
    const queueId = store.state.selectedQueueId;
    if (!queueId) return;
    try {
      store.applySnapshot(await api.command(queueId, command));
    } catch (error) {
      alerts.error(action, error);
    }
  }

  async function patch(changes, action) {
    const queueId = store.state.selectedQueueId;
    if (!queueId) return;
    try {
      store.applySnapshot(await api.updateQueue(queueId, changes));
    } catch (error) {
      alerts.error(action, error);
      render(store.state); // show the settings as the server has them
    }
  }

  const seekBar = bindSeekBar($("seek-bar"), {
    onSeek: (time) => send({ command: "seek", time: Math.round(time * 1000) / 1000 }, "Seek"),
  });
  const preview = bindPreview(video, $("preview-state"));
  const mediaSession = bindMediaSession((command) => send(command));

  transport.addEventListener("click", (event) => {
    const button = event.target.closest("[data-command]");
    if (!button) return;
    const queue = store.state.queue;
    switch (button.dataset.command) {
      case "toggle":
        send({ command: queue && queue.rate !== 0 ? "pause" : "play" }, queue && queue.rate !== 0 ? "Pause" : "Play");
        break;
      case "skip-back": send({ command: "skip", by: -SKIP_SECONDS }, "Skip back"); break;
      case "skip-forward": send({ command: "skip", by: SKIP_SECONDS }, "Skip forward"); break;
      case "previous": send({ command: "previous" }, "Previous item"); break;
      case "advance": send({ command: "advance" }, "Next item"); break;
      default: break;
    }
  });

  // While playing, the menu changes the rate; while paused it sets the rate `play` will use.
  rateSelect.addEventListener("change", () => {
    const rate = Number(rateSelect.value);
    const queue = store.state.queue;
    if (queue && queue.rate !== 0) send({ command: "setRate", rate }, "Change rate");
    else patch({ defaultRate: rate }, "Change rate");
  });

  function loopSetting() {
    const mode = loopSelect.value;
    if (mode !== "item") return { mode };
    const plays = loopPlays.value === "" ? null : Number(loopPlays.value);
    return { mode, plays };
  }
  loopSelect.addEventListener("change", () => {
    loopPlaysField.hidden = loopSelect.value !== "item";
    patch({ loop: loopSetting() }, "Change loop mode");
  });
  loopPlays.addEventListener("change", () => patch({ loop: loopSetting() }, "Change loop count"));
  actionSelect.addEventListener("change", () => patch({ actionAtItemEnd: actionSelect.value }, "Change action at item end"));
  consumeCheck.addEventListener("change", () => patch({ consume: consumeCheck.checked }, "Change consume"));

  pipButton.addEventListener("click", async () => {
    try {
      if (document.pictureInPictureElement) await document.exitPictureInPicture();
      else await video.requestPictureInPicture();
    } catch (error) {
      alerts.error("Picture in picture", error);
    }
  });
  const updatePip = () => {
    const available = document.pictureInPictureEnabled && video.readyState >= HTMLMediaElement.HAVE_METADATA;
    pipButton.disabled = !available;
    pipButton.setAttribute("aria-pressed", document.pictureInPictureElement === video ? "true" : "false");
  };
  for (const type of ["loadedmetadata", "emptied", "enterpictureinpicture", "leavepictureinpicture"]) {
    video.addEventListener(type, updatePip);
  }
  updatePip();

  // The request behind the stall count on show: `queue/item/announced stalls/whether known`.
  // A new key (another item, a stall announced, the counts forgotten) reads the count again.
  let stallCountKey = null;

  async function readStallCount(queueId, itemId, announced) {
    try {
      const item = await api.getItem(queueId, itemId);
      store.setStallCount(item, announced);
      // The inspector's access log, with its Stalls column, is as new.
      store.setDetails(item);
    } catch (error) {
      if (error.status !== 404) alerts.error("Stall count", error);
    }
  }

  function renderStalls(state, item) {
    const queue = state.queue;
    stallLine.hidden = !item;
    if (!item) {
      stallNotice.replaceChildren();
      return;
    }
    const announced = store.stallsAnnounced(item.id);
    const count = state.stalls.get(item.id)?.count ?? null;
    const key = `${queue.id}/${item.id}/${announced}/${count === null ? "unknown" : "known"}`;
    if (key !== stallCountKey) {
      stallCountKey = key;
      readStallCount(queue.id, item.id, announced);
    }
    stallCount.textContent = count === null ? "" : count === 0 ? "No stalls" : `${count} ${count === 1 ? "stall" : "stalls"}`;
    if (count === null) delete stallCount.dataset.count;
    else stallCount.dataset.count = String(count);
    const stalled = queue.timeControlStatus === "waitingToPlayAtSpecifiedRate" && queue.reasonForWaitingToPlay === "toMinimizeStalls";
    // The region stays in the page; only its content comes and goes, so that it is announced.
    if (stalled && !stallNotice.firstChild) {
      stallNotice.replaceChildren(h("p", { class: "stall-banner" },
        h("strong", { text: "Stalled" }),
        h("span", { text: "The buffer ran dry: playback resumes once enough media has loaded." })));
    } else if (!stalled && stallNotice.firstChild) {
      stallNotice.replaceChildren();
    }
  }

  function statusText(queue) {
    if (!queue) return "";
    if (queue.timeControlStatus === "playing") return `Playing at ${queue.rate}×`;
    if (queue.timeControlStatus === "paused") return "Paused";
    const reason = WAIT_REASONS[queue.reasonForWaitingToPlay] ?? queue.reasonForWaitingToPlay ?? "";
    return `Waiting${reason ? `: ${reason}` : ""}`;
  }

  function selectValue(select, value) {
    const text = String(value);
    if (![...select.options].some((option) => option.value === text)) {
      select.append(new Option(`${value}×`, text));
    }
    select.value = text;
  }

  function render(state) {
    const queue = state.queue;
    const item = store.currentItem();
    document.querySelectorAll("#transport button, #rate-select, #loop-select, #action-select, #consume-check, #loop-plays")
      .forEach((control) => { control.disabled = !queue; });
    updatePip();
    title.textContent = item ? item.title || item.url : "Nothing is playing";
    url.textContent = item ? item.url : "";
    url.title = item?.url ?? "";
    status.textContent = statusText(queue);
    const playing = Boolean(queue && queue.rate !== 0);
    if (playPause.dataset.icon !== (playing ? "pause" : "play")) {
      playPause.dataset.icon = playing ? "pause" : "play";
      playPause.replaceChildren(icon(playPause.dataset.icon));
    }
    playPause.setAttribute("aria-label", playing ? "Pause" : "Play");
    playPause.title = playing ? "Pause" : "Play";
    duration.textContent = item ? (item.isLive ? "live" : formatTime(item.duration)) : "0:00";
    renderStalls(state, item);
    if (!queue) return;
    selectValue(rateSelect, queue.rate !== 0 ? queue.rate : queue.settings.defaultRate);
    const loop = queue.settings.loop;
    loopSelect.value = loop.mode;
    loopPlaysField.hidden = loop.mode !== "item";
    if (document.activeElement !== loopPlays) loopPlays.value = loop.mode === "item" && loop.plays ? String(loop.plays) : "";
    actionSelect.value = queue.settings.actionAtItemEnd;
    consumeCheck.checked = queue.settings.consume;
    const details = state.details?.id === item?.id ? state.details : null;
    seekBar.setTimeline(timelineOf(item), {
      seekable: item?.seekableTimeRanges ?? [],
      loaded: item?.loadedTimeRanges ?? [],
      chapters: details?.chapters ?? [],
    });
  }

  store.subscribe(render);
  render(store.state);

  let lastSessionUpdate = 0;
  return {
    /**
     * Moves what follows the clock: the times, the seek bar's playhead, the preview and the
     * media session. Called every animation frame.
     * @param {number} now Date.now()
     * @returns {{itemId: string|null, time: number}} the extrapolated playhead
     */
    frame(now) {
      const { queue, playhead } = store.state;
      const item = store.currentItem();
      const timeline = timelineOf(item);
      const time = playheadAt(playhead, now, timeline);
      current.textContent = item ? formatTime(time) : "0:00";
      seekBar.drawPlayhead(time);
      const playing = queue?.timeControlStatus === "playing";
      preview.follow(item, { playing, rate: queue?.rate ?? 0, time });
      if (now - lastSessionUpdate > 1000) {
        lastSessionUpdate = now;
        mediaSession.update(item ? {
          title: item.title || item.url,
          queueName: queue.name,
          playing,
          duration: isSeconds(item.duration) ? item.duration : null,
          rate: queue.rate,
          time,
        } : null);
      }
      return { itemId: item?.id ?? null, time };
    },
  };
}
