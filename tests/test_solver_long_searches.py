"""`photosolve solve` on searches too long to finish: --timeout, Ctrl-C and the progress line, through the installed
command; exit 6 says the counts printed are a lower bound."""
from __future__ import annotations

import json
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from photosolve.cli.exit_codes import ExitCode
from photosolve.solver.generate import planted_puzzle

from .interrupting import output_when_done, started_at_a_terminal
from .solver_checks import board_is_valid, turned

COMMAND = shutil.which("photosolve") or str(Path(sys.executable).with_name("photosolve"))


@pytest.fixture(scope="module")
def long_puzzle(tmp_path_factory) -> str:
    """49 tiles of 4 colours with a `W H` header: a count that runs for minutes, a first solution in 0.1 s."""
    puzzle, _ = planted_puzzle(7, 7, 4, random.Random(1), match="equal")
    path = tmp_path_factory.mktemp("long") / "seven.txt"
    path.write_text("7 7\n" + "".join(" ".join(map(str, t.edges)) + "\n" for t in puzzle.tiles))
    return str(path)


def test_timeout_prints_what_was_found_and_exits_incomplete(long_puzzle):
    started = time.perf_counter()
    done = subprocess.run([COMMAND, "solve", long_puzzle, "--timeout", "0.5", "--json", "--jobs", "1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == ExitCode.INCOMPLETE == 6
    document = json.loads(done.stdout)
    assert (document["exhaustive"], document["stopped"], document["match"]) == (False, "timeout", "equal")
    assert document["nodes"] > 0 and document["counts"]["raw"] % 4 == 0  # each searched board stands for its 4 turns
    assert document["counts"]["raw"] >= document["counts"]["distinct"] >= len(document["solutions"]) > 0
    assert "incomplete" in done.stderr and "Traceback" not in done.stderr
    assert time.perf_counter() - started < 20


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_the_count_and_prints_it(long_puzzle, jobs):
    search = started_at_a_terminal([COMMAND, "solve", long_puzzle, "--jobs", jobs, "--progress"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(2.0)
    search.send_signal(signal.SIGINT)
    out, err = output_when_done(search, timeout=30)
    assert search.returncode == ExitCode.INCOMPLETE, err
    assert "stopped by Ctrl-C: INCOMPLETE" in out.splitlines()[0]
    assert "placements (" in err and "deepest" in err  # the progress line was shown
    assert "Traceback" not in err


def test_first_stops_at_a_solution_and_exits_solved(long_puzzle):
    done = subprocess.run([COMMAND, "solve", long_puzzle, "--first"], capture_output=True, text=True, timeout=60)
    assert done.returncode == ExitCode.SOLVED
    assert "stopped at the first" in done.stdout.splitlines()[0] and "Solution 1 of 1" in done.stdout


BRENDAN_8X8 = Path("/work/shared/puzzles/bench/brendan_8x8.txt")
if not BRENDAN_8X8.is_file():
    BRENDAN_8X8 = Path(__file__).resolve().parents[2] / "shared" / "puzzles" / "bench" / "brendan_8x8.txt"


@pytest.mark.skipif(not BRENDAN_8X8.is_file(), reason="the shared bench puzzles are not on this machine")
def test_first_on_brendan_7x7_is_a_valid_board():
    """The biggest shared board whose first solution is quick (about 1 s in one process): the board printed is
    checked seam by seam and along the frame, from the JSON alone."""
    path = BRENDAN_8X8.with_name("brendan_7x7.txt")
    done = subprocess.run([COMMAND, "solve", str(path), "--first", "--jobs", "1", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == ExitCode.SOLVED, done.stderr
    document = json.loads(done.stdout)
    assert document["stopped"] == "first" and document["counts"]["raw"] == 4
    edges = {t["id"]: tuple(t["edges"]) for t in document["tiles"]}
    cells = document["solutions"][0]["cells"]
    assert sorted(p["tile"] for row in cells for p in row) == sorted(edges)
    grid = [[turned(edges[p["tile"]], p["turns"]) for p in row] for row in cells]
    assert (len(grid), len(grid[0])) == (7, 7) and board_is_valid(grid, "equal")


@pytest.mark.skipif(not BRENDAN_8X8.is_file(), reason="the shared bench puzzles are not on this machine")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_first_that_runs_out_of_time_says_so(jobs):
    """Brendan 8x8 (13 solutions up to rotation in a tree of ~6e11 placements): no first solution in 1 s."""
    done = subprocess.run([COMMAND, "solve", str(BRENDAN_8X8), "--first", "--timeout", "1", "--jobs", jobs,
                           "--progress"], capture_output=True, text=True, timeout=60)
    assert done.returncode == ExitCode.INCOMPLETE
    assert "0 arrangements" in done.stdout and "stopped by --timeout: INCOMPLETE" in done.stdout
    assert "placements (" in done.stderr and "incomplete" in done.stderr and "Traceback" not in done.stderr
    assert "restarts in other orders" in done.stderr


@pytest.mark.skipif(not BRENDAN_8X8.is_file(), reason="the shared bench puzzles are not on this machine")
def test_ctrl_c_stops_processes_racing_for_a_first_solution():
    search = started_at_a_terminal([COMMAND, "solve", str(BRENDAN_8X8), "--first", "--jobs", "2", "--progress"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)  # past the 0.3 s probe: the racers are running
    search.send_signal(signal.SIGINT)
    out, err = output_when_done(search, timeout=30)
    assert search.returncode == ExitCode.INCOMPLETE, err
    assert "stopped by Ctrl-C: INCOMPLETE" in out.splitlines()[0] and "Traceback" not in err


def _hold_the_lock(live, holding) -> None:
    live.get_lock().acquire()
    holding.set()
    time.sleep(60)


def test_a_stopped_search_reads_its_counts_though_a_worker_died_holding_their_lock():
    """A Ctrl-C or a timeout kills the pool's workers wherever they are, one perhaps while it adds its placements to
    the shared counts under their lock (seen: 1 Ctrl-C in about 200, sent 0.24-0.29 s into a 7x7 count on 2 jobs,
    hung the command for good). The counts are then read without the lock."""
    import multiprocessing
    import threading

    from photosolve.solver.parallel import final_counts

    context = multiprocessing.get_context("fork")
    live, holding = context.Array("q", [5, 7, 0]), context.Event()
    worker = context.Process(target=_hold_the_lock, args=(live, holding))
    worker.start()
    assert holding.wait(10)
    worker.kill()
    worker.join()
    read: list = []
    reader = threading.Thread(target=lambda: read.append(final_counts(live)), daemon=True)
    reader.start()
    reader.join(5)
    assert read == [[5, 7, 0]]
