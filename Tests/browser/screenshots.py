"""Saves screenshots of the dashboard's main screens: `make screenshots` (or
`python Tests/browser/screenshots.py FOLDER` with HLSQ_BINARY set).

It drives the real server and headless Chromium as the tests do, sets up each screen
through the page and the API, and waits for what each screen shows before taking it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from harness import REPOSITORY, Server, prefer_color_scheme, start_chromium


def wait(driver, condition, timeout: float = 15):
    WebDriverWait(driver, timeout).until(lambda _: condition())


def open_dashboard(driver, server: Server):
    driver.get(server.url + "/")
    wait(driver, lambda: driver.find_element(By.ID, "connection").get_attribute("data-state") == "open")
    wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, "#item-list > li")) > 0)


def play_the_sample_mp4(driver, server: Server):
    """The MP4 with chapters, current, its details open, paused at 5 s with the preview on that frame."""
    api = server.api
    chapters = next(item["id"] for item in api.queue()["items"] if item["url"].endswith("/media/chapters.mp4"))
    api.command({"command": "jump", "itemId": chapters})
    api.wait_for(lambda s: s["items"][0]["status"] == "readyToPlay" and s["items"][0]["duration"] == 12)
    api.request("POST", "/api/queues/q-1/items", {"url": server.url + "/media/chapters.mp4", "title": "Chapters, once more"})
    api.command({"command": "seek", "time": 5})
    driver.find_element(By.CSS_SELECTOR, f'#item-list [data-item-id="{chapters}"]').find_element(
        By.XPATH, ".//button[text()='Details']").click()
    wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#inspector .chapter-list button"))
    wait_for_preview_at(driver, 5)


def wait_for_preview_at(driver, seconds: float):
    """Waits until the preview shows the frame at `seconds`, as the page shows the time."""
    video = driver.find_element(By.ID, "preview")
    wait(driver, lambda: video.get_attribute("data-canplay") == "true" and driver.execute_script(
        "return Math.abs(arguments[0].currentTime - arguments[1]) < 0.5 && !arguments[0].seeking", video, seconds))
    wait(driver, lambda: driver.find_element(By.ID, "time-current").text == f"0:{int(seconds):02d}")
    # The seeked frame reaches the screen a frame or two after `seeked`.
    driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(done)));""")


def watch_the_live_stream(driver, server: Server) -> bool:
    """The demo live stream, current, playing and inspected, with a minute of buffer samples.
    False when the server cannot load it (a build without the HLS loader)."""
    api = server.api
    live = next(item["id"] for item in api.queue()["items"] if item["url"].endswith("/demo/live.m3u8"))
    api.command({"command": "jump", "itemId": live})
    api.command({"command": "play"})
    try:
        api.wait_for(lambda s: s["items"][0]["status"] == "readyToPlay" and s["items"][0]["isLive"], timeout=15)
    except AssertionError:
        return False
    driver.find_element(By.CSS_SELECTOR, f'#item-list [data-item-id="{live}"]').find_element(
        By.XPATH, ".//button[text()='Details']").click()
    wait(driver, lambda: "Media sequence" in driver.find_element(By.ID, "live-facts").text)
    wait(driver, lambda: driver.execute_script(
        "return document.querySelector('#sparkline polyline')?.points.numberOfItems ?? 0") >= 40, timeout=90)
    return True


def main(folder: Path):
    folder.mkdir(parents=True, exist_ok=True)
    server = Server()
    driver = start_chromium(1280, 800)
    try:
        open_dashboard(driver, server)
        play_the_sample_mp4(driver, server)
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(folder / "dashboard.png"))

        # Colors change with a short transition; the picture should not catch one half-way.
        driver.execute_script("""
            const style = document.createElement('style');
            style.textContent = '* { transition: none !important; }';
            document.head.append(style);""")
        prefer_color_scheme(driver, "dark")
        driver.execute_async_script("""
            const done = arguments[arguments.length - 1];
            requestAnimationFrame(() => requestAnimationFrame(done));""")
        driver.save_screenshot(str(folder / "dashboard-dark.png"))
        prefer_color_scheme(driver, "light")

        # Importing a playlist whose relative entries have no base URL, and a refused URL.
        driver.find_element(By.CSS_SELECTOR, "#import summary").click()
        driver.find_element(By.ID, "import-file").send_keys(str(REPOSITORY / "playlists" / "mixed.m3u"))
        wait(driver, lambda: driver.find_elements(By.CSS_SELECTOR, "#import-result tr.diagnostic"))
        driver.find_element(By.ID, "add-url").send_keys("ftp://example.com/video.mp4")
        driver.find_element(By.CSS_SELECTOR, "#add-form button[type=submit]").click()
        wait(driver, lambda: len(driver.find_elements(By.CSS_SELECTOR, '#alerts [role="alert"]')) >= 2)
        driver.execute_script("document.querySelector('.add').scrollIntoView()")
        driver.save_screenshot(str(folder / "import-diagnostics.png"))

        driver.set_window_size(420, 900)
        driver.get(server.url + "/")
        open_dashboard(driver, server)
        wait_for_preview_at(driver, 5)
        driver.save_screenshot(str(folder / "narrow.png"))

        driver.set_window_size(1280, 1000)
        driver.get(server.url + "/")
        open_dashboard(driver, server)
        if watch_the_live_stream(driver, server):
            driver.execute_script("document.getElementById('live-panel').scrollIntoView({block: 'end'})")
            driver.save_screenshot(str(folder / "live.png"))
        else:
            print("live.png not taken: this server cannot load the demo live stream", file=sys.stderr)
    finally:
        driver.quit()
        server.stop()
    for path in sorted(folder.glob("*.png")):
        print(f"{path} {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
