"""What the browser tests and the screenshot script share: the real `hlsq serve` on an
ephemeral port with a temporary database, a small JSON client for its API (urllib), the test
origin (`Tests/origin/origin.py`) for streams served with faults, and headless Chromium
driven by Selenium.

Nothing here talks to the network: the server binds 127.0.0.1 and serves the sample media
itself; Chromium and chromedriver are Debian's, given by path, so Selenium never looks for
a driver to download.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

REPOSITORY = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("HLSQ_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("HLSQ_CHROMEDRIVER", "/usr/bin/chromedriver")


def hlsq_binary() -> Path:
    """The `hlsq` executable: $HLSQ_BINARY, else the debug build of this checkout."""
    given = os.environ.get("HLSQ_BINARY")
    path = Path(given) if given else REPOSITORY / ".build" / "debug" / "hlsq"
    if not path.is_file():
        raise RuntimeError(f"{path} is missing: run `swift build` (or set HLSQ_BINARY)")
    return path


class ApiError(Exception):
    def __init__(self, status: int, body: dict):
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


class Api:
    """The server's JSON API over urllib: a second client next to the browser."""

    def __init__(self, base_url: str, token: str | None = None):
        self.base_url = base_url.rstrip("/")
        self.token = token

    def request(self, method: str, path: str, body: object | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
                return json.loads(text) if text else None
        except urllib.error.HTTPError as error:
            raise ApiError(error.code, json.loads(error.read() or b"{}")) from None

    def queue(self, queue_id: str = "q-1") -> dict:
        return self.request("GET", f"/api/queues/{queue_id}")

    def item_ids(self, queue_id: str = "q-1") -> list[str]:
        return [item["id"] for item in self.queue(queue_id)["items"]]

    def command(self, command: dict, queue_id: str = "q-1") -> dict:
        return self.request("POST", f"/api/queues/{queue_id}/commands", command)

    def wait_for(self, predicate, timeout: float = 10, what: str = "the server's state"):
        """Reads the queue until `predicate(snapshot)` holds; returns that snapshot."""
        deadline = time.monotonic() + timeout
        snapshot = None
        while time.monotonic() < deadline:
            snapshot = self.queue()
            if predicate(snapshot):
                return snapshot
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for {what}; last snapshot: {json.dumps(snapshot)[:2000]}")


class Server:
    """`hlsq serve --port 0` with a database in a temporary folder; `stop()` ends it.

    With `token`, the API requires it (given through HLSQ_TOKEN, as the help advises).
    """

    def __init__(self, token: str | None = None):
        self.folder = Path(tempfile.mkdtemp(prefix="hlsq-browser-"))
        self.token = token
        self.port = 0
        self.process = None
        self._start()
        self.api = Api(self.url, token)

    def _start(self):
        environment = dict(os.environ)
        environment.pop("HLSQ_TOKEN", None)
        if self.token:
            environment["HLSQ_TOKEN"] = self.token
        self.process = subprocess.Popen(
            [
                str(hlsq_binary()), "serve", "--port", str(self.port),
                "--db", str(self.folder / "hlsq.sqlite"),
                "--public", str(REPOSITORY / "Public"),
                "--samples", str(REPOSITORY / "playlists"),
            ],
            cwd=self.folder,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=open(self.folder / "stderr.log", "ab"),
            text=True,
        )
        line = self.process.stdout.readline()
        if "http://" not in line:
            self._end()
            raise RuntimeError(f"hlsq serve did not print its URL: {line!r}; see {self.folder / 'stderr.log'}")
        self.url = line[line.index("http://"):].split()[0].rstrip("/")
        self.port = int(self.url.rsplit(":", 1)[1])

    def _end(self):
        if self.process.poll() is None:
            self.process.terminate()
            wait_or_kill(self.process)
        self.process.stdout.close()

    def restart(self):
        """Stops the server and starts it again on the same port with the same database."""
        self._end()
        self._start()

    def stop(self):
        self._end()
        shutil.rmtree(self.folder, ignore_errors=True)


class Origin:
    """`Tests/origin/origin.py` serving `playlists/` on an ephemeral port, with fault rules
    (docs/DEVELOPMENT.md, "The test origin"); `stop()` ends it, and so does this process's
    end (it exits when its stdin closes)."""

    def __init__(self):
        self.process = subprocess.Popen(
            [sys.executable, str(REPOSITORY / "Tests" / "origin" / "origin.py"), "--exit-on-stdin-eof"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.startswith("http://"):
            self.stop()
            raise RuntimeError(f"the test origin did not print its URL: {line!r}")
        self.url = line
        self.api = Api(self.url)

    def add_rule(self, **rule) -> int:
        """Applies faults to the requests whose path matches `rule["path"]` (a glob)."""
        return self.api.request("POST", "/_origin/faults", rule)["id"]

    def remove_rules(self):
        self.api.request("DELETE", "/_origin/faults")

    def stop(self):
        self.process.stdin.close()
        wait_or_kill(self.process)
        self.process.stdout.close()


def wait_or_kill(process: subprocess.Popen):
    """Waits up to 10 s for a process asked to end, then kills it."""
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def start_chromium(width: int = 1280, height: int = 800) -> webdriver.Chrome:
    """Headless Chromium with autoplay allowed (the preview is muted anyway)."""
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--autoplay-policy=no-user-gesture-required",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--hide-scrollbars",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))


def prefer_color_scheme(driver: webdriver.Chrome, scheme: str):
    """Makes the page see `prefers-color-scheme: scheme` ("light" or "dark")."""
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
