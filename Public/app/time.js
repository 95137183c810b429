// Times as the API writes them (seconds, "indefinite", null) and the playhead between events.

/**
 * Whether a time from the API is a number of seconds (not "indefinite", not null).
 * @param {unknown} value
 * @returns {value is number}
 */
export function isSeconds(value) {
  return typeof value === "number" && Number.isFinite(value);
}

/**
 * "m:ss" or "h:mm:ss"; "–" for an indefinite or unknown time.
 * @param {number|string|null} seconds
 */
export function formatTime(seconds) {
  if (!isSeconds(seconds)) return "–";
  const sign = seconds < 0 ? "−" : "";
  const total = Math.floor(Math.abs(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${sign}${h}:${String(m).padStart(2, "0")}:${s}` : `${sign}${m}:${s}`;
}

/**
 * Seconds with a fixed number of decimals and a unit, "–" when unknown.
 * @param {number|null} seconds
 * @param {number} [digits]
 */
export function formatSeconds(seconds, digits = 1) {
  return isSeconds(seconds) ? `${seconds.toFixed(digits)} s` : "–";
}

/** @param {number|null} bitsPerSecond */
export function formatBitrate(bitsPerSecond) {
  if (!isSeconds(bitsPerSecond) || bitsPerSecond <= 0) return "–";
  if (bitsPerSecond >= 1e6) return `${(bitsPerSecond / 1e6).toFixed(2)} Mb/s`;
  return `${Math.round(bitsPerSecond / 1e3)} kb/s`;
}

/** @param {number|null} bytes */
export function formatBytes(bytes) {
  if (!isSeconds(bytes)) return "–";
  if (bytes >= 1 << 20) return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
  if (bytes >= 1 << 10) return `${(bytes / (1 << 10)).toFixed(1)} KiB`;
  return `${bytes} B`;
}

/** @param {string|null} iso a date from the API */
export function formatClock(iso) {
  if (!iso) return "–";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "–" : date.toLocaleTimeString();
}

/**
 * The span a bar draws for an item: [0, duration] for a timed item, the seekable window
 * for a live one, null when nothing is known yet.
 * @param {{duration: number|string|null, seekableTimeRanges: {start: number, end: number}[]}} item
 * @returns {{start: number, end: number}|null}
 */
export function timelineOf(item) {
  if (!item) return null;
  if (isSeconds(item.duration) && item.duration > 0) return { start: 0, end: item.duration };
  const ranges = item.seekableTimeRanges ?? [];
  if (ranges.length === 0) return null;
  const start = ranges[0].start;
  const end = ranges[ranges.length - 1].end;
  return end > start ? { start, end } : null;
}

/**
 * The playhead, extrapolated from the last known position: while playing it moves by
 * rate × elapsed time, and stays within the timeline.
 * @param {{time: number, at: number, rate: number, playing: boolean}|null} anchor
 * @param {number} now milliseconds (Date.now())
 * @param {{start: number, end: number}|null} [timeline]
 */
export function playheadAt(anchor, now, timeline = null) {
  if (!anchor) return 0;
  let time = anchor.time;
  if (anchor.playing) time += (anchor.rate * Math.max(0, now - anchor.at)) / 1000;
  if (timeline) time = Math.min(Math.max(time, timeline.start), timeline.end);
  return time;
}

/**
 * A fraction of the timeline in [0, 1].
 * @param {number} time
 * @param {{start: number, end: number}} timeline
 */
export function fractionOf(time, timeline) {
  const span = timeline.end - timeline.start;
  if (span <= 0) return 0;
  return Math.min(1, Math.max(0, (time - timeline.start) / span));
}
