"""The dashboard in headless Chromium against the real `hlsq serve`.

Each test acts through the page as a person would (clicks, drags, keys, a file picker) and
checks the outcome twice: in the page, and in the server's own state read through the API.
"""

from __future__ import annotations

import math

from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select

from harness import REPOSITORY

MIXED_TITLES = [
    "VOD with TS segments",
    "VOD with fMP4 segments",
    "Two variants, two audio languages and subtitles",
    "hlsq - Sample with chapters",
]


def item_id_where(snapshot: dict, suffix: str) -> str:
    return next(item["id"] for item in snapshot["items"] if item["url"].endswith(suffix))


def titles_shown(dashboard) -> list[str]:
    return [element.text for element in dashboard.find_all("#item-list > li .item-title")]


def make_chapters_current(dashboard) -> str:
    """Plays nothing yet: jumps to the sample MP4 (the demo's HLS items need the HLS loader)
    through the page, and waits until the server has probed it."""
    chapters = item_id_where(dashboard.api.queue(), "/media/chapters.mp4")
    dashboard.row(chapters).find_element(By.XPATH, ".//button[text()='Play']").click()
    dashboard.api.wait_for(
        lambda s: s["currentItemId"] == chapters and s["items"][0]["status"] == "readyToPlay"
        and s["items"][0]["duration"] == 12,
        what="the MP4 to be current and ready")
    dashboard.wait().until(lambda _: dashboard.find("#seek-bar").get_attribute("aria-disabled") == "false")
    return chapters


def test_the_dashboard_shows_the_demo_queue(dashboard):
    queues = dashboard.find_all("#queue-nav .queue-link")
    assert [queue.find_element(By.CSS_SELECTOR, ".name").text for queue in queues] == ["Demo"]
    assert queues[0].get_attribute("aria-current") == "true"
    snapshot = dashboard.api.queue()
    assert titles_shown(dashboard) == [item["title"] for item in snapshot["items"]]
    current = snapshot["items"][0]
    assert dashboard.find("#now-title").text == current["title"]
    assert dashboard.row(current["id"]).get_attribute("aria-current") == "true"
    # Every control has a name for assistive technology.
    unnamed = dashboard.driver.execute_script("""
        return [...document.querySelectorAll('button, input, select, textarea, [role=slider]')]
          .filter((e) => !e.closest('[hidden], dialog'))
          .filter((e) => !(e.getAttribute('aria-label') || e.labels?.length || e.textContent.trim()))
          .map((e) => e.outerHTML.slice(0, 80));""")
    assert unnamed == []
    # Nothing failed on the way: no script error, no missing file.
    assert [entry["message"] for entry in dashboard.driver.get_log("browser") if entry["level"] == "SEVERE"] == []


def test_adding_an_item_appends_it_or_inserts_it_after_the_current_one(dashboard):
    url = dashboard.server.url + "/media/vod-fmp4/index.m3u8"
    dashboard.find("#add-url").send_keys(url)
    dashboard.find("#add-title-input").send_keys("Added in the browser")
    dashboard.find("#add-form button[type=submit]").click()
    dashboard.wait().until(lambda _: titles_shown(dashboard)[-1:] == ["Added in the browser"])
    last = dashboard.api.queue()["items"][-1]
    assert (last["url"], last["title"]) == (url, "Added in the browser")

    dashboard.find("#add-form input[value='after-current']").click()
    dashboard.find("#add-url").send_keys(dashboard.server.url + "/media/chapters.mp4")
    dashboard.find("#add-title-input").send_keys("Up next")
    dashboard.find("#add-form button[type=submit]").click()
    dashboard.wait().until(lambda _: titles_shown(dashboard)[1:2] == ["Up next"])
    assert dashboard.api.queue()["items"][1]["title"] == "Up next"
    assert dashboard.shown_item_ids() == dashboard.api.item_ids()


def test_importing_a_playlist_file_adds_its_entries_and_shows_the_diagnostics(dashboard):
    before = dashboard.api.item_ids()
    dashboard.find("#import summary").click()
    base = dashboard.find("#import-base")
    base.send_keys(dashboard.server.url + "/media/")
    playlist = REPOSITORY / "playlists" / "mixed.m3u"
    dashboard.find("#import-file").send_keys(str(playlist))
    dashboard.wait().until(lambda _: "Imported 4 items from mixed.m3u" in dashboard.find("#import-result").text)
    snapshot = dashboard.api.queue()
    added = snapshot["items"][len(before):]
    assert [item["title"] for item in added] == MIXED_TITLES
    assert added[0]["url"] == dashboard.server.url + "/media/vod-ts/index.m3u8"
    dashboard.wait().until(lambda _: titles_shown(dashboard)[-4:] == MIXED_TITLES)

    # Without a base URL its relative entries cannot become items: the server refuses the
    # import and the page lists each entry's diagnostic with its line.
    base.clear()
    dashboard.find("#import-file").send_keys(str(playlist))
    dashboard.wait().until(lambda _: dashboard.find_all("#import-result tr.diagnostic"))
    cells = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
             for row in dashboard.find_all("#import-result tr.diagnostic")]
    entry_lines = [number for number, line in enumerate(playlist.read_text().splitlines(), 1)
                   if line.strip() and not line.startswith("#")]
    assert [int(row[0]) for row in cells] == entry_lines
    assert {row[2] for row in cells} == {"warning"} and {row[3] for row in cells} == {"entrySkipped"}
    assert all("relative" in row[4] for row in cells)
    assert any("Import playlist" in text for text in dashboard.alert_texts())
    assert len(dashboard.api.item_ids()) == len(before) + 4


def test_dragging_and_alt_arrows_reorder_the_queue(dashboard):
    ids = dashboard.api.item_ids()
    moved, target = ids[3], dashboard.row(ids[1])
    handle = dashboard.row(moved).find_element(By.CSS_SELECTOR, ".drag-handle")
    # Over the upper part of the second row: the dragged item lands before it.
    actions = ActionChains(dashboard.driver).click_and_hold(handle)
    for step in (-10, -30, -60):
        actions.move_by_offset(0, step)
    actions.move_to_element_with_offset(target, 0, -target.size["height"] // 4).release().perform()
    expected = [ids[0], moved, ids[1], ids[2], ids[4]]
    dashboard.api.wait_for(lambda s: [item["id"] for item in s["items"]] == expected, what="the dragged order")
    dashboard.wait_for_shown_ids(expected)

    last = dashboard.row(ids[4])
    dashboard.driver.execute_script("arguments[0].focus()", last)
    ActionChains(dashboard.driver).key_down(Keys.ALT).send_keys(Keys.ARROW_UP).key_up(Keys.ALT).perform()
    expected = [ids[0], moved, ids[1], ids[4], ids[2]]
    dashboard.api.wait_for(lambda s: [item["id"] for item in s["items"]] == expected, what="the keyboard order")
    dashboard.wait_for_shown_ids(expected)
    # The moved item keeps the keyboard focus, so that it can be moved again.
    assert dashboard.driver.switch_to.active_element.get_attribute("data-item-id") == ids[4]


def test_removing_an_item(dashboard):
    snapshot = dashboard.api.queue()
    live = item_id_where(snapshot, "/demo/live.m3u8")
    dashboard.row(live).find_element(By.XPATH, ".//button[text()='Remove']").click()
    dashboard.wait().until(lambda _: live not in dashboard.shown_item_ids())
    assert live not in dashboard.api.item_ids()
    assert dashboard.shown_item_ids() == dashboard.api.item_ids()


def test_play_and_pause_change_the_servers_status(dashboard):
    make_chapters_current(dashboard)
    button = dashboard.find("#play-pause")
    assert button.get_attribute("aria-label") == "Play"
    button.click()
    dashboard.api.wait_for(lambda s: s["rate"] == 1 and s["timeControlStatus"] == "playing", what="playing")
    dashboard.wait().until(lambda _: button.get_attribute("aria-label") == "Pause")
    dashboard.wait().until(lambda _: dashboard.find("#player-status").text.startswith("Playing"))
    button.click()
    dashboard.api.wait_for(lambda s: s["rate"] == 0 and s["timeControlStatus"] == "paused", what="paused")
    dashboard.wait().until(lambda _: button.get_attribute("aria-label") == "Play")


def test_the_seek_bar_seeks_by_click_drag_and_keys(dashboard):
    make_chapters_current(dashboard)
    bar = dashboard.find("#seek-bar")
    width = bar.size["width"]

    def offset(fraction: float) -> int:
        return round((fraction - 0.5) * width)  # from the bar's centre

    def server_time_near(target: float):
        dashboard.api.wait_for(lambda s: math.isclose(s["currentTime"], target, abs_tol=0.3),
                               what=f"currentTime near {target}")

    ActionChains(dashboard.driver).move_to_element_with_offset(bar, offset(0.75), 0).click().perform()
    server_time_near(9)
    (ActionChains(dashboard.driver).move_to_element_with_offset(bar, offset(0.2), 0).click_and_hold()
     .move_by_offset(round(0.15 * width), 0).move_by_offset(round(0.15 * width), 0).release().perform())
    server_time_near(6)
    dashboard.wait().until(lambda _: dashboard.find("#time-current").text == "0:06")
    bar.send_keys(Keys.ARROW_LEFT)
    server_time_near(1)
    assert bar.get_attribute("aria-valuenow") == "1"


def test_a_change_made_by_another_client_appears_without_a_reload(dashboard):
    dashboard.driver.execute_script("window.loadedOnce = true")
    dashboard.api.request("POST", "/api/queues/q-1/items",
                          {"url": dashboard.server.url + "/media/chapters.mp4", "title": "From another client"})
    dashboard.wait().until(lambda _: titles_shown(dashboard)[-1:] == ["From another client"])
    dashboard.api.request("PATCH", "/api/queues/q-1", {"name": "Renamed elsewhere"})
    dashboard.wait().until(lambda _: dashboard.find("#queue-heading").text == "Renamed elsewhere")
    dashboard.wait().until(lambda _: dashboard.find("#queue-nav .name").text == "Renamed elsewhere")
    assert dashboard.driver.execute_script("return window.loadedOnce") is True


def test_the_preview_plays_the_current_item(dashboard):
    make_chapters_current(dashboard)
    video = dashboard.find("#preview")
    dashboard.wait().until(lambda _: video.get_attribute("data-canplay") == "true")
    state = dashboard.driver.execute_script(
        "const v = arguments[0]; return {src: v.currentSrc, ready: v.readyState, paused: v.paused};", video)
    assert state["src"].endswith("/media/chapters.mp4") and state["ready"] >= 3 and state["paused"]
    # The system's media controls show it.
    dashboard.wait().until(lambda _: dashboard.driver.execute_script(
        "return [navigator.mediaSession.metadata?.title, navigator.mediaSession.playbackState]")
        == ["Sample MP4 with chapters", "paused"])
    # It follows the server: playing there plays it here.
    dashboard.api.command({"command": "play"})
    dashboard.wait().until(lambda _: dashboard.driver.execute_script(
        "return !arguments[0].paused && arguments[0].currentTime > 0.5", video))
    dashboard.wait().until(lambda _: dashboard.driver.execute_script(
        "return navigator.mediaSession.playbackState") == "playing")


def test_refused_actions_show_the_servers_message(dashboard):
    count = len(dashboard.api.item_ids())
    field = dashboard.find("#add-url")
    field.send_keys("not a url")
    dashboard.find("#add-form button[type=submit]").click()
    dashboard.wait().until(lambda _: any("is not a media URL" in text for text in dashboard.alert_texts()))
    alert = dashboard.alert_texts()[-1]
    assert alert.startswith("Add item:") and "validationFailed" in alert
    assert field.get_attribute("aria-invalid") == "true"
    assert len(dashboard.api.item_ids()) == count

    # A command the player refuses: nothing has played yet, so there is nothing to go back to.
    dashboard.find("#transport [data-command='previous']").click()
    dashboard.wait().until(lambda _: any(text.startswith("Previous item:") for text in dashboard.alert_texts()))
    assert "commandRefused" in dashboard.alert_texts()[-1]


def test_the_keyboard_reaches_every_control_with_a_visible_focus(dashboard):
    """Tab through the page: every stop is a named control, drawn with a focus outline."""
    body = dashboard.find("body")
    body.click()
    stops = []
    for _ in range(60):
        ActionChains(dashboard.driver).send_keys(Keys.TAB).perform()
        stop = dashboard.driver.execute_script("""
            const e = document.activeElement;
            if (e === document.body) return null;  // focus left the page, before it comes round again
            const style = getComputedStyle(e);
            return {
              id: e.id || e.dataset.itemId || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 30),
              outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
              named: Boolean(e.getAttribute('aria-label') || e.labels?.length || e.textContent.trim()),
            };""")
        if stop is not None:
            stops.append(stop)
    reached = {stop["id"] for stop in stops}
    for control in ("add-url", "seek-bar", "play-pause", "rate-select", "loop-select", "new-queue-name"):
        assert control in reached, f"Tab never reached #{control}"
    assert set(dashboard.api.item_ids()) <= reached, "Tab did not reach every item of the queue"
    assert [stop for stop in stops if not stop["outlined"] or not stop["named"]] == []


def test_the_live_panel_follows_the_demo_live_stream(dashboard):
    live = item_id_where(dashboard.api.queue(), "/demo/live.m3u8")
    row = dashboard.row(live)
    row.find_element(By.XPATH, ".//button[text()='Play']").click()
    dashboard.find("#play-pause").click()
    dashboard.row(live).find_element(By.XPATH, ".//button[text()='Details']").click()
    dashboard.visible("#live-panel")

    def shown_sequence() -> int | None:
        # Read in one go: the panel redraws every second.
        value = dashboard.driver.execute_script("""
            const term = [...document.querySelectorAll('#live-facts dt')].find((dt) => dt.textContent === 'Media sequence');
            return term?.nextElementSibling?.textContent ?? null;""")
        return int(value) if value and value.isdigit() else None

    dashboard.wait(20).until(lambda _: shown_sequence() is not None)
    first = shown_sequence()
    # The window slides: each reload's liveStatus event moves the media sequence on.
    dashboard.wait(20).until(lambda _: (shown_sequence() or 0) > first)
    served = dashboard.api.request("GET", f"/api/queues/q-1/items/{live}")["live"]["mediaSequence"]
    assert first < shown_sequence() <= served
    dashboard.wait(20).until(lambda _: "every" in dashboard.find("#live-facts").text)
    dashboard.wait(20).until(lambda _: dashboard.driver.execute_script(
        "return document.querySelector('#sparkline polyline')?.points.numberOfItems ?? 0") >= 3)
    assert "samples" in dashboard.find("#sparkline-summary").text
    assert dashboard.find("#time-duration").text == "live"


def test_the_inspector_selects_renditions_and_seeks_to_chapters(dashboard):
    snapshot = dashboard.api.queue()
    multivariant = item_id_where(snapshot, "/media/multivariant/master.m3u8")
    row = dashboard.row(multivariant)
    # Further down than the next item, it is not loaded: the inspector says so.
    row.find_element(By.XPATH, ".//button[text()='Details']").click()
    dashboard.wait().until(lambda _: "Not loaded yet" in dashboard.find("#inspector-body").text)
    assert dashboard.find_all("#media-group-audible") == []
    # Current, it loads, and its renditions appear without another click.
    row.find_element(By.XPATH, ".//button[text()='Play']").click()
    audio = Select(dashboard.visible("#media-group-audible", timeout=20))
    assert [option.text for option in audio.options] == ["Automatic", "English (en) · default", "Français (fr)"]
    assert audio.first_selected_option.text.startswith("English")
    assert "Variants" in [caption.text for caption in dashboard.find_all("#inspector-body table caption")]
    assert "Not loaded yet" not in dashboard.find("#inspector-body").text
    audio.select_by_value("Français")

    def selected(characteristic: str):
        item = dashboard.api.request("GET", f"/api/queues/q-1/items/{multivariant}")
        return next(group["selected"] for group in item["mediaSelectionGroups"] if group["characteristic"] == characteristic)

    dashboard.wait().until(lambda _: selected("audible") == "Français")
    Select(dashboard.find("#media-group-legible")).select_by_value("English")
    dashboard.wait().until(lambda _: selected("legible") == "English")
    dashboard.wait().until(lambda _: Select(dashboard.find("#media-group-legible")).first_selected_option.text.startswith("English"))
    assert Select(dashboard.find("#media-group-audible")).first_selected_option.text.startswith("Français")

    # A chapter of the next item (preloaded, not current): the click jumps there and seeks.
    chapters = item_id_where(snapshot, "/media/chapters.mp4")
    dashboard.row(chapters).find_element(By.XPATH, ".//button[text()='Details']").click()
    dashboard.wait(20).until(lambda _: dashboard.find_all("#inspector .chapter-list button"))
    dashboard.find("#inspector .chapter-list button[aria-label^='Seek to chapter Middle']").click()
    dashboard.api.wait_for(lambda s: s["currentItemId"] == chapters and math.isclose(s["currentTime"], 4, abs_tol=0.05),
                           what="the chapter's start")
    dashboard.wait().until(lambda _: dashboard.find("#time-current").text == "0:04")


def test_queues_are_created_renamed_and_deleted_in_the_sidebar(dashboard):
    def names_shown() -> list[str]:
        return [element.text for element in dashboard.find_all("#queue-nav .queue-link .name")]

    dashboard.find("#new-queue-name").send_keys("Evening", Keys.ENTER)
    dashboard.wait().until(lambda _: names_shown() == ["Demo", "Evening"])
    created = next(queue for queue in dashboard.api.request("GET", "/api/queues")["queues"] if queue["name"] == "Evening")
    # The new queue is the one shown, empty.
    dashboard.wait().until(lambda _: dashboard.find("#queue-heading").text == "Evening")
    dashboard.wait().until(lambda _: dashboard.find("#item-list-empty").is_displayed())
    assert dashboard.find(f'#queue-nav [data-queue-id="{created["id"]}"] .queue-link').get_attribute("aria-current") == "true"

    dashboard.find("#queue-nav button[aria-label='Rename Evening']").click()
    field = dashboard.visible("#queue-nav input[aria-label='New name for Evening']")
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys("Night", Keys.ENTER)
    dashboard.wait().until(lambda _: names_shown() == ["Demo", "Night"])
    assert dashboard.api.queue(created["id"])["name"] == "Night"
    assert dashboard.find("#queue-heading").text == "Night"

    # Deleting asks first; declining keeps the queue.
    dashboard.find("#queue-nav button[aria-label='Delete Night']").click()
    dashboard.wait().until(EC.alert_is_present()).dismiss()
    assert [queue["name"] for queue in dashboard.api.request("GET", "/api/queues")["queues"]] == ["Demo", "Night"]
    dashboard.find("#queue-nav button[aria-label='Delete Night']").click()
    dashboard.wait().until(EC.alert_is_present()).accept()
    dashboard.wait().until(lambda _: names_shown() == ["Demo"])
    assert [queue["name"] for queue in dashboard.api.request("GET", "/api/queues")["queues"]] == ["Demo"]
    # The shown queue is gone: the page opens the one left.
    dashboard.wait().until(lambda _: dashboard.find("#queue-heading").text == "Demo")
    dashboard.wait_for_shown_ids(dashboard.api.item_ids())


def test_transport_loop_and_end_of_item_controls_reach_the_server(dashboard):
    first, second = dashboard.api.item_ids()[:2]
    transport = lambda command: dashboard.find(f"#transport [data-command='{command}']")  # noqa: E731

    transport("advance").click()
    dashboard.api.wait_for(lambda s: s["currentItemId"] == second, what="the next item")
    dashboard.wait().until(lambda _: dashboard.row(second).get_attribute("aria-current") == "true")
    # Consume is on: the item played goes to the history.
    dashboard.wait().until(lambda _: dashboard.find("#history-count").text == "1")
    transport("previous").click()
    dashboard.api.wait_for(lambda s: s["currentItemId"] == first, what="the previous item")
    dashboard.wait().until(lambda _: dashboard.row(first).get_attribute("aria-current") == "true")

    dashboard.api.wait_for(lambda s: s["items"][0]["status"] == "readyToPlay", what="the current item to load")
    # The item lasts 12 s: a skip stops at either end.
    transport("skip-forward").click()
    dashboard.api.wait_for(lambda s: s["currentTime"] == 12, what="a skip forward to the end")
    dashboard.wait().until(lambda _: dashboard.find("#time-current").text == "0:12")
    transport("skip-back").click()
    dashboard.api.wait_for(lambda s: s["currentTime"] == 0, what="a skip back to the start")

    Select(dashboard.find("#loop-select")).select_by_value("item")
    plays = dashboard.visible("#loop-plays")
    dashboard.api.wait_for(lambda s: s["settings"]["loop"] == {"mode": "item", "plays": None, "range": None},
                           what="looping the item forever")
    plays.send_keys("3", Keys.TAB)
    dashboard.api.wait_for(lambda s: s["settings"]["loop"]["plays"] == 3, what="three plays")
    Select(dashboard.find("#loop-select")).select_by_value("queue")
    dashboard.api.wait_for(lambda s: s["settings"]["loop"] == {"mode": "queue"}, what="looping the queue")
    dashboard.wait().until(lambda _: not plays.is_displayed())

    Select(dashboard.find("#action-select")).select_by_value("pause")
    dashboard.api.wait_for(lambda s: s["settings"]["actionAtItemEnd"] == "pause", what="pause at item end")
    dashboard.find("#consume-check").click()
    dashboard.api.wait_for(lambda s: s["settings"]["consume"] is False, what="consume off")
    # Paused, the rate menu sets the rate that play will use.
    Select(dashboard.find("#rate-select")).select_by_value("1.5")
    dashboard.api.wait_for(lambda s: s["settings"]["defaultRate"] == 1.5, what="the default rate")
    dashboard.find("#play-pause").click()
    dashboard.api.wait_for(lambda s: s["rate"] == 1.5, what="playing at 1.5×")
    dashboard.wait().until(lambda _: dashboard.find("#player-status").text.startswith("Playing at 1.5×")
                           or dashboard.find("#player-status").text.startswith("Waiting"))


def test_pasted_and_fetched_playlists_import_with_line_numbered_diagnostics(dashboard):
    before = dashboard.api.item_ids()
    url = dashboard.server.url
    dashboard.find("#import summary").click()
    text = dashboard.find("#import-text")
    text.send_keys(f"#EXTM3U\n#EXTINF:12,Pasted chapters\n{url}/media/chapters.mp4\n"
                   f"#EXTINF:abc,Broken duration\n{url}/media/vod-ts/index.m3u8\n")
    dashboard.find("#import-text-form button[type=submit]").click()
    dashboard.wait().until(lambda _: "Imported 2 items from the pasted text" in dashboard.find("#import-result").text)
    cells = [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
             for row in dashboard.find_all("#import-result tr.diagnostic")]
    assert [(row[0], row[1], row[2], row[3]) for row in cells] == [("4", "9", "error", "invalid-tag-value")]
    assert "#EXTINF needs a duration" in cells[0][4]
    assert text.get_attribute("value") == ""
    dashboard.wait().until(lambda _: titles_shown(dashboard)[-2:] == ["Pasted chapters", "Broken duration"])

    dashboard.find("#import-url").send_keys(f"{url}/media/mixed.m3u", Keys.ENTER)
    dashboard.wait().until(lambda _: "Imported 4 items from" in dashboard.find("#import-result").text)
    dashboard.wait().until(lambda _: titles_shown(dashboard)[-4:] == MIXED_TITLES)
    assert [item["title"] for item in dashboard.api.queue()["items"][len(before):]] == ["Pasted chapters", "Broken duration", *MIXED_TITLES]


def test_a_missing_stream_shows_its_error_and_keeps_its_error_log_in_the_history(dashboard):
    first = dashboard.api.item_ids()[0]
    missing = dashboard.api.request("POST", "/api/queues/q-1/items", {
        "url": dashboard.server.url + "/media/missing.m3u8", "title": "Missing", "after": first})["id"]
    # Next in line, it is loaded at once, and fails.
    dashboard.wait().until(lambda _: dashboard.row(missing).find_element(By.CSS_SELECTOR, ".badge").text == "Failed")
    assert "HTTP status 404" in dashboard.row(missing).find_element(By.CSS_SELECTOR, ".item-error").text

    # Playing skips it into the history, where its details stay readable.
    dashboard.find("#transport [data-command='advance']").click()
    snapshot = dashboard.api.wait_for(lambda s: missing in [item["id"] for item in s["history"]] and s["currentItemId"] != missing,
                                      what="the failed item skipped into the history")
    assert snapshot["currentItemId"] not in (first, missing)
    dashboard.find("#history summary").click()
    history_row = dashboard.visible(f'#history-list [data-item-id="{missing}"]')
    history_row.find_element(By.XPATH, ".//button[text()='Details']").click()
    dashboard.wait().until(lambda _: [heading.get_attribute("textContent") for heading in
                                      dashboard.find_all("#inspector-body [data-section='error-log'] h3")] == ["Error log (1)"])
    assert dashboard.find("#inspector-body dd").text == "Missing"
    cells = [cell.text for cell in dashboard.find_all("#inspector-body [data-section='error-log'] tbody tr:first-child td")]
    assert cells[1:3] == ["404", "hlsq.http"]
    assert "/media/missing.m3u8" in dashboard.find("#inspector-body [data-section='error-log']").text
