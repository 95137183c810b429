#!/usr/bin/env python3
"""The test HTTP origin: a real server on 127.0.0.1 that serves a folder and injects faults.

Usage:
    origin.py [--root DIR] [--port N] [--exit-on-stdin-eof] [--verbose]

It binds 127.0.0.1 (port 0 by default, so the kernel picks a free one) and prints its base
URL, `http://127.0.0.1:PORT`, as the first line on stdout once it is listening. It serves the
files under DIR (default: the repository's `playlists/`) with HLS-aware MIME types, single
byte ranges, and gzip for text when the client asks for it.

Faults are chosen per request, either by query parameters on the request itself
(`/chapters.mp4?rate=50000&delay=0.2`) or by rules posted to the control endpoint, which
match paths by glob and so work for URLs a test does not write itself (HLS segments). The
fault vocabulary and the control API are documented in docs/DEVELOPMENT.md ("The test
origin").

Python 3 standard library only.
"""

import argparse
import fnmatch
import gzip
import json
import os
import select
import signal
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

CONTENT_TYPES = {
    ".m3u8": "application/vnd.apple.mpegurl",
    ".m3u": "audio/x-mpegurl",
    ".ts": "video/mp2t",
    ".m4s": "video/mp4",
    ".mp4": "video/mp4",
    ".m4a": "audio/mp4",
    ".aac": "audio/aac",
    ".vtt": "text/vtt",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".html": "text/html; charset=utf-8",
}
# Worth compressing: the text formats. Media is already compressed.
COMPRESSIBLE = {".m3u8", ".m3u", ".vtt", ".json", ".txt", ".html"}

CONTROL_PREFIX = "/_origin/"

# The fault parameters, with how each is read from a query string or a JSON rule.
FAULTS = {
    "status": int,        # answer with this status and a short text body instead of the file
    "delay": float,       # seconds to wait before sending the status line
    "rate": int,          # throttle the body to this many bytes per second
    "stall_after": int,   # send this many body bytes, then send nothing more
    "stall_for": float,   # how long a stall holds the connection before closing (default 60)
    "truncate": int,      # announce the full length, send this many body bytes, then close
    "redirect": int,      # answer 302 to the same URL with redirect=N-1, until N is 0
    "redirect_to": str,   # answer 302 to this location
    "ignore_range": int,  # 1: answer 200 with the whole file even when a Range is asked
}


class Rules:
    """Fault rules posted by tests, matched in order against request paths."""

    def __init__(self):
        self.lock = threading.Lock()
        self.rules = []
        self.next_id = 1

    def add(self, rule):
        with self.lock:
            rule = dict(rule)
            rule["id"] = self.next_id
            self.next_id += 1
            self.rules.append(rule)
            return rule["id"]

    def remove(self, rule_id=None):
        with self.lock:
            self.rules = [] if rule_id is None else [r for r in self.rules if r["id"] != rule_id]

    def listed(self):
        with self.lock:
            return [dict(r) for r in self.rules]

    def take(self, path, has_range):
        """The faults of the first rule matching `path` (and, when the rule says, whether
        the request has a Range header), spending one of its `times`."""
        with self.lock:
            for rule in self.rules:
                if not fnmatch.fnmatchcase(path, rule["path"]):
                    continue
                if "ranged" in rule and rule["ranged"] != has_range:
                    continue
                if "times" in rule:
                    if rule["times"] <= 0:
                        continue
                    rule["times"] -= 1
                return {key: value for key, value in rule.items() if key in FAULTS}
        return {}


class RequestLog:
    """What the origin answered, for tests that count requests or check headers."""

    def __init__(self):
        self.lock = threading.Lock()
        self.entries = []

    def append(self, entry):
        with self.lock:
            self.entries.append(entry)

    def clear(self):
        with self.lock:
            self.entries = []

    def listed(self):
        with self.lock:
            return list(self.entries)


def parse_faults(values):
    """Typed faults from a mapping of names to strings or JSON values; unknown names raise."""
    faults = {}
    for key, value in values.items():
        if key not in FAULTS:
            raise ValueError(f"unknown fault {key!r}")
        faults[key] = FAULTS[key](value)
    return faults


def parse_range(header, size):
    """(start, end inclusive) for a single `bytes=` range, None when absent or malformed,
    or "unsatisfiable"."""
    if not header or not header.startswith("bytes="):
        return None
    spec = header[len("bytes="):].strip()
    if "," in spec or "-" not in spec:
        return None
    first, last = spec.split("-", 1)
    try:
        if first == "":
            length = int(last)
            if length <= 0:
                return "unsatisfiable"
            return (max(0, size - length), size - 1)
        start = int(first)
        end = int(last) if last else size - 1
    except ValueError:
        return None
    if start >= size or end < start:
        return "unsatisfiable"
    return (start, min(end, size - 1))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "hlsq-origin"

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)

    def do_GET(self):
        self.handle_request(send_body=True)

    def do_HEAD(self):
        self.handle_request(send_body=False)

    def do_POST(self):
        self.handle_control("POST")

    def do_DELETE(self):
        self.handle_control("DELETE")

    # MARK: control endpoint

    def handle_control(self, method):
        path = urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        try:
            if method == "POST" and path == CONTROL_PREFIX + "faults":
                rule = json.loads(body or b"{}")
                if not isinstance(rule.get("path"), str):
                    raise ValueError("a rule needs a \"path\" glob")
                matchers = ("path", "times", "ranged")
                faults = parse_faults({k: v for k, v in rule.items() if k not in matchers})
                stored = {"path": rule["path"], **faults}
                if "times" in rule:
                    stored["times"] = int(rule["times"])
                if "ranged" in rule:
                    stored["ranged"] = bool(rule["ranged"])
                self.send_json(201, {"id": self.server.rules.add(stored)})
            elif method == "DELETE" and path == CONTROL_PREFIX + "faults":
                self.server.rules.remove()
                self.send_json(200, {})
            elif method == "DELETE" and path.startswith(CONTROL_PREFIX + "faults/"):
                self.server.rules.remove(int(path.rsplit("/", 1)[1]))
                self.send_json(200, {})
            elif method == "DELETE" and path == CONTROL_PREFIX + "requests":
                self.server.log.clear()
                self.send_json(200, {})
            else:
                self.send_json(404, {"error": f"no control endpoint {method} {path}"})
        except (ValueError, TypeError) as error:
            self.send_json(400, {"error": str(error)})

    def send_json(self, status, value):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    # MARK: files and faults

    def handle_request(self, send_body):
        url = urlsplit(self.path)
        path = unquote(url.path)
        if path == CONTROL_PREFIX + "faults":
            return self.send_json(200, self.server.rules.listed())
        if path == CONTROL_PREFIX + "requests":
            return self.send_json(200, self.server.log.listed())

        # Query parameters that are not fault names are left alone (tokens, cache busters).
        query = {key: values[-1] for key, values in parse_qs(url.query).items() if key in FAULTS}
        try:
            has_range = self.headers.get("Range") is not None
            faults = {**self.server.rules.take(path, has_range), **parse_faults(query)}
        except ValueError as error:
            return self.answer_text(400, str(error), path, send_body, {})

        entry = {
            "method": self.command,
            "path": path,
            "query": url.query,
            "range": self.headers.get("Range"),
            "user_agent": self.headers.get("User-Agent"),
            "accept_encoding": self.headers.get("Accept-Encoding"),
            "faults": faults,
            "status": None,
            "content_encoding": None,
            "bytes_sent": 0,
        }
        try:
            if "delay" in faults:
                time.sleep(faults["delay"])
            self.answer(path, url.query, faults, send_body, entry)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            self.server.log.append(entry)

    def answer(self, path, query, faults, send_body, entry):
        if faults.get("redirect", 0) > 0 or "redirect_to" in faults:
            return self.redirect(path, query, faults, entry)
        if "status" in faults:
            return self.answer_text(faults["status"], f"injected status {faults['status']}\n",
                                    path, send_body, entry)

        file_path = self.resolve(path)
        if file_path is None:
            return self.answer_text(404, f"not found: {path}\n", path, send_body, entry)
        try:
            with open(file_path, "rb") as file:
                data = file.read()
        except OSError:
            return self.answer_text(404, f"not found: {path}\n", path, send_body, entry)

        extension = os.path.splitext(file_path)[1].lower()
        headers = {
            "Content-Type": CONTENT_TYPES.get(extension, "application/octet-stream"),
            "Accept-Ranges": "bytes",
            "Cache-Control": "no-cache",
        }
        status = 200
        byte_range = None if faults.get("ignore_range") else parse_range(self.headers.get("Range"), len(data))
        if byte_range == "unsatisfiable":
            headers["Content-Range"] = f"bytes */{len(data)}"
            return self.answer_text(416, "range not satisfiable\n", path, send_body, entry, headers)
        if byte_range is not None:
            start, end = byte_range
            headers["Content-Range"] = f"bytes {start}-{end}/{len(data)}"
            data = data[start:end + 1]
            status = 206
        elif extension in COMPRESSIBLE and "gzip" in (self.headers.get("Accept-Encoding") or ""):
            data = gzip.compress(data)
            headers["Content-Encoding"] = "gzip"
            headers["Vary"] = "Accept-Encoding"
            entry["content_encoding"] = "gzip"
        self.send_body(status, headers, data, faults, send_body, entry)

    def resolve(self, path):
        """The file under the root that `path` names, or None (also for escapes and folders)."""
        root = self.server.root
        candidate = os.path.realpath(os.path.join(root, path.lstrip("/")))
        if candidate != root and not candidate.startswith(root + os.sep):
            return None
        return candidate if os.path.isfile(candidate) else None

    def redirect(self, path, query, faults, entry):
        if "redirect_to" in faults:
            location = faults["redirect_to"]
        else:
            remaining = {key: values[-1] for key, values in parse_qs(query).items()}
            remaining["redirect"] = str(faults["redirect"] - 1)
            location = path + "?" + urlencode(remaining)
        entry["status"] = 302
        self.send_response(302)
        self.send_header("Location", location)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def answer_text(self, status, text, path, send_body, entry, headers=None):
        headers = dict(headers or {})
        headers["Content-Type"] = "text/plain; charset=utf-8"
        self.send_body(status, headers, text.encode(), {}, send_body, entry)

    def send_body(self, status, headers, data, faults, send_body, entry):
        entry["status"] = status
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if not send_body:
            return
        limit = len(data)
        if "truncate" in faults:
            limit = min(limit, faults["truncate"])
        if "stall_after" in faults:
            limit = min(limit, faults["stall_after"])
        self.write_throttled(data[:limit], faults.get("rate"), entry)
        if "stall_after" in faults and faults["stall_after"] < len(data):
            self.stall(faults.get("stall_for", 60.0))
        if limit < len(data):
            # The announced length was not sent: the client must see the connection end.
            self.close_connection = True

    def write_throttled(self, data, rate, entry):
        if not rate:
            self.wfile.write(data)
            entry["bytes_sent"] += len(data)
            return
        started = time.monotonic()
        chunk = max(1, rate // 20)
        for offset in range(0, len(data), chunk):
            piece = data[offset:offset + chunk]
            self.wfile.write(piece)
            self.wfile.flush()
            entry["bytes_sent"] += len(piece)
            due = started + entry["bytes_sent"] / rate
            pause = due - time.monotonic()
            if pause > 0:
                time.sleep(pause)

    def stall(self, seconds):
        """Holds the connection open without sending, until the client leaves or time is up."""
        self.wfile.flush()
        deadline = time.monotonic() + seconds
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            readable, _, _ = select.select([self.connection], [], [], min(remaining, 0.5))
            if readable:
                try:
                    if not self.connection.recv(4096, socket.MSG_PEEK):
                        return
                except OSError:
                    return
                # The client sent bytes (a pipelined request); keep waiting without reading.
                time.sleep(min(remaining, 0.05))


class Origin(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, root, verbose):
        super().__init__(address, Handler)
        self.root = os.path.realpath(root)
        self.verbose = verbose
        self.rules = Rules()
        self.log = RequestLog()


def watch_stdin(server):
    """Stops the server when stdin reaches its end, that is when the parent process is gone."""
    while sys.stdin.buffer.read(4096):
        pass
    threading.Thread(target=server.shutdown, daemon=True).start()


def main():
    # A parent may start us with signals blocked (threads of a Swift test process block
    # them, and the mask is inherited): make sure SIGTERM and SIGINT can stop us.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    default_root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "playlists")
    parser = argparse.ArgumentParser(description="hlsq's test HTTP origin")
    parser.add_argument("--root", default=default_root, help="the folder to serve (default: playlists/)")
    parser.add_argument("--port", type=int, default=0, help="the port to bind (default: any free port)")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="stop when stdin closes, so the origin never outlives its parent")
    parser.add_argument("--verbose", action="store_true", help="log each request on stderr")
    arguments = parser.parse_args()
    if not os.path.isdir(arguments.root):
        parser.error(f"no such folder: {arguments.root}")

    server = Origin(("127.0.0.1", arguments.port), arguments.root, arguments.verbose)
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    if arguments.exit_on_stdin_eof:
        threading.Thread(target=watch_stdin, args=(server,), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
