#!/usr/bin/env python3
"""The crash test: acknowledged mutations survive kill -9 of `hlsq serve`.

Runs the real binary on a temporary database. In each round, several client threads apply
mutations (adds, moves, deletes, jumps, play/pause) to queues of their own, each recording
what the server acknowledged; at a random moment the server is killed with SIGKILL. Then:

- the database is opened read-only with sqlite3 and `PRAGMA integrity_check` must say ok;
- the server is started again on the same database, and for every queue the list of items
  (ids, URLs, order) must equal the client's model after its last acknowledged mutation, or
  after the one mutation that was in flight when the server died (it may have committed
  without its answer arriving). A jump acknowledged as the queue's last change must still be
  the current item.

Each client owns its queue, so its model is exact: nothing else changes that queue. Exits 0
when every round passes and prints one line per round; prints the failures and exits 1
otherwise.

    python3 Tests/crash/crash_test.py --binary .build/debug/hlsq [--rounds 20] [--clients 4]
"""

import argparse
import http.client
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Server:
    """`hlsq serve --port 0` on a database; `url` once it printed it."""

    def __init__(self, binary, database):
        self.process = subprocess.Popen(
            [binary, "serve", "--port", "0", "--db", database],
            cwd=REPOSITORY, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={k: v for k, v in os.environ.items() if not k.startswith("HLSQ_")})
        line = self.process.stdout.readline().decode()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if not match:
            self.process.kill()
            raise RuntimeError("hlsq serve printed no URL: %r" % line)
        self.port = int(match.group(1))

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=10)


def request(connection, method, path, body=None):
    """One request on a keep-alive connection: (status, parsed JSON or None)."""
    headers = {"Content-Type": "application/json"} if body is not None else {}
    connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
    response = connection.getresponse()
    data = response.read()
    return response.status, (json.loads(data) if data else None)


class Client(threading.Thread):
    """Mutates one queue until the server dies, keeping the model of what was acknowledged."""

    def __init__(self, port, queue, model, seed, origin_url):
        super().__init__(daemon=True)
        self.port = port
        self.queue = queue
        self.model = list(model)          # [(id, url)] in order, as acknowledged
        self.in_flight = None             # the model if the mutation being sent commits
        self.last_jump = None             # the item of a jump acknowledged as the last change
        self.random = random.Random(seed)
        self.origin_url = origin_url
        self.acknowledged = 0
        self.counter = 0
        self.error = None

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            while True:
                self.step(connection)
        except (OSError, http.client.HTTPException):
            return  # the server died: the in-flight mutation may or may not have committed
        except AssertionError as error:
            self.error = str(error)

    def step(self, connection):
        path = "/api/queues/%s" % self.queue
        ids = [item for item, _ in self.model]
        choice = self.random.random()
        if choice < 0.45 or len(ids) < 3:
            self.counter += 1
            url = "%s/media/chapters.mp4?client=%s&n=%d" % (self.origin_url, self.queue, self.counter)
            after = self.random.choice(ids) if ids and self.random.random() < 0.5 else None
            body = {"url": url}
            if after is not None:
                body["after"] = after
            self.in_flight = ("add", url, after)
            status, answer = request(connection, "POST", path + "/items", body)
            assert status == 201, "add answered %s %s" % (status, answer)
            position = len(self.model) if after is None else ids.index(after) + 1
            self.model.insert(position, (answer["id"], url))
            self.last_jump = None
        elif choice < 0.65:
            item = self.random.choice(ids)
            after = self.random.choice(ids + [None])
            self.in_flight = ("move", item, after)
            status, answer = request(connection, "POST", "%s/items/%s/move" % (path, item), {"after": after})
            assert status == 200, "move answered %s %s" % (status, answer)
            self.model = apply_move(self.model, item, after)
            assert [i["id"] for i in answer["items"]] == [i for i, _ in self.model], "move answer differs from the model"
            self.last_jump = None
        elif choice < 0.85:
            item = self.random.choice(ids)
            self.in_flight = ("delete", item)
            status, _ = request(connection, "DELETE", "%s/items/%s" % (path, item))
            assert status == 204, "delete answered %s" % status
            self.model = [entry for entry in self.model if entry[0] != item]
            self.last_jump = None
        elif choice < 0.93:
            item = self.random.choice(ids)
            self.in_flight = ("jump", item)
            status, answer = request(connection, "POST", path + "/commands", {"command": "jump", "itemId": item})
            # A jump to an item that failed to load is refused, and changes nothing.
            assert status in (200, 409), "jump answered %s %s" % (status, answer)
            if status == 200:
                self.last_jump = item
        else:
            command = self.random.choice(["play", "pause"])
            self.in_flight = ("command", command)
            status, answer = request(connection, "POST", path + "/commands", {"command": command})
            # Play may be refused while the current item loads: a refusal changes nothing.
            assert status in (200, 409), "%s answered %s %s" % (command, status, answer)
        self.in_flight = None
        self.acknowledged += 1

    def possible_models(self):
        """The lists the server may hold: the acknowledged one, and the one after the
        mutation in flight when the server died."""
        models = [[item for item, _ in self.model]]
        if self.in_flight and self.in_flight[0] == "add":
            _, url, after = self.in_flight
            ids = models[0]
            position = len(ids) if after is None else ids.index(after) + 1
            models.append((ids[:position], url, ids[position:]))  # the new id is unknown
        elif self.in_flight and self.in_flight[0] == "move":
            _, item, after = self.in_flight
            models.append([i for i, _ in apply_move(self.model, item, after)])
        elif self.in_flight and self.in_flight[0] == "delete":
            models.append([i for i in models[0] if i != self.in_flight[1]])
        return models


def apply_move(model, item, after):
    """The queue core's move with consume off: after `after`, or to the end for None;
    moving an item after itself changes nothing."""
    if item == after:
        return list(model)
    moving = next(entry for entry in model if entry[0] == item)
    rest = [entry for entry in model if entry[0] != item]
    position = len(rest) if after is None else [i for i, _ in rest].index(after) + 1
    return rest[:position] + [moving] + rest[position:]


def matches(found, candidates):
    """Whether the server's list `found` ([(id, url)]) is one of the candidate models."""
    found_ids = [item for item, _ in found]
    for candidate in candidates:
        if isinstance(candidate, tuple):  # an add in flight: some new id at that position
            before, url, after = candidate
            if (len(found) == len(before) + len(after) + 1 and found_ids[:len(before)] == before
                    and found_ids[len(before) + 1:] == after and found[len(before)][1] == url):
                return True
        elif found_ids == candidate:
            return True
    return False


def integrity(database):
    connection = sqlite3.connect("file:%s?mode=ro" % database, uri=True)
    try:
        return connection.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        connection.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    folder = tempfile.mkdtemp(prefix="hlsq-crash-")
    database = os.path.join(folder, "hlsq.sqlite")
    failures = []
    total = 0
    started = time.monotonic()
    try:
        server = Server(arguments.binary, database)
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        queues = []
        for index in range(arguments.clients):
            status, answer = request(connection, "POST", "/api/queues",
                                     {"name": "crash %d" % index, "settings": {"consume": False}})
            assert status == 201, answer
            queues.append(answer["id"])
        connection.close()
        models = {queue: [] for queue in queues}
        for round_number in range(1, arguments.rounds + 1):
            origin = "http://127.0.0.1:%d" % server.port
            clients = [Client(server.port, queue, models[queue], rng.random(), origin) for queue in queues]
            for client in clients:
                client.start()
            time.sleep(rng.uniform(0.3, 1.5))
            server.kill()
            for client in clients:
                client.join(timeout=15)
            acknowledged = sum(client.acknowledged for client in clients)
            total += acknowledged
            check = integrity(database)
            problems = [client.error for client in clients if client.error]
            if check != "ok":
                problems.append("integrity_check: %s" % check)
            server = Server(arguments.binary, database)
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            for client in clients:
                status, answer = request(connection, "GET", "/api/queues/%s" % client.queue)
                if status != 200:
                    problems.append("%s: GET answered %s" % (client.queue, status))
                    continue
                found = [(item["id"], item["url"]) for item in answer["items"]]
                if not matches(found, client.possible_models()):
                    problems.append("%s: the list %s is not the acknowledged %s (in flight: %s)" % (
                        client.queue, [i for i, _ in found], [i for i, _ in client.model], client.in_flight))
                elif client.last_jump and not client.in_flight and answer["currentItemId"] != client.last_jump:
                    problems.append("%s: the acknowledged jump to %s was lost (current %s)" % (
                        client.queue, client.last_jump, answer["currentItemId"]))
                models[client.queue] = found
            connection.close()
            print("round %2d: %4d acknowledged mutations, integrity %s, %s" % (
                round_number, acknowledged, check, "ok" if not problems else "FAILED"), flush=True)
            failures.extend("round %d: %s" % (round_number, problem) for problem in problems)
        server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    elapsed = time.monotonic() - started
    print("%d acknowledged mutations over %d kills in %.1f s (seed %d)" % (total, arguments.rounds, elapsed, arguments.seed))
    for failure in failures:
        print("FAILURE " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
