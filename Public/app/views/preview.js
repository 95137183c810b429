// The <video> preview: it shows the server's current item and follows the server's clock.
// It is muted (so autoplay is allowed) and never drives the server: the server plays, the
// preview follows. When the element drifts more than a second from the server's playhead it
// is moved there; it plays while the server plays and pauses otherwise.

const DRIFT_LIMIT_SECONDS = 1;
const MEDIA_ERRORS = {
  1: "loading was aborted",
  2: "a network error stopped the download",
  3: "the media could not be decoded",
  4: "this browser cannot play this format or URL",
};

/**
 * Binds the preview element.
 * @param {HTMLVideoElement} video
 * @param {HTMLElement} stateLine where the preview's state is written for people to read
 * @returns {{follow: Function}}
 */
export function bindPreview(video, stateLine) {
  let shownURL = null;

  function say(text) {
    if (stateLine.textContent !== text) stateLine.textContent = text;
  }

  video.addEventListener("loadstart", () => { delete video.dataset.canplay; say("Preview: loading…"); });
  video.addEventListener("canplay", () => { video.dataset.canplay = "true"; say("Preview: ready"); });
  video.addEventListener("playing", () => say("Preview: playing (muted)"));
  video.addEventListener("waiting", () => say("Preview: buffering…"));
  video.addEventListener("error", () => {
    const code = video.error?.code;
    say(`Preview: ${MEDIA_ERRORS[code] ?? "the media failed"}${video.error?.message ? ` (${video.error.message})` : ""}`);
  });

  return {
    /**
     * Brings the preview in line with the server; called every frame.
     * @param {{url: string, isLive: boolean}|null} item the server's current item
     * @param {{playing: boolean, rate: number, time: number}} server its status and playhead now
     */
    follow(item, { playing, rate, time }) {
      const url = item?.url ?? null;
      if (url !== shownURL) {
        shownURL = url;
        if (url) {
          video.src = url;
        } else {
          video.removeAttribute("src");
          video.load();
          delete video.dataset.canplay;
          say("Preview: no current item");
        }
      }
      if (!url || video.readyState === HTMLMediaElement.HAVE_NOTHING) return;
      // Browsers play forward only; for reverse play the preview follows by seeking.
      const playsForward = playing && rate > 0;
      if (playsForward && video.playbackRate !== rate) video.playbackRate = rate;
      if (playsForward && video.paused) video.play().catch(() => {});
      if (!playsForward && !video.paused) video.pause();
      // A live stream's media timeline is the browser's own: only timed items are aligned.
      if (!item.isLive && !video.seeking && Math.abs(video.currentTime - time) > DRIFT_LIMIT_SECONDS) {
        video.currentTime = time;
      }
    },
  };
}
