"""`photosolve solve`: the solver stage alone, on tiles typed in or read from a tile file."""
from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from ..solver.board_text import describe_placements, render_board
from ..solver.formats import Loaded, guess_match, parse_clue, read_clues, read_puzzle_text, suite_member
from ..solver.plan import ClueError
from ..solver.search import BoardSizeError, SolveResult, solve
from ..solver.search_run import Progress, Watch
from ..solver.tilefile import MAX_TEXT_BYTES, TileFileError, TileReader, decode_tile_text, parse_order
from ..solver.tiles import Puzzle
from .document import solution_document
from .exit_codes import ExitCode, Fail, say

SHOWN_SOLUTIONS = 100  # boards printed as text; --json has every one kept


class SearchOptions(NamedTuple):
    """How `photosolve solve` searches: edge matching, clues, stopping, processes, progress."""

    first: bool = False
    match: str | None = None         # None: as the file says (or guessed from its edges)
    clues: tuple[str, ...] = ()      # TILE,ROW,COL[,TURNS] as typed
    clue_file: str | None = None     # Gallicchio's puzzle.clue
    jobs: int | None = None          # None: all cores, once a search outlasts a short probe
    timeout: float | None = None
    progress: bool | None = None     # None: when stderr is a terminal
    seed: int = 0                    # --first: the restarts' random orders


def read_puzzle(path: str | None, order: str, expected: int | None, match: str | None = "signed") -> Puzzle:
    """Tiles from a file, from '-' (stdin), or typed in at a prompt when there is no file and a terminal."""
    return read_input(path, order, expected, match).puzzle


def read_input(path: str | None, order: str, expected: int | None, match: str | None = None) -> Loaded:
    """The tiles as read_puzzle gives them, with the board size the file says, if it says one."""
    try:
        parse_order(order)
    except ValueError as error:
        raise Fail(str(error), ExitCode.BAD_INPUT) from None
    try:
        if path is None and sys.stdin.isatty():
            return Loaded(_matched(prompt_for_tiles(order, expected), match))
        if path is None or path == "-":
            stdin = getattr(sys.stdin, "buffer", None)  # bytes, so a byte-order mark is seen
            text = sys.stdin.read() if stdin is None else decode_tile_text(stdin.read(MAX_TEXT_BYTES + 1), "<stdin>")
            return read_puzzle_text(text, "<stdin>", order, match)
        file = Path(suite_member(path)[0])
        if file.is_dir():
            raise Fail(f"{path}: a folder, not a tile file: give the tile file inside it, or '-' for stdin",
                       ExitCode.BAD_INPUT)
        if not file.is_file():
            raise Fail(f"{path}: no such file: give a tile file, '-' for stdin, or no file to type tiles in",
                       ExitCode.BAD_INPUT)
        try:
            with file.open("rb") as handle:
                data = handle.read(MAX_TEXT_BYTES + 1)  # a longer file is refused unread
        except OSError as error:
            raise Fail(f"{path}: cannot read it: {error.strerror}", ExitCode.BAD_INPUT) from None
        return read_puzzle_text(decode_tile_text(data, path), path, order, match)
    except TileFileError as error:
        raise Fail(str(error), ExitCode.BAD_INPUT) from None


def _matched(puzzle: Puzzle, match: str | None) -> Puzzle:
    return replace(puzzle, match=match or guess_match(t.edges for t in puzzle.tiles))


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


def clues_of(puzzle: Puzzle, options: SearchOptions) -> tuple:
    """The clues typed with --clue and those in a --clues file."""
    try:
        clues = tuple(parse_clue(text, len(puzzle.tiles)) for text in options.clues)
        if options.clue_file:
            file = Path(options.clue_file)
            if not file.is_file():
                raise Fail(f"{options.clue_file}: no such clue file", ExitCode.BAD_INPUT)
            clues += read_clues(file.read_text(encoding="utf-8", errors="replace"), options.clue_file, len(puzzle.tiles))
    except (ValueError, OSError) as error:
        raise Fail(str(error), ExitCode.BAD_INPUT) from None
    return clues


def run_solver(puzzle: Puzzle, rows: int | None, cols: int | None, options: SearchOptions) -> SolveResult:
    if options.jobs is not None and options.jobs < 1:
        raise Fail(f"--jobs must be 1 or more, got {options.jobs}", ExitCode.BAD_INPUT)
    if not 0 <= options.seed < 1 << 31:
        raise Fail(f"--seed must be from 0 to {(1 << 31) - 1}, got {options.seed}", ExitCode.BAD_INPUT)
    if options.timeout is not None and not options.timeout > 0:
        raise Fail(f"--timeout must be a positive number of seconds, got {options.timeout}", ExitCode.BAD_INPUT)
    show = sys.stderr.isatty() if options.progress is None else options.progress
    watch = Watch(timeout=options.timeout, progress=show_progress if show else None)
    try:
        result = solve(puzzle, rows, cols, first=options.first, clues=clues_of(puzzle, options),
                       jobs=options.jobs, watch=watch, seed=options.seed)
    except (BoardSizeError, ClueError) as error:
        raise Fail(f"{puzzle.source}: {error}", ExitCode.BAD_INPUT) from None
    finally:
        if watch.progress is not None:
            sys.stderr.write("\r\033[K")  # the progress line goes; what follows starts clean
            sys.stderr.flush()
    return result


def show_progress(p: Progress) -> None:
    """One line on stderr, rewritten in place: placements, their rate, the deepest cell, solutions so far."""
    rate = p.nodes / p.seconds if p.seconds else 0.0
    row, col = p.deepest_cell
    split = f", subtrees {p.subtrees[0]}/{p.subtrees[1]}" if p.subtrees else ""
    split += f", {p.restarts} restarts in other orders" if p.restarts else ""
    sys.stderr.write(f"\r\033[K{p.seconds:6.1f} s  {_count(p.nodes)} placements ({_count(rate)}/s), "
                     f"deepest {p.deepest}/{p.cells} cells (row {row + 1}, col {col + 1}), "
                     f"{p.found} found{split}  (Ctrl-C stops and prints them)")
    sys.stderr.flush()


def _count(n: float) -> str:
    for size, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f}"


def print_result(puzzle: Puzzle, result: SolveResult, as_json: bool) -> None:
    """Results on stdout: the JSON document, or the boards as text."""
    if as_json:
        print(json.dumps(solution_document(puzzle, result), indent=1))
        return
    print(summary_line(puzzle, result))
    print_boards(puzzle, result)


def print_boards(puzzle: Puzzle, result: SolveResult) -> None:
    """The solutions as text boards with their placements, the first SHOWN_SOLUTIONS of them."""
    shown = result.solutions[:SHOWN_SOLUTIONS]
    for number, solution in enumerate(shown, start=1):
        print(f"\nSolution {number} of {len(result.solutions)}:")
        print(render_board(puzzle, solution))
        for line in describe_placements(puzzle, solution):
            print("  " + line)
    if len(shown) < len(result.solutions):
        print(f"\n({len(result.solutions) - len(shown)} more solutions not shown: --json lists them all)")


STOPPED = {
    "first": " (stopped at the first; counts are a lower bound)",
    "timeout": " (stopped by --timeout: INCOMPLETE, counts are a lower bound)",
    "interrupted": " (stopped by Ctrl-C: INCOMPLETE, counts are a lower bound)",
}


def summary_line(puzzle: Puzzle, result: SolveResult) -> str:
    stopped = STOPPED.get(result.stopped, "") if not result.exhaustive else ""
    distinct = "not counted" if result.distinct is None else result.distinct
    rotation = "not counted" if result.up_to_rotation is None else result.up_to_rotation
    kind = "" if result.match == "signed" else ", equal colours"
    return (f"{len(puzzle.tiles)} tiles, {result.rows}x{result.cols} board{kind}: "
            f"{result.raw} arrangements, {distinct} distinct, {rotation} up to rotation{stopped}; "
            f"{result.nodes} placements tried in {_duration(result.seconds)}")


def _duration(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 10 else f"{seconds:.1f} s"


def solve_command(tiles: str | None, rows: int | None, cols: int | None, order: str, as_json: bool,
                  options: SearchOptions | None = None) -> ExitCode:
    options = options or SearchOptions()
    if options.match not in (None, "signed", "equal"):
        raise Fail(f"--match is 'signed' or 'equal', not '{options.match}'", ExitCode.BAD_INPUT)
    loaded = read_input(tiles, order, rows * cols if rows and cols else None, options.match)
    puzzle = loaded.puzzle
    if rows is None and cols is None:
        rows, cols = loaded.rows, loaded.cols
    result = run_solver(puzzle, rows, cols, options)
    print_result(puzzle, result, as_json)
    if result.stopped in ("timeout", "interrupted"):
        say(f"incomplete: the search was stopped ({result.stopped}) after {result.nodes} placements; "
            f"the {result.raw} arrangements found are a lower bound")
        return ExitCode.INCOMPLETE
    if result.raw == 0:
        say(f"no solution: these {len(puzzle.tiles)} tiles cannot be arranged on a "
            f"{result.rows}x{result.cols} board (check the tiles for a typing mistake)")
        return ExitCode.NO_SOLUTION
    return ExitCode.SOLVED
