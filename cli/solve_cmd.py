"""`photosolve solve`: the solver stage alone, on tiles typed in or read from a tile file."""
from __future__ import annotations

import json
import sys
from pathlib import Path

from ..solver.board_text import describe_placements, render_board
from ..solver.search import BoardSizeError, SolveResult, solve
from ..solver.tilefile import (MAX_TEXT_BYTES, TileFileError, TileReader, decode_tile_text, parse_order,
                               parse_tiles)
from ..solver.tiles import Puzzle
from .document import solution_document
from .exit_codes import ExitCode, Fail, say


def read_puzzle(path: str | None, order: str, expected: int | None) -> Puzzle:
    """Tiles from a file, from '-' (stdin), or typed in at a prompt when there is no file and a terminal."""
    try:
        parse_order(order)
    except ValueError as error:
        raise Fail(str(error), ExitCode.BAD_INPUT) from None
    try:
        if path is None and sys.stdin.isatty():
            return prompt_for_tiles(order, expected)
        if path is None or path == "-":
            stdin = getattr(sys.stdin, "buffer", None)  # bytes, so a byte-order mark is seen
            text = sys.stdin.read() if stdin is None else decode_tile_text(stdin.read(MAX_TEXT_BYTES + 1), "<stdin>")
            return parse_tiles(text, "<stdin>", order)
        file = Path(path)
        if not file.is_file():
            raise Fail(f"{path}: no such file: give a tile file, '-' for stdin, or no file to type tiles in",
                       ExitCode.BAD_INPUT)
        try:
            with file.open("rb") as handle:
                data = handle.read(MAX_TEXT_BYTES + 1)  # a longer file is refused unread
        except OSError as error:
            raise Fail(f"{path}: cannot read it: {error.strerror}", ExitCode.BAD_INPUT) from None
        return parse_tiles(decode_tile_text(data, path), path, order)
    except TileFileError as error:
        raise Fail(str(error), ExitCode.BAD_INPUT) from None


def prompt_for_tiles(order: str, expected: int | None) -> Puzzle:
    """Ask for tiles one line at a time, checking each line as it is typed; an empty line ends."""
    reader = TileReader("<typed>", order)
    say(f"Type the tiles, one per line: four edges in the order {order.upper()}, "
        "e.g. `1 2 -4 -3` or `brown+ grey+ umber- spotted-`. An empty line ends.")
    while expected is None or len(reader.tiles) < expected:
        sys.stderr.write(f"tile {len(reader.tiles) + 1}: ")
        sys.stderr.flush()
        line = sys.stdin.readline()
        if not line.strip():
            if line and not reader.tiles:
                continue
            break
        try:
            reader.read_line(line, len(reader.tiles) + 1)
        except TileFileError as error:
            say(f"  {str(error).split(': ', 1)[1]} — try that tile again")
    if not reader.tiles:
        raise Fail("no tiles typed in", ExitCode.BAD_INPUT)
    return reader.puzzle()


def board_size(puzzle: Puzzle, rows: int | None, cols: int | None) -> tuple[int | None, int | None]:
    count = len(puzzle.tiles)
    for name, value in (("rows", rows), ("cols", cols)):
        if value is not None and value <= 0:
            raise Fail(f"--{name} must be a positive number, got {value}", ExitCode.BAD_INPUT)
    given = rows or cols
    if given and count % given:
        raise Fail(f"{puzzle.source}: {count} tiles do not fill a board with {given} "
                   f"{'rows' if rows else 'columns'}: check the tile count or the board size", ExitCode.BAD_INPUT)
    return rows, cols


def run_solver(puzzle: Puzzle, rows: int | None, cols: int | None, first: bool) -> SolveResult:
    rows, cols = board_size(puzzle, rows, cols)
    try:
        return solve(puzzle, rows, cols, first=first)
    except BoardSizeError as error:
        raise Fail(f"{puzzle.source}: {error}", ExitCode.BAD_INPUT) from None


def print_result(puzzle: Puzzle, result: SolveResult, as_json: bool) -> None:
    """Results on stdout: the JSON document, or the boards as text."""
    if as_json:
        print(json.dumps(solution_document(puzzle, result), indent=1))
        return
    print(summary_line(puzzle, result))
    for number, solution in enumerate(result.solutions, start=1):
        print(f"\nSolution {number} of {len(result.solutions)}:")
        print(render_board(puzzle, solution))
        for line in describe_placements(puzzle, solution):
            print("  " + line)


def summary_line(puzzle: Puzzle, result: SolveResult) -> str:
    stopped = "" if result.exhaustive else " (stopped at the first; counts are a lower bound)"
    return (f"{len(puzzle.tiles)} tiles, {result.rows}x{result.cols} board: "
            f"{result.raw} arrangements, {result.distinct} distinct, {result.up_to_rotation} up to rotation{stopped}; "
            f"{result.nodes} placements tried in {result.seconds * 1000:.1f} ms")


def solve_command(tiles: str | None, rows: int | None, cols: int | None, order: str, first: bool,
                  as_json: bool) -> ExitCode:
    puzzle = read_puzzle(tiles, order, rows * cols if rows and cols else None)
    result = run_solver(puzzle, rows, cols, first)
    print_result(puzzle, result, as_json)
    if result.raw == 0:
        say(f"no solution: these {len(puzzle.tiles)} tiles cannot be arranged on a "
            f"{result.rows}x{result.cols} board (check the tiles for a typing mistake)")
        return ExitCode.NO_SOLUTION
    return ExitCode.SOLVED
