// The Media Session: the system's media controls (keyboard media keys, lock screen,
// notification) show the current item and drive the server through the API.

const SKIP_SECONDS = 15;

/**
 * Registers the action handlers.
 * @param {(command: object) => void} send sends a command to the shown queue
 * @returns {{update: Function}}
 */
export function bindMediaSession(send) {
  const session = navigator.mediaSession;
  if (!session) return { update() {} };
  const handlers = {
    play: () => send({ command: "play" }),
    pause: () => send({ command: "pause" }),
    seekbackward: (details) => send({ command: "skip", by: -(details.seekOffset ?? SKIP_SECONDS) }),
    seekforward: (details) => send({ command: "skip", by: details.seekOffset ?? SKIP_SECONDS }),
    previoustrack: () => send({ command: "previous" }),
    nexttrack: () => send({ command: "advance" }),
    seekto: (details) => send({ command: "seek", time: details.seekTime }),
  };
  for (const [action, handler] of Object.entries(handlers)) {
    try {
      session.setActionHandler(action, handler);
    } catch {
      // An action this browser does not know: the others still work.
    }
  }
  let shownKey = null;

  return {
    /**
     * Shows the current item and the playback state.
     * @param {{title: string, queueName: string, playing: boolean, duration: number|null, rate: number, time: number}|null} now
     */
    update(now) {
      if (!now) {
        if (shownKey !== null) {
          session.metadata = null;
          session.playbackState = "none";
          shownKey = null;
        }
        return;
      }
      const key = `${now.title}\u0000${now.queueName}`;
      if (key !== shownKey) {
        shownKey = key;
        session.metadata = new MediaMetadata({ title: now.title, artist: now.queueName, album: "hlsq" });
      }
      session.playbackState = now.playing ? "playing" : "paused";
      if (now.duration && now.rate !== 0 && session.setPositionState) {
        try {
          session.setPositionState({
            duration: now.duration,
            playbackRate: Math.abs(now.rate) || 1,
            position: Math.min(Math.max(0, now.time), now.duration),
          });
        } catch {
          // The browser refuses inconsistent positions (for example at a rate change); the next frame fixes it.
        }
      }
    },
  };
}
