"""Progress for the person at the terminal: one spinner line per stage on stderr, never on stdout."""
from __future__ import annotations

import sys
import time
from contextlib import contextmanager


class Stages:
    """Times each stage; shows a spinner while it runs when stderr is a terminal."""

    def __init__(self, show: bool | None = None):
        self.show = sys.stderr.isatty() if show is None else show
        self.seconds: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        if self.show:
            from rich.console import Console

            with Console(stderr=True).status(f"{name}…", spinner="dots"):
                yield
        else:
            yield
        self.seconds[name] = time.perf_counter() - start
