"""The dashboard's pure modules (`store.js`, `time.js`), run in the browser as the page loads
them. These check the store's rules on given event sequences, the way the Swift suites drive
QueueCore with given reports: which event may change which snapshot, and what the live
panel gathers. Everything else is tested end to end in test_dashboard.py."""

from __future__ import annotations

import pytest


@pytest.fixture
def page(browser, server):
    browser.get(server.url + "/app/styles/tokens.css")  # any page of the server's origin
    yield browser
    browser.get("about:blank")


def run(page, body: str):
    """Runs `body` (an async function body with `store` and `time` modules in scope) and
    returns what it returns; a thrown error fails the test with its message."""
    result = page.execute_async_script(f"""
        const done = arguments[arguments.length - 1];
        (async () => {{
          const {{ createStore }} = await import("/app/store.js");
          const time = await import("/app/time.js");
          const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
          {body}
        }})().then((value) => done({{ value }}), (error) => done({{ error: String(error) }}));""")
    assert "error" not in result, result.get("error")
    return result["value"]


SNAPSHOT = """
  const item = (id, extra = {}) => ({ id, url: `http://x/${id}.mp4`, title: id, kind: "media", status: "readyToPlay",
    error: null, duration: 10, currentTime: 0, loadedTimeRanges: [], seekableTimeRanges: [{ start: 0, end: 10 }],
    buffer: { forwardBufferSeconds: 1 }, isLive: false, loopCount: 0, ...extra });
  const snapshot = (lastEventId, items, extra = {}) => ({ id: "q-1", name: "Q", settings: { loop: { mode: "off" } },
    rate: 0, timeControlStatus: "paused", reasonForWaitingToPlay: null, currentItemId: items[0]?.id ?? null,
    currentIndex: 0, currentTime: 0, serverTime: new Date().toISOString(), itemCount: items.length, items,
    history: [], lastEventId, ...extra });
"""


def test_an_event_older_than_the_shown_snapshot_changes_nothing(page):
    assert run(page, SNAPSHOT + """
        const store = createStore();
        store.selectQueue("q-1");
        store.applySnapshot(snapshot(10, [item("a"), item("b")]));
        store.applyEvent("itemUpdated", { queueId: "q-1", itemId: "b", item: item("b", { status: "failed" }) }, 9);
        const afterOld = store.state.queue.items[1].status;
        store.applyEvent("itemUpdated", { queueId: "q-1", itemId: "b", item: item("b", { status: "loading" }) }, 11);
        const afterNew = store.state.queue.items[1].status;
        const older = store.applySnapshot(snapshot(10, [item("a")]));
        return [afterOld, afterNew, older, store.state.queue.items.length];""") == ["readyToPlay", "loading", False, 2]


def test_events_that_arrive_before_their_snapshot_are_applied_after_it(page):
    assert run(page, SNAPSHOT + """
        const store = createStore();
        store.selectQueue("q-1");
        // The stream is faster than the GET: 11 is already in the snapshot, 13 is not.
        store.applyEvent("itemUpdated", { queueId: "q-1", itemId: "a", item: item("a", { title: "old" }) }, 11);
        store.applyEvent("itemUpdated", { queueId: "q-1", itemId: "a", item: item("a", { title: "new" }) }, 13);
        store.applySnapshot(snapshot(12, [item("a", { title: "snapshot" })]));
        return [store.state.queue.items[0].title, store.state.appliedEventId];""") == ["new", 13]


def test_a_truncated_snapshot_asks_for_the_whole_queue(page):
    # A change's answer and an event list the first 1,000 items of a long queue; the whole
    # queue (GET) ends the asking, even when no event came since the truncated one.
    assert run(page, SNAPSHOT + """
        const store = createStore();
        store.selectQueue("q-1");
        store.applySnapshot(snapshot(5, [item("a")], { itemCount: 1200 }));
        const fromAnswer = store.state.needsSnapshot;
        store.applyEvent("queueUpdated", { queueId: "q-1", ...snapshot(6, [item("a")], { itemCount: 1200 }) }, 6);
        const fromEvent = store.state.needsSnapshot;
        store.applySnapshot(snapshot(6, Array.from({ length: 1200 }, (_, index) => item(`i${index}`))));
        return [fromAnswer, fromEvent, store.state.needsSnapshot, store.state.queue.items.length];""") == [True, True, False, 1200]


def test_the_playhead_moves_only_while_playing_and_stays_in_the_timeline(page):
    assert run(page, """
        const anchor = { time: 4, at: 1000, rate: 2, playing: true };
        return [
          time.playheadAt(anchor, 2500),
          time.playheadAt({ ...anchor, playing: false }, 2500),
          time.playheadAt(anchor, 10000, { start: 0, end: 12 }),
          time.playheadAt({ ...anchor, rate: -1 }, 9000, { start: 0, end: 12 }),
          time.timelineOf({ duration: "indefinite", seekableTimeRanges: [{ start: 30, end: 42 }] }),
          time.timelineOf({ duration: "indefinite", seekableTimeRanges: [] }),
          time.formatTime(3725), time.formatTime("indefinite"),
        ];""") == [7, 4, 12, 0, {"start": 30, "end": 42}, None, "1:02:05", "–"]


def test_live_events_feed_the_sparkline_the_reload_cadence_and_the_alerts(page):
    assert run(page, SNAPSHOT + """
        const store = createStore();
        store.selectQueue("q-1");
        store.applySnapshot(snapshot(1, [item("live", { isLive: true, duration: "indefinite" })]));
        const live = (isStale, age) => ({ queueId: "q-1", itemId: "live", live: { isStale, playlistAge: age, health: [] } });
        store.applyEvent("itemUpdated", { queueId: "q-1", itemId: "live", item: item("live", { isLive: true, buffer: { forwardBufferSeconds: 6 } }) }, 2);
        store.applyEvent("liveStatus", live(false, 1), 3);
        store.applyEvent("liveStatus", live(true, 19), 4);
        store.applyEvent("liveStatus", live(true, 25), 5);
        store.applyEvent("liveStatus", live(false, 2), 6);
        store.applyEvent("liveHealth", { queueId: "q-1", itemId: "live", check: "reload", state: "failing", message: "HTTP 503" }, 7);
        return [
          store.state.bufferSamples.get("live").map((sample) => sample.value),
          store.state.reloads.get("live").length,
          store.state.healthLog.map((entry) => `${entry.check}:${entry.state}`),
        ];""") == [[6], 4, ["reload:failing", "stale:recovered", "stale:stale"]]


def test_refetched_details_keep_the_lists_that_did_not_change(page):
    assert run(page, SNAPSHOT + """
        const store = createStore();
        store.selectQueue("q-1");
        store.applySnapshot(snapshot(1, [item("a")]));
        store.selectItem("a");
        const details = (selected, accessLog) => item("a", { variants: [], chapters: [{ title: "One", start: 0, end: 5 }],
          linearPlaybackRanges: [], errorLog: [], accessLog,
          mediaSelectionGroups: [{ characteristic: "audible", options: [{ name: "en" }, { name: "fr" }], selected }] });
        store.setDetails(details("en", []));
        const first = store.state.details;
        store.setDetails(details("en", [{ uri: "x" }]));
        const same = store.state.details;
        store.setDetails(details("fr", [{ uri: "x" }]));
        return [
          same.chapters === first.chapters, same.mediaSelectionGroups === first.mediaSelectionGroups,
          same.accessLog === first.accessLog, same.accessLog.length,
          store.state.details.mediaSelectionGroups === first.mediaSelectionGroups,
          store.state.details.mediaSelectionGroups[0].selected, store.state.details.accessLog === same.accessLog,
        ];""") == [True, True, False, 1, False, "fr", True]


def test_a_stall_count_read_before_the_latest_stall_event_is_not_kept(page):
    assert run(page, SNAPSHOT + """
        const store = createStore();
        store.selectQueue("q-1");
        store.applySnapshot(snapshot(1, [item("a")]));
        const full = (...stalls) => item("a", { accessLog: stalls.map((numberOfStalls) => ({ numberOfStalls })) });
        const counts = [];
        // Asked before the first stall was announced, answered after it: not kept.
        const askedEarly = store.stallsAnnounced("a");
        store.applyEvent("playbackStalled", { queueId: "q-1", itemId: "a" }, 2);
        counts.push(store.setStallCount(full(0), askedEarly), store.state.stalls.get("a").count);
        // Asked after it: the server's figure, summed over the access log's entries.
        counts.push(store.setStallCount(full(1, 2), store.stallsAnnounced("a")), store.state.stalls.get("a").count);
        // A further stall counts at once, before the server's figure confirms it.
        store.applyEvent("playbackStalled", { queueId: "q-1", itemId: "a" }, 3);
        counts.push(store.state.stalls.get("a").count);
        // An event older than the snapshot was in it already; another queue forgets the counts.
        store.applyEvent("playbackStalled", { queueId: "q-1", itemId: "a" }, 3);
        counts.push(store.stallsAnnounced("a"));
        store.selectQueue("q-2");
        counts.push(store.state.stalls.size);
        return counts;""") == [False, None, True, 3, 4, 2, 0]
