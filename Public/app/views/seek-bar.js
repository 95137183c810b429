// The seek bar: draws the seekable range, the loaded ranges, chapter marks and the playhead;
// seeks on click or drag (pointer events) and with the keyboard (a `role="slider"`).

import { drawRanges } from "./dom.js";
import { formatTime, fractionOf } from "../time.js";

const SMALL_STEP = 5;
const LARGE_STEP = 15;
const KEY_SEEK_DELAY_MS = 250;

/**
 * Binds the seek bar element.
 * @param {HTMLElement} element the `role="slider"` element with its layers
 * @param {{onSeek: (time: number) => Promise<unknown>}} options called with the time to seek to;
 *   settles when the server has answered
 * @returns {{setTimeline: Function, drawPlayhead: (time: number) => void}}
 */
export function bindSeekBar(element, { onSeek }) {
  const layer = (name) => element.querySelector(`[data-layer="${name}"]`);
  const seekable = layer("seekable");
  const loaded = layer("loaded");
  const chapters = layer("chapters");
  const playhead = layer("playhead");
  const hover = layer("hover");
  let timeline = null;
  let seekableRanges = [];
  let dragTime = null;
  let keyTarget = null;
  let keyTimer = null;
  // A seek sent and not yet answered: the playhead stays at its target meanwhile, rather
  // than going back to the old position until the answer moves it.
  let seekingTo = null;
  let lastAnnouncedSecond = null;

  function timeAt(clientX) {
    const box = element.getBoundingClientRect();
    const fraction = Math.min(1, Math.max(0, (clientX - box.left) / box.width));
    return clamp(timeline.start + fraction * (timeline.end - timeline.start));
  }

  // Seeks stay inside the seekable ranges: outside them the server refuses.
  function clamp(time) {
    if (seekableRanges.length === 0) return time;
    const first = seekableRanges[0].start;
    const last = seekableRanges[seekableRanges.length - 1].end;
    return Math.min(Math.max(time, first), last);
  }

  function place(time) {
    playhead.style.width = `${(fractionOf(time, timeline) * 100).toFixed(3)}%`;
  }

  element.addEventListener("pointerdown", (event) => {
    if (!timeline || event.button !== 0) return;
    event.preventDefault();
    element.focus();
    element.setPointerCapture(event.pointerId);
    dragTime = timeAt(event.clientX);
    place(dragTime);
  });
  element.addEventListener("pointermove", (event) => {
    if (!timeline) return;
    const time = timeAt(event.clientX);
    hover.hidden = false;
    hover.style.left = `${(fractionOf(time, timeline) * 100).toFixed(3)}%`;
    element.title = formatTime(time);
    if (dragTime !== null) {
      dragTime = time;
      place(time);
    }
  });
  element.addEventListener("pointerleave", () => { hover.hidden = true; });
  element.addEventListener("pointerup", (event) => {
    if (dragTime === null) return;
    const time = timeAt(event.clientX);
    dragTime = null;
    seek(time);
  });
  element.addEventListener("pointercancel", () => { dragTime = null; });

  element.addEventListener("keydown", (event) => {
    if (!timeline) return;
    const base = keyTarget ?? seekingTo ?? currentTime;
    let target;
    switch (event.key) {
      case "ArrowLeft": case "ArrowDown": target = base - SMALL_STEP; break;
      case "ArrowRight": case "ArrowUp": target = base + SMALL_STEP; break;
      case "PageDown": target = base - LARGE_STEP; break;
      case "PageUp": target = base + LARGE_STEP; break;
      case "Home": target = timeline.start; break;
      case "End": target = timeline.end; break;
      default: return;
    }
    event.preventDefault();
    keyTarget = clamp(Math.min(Math.max(target, timeline.start), timeline.end));
    place(keyTarget);
    announce(keyTarget, true);
    // Held keys repeat: send one seek when they settle rather than one per repeat.
    clearTimeout(keyTimer);
    keyTimer = setTimeout(() => {
      const time = keyTarget;
      keyTarget = null;
      seek(time);
    }, KEY_SEEK_DELAY_MS);
  });

  function seek(time) {
    seekingTo = time;
    place(time);
    announce(time, true);
    onSeek(time).finally(() => {
      if (seekingTo === time) seekingTo = null;
    });
  }

  let currentTime = 0;

  function announce(time, force = false) {
    const second = Math.floor(time);
    if (!force && second === lastAnnouncedSecond) return;
    lastAnnouncedSecond = second;
    element.setAttribute("aria-valuenow", String(second));
    element.setAttribute("aria-valuetext", timeline ? `${formatTime(time)} of ${formatTime(timeline.end)}` : "no item");
  }

  return {
    /**
     * Sets what the bar spans and draws.
     * @param {{start: number, end: number}|null} span
     * @param {{seekable: object[], loaded: object[], chapters: object[]}} ranges
     */
    setTimeline(span, { seekable: seekableList = [], loaded: loadedList = [], chapters: chapterList = [] } = {}) {
      timeline = span;
      seekableRanges = seekableList;
      element.setAttribute("aria-disabled", span ? "false" : "true");
      element.setAttribute("aria-valuemin", String(span ? Math.floor(span.start) : 0));
      element.setAttribute("aria-valuemax", String(span ? Math.ceil(span.end) : 0));
      const drawn = span ?? { start: 0, end: 0 };
      drawRanges(seekable, span ? seekableList : [], drawn);
      drawRanges(loaded, span ? loadedList : [], drawn);
      drawRanges(chapters, span ? chapterList.map((chapter) => ({ start: chapter.start, end: chapter.end })) : [], drawn);
      if (!span) {
        playhead.style.width = "0";
        element.setAttribute("aria-valuetext", "no item");
      }
    },
    /** @param {number} time the extrapolated server playhead, drawn unless a drag, key or sent seek is under way */
    drawPlayhead(time) {
      currentTime = time;
      if (!timeline || dragTime !== null || keyTarget !== null || seekingTo !== null) return;
      place(time);
      announce(time);
    },
  };
}
