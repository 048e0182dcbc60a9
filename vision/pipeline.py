"""The photo pipeline end to end, one stage after another: tiles found, cut out, described, read."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np

from .read.classify import Reading, list_forcing, read_halves
from .read.doubt import outline_supports, with_outline_doubt
from .read.face import WHITE_LAB
from .read.features import band_features, white_bands
from .rectify import rectify_all
from .find.segment import find_tiles
from .read.templates import TemplateSet, bundled_features, bundled_names, load_templates
from .types import Photo, TileQuad

NO_TEMPLATES = "none"  # --templates none: read the puzzle from the photo alone
# A bundled set may fit a photo when set_fit is at most this: measured on generated photos, 0.6-2.8 for the right
# set (one hard-tier outlier), 1.0-15 for the others (mostly over 2), 3.1-5 on real photos of other puzzles...
FIT_LIMIT = 3.0
# ...and when the photo's tiles are the set's listed tiles (list_forcing, log units a tile): 0-0.01 for the right
# set on easy and medium photos (0.65-5.5 on a few hard ones), 0.9 and up for photos of other puzzles that pass
# FIT_LIMIT. A set without a tile list is checked by the solver instead: its reading must have a solution.
FORCING_LIMIT = 0.8
# ...and when it fits the photo this many times better than any other bundled set. The bundled sets are other
# puzzles: a photo of one fits its own set 2.2-23 times better than the next (96 generated photos of the four seed
# puzzles, easy/medium/hard, seeds 20000-20007), a photo of another puzzle fits them all about alike. Of the art
# families' photos within FIT_LIMIT (seeds 20000 + 10000, halves where the tiles were found): the best 1.00-1.24
# times better on the dev families, 1.00-1.11 on the test families (never tuned on). Without this, 2 of those 502
# photos were read with the cats' set (dev emoji-animals easy 20004, test emoji-people medium 10008).
DISTINCT = 1.6
# A guess between known readings (selflabel.SelfReading.rivals) that no arrangement suits alike is settled by the
# photo where the reading taken's arrangement whose seams meet best (read/continuity.py: summed over its inner
# seams) meets at least this many times better than every arrangement of each rival reading it does not lay out
# under. Fitted on the dev families (whole pipeline, no templates, bench/families.py's photos, seeds 20000 + 10000,
# such guesses asked): where that arrangement was wrong the others met at most 1.22 times worse, where it was right
# 0.73-4.22 times worse (7 of 27 at 1.88 and over); test families (never tuned on): wrong at 0.26-1.35, right at
# 0.71-11.6 (14 of 42 at 1.97 and over).
SEAMS_SETTLE = 1.75


@dataclass(frozen=True)
class Halves:
    """The tiles found in a photo and their edge halves, ready to be read."""

    quads: list[TileQuad]
    squares: np.ndarray  # (tiles, size, size, 3) uint8, N on top
    bands: np.ndarray  # (tiles, 4, h, w, 3) float, in one light (face.py), edge on top
    features: np.ndarray  # (tiles, 4, F)
    supports: np.ndarray | None = None  # (tiles,) how well each outline lies on edges (doubt.py); None: not measured
    face: np.ndarray = field(default_factory=lambda: WHITE_LAB.copy())  # the face's Lab in the bands


@dataclass(frozen=True)
class EdgeReading:
    """What was read, against which templates, and how the set was chosen (for the person)."""

    reading: Reading
    templates: TemplateSet
    how: str  # one line: which set and why
    guess: str = ""  # when the motifs themselves are a guess (however sure each edge looks), why, in one line
    # the other readings (tiles x 4 labels each) the guess lies between, where it lies only between known ones
    # (selflabel.SelfReading.rivals); None otherwise
    rivals: tuple[np.ndarray, ...] | None = None


def cut_halves(photo: Photo, expected: int) -> Halves:
    """Segment the photo, rectify each tile, and describe its four halves."""
    quads = find_tiles(photo, expected)
    squares = rectify_all(photo, quads)
    bands, face = white_bands(squares)
    return Halves(quads, squares, bands, band_features(bands, face), outline_supports(photo, quads), face)


def set_fit(features: np.ndarray, examples: np.ndarray) -> float:
    """How well a template set (its examples' features) explains a photo's halves, in the photo's own terms (lower
    is better).

    Each half's distance to the set's nearest example, over its distance to the photo's second nearest other
    half (its own kind, as a tile's halves of one label mostly recur): about 1 when the set holds the photo's
    motifs, several times that when it does not, whatever the light and camera did to all of them.
    """
    flat = features.reshape(-1, features.shape[-1])
    to_set = pairwise_distances(flat, examples).min(axis=1)
    among = pairwise_distances(flat, flat)
    np.fill_diagonal(among, np.inf)
    to_own = np.sort(among, axis=1)[:, 1]
    return float(np.median(to_set / np.maximum(to_own, 1e-9)))


def pairwise_distances(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    squared = np.sum(first**2, 1)[:, None] + np.sum(second**2, 1)[None] - 2 * first @ second.T
    return np.sqrt(np.maximum(squared, 0.0))


def rank_bundled(features: np.ndarray) -> list[tuple[str, float]]:
    """Every bundled set with how well it fits the photo's halves, best first (lower is better)."""
    # only the sets' features are needed here: their pictures are decoded for the one that is used
    return sorted(((name, set_fit(features, bundled_features(name))) for name in bundled_names()),
                  key=lambda item: item[1])


def stands_out(fits: list[tuple[str, float]]) -> bool:
    """Whether the best of the bundled sets' fits (best first, rank_bundled) is DISTINCT times better than the next,
    as a set fits a photo of its own puzzle and not the photos of others (True with one set alone)."""
    return len(fits) < 2 or fits[1][1] >= DISTINCT * fits[0][1]


def read_edges(halves: Halves, templates: TemplateSet) -> Reading:
    return doubted(read_halves(halves.features, templates, bands=halves.bands), halves)


def doubted(reading: Reading, halves: Halves) -> Reading:
    """The reading with the edges of tiles whose outlines lie on no clear edge made doubtful (doubt.py)."""
    return reading if halves.supports is None else with_outline_doubt(reading, halves.supports)


def read_photo_edges(halves: Halves, wanted: str | None, rows: int, cols: int,
                     motifs: int | None = None) -> EdgeReading:
    """Read every half: with the set asked for, else with the bundled set that fits, else from the photo alone.

    A bundled set that seems to fit but whose reading no arrangement of the tiles can use (not even with a few
    doubtful edges read otherwise) is not the puzzle's: the photo is then read on its own. `motifs`, the number
    of motifs the person says the puzzle shows, means the photo is read on its own, with that many.
    """
    if motifs is not None:
        return read_without_templates(halves, rows, cols, f"templates: none, {motifs} motifs as told", motifs)
    if wanted is not None and str(wanted).lower() == NO_TEMPLATES:
        return read_without_templates(halves, rows, cols, "templates: none")
    if wanted is not None:
        templates = load_templates(wanted)
        return EdgeReading(read_edges(halves, templates), templates, f"templates: {templates.name}")
    fits = rank_bundled(halves.features)
    if fits and fits[0][1] <= FIT_LIMIT:
        if not stands_out(fits):
            (name, fit), (second, second_fit) = fits[:2]
            return read_without_templates(halves, rows, cols, f"templates: {name} fits ({fit:.1f}) no better than "
                                                              f"{second} ({second_fit:.1f}): another puzzle, so none")
        templates = load_templates(fits[0][0])
        forcing = list_forcing(halves.features, templates)
        if forcing > FORCING_LIMIT:
            return read_without_templates(halves, rows, cols, f"templates: {templates.name} looks close "
                                          f"({fits[0][1]:.1f}) but the photo's tiles are not its tiles, so none")
        reading = read_edges(halves, templates)
        others = "".join(f", {name} {fit:.1f}" for name, fit in fits[1:])
        if repairable(reading, rows, cols):
            return EdgeReading(reading, templates, f"templates: {templates.name} "
                                                   f"(the best fit of the bundled sets: {fits[0][1]:.1f}{others})")
        return read_without_templates(halves, rows, cols, f"templates: {templates.name} fits ({fits[0][1]:.1f}) "
                                                          "but its reading has no solution, so none")
    near = f" (closest: {fits[0][0]}, fit {fits[0][1]:.1f})" if fits else ""
    return read_without_templates(halves, rows, cols, f"templates: no bundled set fits{near}, so none")


def read_without_templates(halves: Halves, rows: int, cols: int, why: str, motifs: int | None = None
                           ) -> EdgeReading:
    from .read.selflabel import MOTIF_RANGE, WHY_GUESSED, self_label
    from .read.steadiness import resaved, unless_unsteady

    motif_range = MOTIF_RANGE if motifs is None else range(motifs, motifs + 1)

    def read_resaved():
        bands, face = white_bands(resaved(halves.squares))
        return self_label(bands, rows, cols, motif_range, face, doubting=False)  # only its labels are wanted

    # The photo saved once more (steadiness.py) is read beside the photo itself, on the other core: numpy and OpenCV
    # let go of the interpreter while they work. Its reading is wanted only where the first is sure; elsewhere it is
    # left to end unread. 12 MP never-seen photo, whole process (farm-bench, 9 runs by turns): wall 1.99 -> 1.60 s,
    # cpu 1.11 times, peak memory 341 -> 534 MiB.
    beside = ThreadPoolExecutor(max_workers=1)
    again = beside.submit(read_resaved)
    beside.shutdown(wait=False)  # its thread ends when that reading does
    found = self_label(halves.bands, rows, cols, motif_range, halves.face)
    if not found.guessed:
        found = unless_unsteady(found, again.result())
    guess = ("" if not found.guessed else
             f"no way of sorting the halves into motifs lets the tiles be laid out as read, so the {found.motifs} "
             f"motifs read are a guess" if not found.fits else
             f"the likeliest way of pairing the halves into motifs lets the tiles be laid out no way, a less likely "
             f"one does, so the {found.motifs} motifs read are a guess" if found.dearer else
             f"the same photo saved once more sorts the halves into motifs otherwise, so the {found.motifs} motifs "
             f"read are a guess" if found.unsteady else
             f"{WHY_GUESSED[found.doubt]}, so the {found.motifs} motifs read are a guess")
    return EdgeReading(doubted(found.reading, halves), found.templates,
                       f"{why}; {found.motifs} motifs found in the photo itself", guess, found.rivals)


def guess_settled(read: EdgeReading, halves: Halves, rows: int, cols: int) -> str:
    """Why the motifs' guess leaves the solution as it is, for the person ("" where it may not): the guess lies only
    between known readings (EdgeReading.rivals), and either some arrangement of the one taken (the repaired reading's)
    lays the tiles out under every other too, so it is right whichever of them is true, or the photo itself settles
    it: the arrangement whose seams the figures run on across best (read/continuity.py) meets far better than any
    arrangement of a rival reading it does not suit (SEAMS_SETTLE). photosolve draws that arrangement (seams_first
    with the rivals).

    Not only the arrangement the seams put first: where the reading taken lets the tiles lie several ways, one of
    them may suit every reading in doubt. Dev families' medium and hard photos (seeds 20000-20011 and 10000-10011,
    found corners), guesses between known readings: 2 of 26 settled by the first arrangement, 5 by some arrangement,
    and in all 5 it is the true one.
    """
    from ..solver import solve
    from ..solver.repair import repair
    from .read.continuity import by_continuity, meeting_costs, seam_cost

    if not read.guess or not read.rivals:
        return ""
    fixed = repair(edge_posteriors(read.reading), rows, cols)
    if fixed.solution is None:
        return ""
    arrangements = solve(as_puzzle(fixed.edges), rows, cols).solutions
    if any(map(suits_every(read.rivals), arrangements)):
        return ("the arrangement drawn lays the tiles out under every reading in doubt, so it does not depend on "
                "the guess")
    meeting = meeting_costs(halves.bands, halves.face)
    drawn = by_continuity(arrangements, meeting)[0]
    others = [seam_cost(arrangement, meeting) for rival in read.rivals if not drawn.seams_match(as_puzzle(rival))
              for arrangement in solve(as_puzzle(rival), rows, cols).solutions]
    # others is not empty: the rivals lay the tiles out, and not all under the arrangement drawn
    times = min(others) / max(seam_cost(drawn, meeting), np.finfo(float).tiny)
    if times < SEAMS_SETTLE:
        return ""
    return (f"the figures run on across the seams of the arrangement drawn {times:.1f} times better than across "
            f"those of any arrangement the other readings in doubt allow, so it is given")


def drawn_arrangement(edges: np.ndarray, halves: Halves, rows: int, cols: int,
                      rivals: tuple[np.ndarray, ...] | None = None):
    """The arrangement photosolve draws for these edges (tiles x 4 signed motifs): of those they allow, the one
    whose seams the photo's figures run on across best, or with the readings a settled guess lies between, the best
    of those right under every one (seams_first); None where they allow none."""
    from ..solver import solve

    solutions = solve(as_puzzle(edges), rows, cols).solutions
    return seams_first(solutions, halves, rivals)[0] if solutions else None


def rival_taken(read: EdgeReading, halves: Halves, labels: np.ndarray) -> EdgeReading:
    """One of the readings a guess lies between (labels: one of read.rivals), taken as the person says: every edge
    certain, its motifs named as self-labelling names them."""
    from .read.classify import certain_reading
    from .read.selflabel import self_read_set

    templates = self_read_set(halves.bands.reshape(-1, *halves.bands.shape[2:]), labels, halves.face)
    return EdgeReading(certain_reading(labels, templates.name), templates,
                       f"{read.how}; read as you picked")


def suits_every(readings: tuple[np.ndarray, ...]):
    """Whether an arrangement lays the tiles out under every one of these readings (labels: tiles x 4 each): a test
    of arrangements, the readings made puzzles once."""
    puzzles = [as_puzzle(labels) for labels in readings]
    return lambda solution: all(solution.seams_match(puzzle) for puzzle in puzzles)


def as_puzzle(labels):
    """The puzzle of tiles with these edges (tiles x 4 signed motifs)."""
    from ..solver import Puzzle

    return Puzzle.from_edges([tuple(int(v) for v in edges) for edges in labels])


def repairable(reading: Reading, rows: int, cols: int) -> bool:
    """Whether the reading, or one with a few doubtful edges read otherwise, has a solution."""
    from ..solver.repair import repair

    return repair(edge_posteriors(reading), rows, cols).solution is not None


def edge_posteriors(reading: Reading) -> list[list[dict[int, float]]]:
    """The reading's probabilities as the solver's repair takes them: per tile, per side, label -> probability."""
    labels = [int(v) for v in reading.candidates]
    return [[dict(zip(labels, map(float, side))) for side in tile] for tile in reading.posterior]


def seams_first(solutions: tuple, halves: Halves, rivals: tuple[np.ndarray, ...] | None = None) -> tuple:
    """The arrangements of the photo's tiles, those whose seams its figures run on across best first
    (read/continuity.py): the first is the one photosolve draws. With the readings a guess lies between (rivals),
    those that lay the tiles out under every one of them come before the rest: right whichever reading is true."""
    from .read.continuity import by_continuity, meeting_costs

    if len(solutions) < 2:
        return tuple(solutions)
    ordered = by_continuity(tuple(solutions), meeting_costs(halves.bands, halves.face))
    if not rivals:
        return ordered
    suits = suits_every(rivals)
    return tuple(sorted(ordered, key=lambda solution: not suits(solution)))
