"""`photosolve PHOTO`: read the tiles in a photo, solve, and draw the solution from the photo's own tiles."""
from __future__ import annotations

import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import numpy as np

from ..solver.search import BoardSizeError, solve
from ..solver.tilefile import MAX_TILES
from ..solver.tiles import Puzzle
from ..vision.read.templates import SET_FILES
from ..vision.render import solved_board
from .document import solution_document
from .exit_codes import ExitCode, Fail, say
from .main import HeldInterrupt
from .photo_outputs import (DEBUG_FILES, DOUBTFUL, check_folder, check_output, save_image, save_photo_templates,
                            save_tile_file, scratch_path, write_annotated, write_debug)
from .progress import Stages

if TYPE_CHECKING:
    from ..vision.types import Photo

# A rival reading whose probability is within e^3 (about 20x) of the best is doubt worth asking about.
DOUBT_MARGIN = 3.0


def board_shape(rows: int | None, cols: int | None) -> tuple[int, int]:
    """The board a photo's tiles fill: 3 x 3 unless told; one side given makes a square."""
    for name, value in (("rows", rows), ("cols", cols)):
        if value is not None and value <= 0:
            raise Fail(f"--{name} must be a positive number, got {value}", ExitCode.BAD_INPUT)
    rows = rows or cols or 3
    cols = cols or rows
    if rows * cols == 1:  # (and reading one tile's halves without templates has no motif count to try)
        raise Fail("a 1x1 board has one tile and no seam: there is nothing to solve", ExitCode.BAD_INPUT)
    if rows * cols > MAX_TILES:
        raise Fail(f"a {rows}x{cols} board has {rows * cols} tiles: photosolve solves boards of up to {MAX_TILES}",
                   ExitCode.BAD_INPUT)
    return rows, cols


@dataclass(frozen=True)
class PhotoOptions:
    """What `photosolve PHOTO` was asked to do."""

    photo: str
    output: str | None = None
    annotate: str | None = None
    templates: str | None = None
    rows: int | None = None
    cols: int | None = None
    as_json: bool = False
    debug_dir: str | None = None
    save_tiles: str | None = None  # write the reading as a tile file here
    tiles: str | None = None  # solve this (edited) tile file instead of reading the edges
    save_templates: str | None = None  # write what was read, as a template set for the next photo, here
    review: bool = False  # ask about doubtful edges even without a terminal (answers from stdin)
    yes: bool = False  # without a terminal, take the best reading instead of exiting 5 on doubt
    motifs: int | None = None  # how many motifs the puzzle shows, as the person says: read from the photo alone
    web: bool = False  # review the reading on a page in the browser (`--review web`, `photosolve review`)

    @property
    def asking(self) -> bool:
        """Whether doubt is asked about: with --review (in the terminal or on the page), or at a terminal unless
        --yes."""
        return self.review or self.web or (sys.stdin.isatty() and not self.yes)


def photo_command(options: PhotoOptions, loading: Callable[[], Photo] | None = None) -> ExitCode:
    """`photosolve PHOTO`; `loading` gives the photo if its loading was begun already (vision.load.begin_loading)."""
    photo_path = options.photo
    rows, cols = board_shape(options.rows, options.cols)
    check_motifs(options, rows, cols)
    inputs = {"photo": photo_path, "tile file": options.tiles}
    solved_target = check_output(options.output, inputs, "--output")
    annotate_target = check_output(options.annotate, inputs, "--annotate", taken=(solved_target,))
    tiles_target = check_output(options.save_tiles, inputs, "--save-tiles", suffixes=None,
                                taken=(solved_target, annotate_target))
    templates_folder = check_folder(options.save_templates, inputs, "--save-templates", SET_FILES)
    debug_folder = check_folder(options.debug_dir, inputs, "--debug-dir", DEBUG_FILES)
    stages = Stages()
    if options.tiles is not None:
        photo, halves = find_photo_tiles(photo_path, rows, cols, stages, loading)
        read = typed_reading(options.tiles, len(halves.quads))
    else:
        photo, halves, read = read_photo(photo_path, options.templates, rows, cols, stages, loading, options.motifs)
    say(read.how)
    say_weak_outlines(halves)
    moot = guess_is_moot(read, halves, rows, cols, stages) if read.guess else ""
    if moot:
        say(f"{read.guess}; but {moot}")
    elif read.guess:
        read = settle_guess(read, options, photo, halves, rows, cols, stages, (tiles_target, annotate_target))
    reading, names = read.reading, read.templates.motif_names
    puzzle = puzzle_of(reading.labels, names, photo_path)
    fixed, doubtful = None, []
    if options.tiles is None:  # typed-in edges are the person's word: solved as given, never repaired
        with stages.stage("checking the reading"):
            fixed = repair_reading(edge_posteriors_of(reading), rows, cols, rival=True)
        puzzle = report_repair(fixed, puzzle, names, photo_path)
        doubtful = fixed.doubtful(DOUBT_MARGIN)
        if options.web:
            pass  # the review page, below, shows the doubt and takes the answers
        elif doubtful and options.asking:
            answers = review(puzzle, reading, doubtful, fixed, photo, halves, annotate_target or scratch_path(photo_path))
            if answers:
                fixed = repair_reading(edge_posteriors_of(reading, answers), rows, cols)
                puzzle = report_repair(fixed, puzzle_of(reading.labels, names, photo_path), names, photo_path,
                                       answered=True)
        elif doubtful and not options.yes:
            keep_for_correction(puzzle, read, photo_path, (tiles_target, annotate_target), photo, halves, doubtful)
            listed = "; ".join(f"tile {t + 1} {('north', 'east', 'south', 'west')[s]} "
                               f"({puzzle.label(fixed.edges[t][s])}, {reading.probabilities[t, s]:.2f})"
                               for t, s in doubtful)
            raise Fail(f"{photo_path}: doubtful edges change the solution: {listed}; answer for them with --review "
                       f"(or at a terminal), correct them with --save-tiles/--tiles, or take the best reading "
                       f"with --yes", ExitCode.NEEDS_REVIEW)
        elif doubtful:
            say(f"taking the best reading (--yes) although {len(doubtful)} doubtful edge(s) could change it")
    if options.web:  # shown whatever the doubt, and for typed-in tiles too: the person asked to look
        puzzle, reading = review_on_page(puzzle, reading, doubtful, photo, halves, read.how, rows, cols, photo_path,
                                         tiles_target, solved_target)
    with stages.stage("solving"):
        result = by_seams(solve_board(puzzle, rows, cols, photo_path), halves, read.rivals if moot else None)
    first = result.solutions[0] if result.solutions else None
    # What was found is delivered whole: a Ctrl-C while the outputs are written and the result said would leave
    # some outputs written and others not, or a whole picture under an exit status saying the run was stopped.
    delivering = HeldInterrupt()
    try:
        if first is not None and solved_target is not None:
            with stages.stage("drawing the solution"):
                save_image(solved_board(photo.image, halves.quads, first), solved_target)
        if annotate_target is not None:
            write_annotated(photo, halves, puzzle, reading, first, annotate_target)
        if tiles_target is not None:
            save_tile_file(puzzle, reading, f"read from {photo_path} ({read.how}); tile numbers as in --annotate",
                           tiles_target)
        if templates_folder is not None:
            save_photo_templates(puzzle, halves, templates_folder, photo_path)
        if debug_folder is not None:
            write_debug(debug_folder, halves)
        if options.as_json:
            document = add_photo_fields(solution_document(puzzle, result), photo, halves, reading, read.templates.name)
            document["repairs"] = [change_document(c) for c in (fixed.changes if fixed else ())]
            document["motifs_guessed"] = bool(read.guess)
            print(json.dumps(document, indent=1))
        else:
            print_photo_result(puzzle, result, reading)
        for target, what in ((solved_target if first is not None else None, "solved picture"),
                             (annotate_target, "annotated photo"), (tiles_target, "tiles as read")):
            if target is not None:
                say(f"{what} written to {target}")
        if first is None:
            suspects = most_doubtful(reading, puzzle, 4)
            say(f"no solution: the tiles as read cannot be arranged on a {rows}x{cols} board, nor with a few edges "
                f"read differently; most doubtful: {suspects}; check the reading with --annotate reading.png")
            return ExitCode.NO_SOLUTION
        return ExitCode.SOLVED
    finally:
        delivering.finish()


def questions_before_solving(fixed, motifs_guessed: bool) -> int:
    """How many questions `photosolve PHOTO` asks before it gives a solution (or, without a terminal, why it exits
    5): one per doubtful edge (fixed: the repair with its rival), and one when the motifs themselves are a guess."""
    return len(fixed.doubtful(DOUBT_MARGIN)) + motifs_guessed


def check_motifs(options: PhotoOptions, rows: int, cols: int) -> None:
    """--motifs N: a number of motifs a board's halves can show, for a photo read on its own."""
    from ..vision.pipeline import NO_TEMPLATES

    if options.motifs is None:
        return
    most = 2 * rows * cols  # every motif at least twice among the board's 4 x rows x cols halves
    if not 1 <= options.motifs <= most:
        raise Fail(f"--motifs must be a number from 1 to {most} for a {rows}x{cols} board, got {options.motifs}",
                   ExitCode.BAD_INPUT)
    if options.templates is not None and options.templates.lower() != NO_TEMPLATES:
        raise Fail(f"--motifs is for reading a puzzle from the photo alone: drop --templates {options.templates} "
                   f"or --motifs", ExitCode.BAD_INPUT)
    if options.tiles is not None:
        raise Fail("--motifs is for reading the edges from the photo, --tiles gives them typed in: drop one",
                   ExitCode.BAD_INPUT)


def guess_is_moot(read, halves, rows: int, cols: int, stages: Stages) -> str:
    """Why the motifs' guess leaves the solution as it is, "" where it may not (vision.pipeline.guess_settled)."""
    from ..vision.pipeline import guess_settled

    with stages.stage("checking the guess"):
        return guess_settled(read, halves, rows, cols)


def settle_guess(read, options: PhotoOptions, photo, halves, rows: int, cols: int, stages: Stages,
                 targets: tuple[Path | None, Path | None]):
    """A reading whose motifs are a guess is never solved unasked: where it lies between known readings, the person
    picks the one whose solution, drawn, looks right (picked_drawing); elsewhere they say how many motifs there are
    (the photo is read again with that many); or they take the guess with --yes; otherwise exit 5. Once the person
    has said how many (--motifs), what is left to guess is which halves go together: asked about edge by edge."""
    from ..vision.pipeline import read_photo_edges
    from .review import ask_motif_count

    if options.yes:
        say(f"taking the guess (--yes): {read.guess}")
        return read
    if not options.asking:
        keep_for_correction(puzzle_of(read.reading.labels, read.templates.motif_names, options.photo), read,
                            options.photo, targets, photo, halves)
        ways = ("pick the right one of its solutions drawn at a terminal or with --review, " if read.rivals else
                "" if options.motifs else
                "say how many motifs the puzzle shows with --motifs N, answer at a terminal or with --review, ")
        raise Fail(f"{options.photo}: {read.guess}, and so would its solution be: {ways}correct the edges with "
                   f"--save-tiles/--tiles, or take the guess with --yes", ExitCode.NEEDS_REVIEW)
    say(read.guess)
    if read.rivals:
        return picked_drawing(read, photo, halves, rows, cols, options.photo)
    count = None if options.motifs else ask_motif_count(len(read.templates.motif_names), 2 * rows * cols,
                                                        read_answer)
    if count is None:
        return read
    with stages.stage("reading the edges"):
        again = read_photo_edges(halves, None, rows, cols, motifs=count)
    say(again.how)
    return again


def picked_drawing(read, photo, halves, rows: int, cols: int, photo_path: str):
    """A guess between known readings (read.rivals), settled by the person's eye: each reading's solution is drawn
    from the photo's tiles (the arrangement whose seams its figures run on across best), and the reading whose
    drawing the person says shows every figure whole is taken. Kept as guessed when the person just presses Enter."""
    from ..vision.pipeline import drawn_arrangement, rival_taken
    from .review import ask_drawing

    ways = [(read, repair_reading(edge_posteriors_of(read.reading), rows, cols).edges)]
    ways += [(rival_taken(read, halves, labels), labels) for labels in read.rivals]
    shown = []  # (reading, where its solution is drawn); every reading a guess lies between lays the tiles out
    for way, edges in ways:
        arrangement = drawn_arrangement(edges, halves, rows, cols)
        if arrangement is not None:
            shown.append((way, scratch_path(photo_path, f"solution-{len(shown) + 1}")))
            save_image(solved_board(photo.image, halves.quads, arrangement), shown[-1][1])
    say(f"the guess lies between {len(shown)} readings; each one's solution is drawn: "
        + ", ".join(f"{number} at {path}" for number, (_, path) in enumerate(shown, 1)))
    picked = ask_drawing(len(shown), read_answer)
    if picked is None or picked == 1:
        return read
    say(f"taking the reading of drawing {picked}")
    return shown[picked - 1][0]


def keep_for_correction(puzzle: Puzzle, read, photo_path: str, targets: tuple[Path | None, Path | None], photo,
                        halves, doubtful=None) -> None:
    """Before stopping for doubt, what was asked for (targets: --save-tiles, --annotate) to correct the reading by:
    the reading as a tile file to correct and give back, and the annotated photo with the doubtful edges marked
    (those given, else those read with a low probability), to see which edge is which."""
    tiles_target, annotate_target = targets
    if tiles_target is not None:
        save_tile_file(puzzle, read.reading, f"read from {photo_path} ({read.how})", tiles_target)
        say(f"tiles as read written to {tiles_target}")
    if annotate_target is not None:
        write_annotated(photo, halves, puzzle, read.reading, None, annotate_target, doubtful)
        say(f"annotated photo written to {annotate_target}, the doubtful edges marked")


def report_repair(fixed, puzzle: Puzzle, names: dict[int, str], photo_path: str, answered: bool = False) -> Puzzle:
    """The puzzle as repaired, after saying which edges were read otherwise; as read when nothing was changed."""
    if fixed.solution is None or not fixed.changes:
        return puzzle
    if answered:
        say(f"with your answers, {len(fixed.changes)} edge(s) are taken otherwise than first read:")
    else:
        say(f"the tiles as read have no solution; {len(fixed.changes)} edge(s) read differently make one:")
    for change in fixed.changes:
        say(f"  {change.describe(puzzle.label)}" + ("" if answered else " — needed for the solution"))
    return puzzle_of(np.array(fixed.edges), names, photo_path)


def review(puzzle: Puzzle, reading, doubtful, fixed, photo, halves, annotated: Path) -> dict:
    """Show the reading, write the annotated photo, and ask about the doubtful edges, most doubtful first."""
    from .review import Question, ask, reading_table

    reading_table(puzzle, reading.probabilities, set(doubtful), DOUBTFUL)
    write_annotated(photo, halves, puzzle, reading, None, annotated, set(doubtful))
    say(f"the annotated photo is {annotated}: tile numbers and the label read on each side")
    questions = []
    for tile, side in sorted(doubtful, key=lambda ts: reading.probabilities[ts]):
        other = fixed.rival_edges[tile][side]
        column = list(reading.candidates).index(other) if other in reading.candidates else None
        questions.append(Question(tile, side, fixed.edges[tile][side], float(reading.probabilities[tile, side]),
                                  other, float(reading.posterior[tile, side, column]) if column is not None else 0.0))
    labels = sorted({int(v) for v in reading.candidates}, key=lambda v: (abs(v), -v))
    return ask(questions, puzzle, labels, read_answer)


def review_on_page(puzzle: Puzzle, reading, doubtful, photo, halves, how: str, rows: int, cols: int,
                   photo_path: str, tiles_target: Path | None, solved_target: Path | None):
    """--review web: the reading shown on the photo in the browser and corrected there (cli/web/); the puzzle and
    the reading as the page left them."""
    from .web.server import Desk, review_in_browser
    from .web.session import Reviewed, changed, corrected_reading

    reviewed = Reviewed(photo.image, halves.quads, halves.squares, reading, tuple(t.edges for t in puzzle.tiles),
                        dict(puzzle.motif_names), tuple(doubtful), rows, cols, photo_path, how)
    corrections = review_in_browser(Desk.open(reviewed, tiles_target, solved_target), say)
    say(f"on the review page: {len(changed(reviewed, corrections.edges))} edge(s) changed, "
        f"{len(corrections.checked)} checked")
    return (puzzle_of(np.array(corrections.edges), puzzle.motif_names, photo_path),
            corrected_reading(reviewed, corrections))


def read_answer() -> str | None:
    line = sys.stdin.readline()
    return None if line == "" else line


def find_photo_tiles(photo_path: str, rows: int, cols: int, stages: Stages,
                     loading: Callable[[], Photo] | None = None):
    """Load the photo (or wait for `loading` to) and find its tiles."""
    from ..vision.errors import UnreadableImage, WrongTileCount
    from ..vision.load import load_photo
    from ..vision.pipeline import cut_halves

    try:
        with stages.stage("loading the photo"):
            photo = loading() if loading is not None else load_photo(photo_path)
        with stages.stage("finding the tiles"):
            halves = cut_halves(photo, rows * cols)
    except UnreadableImage as error:
        raise Fail(str(error), ExitCode.UNREADABLE_IMAGE) from None
    except WrongTileCount as error:
        raise Fail(f"{photo_path}: {error}", ExitCode.WRONG_TILE_COUNT) from None
    return photo, halves


def typed_reading(tiles_path: str, count: int):
    """A tile file (as written by --save-tiles and edited) taken as the reading: every edge certain."""
    from ..vision.read.classify import certain_reading
    from ..vision.pipeline import EdgeReading
    from ..vision.read.templates import TemplateSet
    from .solve_cmd import read_puzzle

    puzzle = read_puzzle(tiles_path, "NESW", None)
    if len(puzzle.tiles) != count:
        raise Fail(f"{tiles_path}: {len(puzzle.tiles)} tiles listed, but the photo shows {count}: list the photo's "
                   f"tiles in the order of the annotated photo", ExitCode.BAD_INPUT)
    labels = np.array([t.edges for t in puzzle.tiles])
    templates = TemplateSet(name=f"typed in ({tiles_path})", motif_names=dict(puzzle.motif_names),
                            labels=labels.ravel(), bands=np.zeros((0, 1, 1, 3), np.float32))
    return EdgeReading(certain_reading(labels, templates.name), templates, f"edges: as typed in {tiles_path}")


def read_photo(photo_path: str, templates: str | None, rows: int, cols: int, stages: Stages,
               loading: Callable[[], Photo] | None = None, motifs: int | None = None):
    """Load, find the tiles and read their edges; each vision failure becomes its exit code and message."""
    from ..vision.errors import TemplateError
    from ..vision.pipeline import read_photo_edges

    photo, halves = find_photo_tiles(photo_path, rows, cols, stages, loading)
    try:
        with stages.stage("reading the edges"):
            read = read_photo_edges(halves, templates, rows, cols, motifs)
    except TemplateError as error:
        raise Fail(str(error), ExitCode.BAD_INPUT) from None
    return photo, halves, read


def say_weak_outlines(halves) -> None:
    """Name the tiles whose outlines lie on no clear edge: their edges are doubted, and the person should look."""
    from ..vision.read.doubt import weak_outlines

    weak = [] if halves.supports is None else weak_outlines(halves.supports)
    if weak:
        say(f"tile{'s' if len(weak) > 1 else ''} {', '.join(str(t + 1) for t in weak)}: the outline found lies on "
            f"no clear edge, so its edges are doubted; check the outline with --annotate")


def puzzle_of(labels: np.ndarray, names: dict[int, str], source: str) -> Puzzle:
    puzzle = Puzzle.from_edges([tuple(int(v) for v in edges) for edges in labels], names)
    return Puzzle(puzzle.tiles, puzzle.motif_names, source=source)


def solve_board(puzzle: Puzzle, rows: int, cols: int, photo_path: str):
    try:
        return solve(puzzle, rows, cols)
    except BoardSizeError as error:
        raise Fail(f"{photo_path}: {error}", ExitCode.BAD_INPUT) from None


def by_seams(result, halves, rivals=None):
    """The solutions, those whose seams the photo's figures run on across best first (vision.pipeline.seams_first):
    the first is the one drawn, and where the reading allows several arrangements the photo tells which is true.
    Where the motifs are a guess that no arrangement depends on, those right under every reading in doubt (rivals)
    come first."""
    from ..vision.pipeline import seams_first

    if len(result.solutions) < 2:
        return result
    say(f"{len(result.solutions)} arrangements fit the tiles as read: listed by how well the figures in the photo "
        f"run on across their seams, the best first")
    return replace(result, solutions=seams_first(result.solutions, halves, rivals))


def repair_reading(posteriors, rows: int, cols: int, rival: bool = False):
    """The most probable reading that the tiles can be laid out with (solver/repair.py)."""
    from ..solver.repair import repair

    return repair(posteriors, rows, cols, rival=rival)


def edge_posteriors_of(reading, answers: dict | None = None) -> list[list[dict[int, float]]]:
    """The reading's probabilities for the repair; an edge the person answered for is certain."""
    from ..solver.repair import FLOOR
    from ..vision.pipeline import edge_posteriors

    posteriors = edge_posteriors(reading)
    for (tile, side), label in (answers or {}).items():
        posteriors[tile][side] = {other: FLOOR for other in posteriors[tile][side]} | {label: 1.0}
    return posteriors


def change_document(change) -> dict:
    return {"tile": change.tile, "side": "NESW"[change.side], "read": change.read,
            "read_probability": round(change.read_probability, 4), "taken": change.taken,
            "taken_probability": round(change.taken_probability, 4)}


def most_doubtful(reading, puzzle: Puzzle, count: int) -> str:
    """The least certain edges, as 'tile 4 east (grey+, 0.52)'."""
    order = np.argsort(reading.probabilities, axis=None)[:count]
    parts = []
    for flat in order:
        tile, side = divmod(int(flat), 4)
        label = puzzle.label(int(reading.labels[tile, side]))
        parts.append(f"tile {tile + 1} {('north', 'east', 'south', 'west')[side]} "
                     f"({label}, {reading.probabilities[tile, side]:.2f})")
    return "; ".join(parts)


def add_photo_fields(document: dict, photo, halves, reading, templates_name: str) -> dict:
    """What --json adds for a photo: image size, templates, and per tile where it lies and how sure each edge is."""
    document["image_size"] = list(photo.size)
    document["templates"] = templates_name
    for entry, quad, confidence, runner_up in zip(document["tiles"], halves.quads, reading.probabilities,
                                                   reading.runner_up):
        entry["center"] = [round(float(v), 1) for v in quad.center]
        entry["corners"] = [[round(float(v), 1) for v in corner] for corner in quad.corners]
        entry["confidence"] = [round(float(p), 4) for p in confidence]
        entry["runner_up"] = [int(v) for v in runner_up]
    return document


def print_photo_result(puzzle: Puzzle, result, reading) -> None:
    from .solve_cmd import print_boards, summary_line

    print("Read from the photo (tile numbers as in --annotate; N is the side facing up in the photo):")
    for tile in puzzle.tiles:
        cells = [f"{label}{'' if p >= DOUBTFUL else f' ({p:.2f}?)'}"
                 for label, p in zip(puzzle.labels(tile.edges), reading.probabilities[tile.id - 1])]
        print(f"  tile {tile.id}: " + "  ".join(f"{side} {text:<16}" for side, text in zip("NESW", cells)).rstrip())
    print()
    print(summary_line(puzzle, result))
    print_boards(puzzle, result)
