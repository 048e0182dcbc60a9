"""How fast the solver is, against the targets of issue 2: start-up, seed puzzles, random and planted boards.

Run from anywhere with the project installed: `python bench/solver_speed.py` (about a minute; `--quick` for
fewer repeats). Every figure is measured in this run; ablations are ratios against the default search on the
same puzzles, so machine load cancels out as far as it can.
"""
from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from photosolve.solver import solve
from photosolve.solver.generate import planted_puzzle, uniform_puzzle
from photosolve.solver.tilefile import parse_tiles
from photosolve.solver.tiles import turn_edges

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ("dogs", "insects", "nsa", "cats")
EXPECTED_MEAN = 362880 * 4 ** 9 / 8 ** 12  # 9! 4^9 / 8^12: mean raw solutions of a uniform 3x3, 4 motifs


def heading(title: str) -> None:
    print(f"\n== {title}")


def verdict(value: float, target: float, unit: str) -> str:
    return f"target <= {target:g} {unit}: {'ok' if value <= target else 'MISSED'}"


def wall(command: list[str], repeats: int) -> list[float]:
    """Whole-process wall times of a command, stdout discarded, run from the project root."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return times


def timed(puzzle, rows=None, cols=None, **options):
    start = time.perf_counter()
    result = solve(puzzle, rows, cols, **options)
    return time.perf_counter() - start, result


def load(name: str):
    path = ROOT / "samples" / f"{name}.tiles"
    return parse_tiles(path.read_text(), str(path))


def planted(side: int, motifs: int, seed: int):
    return planted_puzzle(side, side, motifs, random.Random(seed))[0]


def naive_count(puzzle) -> int:
    """Raw solutions by a plain backtracker: row-major, every unused tile in every turn checked at each cell.

    No candidate index, no spiral, no symmetry breaking: the baseline that shows what the solver's tricks buy.
    """
    tiles = [t.edges for t in puzzle.tiles]
    side = round(len(tiles) ** 0.5)
    turned = [[turn_edges(e, k) for k in range(4)] for e in tiles]
    used = [False] * len(tiles)
    grid: list = [None] * len(tiles)

    def place(i: int) -> int:
        if i == len(tiles):
            return 1
        r, c = divmod(i, side)
        found = 0
        for ti in range(len(tiles)):
            if used[ti]:
                continue
            for shown in turned[ti]:
                if c and shown[3] + grid[i - 1][1]:
                    continue
                if r and shown[0] + grid[i - side][2]:
                    continue
                used[ti], grid[i] = True, shown
                found += place(i + 1)
                used[ti] = False
        return found

    return place(0)


def startup(repeats: int) -> None:
    heading(f"Whole process: `photosolve solve samples/dogs.tiles`, median of {repeats} runs (wall)")
    python = sys.executable
    command = str(Path(python).with_name("photosolve"))
    if not Path(command).exists():
        command = shutil.which("photosolve") or ""
    if not command:
        print("  photosolve command not found: install the project first")
        return
    rows = [
        ("python -c pass (floor)", [python, "-c", "pass"]),
        ("python -c 'import typer'", [python, "-c", "import typer"]),
        ("python -c 'import pydantic'", [python, "-c", "import pydantic"]),
        ("python -c 'import photosolve.cli.main'", [python, "-c", "import photosolve.cli.main"]),
        ("photosolve solve samples/dogs.tiles", [command, "solve", "samples/dogs.tiles"]),
    ]
    measured = {}
    for label, cmd in rows:
        times = wall(cmd, repeats)
        measured[label] = statistics.median(times)
        print(f"  {label:<42} median {measured[label]:.3f} s   min {min(times):.3f} s")
    print(f"  {'':<42} {verdict(measured[rows[-1][0]], 0.25, 's')}")
    probe = ("import sys; sys.argv = ['photosolve', 'solve', 'samples/dogs.tiles']\n"
             "from photosolve.cli.main import run\n"
             "try:\n    run()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('numpy', 'cv2', 'skimage', 'PIL', 'pydantic') if m in sys.modules))")
    loaded = subprocess.run([python, "-c", probe], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    print(f"  heavy modules loaded by the solve command: {loaded.splitlines()[-1] if loaded else '?'}")


def samples(repeats: int) -> None:
    heading(f"Seed puzzles in-process, all solutions, median of {repeats} solves (tables built each time)")
    print(f"  {'puzzle':<8} {'median ms':>10} {'nodes':>7} {'raw/distinct/rot':>17}")
    for name in SAMPLES:
        puzzle = load(name)
        times = []
        for _ in range(repeats):
            seconds, result = timed(puzzle)
            times.append(seconds)
        median = statistics.median(times)
        counts = f"{result.raw}/{result.distinct}/{result.up_to_rotation}"
        print(f"  {name:<8} {median * 1000:>10.3f} {result.nodes:>7} {counts:>17}   {verdict(median * 1000, 1.0, 'ms')}")


def uniform(count: int) -> None:
    heading(f"{count} uniform random 3x3 puzzles, 4 motifs, all solutions (seed 2025)")
    rng = random.Random(2025)
    puzzles = [uniform_puzzle(3, 3, 4, rng) for _ in range(count)]
    start = time.perf_counter()
    results = [solve(p) for p in puzzles]
    total = time.perf_counter() - start
    raws = [r.raw for r in results]
    mean = sum(raws) / count
    sd = statistics.pstdev(raws)
    per_thousand = total * 1000 / count
    print(f"  total {total:.3f} s ({total / count * 1000:.3f} ms each)   per 1000 {verdict(per_thousand, 2.0, 's')}")
    print(f"  mean raw solutions {mean:.3f} (expected {EXPECTED_MEAN:.3f}; standard error of this mean "
          f"{sd / count ** 0.5:.2f}), none: {sum(r == 0 for r in raws) / count:.1%}, most: {max(raws)}")
    print(f"  placements {sum(r.nodes for r in results)}, "
          f"{sum(r.nodes for r in results) / total / 1e6:.2f} M/s (including table building)")


def planted_targets(seeds: int) -> tuple[int, float]:
    heading(f"Planted puzzles, all solutions, seeds 0..{seeds - 1}")
    print(f"  {'board':<14} {'median s':>9} {'max s':>7} {'median nodes':>13} {'median raw':>11}")
    total_nodes, total_seconds = 0, 0.0
    for side, motifs, target in ((4, 4, 0.2), (5, 8, 0.5)):
        runs = [timed(planted(side, motifs, seed)) for seed in range(seeds)]
        times = [s for s, _ in runs]
        total_nodes += sum(r.nodes for _, r in runs)
        total_seconds += sum(times)
        label = f"{side}x{side}, {motifs} motifs"
        print(f"  {label:<14} {statistics.median(times):>9.3f} {max(times):>7.3f} "
              f"{statistics.median(r.nodes for _, r in runs):>13.0f} {statistics.median(r.raw for _, r in runs):>11.0f}"
              f"   {verdict(statistics.median(times), target, 's')}")
    print(f"  placements per second over these runs: {total_nodes / total_seconds / 1e6:.2f} M/s")
    return total_nodes, total_seconds


def growth(seeds: int, big_seeds: int) -> None:
    heading("Growth with board size: planted, fixed 8 motifs, default search (spiral + symmetry breaking)")
    print(f"  {'board':<6} {'seeds':>5} {'median s':>9} {'max s':>8} {'median nodes':>13} {'x time':>7} {'x nodes':>8} {'M/s':>5}")
    previous = None
    for side in (3, 4, 5, 6):
        n = big_seeds if side == 6 else seeds
        runs = [timed(planted(side, 8, seed)) for seed in range(n)]
        t = statistics.median(s for s, _ in runs)
        nodes = statistics.median(r.nodes for _, r in runs)
        rate = sum(r.nodes for _, r in runs) / sum(s for s, _ in runs) / 1e6
        ratio = f"{t / previous[0]:>7.1f} {nodes / previous[1]:>8.1f}" if previous else f"{'':>7} {'':>8}"
        print(f"  {side}x{side:<4} {n:>5} {t:>9.4f} {max(s for s, _ in runs):>8.4f} {nodes:>13.0f} {ratio} {rate:>5.2f}")
        previous = (t, nodes)


def ablations(seeds: int) -> None:
    heading("Ablations, same puzzles, same run: total time and placements relative to the default search")
    configs = [
        ("default: spiral + symmetry", dict(order="spiral", break_symmetry=True)),
        ("rows instead of spiral", dict(order="rows", break_symmetry=True)),
        ("no symmetry breaking", dict(order="spiral", break_symmetry=False)),
        ("rows, no symmetry breaking", dict(order="rows", break_symmetry=False)),
    ]
    sets = [
        ("4 seed puzzles", [load(name) for name in SAMPLES]),
        (f"3x3/4 planted x{seeds}", [planted(3, 4, s) for s in range(seeds)]),
        (f"4x4/4 planted x{seeds}", [planted(4, 4, s) for s in range(seeds)]),
        (f"5x5/8 planted x{seeds}", [planted(5, 8, s) for s in range(seeds)]),
    ]
    print(f"  {'puzzles':<20} {'search':<28} {'seconds':>8} {'placements':>11} {'x time':>7} {'x nodes':>8}")
    for label, puzzles in sets:
        base = None
        repeat = 20 if len(puzzles[0].tiles) <= 9 else 1  # small boards: repeat so the times are not noise
        for name, options in configs:
            seconds, nodes, counts = 0.0, 0, []
            for puzzle in puzzles:
                start = time.perf_counter()
                for _ in range(repeat):
                    result = solve(puzzle, **options)
                seconds += (time.perf_counter() - start) / repeat
                nodes += result.nodes
                counts.append(result.raw)
            if base is None:
                base, base_counts = (seconds, nodes), counts
            assert counts == base_counts, f"{name} changed the counts on {label}"
            print(f"  {label:<20} {name:<28} {seconds:>8.4f} {nodes:>11} {seconds / base[0]:>7.2f} {nodes / base[1]:>8.2f}")
        if len(puzzles[0].tiles) <= 9:
            start = time.perf_counter()
            for _ in range(repeat):
                naive = [naive_count(p) for p in puzzles]
            seconds = (time.perf_counter() - start) / repeat
            assert naive == base_counts, f"the naive search disagrees on {label}"
            print(f"  {label:<20} {'naive: rows, no index/sym':<28} {seconds:>8.4f} {'-':>11} "
                  f"{seconds / base[0]:>7.2f} {'-':>8}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats and seeds (figures are noisier)")
    args = parser.parse_args()
    quick = args.quick
    print(f"photosolve solver benchmark — Python {sys.version.split()[0]}, {time.strftime('%Y-%m-%d %H:%M')}")
    startup(5 if quick else 11)
    samples(21 if quick else 201)
    uniform(1000)
    planted_targets(5 if quick else 9)
    growth(5 if quick else 9, 1 if quick else 3)
    ablations(3 if quick else 5)


if __name__ == "__main__":
    main()
