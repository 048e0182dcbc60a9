"""Exit codes, written once; README.md documents the same table."""
from __future__ import annotations

import sys
from enum import IntEnum


class ExitCode(IntEnum):
    SOLVED = 0
    NO_SOLUTION = 1
    BAD_INPUT = 2
    UNREADABLE_IMAGE = 3
    WRONG_TILE_COUNT = 4
    NEEDS_REVIEW = 5
    INCOMPLETE = 6  # a search stopped by --timeout or Ctrl-C: what it printed is a lower bound


class Fail(Exception):
    """Stop the command with a one-line message and an exit code."""

    def __init__(self, message: str, code: ExitCode):
        super().__init__(message)
        self.code = code


def say(message: str) -> None:
    """Messages for the person go to stderr, so stdout stays clean for results and --json."""
    print(message, file=sys.stderr, flush=True)
