"""The review page's HTTP layer: a server on 127.0.0.1 that answers only requests carrying its random token, hands
each to session.py, and stops when the page says done (or on Ctrl-C).

Every address is /TOKEN/...: GET the page and its assets, `state` (JSON), `photo.jpg`, `half/LABEL.png`,
`solved.png?n=N`; POST `edge` ({"tile", "side", "label"} or {"changes": [...]}), `undo`, `save`, `done`.
"""
from __future__ import annotations

import hmac
import json
import secrets
import threading
import webbrowser
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Callable
from urllib.parse import parse_qs, urlsplit

from ..exit_codes import Fail
from . import session
from .session import Corrections, ReviewError, Reviewed

ASSETS = {"": ("index.html", "text/html; charset=utf-8"), "app.js": ("app.js", "text/javascript; charset=utf-8"),
          "style.css": ("style.css", "text/css; charset=utf-8")}


@dataclass
class Desk:
    """The one thing that changes while the page is open: the corrections, behind a lock (the server answers each
    request in its own thread), with the solver's verdict kept per set of edges so that it is found once."""

    reviewed: Reviewed
    tiles_target: Path | None
    solved_target: Path | None
    corrections: Corrections
    page_photo: bytes
    page_scale: float
    lock: threading.Lock = field(default_factory=threading.Lock)
    verdicts: dict = field(default_factory=dict)
    suggestions: dict = field(default_factory=dict)
    halves: dict = field(default_factory=dict)

    @classmethod
    def open(cls, reviewed: Reviewed, tiles_target: Path | None, solved_target: Path | None) -> "Desk":
        picture, scale = session.page_photo(reviewed.image)
        return cls(reviewed, tiles_target, solved_target, session.start(reviewed), session.encoded(picture, "JPEG"),
                   scale)

    def verdict(self, corrections: Corrections) -> tuple:
        """(solve result, suggested repair) for these corrections, each found once."""
        edges, key = corrections.edges, (corrections.edges, corrections.checked)
        if edges not in self.verdicts:
            self.verdicts[edges] = session.solve_now(self.reviewed, edges)
        result = self.verdicts[edges]
        if key not in self.suggestions:
            stuck = isinstance(result, str) or not result.solutions
            self.suggestions[key] = session.suggestion(self.reviewed, corrections) if stuck else []
        return result, self.suggestions[key]

    def state(self) -> dict:
        with self.lock:
            corrections = self.corrections
            result, suggested = self.verdict(corrections)
        targets = [str(path) for path in (self.tiles_target, self.solved_target) if path is not None]
        return session.page_document(self.reviewed, corrections, result, self.page_scale, suggested, targets)

    def change(self, step: Callable[[Corrections], Corrections]) -> dict:
        with self.lock:
            self.corrections = step(self.corrections)
        return self.state()

    def save(self) -> list[str]:
        with self.lock:
            corrections = self.corrections
            result, _ = self.verdict(corrections)
        return session.save(self.reviewed, corrections, result, self.tiles_target, self.solved_target)

    def half(self, label: int) -> bytes:
        if label not in self.halves:
            self.halves[label] = session.encoded(session.half_picture(self.reviewed, label))
        return self.halves[label]

    def solved(self, number: int) -> bytes | None:
        with self.lock:
            result, _ = self.verdict(self.corrections)
        picture = session.solved_picture(self.reviewed, result, number)
        return None if picture is None else session.encoded(picture)


def changes_of(body: dict) -> list[tuple[int, int, int]]:
    """The edges a POST to `edge` sets: one ({"tile", "side", "label"}, tile 1-based) or several ({"changes"})."""
    listed = body.get("changes", [body]) if isinstance(body, dict) else None
    try:
        return [(int(item["tile"]) - 1, int(item["side"]), int(item["label"])) for item in listed]
    except (KeyError, TypeError, ValueError):
        raise ReviewError("an edge is given as {\"tile\": 1-based, \"side\": 0-3, \"label\": signed motif}") from None


def handler_for(desk: Desk, token: str, stop: Callable[[], None]) -> type[BaseHTTPRequestHandler]:
    """A request handler bound to one desk and its token."""
    prefix = f"/{token}/"

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # the terminal is the person's: no line per request
            pass

        def route(self) -> str | None:
            """The address after /TOKEN/, or None (and 403 sent) when the token is missing or wrong."""
            path = urlsplit(self.path).path
            given = path[1:].split("/", 1)[0]
            if not hmac.compare_digest(given.encode(), token.encode()):
                self.reply(403, b"forbidden: this review page's address carries its token\n", "text/plain")
                return None
            if path == prefix[:-1]:
                self.send_response(301)
                self.send_header("Location", prefix)
                self.end_headers()
                return None
            return path[len(prefix):]

        def reply(self, status: int, body: bytes, kind: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def reply_json(self, document, status: int = 200) -> None:
            self.reply(status, json.dumps(document).encode(), "application/json")

        def do_GET(self) -> None:
            route = self.route()
            if route is None:
                return
            query = parse_qs(urlsplit(self.path).query)
            if route in ASSETS:
                name, kind = ASSETS[route]
                self.reply(200, resources.files(__package__).joinpath("page", name).read_bytes(), kind)
            elif route == "state":
                self.reply_json(desk.state())
            elif route == "photo.jpg":
                self.reply(200, desk.page_photo, "image/jpeg")
            elif route.startswith("half/") and route.endswith(".png"):
                try:
                    label = int(route[len("half/"):-len(".png")])
                    self.reply(200, desk.half(label), "image/png")
                except ValueError:
                    self.reply(404, b"no such label\n", "text/plain")
            elif route == "solved.png":
                number = query.get("n", ["0"])[0]
                picture = desk.solved(int(number)) if number.isdigit() else None
                if picture is None:
                    self.reply(404, b"no solution\n", "text/plain")
                else:
                    self.reply(200, picture, "image/png")
            else:
                self.reply(404, b"not found\n", "text/plain")

        def do_POST(self) -> None:
            route = self.route()
            if route is None:
                return
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
                if route == "edge":
                    changes = changes_of(body)
                    self.reply_json(desk.change(lambda now: session.set_edges(desk.reviewed, now, changes)))
                elif route == "undo":
                    self.reply_json(desk.change(session.undo))
                elif route == "save":
                    self.reply_json({"said": desk.save()})
                elif route == "done":
                    self.reply_json({"done": True})
                    stop()
                else:
                    self.reply(404, b"not found\n", "text/plain")
            except (ReviewError, json.JSONDecodeError) as error:
                self.reply_json({"error": str(error)}, 400)
            except (OSError, Fail) as error:  # the disk refused the save: the page says so, the session goes on
                self.reply_json({"error": f"could not save: {error}"}, 500)

    return Handler


def review_in_browser(desk: Desk, say: Callable[[str], None], open_page: Callable[[str], bool] = webbrowser.open
                      ) -> Corrections:
    """Serve the page on 127.0.0.1 (a free port, a random token), open it, and wait until the page says done;
    the corrections then made. Ctrl-C stops the server and is passed on."""
    token = secrets.token_urlsafe(18)

    def stop() -> None:  # called while serving a request: shutdown waits for serve_forever, so from another thread
        threading.Thread(target=server.shutdown, daemon=True).start()

    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(desk, token, stop))
    server.daemon_threads = True
    url = f"http://127.0.0.1:{server.server_address[1]}/{token}/"

    def open_browser() -> None:  # apart from serving: a browser in this terminal (lynx) waits until it is closed
        try:
            opened = open_page(url)
        except Exception:  # webbrowser passes on what its helper programs raise; the address is printed anyway
            opened = False
        if not opened:
            say("no browser could be opened here: open the address above in one")

    say(f"review page: {url} (press Done on the page to go on, Ctrl-C to stop)")
    threading.Thread(target=open_browser, daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.server_close()
    return desk.corrections
