"""How well photos of the art families are read, per family and per tier, in two ways of reading.

    python bench/families.py [--per-tier 12] [--families emoji-animals ...] [--tiers easy medium hard] [--jpeg 90]
                             [--clutter 3] [--jobs 2] [--cache DIR]

Each photo is a family's puzzle (4 motifs on 3x3 mostly; 3, 5 and 6 too) made by scenes/families.py. It is read
  none:    as `photosolve PHOTO` reads it (read_photo_edges with no set asked for): the bundled sets are tried
           first, and none of them is the puzzle, so with no templates unless one is wrongly taken (which then
           reads every edge wrong here);
  learned: with templates learned from one other photo of the same puzzle (a medium, scattered photo), as
           bench/vision_accuracy.py's random_case does and `photosolve learn` would.
Per family, tier and way: photos whose tiles were all found exactly, whose every edge was read right, that were
solved right (the arrangement given is a true one: of those the repaired reading allows, the one whose seams meet
best, as `photosolve PHOTO` draws it), on which a question is asked, and on which a wrong solution is given unasked.
DEV families may be tuned on; TEST families are only to be reported.

Where a photo read with no templates has some edge wrong, the stage that failed (failure_stage) is counted per split
and tier: its tiles not found exactly; its halves sorted wrongly at the true number of half-types by each of the
ways self-labelling looks at them (descriptors); or sorted right by one of them, at that look's sharpest jump or
not (the choice of the number of types, the pairing, or the look).

--cache DIR keeps each photo's truth and cut halves (pipeline.cut_halves) for the next run, under a name that holds
a fingerprint of the source that draws the photos and cuts them (the modules that make_scene and cut_halves reach)
and of OpenCV's and numpy's versions: a change to reading alone is judged again in half the time (2 cores, both
seed ranges, no templates: 63 minutes drawn and cut, 29 from the cache), and a change to finding or drawing cuts
afresh. --jobs N reads N photos at a time.
"""
from __future__ import annotations

import argparse
import ast
import functools
import hashlib
import pickle
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from photosolve.cli.photo_cmd import questions_before_solving
from photosolve.scenes.evaluate import (arrangement_fits, in_truth_numbers, listed_puzzle, renaming, score_reading,
                                        true_edges_as_found)
from photosolve.scenes.families import FAMILIES, face_kind, family_artwork, motif_kind
from photosolve.scenes.photograph import decode_jpeg, encode_jpeg
from photosolve.scenes.scene import _atomic_write, make_scene
from photosolve.solver.repair import repair
from photosolve.vision.errors import VisionError
from photosolve.vision.load import photo_from_array
from photosolve.vision.pipeline import (NO_TEMPLATES, cut_halves, drawn_arrangement, edge_posteriors, guess_settled,
                                        read_edges, read_photo_edges)
from photosolve.vision.read.descriptors import blended, describe_halves, print_alone, weighed
from photosolve.vision.read.learn import learn_templates
from photosolve.vision.read.selflabel import MOTIF_RANGE, SELF_READ_NAME
from photosolve.vision.read.trials import appearance_tree, type_count_gaps, types_range
from photosolve.vision.read.ward import cut_tree

MOTIF_CYCLE = (4, 3, 4, 5, 4, 6)  # 4 motifs on 3x3 is the main case
MODES = ("none", "learned")


def teacher_scene(truth: dict, art, seed: int):
    """The other photo of the puzzle in `truth` that its templates are learned from (medium, scattered)."""
    return make_scene(listed_puzzle(truth), seed + 100_000, tier="medium", layout="scattered", art=art,
                      rows=truth["rows"], cols=truth["cols"])


def teacher_templates(truth: dict, art, seed: int):
    """Templates learned from another photo (medium, scattered) of the puzzle in `truth`, or None when learning
    fails (tiles not found, or the listed tiles not matched)."""
    puzzle = listed_puzzle(truth)
    teacher = teacher_scene(truth, art, seed)
    try:
        halves = cut_halves(photo_from_array(teacher.image), len(puzzle.tiles))
        templates, _ = learn_templates(halves.bands, halves.features, puzzle, f"learned{seed}", face=halves.face)
    except (VisionError, ValueError):
        return None
    return templates


def arrangement_given(checked, halves, rows: int, cols: int, rivals=None):
    """The arrangement `photosolve PHOTO` draws for a repaired reading (checked): of all the repaired edges allow,
    the one whose seams the photo's figures run on across best (one that lays the tiles out under every reading
    a settled guess lies between first); None when there is none."""
    return None if checked.solution is None else drawn_arrangement(checked.edges, halves, rows, cols, rivals)


def judge(halves, mode: str, templates, truth: dict) -> dict:
    """Read the photo's halves one way and compare with the truth."""
    rows, cols = truth["rows"], truth["cols"]
    corners = [q.corners for q in halves.quads]
    if mode == "none":
        read = read_photo_edges(halves, None, rows, cols)
        reading, used = read.reading, read.templates
        settled = bool(read.guess) and guess_settled(read, halves, rows, cols)
        guessed, rivals = bool(read.guess) and not settled, read.rivals if settled else None
    else:
        reading, guessed, used, rivals = read_edges(halves, templates), False, templates, None
    true_found = true_edges_as_found(corners, truth)
    if used.name == SELF_READ_NAME:  # motifs named by colour: renamed to the truth's by the best agreement
        mapping = renaming(reading.labels, true_found)
        labels = np.vectorize(lambda v: mapping.get(int(v), 10**6))(reading.labels)
    else:
        labels = in_truth_numbers(reading.labels, used.motif_names, truth)
    score = score_reading(corners, labels, truth)
    checked = repair(edge_posteriors(reading), rows, cols, rival=True)
    questions = questions_before_solving(checked, guessed)
    given = arrangement_given(checked, halves, rows, cols, rivals)
    true_solution = given is not None and arrangement_fits(given, true_found)
    return {"exact": score.all_tiles_exact, "edges": score.all_edges_right, "edges_right": score.edges_right,
            "edge_count": score.edges, "solved": true_solution, "asked": questions > 0,
            "wrong_unasked": checked.solution is not None and not true_solution and questions == 0,
            "stage": failure_stage(halves, truth) if mode == "none" and not score.all_edges_right else None}


# where a reading failed (failure_stage): tiles not found exactly; no look sorts the halves right at the true number
# of half-types; a look does, but that number is not where its jump is sharpest; a look does, at its sharpest jump
STAGES = ("tiles", "no look sorts right", "sorted right, jump not sharpest", "sorted right at sharpest jump")


def failure_stage(halves, truth: dict) -> str:
    """Where a reading with no templates that has some edge wrong failed (one of STAGES): the tiles; the halves'
    descriptors, when no way self-labelling looks at them (first: lined up or weighed; centred, print alone, blended)
    sorts them right at the true number of half-types; or the choice among readings, when one does, at that look's
    sharpest jump or not."""
    corners = [q.corners for q in halves.quads]
    true_found = true_edges_as_found(corners, truth).ravel()
    if not score_reading(corners, None, truth).all_tiles_exact:
        return STAGES[0]
    flat = halves.bands.reshape(-1, *halves.bands.shape[2:])
    first = describe_halves(flat, halves.face)
    types = len(set(true_found.tolist()))
    sharpest_where_right = []  # for each look that sorts the halves right: whether its jump is sharpest there
    for look in (first, weighed(first), blended(first, centred=True), print_alone(first), blended(first)):
        tree = appearance_tree(look)
        cut = cut_tree(tree, types)
        if len(set(zip(cut.tolist(), true_found.tolist()))) == types:  # each type one true half, and the reverse
            gaps = type_count_gaps(tree, types_range(MOTIF_RANGE, len(true_found)))
            sharpest_where_right.append(max(gaps, key=gaps.get) == types)
    if not sharpest_where_right:
        return STAGES[1]
    return STAGES[3] if any(sharpest_where_right) else STAGES[2]


FAILED = {"exact": False, "edges": False, "edges_right": 0, "edge_count": 36, "solved": False, "asked": False,
          "wrong_unasked": False}


PACKAGE = Path(__file__).resolve().parent.parent
# where drawing a photo (make_scene, family_artwork, the --jpeg and --clutter steps) and cutting its halves
# (pipeline.cut_halves, photo_from_array) start; the modules these import are followed from them
CUTTING = ("scenes/scene.py", "scenes/families.py", "scenes/photograph.py", "scenes/clutter.py",
           "vision/find/segment.py", "vision/rectify.py", "vision/read/features.py", "vision/read/doubt.py",
           "vision/load.py")
# reading, which doubt.py imports for with_outline_doubt; cutting uses doubt.outline_supports alone
NOT_CUTTING = ("vision/read/classify.py",)


@functools.cache
def cutting_fingerprint() -> str:
    """A short hash of everything a photo's cut halves depend on: the source of the modules that drawing and
    cutting reach by relative imports (CUTTING), and OpenCV's and numpy's versions."""
    sources = set()
    waiting = [PACKAGE / name for name in CUTTING]
    while waiting:
        path = waiting.pop()
        if path in sources or not path.exists() or path.relative_to(PACKAGE).as_posix() in NOT_CUTTING:
            continue
        sources.add(path)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                stem = base.joinpath(*(node.module or "").split(".")) if node.module else base
                waiting += [stem.with_suffix(".py"), stem / "__init__.py"]
                waiting += [stem / f"{alias.name}.py" for alias in node.names]
    digest = hashlib.sha1(f"{cv2.__version__} {np.__version__}".encode())
    for path in sorted(sources):
        digest.update(path.relative_to(PACKAGE).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()[:12]


def photo_halves(family: str, seed: int, tier: str, motifs: int, jpeg: int | None, clutter: int,
                 cache: Path | None) -> dict:
    """The photo's truth, its cut halves (None when its tiles are not found) and the seconds cutting took, from the
    cache when it has them (drawing a photo takes longer than judging it)."""
    path = (cache / f"{family}_{tier}_{seed}_j{jpeg}_c{clutter}_{cutting_fingerprint()}.pickle") if cache else None
    if path is not None and path.exists():
        return pickle.loads(path.read_bytes())
    scene = make_scene(f"family:{family}:{motifs}", seed, tier=tier, clutter=clutter)
    started = time.perf_counter()
    try:
        # the scene is a JPEG already (its tier's quality); --jpeg saves it once more, as a photo re-saved or sent on
        image = scene.image if jpeg is None else decode_jpeg(encode_jpeg(scene.image, jpeg))
        halves = cut_halves(photo_from_array(image), scene.truth["rows"] * scene.truth["cols"])
    except VisionError:
        halves = None
    cut = {"truth": scene.truth, "halves": halves, "seconds": time.perf_counter() - started}
    if path is not None:
        _atomic_write(path, pickle.dumps(cut))
    return cut


def run_photo(family: str, seed: int, tier: str, modes, jpeg: int | None = None, clutter: int = 0,
              cache: Path | None = None) -> dict[str, dict]:
    motifs = MOTIF_CYCLE[seed % len(MOTIF_CYCLE)]
    art = family_artwork(family, motifs, seed)
    cut = photo_halves(family, seed, tier, motifs, jpeg, clutter, cache)
    truth, halves = cut["truth"], cut["halves"]
    out = {}
    for mode in modes:
        templates = teacher_templates(truth, art, seed) if mode == "learned" else NO_TEMPLATES
        if halves is None or templates is None:
            outcome = dict(FAILED, learn_failed=templates is None,
                           stage=STAGES[0] if halves is None and mode == "none" else None)
        else:
            began = time.perf_counter()
            outcome = judge(halves, mode, templates, truth)
            outcome["seconds"] = cut["seconds"] + time.perf_counter() - began
        outcome.update(layout=truth["layout"], motifs=motifs, kind=motif_kind(art), face=face_kind(art),
                       table=truth["conditions"]["background"], size=truth["conditions"]["size"])
        out[mode] = outcome
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-tier", type=int, default=12, help="photos per family and tier (default 12)")
    parser.add_argument("--families", nargs="+", default=list(FAMILIES), choices=list(FAMILIES))
    parser.add_argument("--tiers", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=MODES)
    parser.add_argument("--first-seed", type=int, default=20_000)
    parser.add_argument("--failures", action="store_true", help="list every photo not read perfectly")
    parser.add_argument("--jpeg", type=int, metavar="QUALITY",
                        help="save each photo (a JPEG already) once more as a JPEG of this quality (1-100), a "
                             "change no person sees, to see how steady the readings are")
    parser.add_argument("--jobs", type=int, default=1, metavar="N", help="photos read at a time (default 1)")
    parser.add_argument("--cache", type=Path, metavar="DIR",
                        help="keep each photo's cut halves here for the next run (see above)")
    parser.add_argument("--clutter", type=int, default=0, metavar="N",
                        help="lay up to N things (pens, notes, coins, phones) on the table beside the tiles "
                             "(scenes/clutter.py); the photo learned from stays as it is")
    args = parser.parse_args()
    if args.jpeg is not None and not 1 <= args.jpeg <= 100:
        parser.error("--jpeg: a quality from 1 to 100")
    if args.clutter < 0:
        parser.error("--clutter: a number of things, 0 or more")
    if args.jobs < 1:
        parser.error("--jobs: a number of photos, 1 or more")
    print(f"photosolve art families — {args.per_tier} photos per family and tier, seeds from {args.first_seed}, "
          f"{f'saved again as JPEG quality {args.jpeg}, ' if args.jpeg else ''}"
          f"{f'up to {args.clutter} things on the table, ' if args.clutter else ''}{time.strftime('%Y-%m-%d %H:%M')}")
    print(f"{'family':<15} {'split':<5} {'tier':<6} {'read':<8} {'n':>3} {'tiles':>6} {'edges':>6} {'solved':>7} "
          f"{'asked':>6} {'wrong':>6} {'edge%':>7} {'s/photo':>8}")
    failures = []
    totals = defaultdict(list)
    groups = [(family, tier) for family in args.families for tier in args.tiers]
    photos = [(family, args.first_seed + i, tier, args.modes, args.jpeg, args.clutter, args.cache)
              for family, tier in groups for i in range(args.per_tier)]
    with ProcessPoolExecutor(args.jobs) as pool:
        outcomes = pool.map(_run_photo, photos) if args.jobs > 1 else map(_run_photo, photos)
        for family, tier in groups:
            split = FAMILIES[family].split
            rows = defaultdict(list)
            for i in range(args.per_tier):
                for mode, outcome in next(outcomes).items():
                    rows[mode].append(outcome)
                    totals[(split, tier, mode)].append(outcome)
                    if not (outcome["edges"] and outcome["solved"] and not outcome["asked"]):
                        failures.append((family, tier, mode, args.first_seed + i, outcome))
            for mode in args.modes:
                print(_line(family, split, tier, mode, rows[mode]), flush=True)
    print("\nby split (dev: fit and tune on these; test: report only)")
    for (split, tier, mode), outcomes in sorted(totals.items(), key=lambda kv: (kv[0][0] != "dev", kv[0][1:])):
        print(_line("all " + split, split, tier, mode, outcomes))
    if "none" in args.modes:
        print("\nwhere readings with no templates that have some edge wrong failed (failure_stage)")
        print(f"{'split':<5} {'tier':<6} {'wrong':>5}  " + "  ".join(STAGES))
        for (split, tier, mode), outcomes in sorted(totals.items(), key=lambda kv: (kv[0][0] != "dev", kv[0][1:])):
            if mode == "none":
                stages = [o["stage"] for o in outcomes if o.get("stage")]
                print(f"{split:<5} {tier:<6} {len(stages):>5}  "
                      + "  ".join(f"{stages.count(stage):>{len(stage)}}" for stage in STAGES))
    if args.failures:
        print("\nphotos not read perfectly (family tier way seed: layout motifs kind face table size, edges right)")
        for family, tier, mode, seed, o in failures:
            print(f"  {family:<15} {tier:<6} {mode:<7} {seed}: {o['layout']:<9} {o['motifs']} {o['kind']:<10} "
                  f"{o['face']:<6} {o['table']:<10} {o['size'][0]}x{o['size'][1]}  edges {o['edges_right']}/"
                  f"{o['edge_count']}{'  tiles not exact' if not o['exact'] else ''}"
                  f"{'  asked' if o['asked'] else ''}{'  WRONG SOLUTION UNASKED' if o['wrong_unasked'] else ''}"
                  f"{'  learning failed' if o.get('learn_failed') else ''}"
                  f"{'  (' + o['stage'] + ')' if o.get('stage') else ''}")
    return 0


def _run_photo(arguments: tuple) -> dict[str, dict]:
    return run_photo(*arguments)


def _line(family: str, split: str, tier: str, mode: str, outcomes: list[dict]) -> str:
    n = len(outcomes)
    count = lambda key: sum(bool(o[key]) for o in outcomes)
    edge_rate = sum(o["edges_right"] for o in outcomes) / max(1, sum(o["edge_count"] for o in outcomes))
    seconds = [o["seconds"] for o in outcomes if "seconds" in o]
    return (f"{family:<15} {split:<5} {tier:<6} {mode:<8} {n:>3} {count('exact'):>6} {count('edges'):>6} "
            f"{count('solved'):>7} {count('asked'):>6} {count('wrong_unasked'):>6} {edge_rate:>7.1%} "
            f"{np.median(seconds) if seconds else float('nan'):>8.2f}")


if __name__ == "__main__":
    sys.exit(main())
