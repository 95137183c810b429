"""A real stall in "Now playing": the test origin holds a segment back, the server's player
runs out of media, and the page shows it until the origin lets the segment through.

The sample `vod-ts` stream has six 2-second segments. With `segment1.ts` cut off after a
few bytes and the connection held for 3 seconds, playback stalls at 0:02; the loader retries
(four attempts in all, the next one about a quarter of a second after a failure), so once
the rule is removed the next attempt succeeds and playback goes on.
"""

from __future__ import annotations

from selenium.webdriver.common.by import By

HELD_BACK = "/vod-ts/segment1.ts"


def stall_state(dashboard) -> dict:
    # Read in one go: the panel redraws on every event.
    return dashboard.driver.execute_script("""
        const notice = document.getElementById('stall-notice');
        return {
          notice: notice.textContent.trim(),
          visible: notice.firstElementChild?.checkVisibility() ?? false,
          role: notice.getAttribute('role'),
          live: notice.getAttribute('aria-live'),
          count: document.getElementById('stall-count').textContent,
        };""")


def server_stall_count(dashboard, item_id: str) -> int:
    item = dashboard.api.request("GET", f"/api/queues/q-1/items/{item_id}")
    return sum(entry["numberOfStalls"] for entry in item["accessLog"])


def test_a_stall_shows_a_notice_and_counts_until_playback_resumes(dashboard, origin):
    origin.add_rule(path=HELD_BACK, stall_after=1000, stall_for=3)
    dashboard.find("#add-form input[value='after-current']").click()
    dashboard.find("#add-url").send_keys(origin.url + "/vod-ts/index.m3u8")
    dashboard.find("#add-title-input").send_keys("Slow origin")
    dashboard.find("#add-form button[type=submit]").click()
    snapshot = dashboard.api.wait_for(lambda s: any(item["title"] == "Slow origin" for item in s["items"]),
                                      what="the added item")
    slow = next(item["id"] for item in snapshot["items"] if item["title"] == "Slow origin")
    dashboard.wait().until(lambda _: slow in dashboard.shown_item_ids())

    dashboard.row(slow).find_element(By.XPATH, ".//button[text()='Play']").click()
    dashboard.wait().until(lambda _: dashboard.find("#now-title").text == "Slow origin")
    # Not played yet: no stall, and the server agrees.
    dashboard.wait().until(lambda _: stall_state(dashboard)["count"] == "No stalls")
    assert stall_state(dashboard)["notice"] == ""
    assert server_stall_count(dashboard, slow) == 0

    dashboard.find("#play-pause").click()
    dashboard.wait(15).until(lambda _: stall_state(dashboard)["notice"].startswith("Stalled"),
                             message="no stall notice")
    state = stall_state(dashboard)
    assert state["visible"] and (state["role"], state["live"]) == ("status", "polite")
    dashboard.wait().until(lambda _: stall_state(dashboard)["count"] == "1 stall")
    stalled = dashboard.api.queue()
    assert (stalled["currentItemId"], stalled["timeControlStatus"], stalled["reasonForWaitingToPlay"]) == \
        (slow, "waitingToPlayAtSpecifiedRate", "toMinimizeStalls")
    assert server_stall_count(dashboard, slow) == 1

    # The origin lets the segment through: the next attempt brings it, and playback goes on.
    origin.remove_rules()
    dashboard.wait(15).until(lambda _: stall_state(dashboard)["notice"] == "", message="the notice stayed")
    resumed = dashboard.api.wait_for(lambda s: s["timeControlStatus"] == "playing" and s["currentTime"] > 2,
                                     what="playing past the stall")
    assert resumed["currentItemId"] == slow
    assert stall_state(dashboard)["count"] == "1 stall"

    # The count is the server's: a reload shows the same figure.
    dashboard.find("#play-pause").click()
    dashboard.api.wait_for(lambda s: s["timeControlStatus"] == "paused", what="paused")
    dashboard.driver.refresh()
    dashboard.wait().until(lambda _: dashboard.find("#connection").get_attribute("data-state") == "open")
    dashboard.wait().until(lambda _: stall_state(dashboard)["count"] == "1 stall")
    assert stall_state(dashboard)["notice"] == ""
    assert server_stall_count(dashboard, slow) == 1
