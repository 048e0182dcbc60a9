"""The solver for every edge-matching puzzle: equal colours and signed halves, the shared formats, clues, the
compiled engine against its Python twin, and processes that split the tree, all counted exactly."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from photosolve.solver import Puzzle, solve
from photosolve.solver.engine import compiled, start_search
from photosolve.solver.formats import read_clues, read_puzzle_text
from photosolve.solver.generate import planted_puzzle, uniform_puzzle
from photosolve.solver.plan import ClueError, Clue, build_plan
from photosolve.solver.search import row_major_order
from photosolve.solver.search_run import Watch

from .solver_checks import brute_counts

BENCH = Path("/work/shared/puzzles/bench")
if not BENCH.is_dir():
    BENCH = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "bench"
needs_bench = pytest.mark.skipif(not BENCH.is_dir(), reason="the shared bench puzzles are not on this machine")

# The known counts (raw, distinct layouts, up to rotation) from the bench folder's README.
KNOWN = {
    "gallicchio_4_5_board_11/puzzle.puz": (12, 12, 3),
    "gallicchio_5_6_board_14/puzzle.puz": (100, 100, 25),
    "gallicchio_6_8_board_15/puzzle.puz": (56, 28, 7),
    "wikunia_eternity_5x5.txt": (16, 16, 4),
    "lior_monkey_3x3_signed.json": (8, 8, 2),
}


def load(name: str):
    path = BENCH / name
    return read_puzzle_text(path.read_text(), str(path))


def counts(result):
    return result.raw, result.distinct, result.up_to_rotation


@needs_bench
@pytest.mark.parametrize("name", sorted(KNOWN))
def test_bench_instances_have_their_known_counts(name):
    loaded = load(name)
    result = solve(loaded.puzzle, loaded.rows, loaded.cols)
    assert counts(result) == KNOWN[name]
    assert result.exhaustive and result.stopped is None


@needs_bench
def test_every_puzzle_of_the_signed_suite_has_its_reference_counts():
    text = (BENCH / "lior_scramble_3x3_signed_suite.json").read_text()
    for name, entry in json.loads(text).items():
        loaded = read_puzzle_text(text, f"suite.json#{name}")
        assert loaded.puzzle.match == "signed"
        reference = entry["refcount"]
        assert counts(solve(loaded.puzzle)) == (reference["raw"], reference["layouts"], reference["layouts_mod_rot"]), name


@needs_bench
def test_a_clue_file_pins_the_board_and_keeps_the_generating_solution():
    folder = BENCH / "gallicchio_4_5_board_11"
    loaded = load("gallicchio_4_5_board_11/puzzle.puz")
    clues = read_clues((folder / "puzzle.clue").read_text(), "puzzle.clue", len(loaded.puzzle.tiles))
    result = solve(loaded.puzzle, loaded.rows, loaded.cols, clues=clues)
    assert counts(result) == (3, 3, 3)  # the clue fixes the board's turn: the three solutions up to rotation
    generating = {}
    for line in (folder / "default_sol.sol").read_text().split("\n"):
        if line.strip():
            tile, col, row, anticlockwise = map(int, line.split())
            generating[(row, col)] = (tile + 1, (4 - anticlockwise) % 4)
    found = [{(r, c): (p.tile, p.turns) for r, row in enumerate(s.cells) for c, p in enumerate(row)}
             for s in result.solutions]
    assert generating in found


def test_equal_colour_counts_agree_with_exhaustive_enumeration():
    rng = random.Random(19)
    checked = 0
    for rows, cols, colours in [(2, 2, 1), (2, 2, 2), (2, 3, 2), (3, 2, 3), (2, 3, 1)]:
        for _ in range(3):
            puzzle, _ = planted_puzzle(rows, cols, colours, rng, match="equal")
            tiles = [t.edges for t in puzzle.tiles]
            assert counts(solve(puzzle, rows, cols)) == brute_counts(tiles, rows, cols, "equal"), tiles
            checked += 1
    assert checked == 15


def test_equal_colours_keep_the_frame_colour_on_the_frame_and_only_there():
    # Two tiles that would fit side by side on their 0 edges: 0 may not be a seam.
    puzzle = Puzzle.from_edges([(0, 0, 0, 1), (0, 1, 0, 0)], match="equal")
    assert solve(puzzle, 1, 2).raw == 2  # 1 meets 1 in the middle, either tile on the left, board turned
    inner_zero = Puzzle.from_edges([(0, 0, 0, 0), (0, 0, 0, 0)], match="equal")
    assert solve(inner_zero, 1, 2).raw == 0


def _same(a, b) -> None:
    assert counts(a) == counts(b)
    assert a.nodes == b.nodes  # the same tree, walked in the same order
    assert a.solutions == b.solutions


@pytest.mark.skipif(compiled is None, reason="the C engine was not built (no compiler at install)")
def test_the_compiled_engine_and_its_python_twin_agree(load_sample):
    rng = random.Random(20)
    puzzles = [(load_sample(name), None, None) for name in ("dogs", "cats")]
    puzzles += [(uniform_puzzle(3, 3, 3, rng), None, None) for _ in range(5)]
    puzzles += [(planted_puzzle(4, 4, 3, rng, border=True)[0], 4, 4)]
    puzzles += [(planted_puzzle(4, 5, 4, rng, match="equal")[0], 4, 5) for _ in range(2)]
    if BENCH.is_dir():
        loaded = load("wikunia_eternity_5x5.txt")
        puzzles.append((loaded.puzzle, loaded.rows, loaded.cols))
    for puzzle, rows, cols in puzzles:
        for options in ({}, {"order": "rows"}, {"break_symmetry": False}, {"first": True}):
            c = solve(puzzle, rows, cols, engine="c", **options)
            python = solve(puzzle, rows, cols, engine="python", **options)
            assert (c.engine, python.engine) == ("c", "python")
            _same(c, python)


@pytest.mark.skipif(compiled is None, reason="the C engine was not built (no compiler at install)")
def test_the_packed_walk_and_the_plain_loop_agree_with_the_python_twin():
    # The C engine walks plans of at most 64 tiles keyed by two neighbours with tile masks (advance_fast), others
    # with its plain loop: tiles shown alike in two or four turns (several turns of one tile in a bucket), 64
    # tiles, 81 tiles (the plain loop), seeded and not, stopped part way and run out.
    rng = random.Random(64)
    boards = [planted_puzzle(3, 3, 1, rng, match="equal"), planted_puzzle(3, 4, 2, rng, match="equal"),
              planted_puzzle(8, 8, 5, rng, match="equal"), planted_puzzle(9, 9, 5, rng, match="equal")]
    for (puzzle, _), budget in zip(boards, (None, None, 200_000, 200_000)):
        rows = cols = round(len(puzzle.tiles) ** 0.5)
        if len(puzzle.tiles) == 12:  # 3x4
            rows, cols = 3, 4
        plan = build_plan([t.edges for t in puzzle.tiles], rows, cols, row_major_order(rows, cols), match="equal")
        for seed in (0, 3):
            runs = [start_search(plan, keep=50, engine=engine, seed=seed) for engine in ("c", "python")]
            for search in runs:
                search.run(budget or 1 << 30)
            assert [(s.nodes, s.found, s.deepest, s.state, s.kept()) for s in runs[:1]] == \
                [(s.nodes, s.found, s.deepest, s.state, s.kept()) for s in runs[1:]]
            assert runs[0].nodes > 0


@pytest.mark.skipif(compiled is None, reason="the C engine was not built (no compiler at install)")
def test_both_engines_stop_at_the_same_place_and_report_it():
    puzzle, _ = planted_puzzle(5, 5, 4, random.Random(3), match="equal")
    whole = solve(puzzle, engine="c")
    assert whole.raw > 0
    for engine in ("c", "python"):
        first = solve(puzzle, engine=engine, first=True)
        assert (first.exhaustive, first.stopped, first.raw) == (False, "first", whole.raw and first.raw)
        assert first.solutions[0] in whole.solutions or first.solutions[0] == whole.solutions[0]


def test_symmetry_breaking_changes_the_tree_not_the_counts():
    puzzle, _ = planted_puzzle(4, 4, 3, random.Random(5), match="equal")
    broken, whole = solve(puzzle), solve(puzzle, break_symmetry=False)
    assert counts(broken) == counts(whole)
    assert broken.nodes * 3 < whole.nodes  # a corner tile kept in one corner: about a quarter of the tree


@needs_bench
def test_processes_split_the_tree_and_the_counts_add_up_exactly():
    loaded = load("gallicchio_5_6_board_14/puzzle.puz")
    single = solve(loaded.puzzle, loaded.rows, loaded.cols, jobs=1)
    split = solve(loaded.puzzle, loaded.rows, loaded.cols, jobs=2)
    assert split.jobs == 2 and single.jobs == 1
    _same(single, split)


def test_a_timeout_returns_what_was_found_as_a_lower_bound():
    # 49 tiles of 4 colours: far too many arrangements to count in a fraction of a second.
    puzzle, _ = planted_puzzle(7, 7, 4, random.Random(1), match="equal")
    reports = []
    result = solve(puzzle, watch=Watch(timeout=0.4, progress=reports.append, every=0.1))
    assert (result.exhaustive, result.stopped) == (False, "timeout")
    assert result.nodes > 0 and result.seconds < 3
    assert reports and reports[-1].nodes <= result.nodes and 0 < reports[-1].deepest <= 49


def test_clues_that_cannot_hold_are_refused():
    puzzle = Puzzle.from_edges([(1, 2, 3, 4)] * 4, match="equal")
    with pytest.raises(ClueError, match="off the 2x2 board"):
        solve(puzzle, clues=(Clue(0, 2, 0, 0),))
    with pytest.raises(ClueError, match="share"):
        solve(puzzle, clues=(Clue(0, 0, 0, 0), Clue(0, 1, 1, 0)))


def test_the_c_engine_is_built_wherever_there_is_a_compiler():
    # The extension is optional so that an install without a compiler succeeds; with one, a build that broke
    # would fall back to Python silently, 30-50x slower. CI installs with gcc, so it must be there.
    import shutil
    import sysconfig

    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not (shutil.which("gcc") or shutil.which("cc")) or not headers.exists():
        pytest.skip("no C compiler or Python headers here: the Python engine is the one expected")
    assert compiled is not None
    assert solve(Puzzle.from_edges([(0, 0, 0, 0)], match="equal")).engine == "c"
