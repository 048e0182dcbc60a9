"""Asking the person about the doubtful edges only: the tiles as read, then one short question per edge.

When the motifs themselves are a guess, the person is first asked how many there are (ask_motif_count).
Answers: Enter keeps the reading; a label name or number (`grey-`, `-2`) sets this edge; a free correction
(`4e grey-`, `7 n 3`) sets any edge; `?` lists the labels; `q` stops asking and keeps the rest as read.
Prompts and the table go to stderr, so stdout keeps only results.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import Callable, TextIO

from ..solver.tiles import Puzzle

SIDE_NAMES = ("north", "east", "south", "west")
CORRECTION = re.compile(r"^\s*(\d+)\s*([nesw])\s+(\S+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Question:
    """One doubtful edge: where it is, what was read and how sure, and the best other label."""

    tile: int  # 0-based
    side: int  # 0..3, N E S W
    read: int
    probability: float
    other: int
    other_probability: float


def parse_label(text: str, puzzle: Puzzle, labels: list[int]) -> int | None:
    """A label typed by a person: a name with its half (`grey-`) or a signed number (`-2`); None if neither."""
    text = text.strip()
    try:
        value = int(text)
    except ValueError:
        value = next((label for label in labels if puzzle.label(label).lower() == text.lower()), None)
    return value if value in labels else None


def parse_correction(text: str, puzzle: Puzzle, labels: list[int]) -> tuple[int, int, int] | None:
    """`4e grey-` or `7 n 3`: (tile index, side, label), or None when the text is not such a correction."""
    match = CORRECTION.match(text)
    if not match:
        return None
    tile, side = int(match.group(1)) - 1, "nesw".index(match.group(2).lower())
    label = parse_label(match.group(3), puzzle, labels)
    if label is None or not 0 <= tile < len(puzzle.tiles):
        return None
    return tile, side, label


def ask(questions: list[Question], puzzle: Puzzle, labels: list[int], read_line: Callable[[], str | None],
        out: TextIO | None = None) -> dict[tuple[int, int], int]:
    """Ask about each doubtful edge in turn; the person's answers as {(tile index, side): label}."""
    out = out or sys.stderr  # looked up now: the stream may have been replaced since import
    answers: dict[tuple[int, int], int] = {}
    name = puzzle.label
    out.write("Enter keeps the reading; or type a label (e.g. "
              f"{name(labels[0])}), a correction like '4e {name(labels[-1])}', '?' for the labels, 'q' to stop.\n")
    for question in questions:
        while True:
            if (question.tile, question.side) in answers:
                break  # corrected already through a free correction
            out.write(f"tile {question.tile + 1}, {SIDE_NAMES[question.side]} edge: read "
                      f"{name(question.read)} ({question.probability:.2f}), or {name(question.other)} "
                      f"({question.other_probability:.2f})? [{name(question.read)}] ")
            out.flush()
            text = read_line()
            if text is None or text.strip().lower() == "q":
                out.write("\n")
                return answers
            text = text.strip()
            if text == "":
                break
            if text == "?":
                out.write("labels: " + ", ".join(f"{name(label)} ({label})" for label in labels) + "\n")
                continue
            correction = parse_correction(text, puzzle, labels)
            if correction is not None:
                answers[correction[:2]] = correction[2]
                out.write(f"  tile {correction[0] + 1} {SIDE_NAMES[correction[1]]}: {name(correction[2])}\n")
                continue
            label = parse_label(text, puzzle, labels)
            if label is None:
                out.write(f"  '{text}' is not a label: type '?' to list them\n")
                continue
            answers[(question.tile, question.side)] = label
            break
    return answers


def ask_motif_count(guessed: int, most: int, read_line: Callable[[], str | None], out: TextIO | None = None
                    ) -> int | None:
    """How many motifs the puzzle shows, from the person: a number from 1 to `most`, or None to keep the guess."""
    count = ask_number("How many different motifs do the tiles show (a motif: the two halves that complete each "
                       f"other)? [{guessed}, a guess] ", most, read_line, out)
    return None if count == guessed else count


def ask_drawing(count: int, read_line: Callable[[], str | None], out: TextIO | None = None) -> int | None:
    """Which of `count` drawn solutions the person says is right: a number from 1 to `count`, or None to keep the
    first (the guess)."""
    return ask_number(f"Which drawing shows every figure whole across its seams? [1, the guess; 1-{count}] ",
                      count, read_line, out)


def ask_number(question: str, most: int, read_line: Callable[[], str | None], out: TextIO | None = None
               ) -> int | None:
    """A number from 1 to `most`, asked until one is given; None when the person just presses Enter (or q, or
    the input ends)."""
    out = out or sys.stderr
    while True:
        out.write(question)
        out.flush()
        text = read_line()
        if text is None or text.strip().lower() in ("", "q"):
            return None
        if text.strip().isdigit() and 1 <= int(text) <= most:
            return int(text)
        out.write(f"  '{text.strip()}' is not a number from 1 to {most}\n")


def reading_table(puzzle: Puzzle, probabilities, doubtful: set[tuple[int, int]], threshold: float) -> None:
    """The tiles as read, on stderr, doubtful cells highlighted (rich)."""
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Read from the photo (tile numbers as in the annotated photo)")
    table.add_column("tile", justify="right")
    for side in ("N", "E", "S", "W"):
        table.add_column(side)
    for tile in puzzle.tiles:
        cells = []
        for side, label in enumerate(puzzle.labels(tile.edges)):
            p = float(probabilities[tile.id - 1][side])
            text = f"{label} {p:.2f}" if p < threshold else label
            if (tile.id - 1, side) in doubtful:
                text = f"[bold black on yellow]{text} ?[/]"
            cells.append(text)
        table.add_row(str(tile.id), *cells)
    Console(stderr=True).print(table)
