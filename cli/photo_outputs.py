"""What `photosolve PHOTO` writes: the solved picture, the annotated photo, the tiles as read, a template set and
debug pictures; each written atomically, none over the photo."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..solver.tiles import Puzzle
from ..vision.render import annotate
from .exit_codes import ExitCode, Fail, say

DOUBTFUL = 0.9  # an edge read with less probability than this is shown as doubtful
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".tif", ".tiff")


def check_output(path: str | None, photo: str, what: str, suffixes: tuple[str, ...] | None = IMAGE_SUFFIXES
                 ) -> Path | None:
    """An output path that will not overwrite the photo, whose folder exists, and (for pictures) whose name says
    its format."""
    if path is None:
        return None
    target = Path(path)
    if target.exists() and Path(photo).exists() and target.resolve() == Path(photo).resolve():
        raise Fail(f"{what} {path} is the input photo: choose another file name", ExitCode.BAD_INPUT)
    if not target.parent.exists():
        raise Fail(f"{what} {path}: folder {target.parent} does not exist", ExitCode.BAD_INPUT)
    if suffixes and target.suffix.lower() not in suffixes:
        raise Fail(f"{what} {path}: give a file name ending in .png or .jpg", ExitCode.BAD_INPUT)
    return target


def save_image(rgb: np.ndarray, target: Path) -> None:
    """Write an RGB image atomically: a temporary file beside the target, then a rename."""
    from PIL import Image

    from ..vision.read.templates import write_atomically

    kind = {".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP", ".tif": "TIFF", ".tiff": "TIFF"}.get(
        target.suffix.lower(), "PNG")
    # PNG at zlib level 1: four times faster than the default for photo content, about 10% larger.
    options = {"compress_level": 1} if kind == "PNG" else {"quality": 92} if kind in ("JPEG", "WEBP") else {}
    write_atomically(target, lambda path: Image.fromarray(rgb).save(path, format=kind, **options))


def scratch_path(photo_path: str) -> Path:
    """Where the annotated photo goes for a review when --annotate was not given."""
    import tempfile

    return Path(tempfile.gettempdir()) / f"photosolve-{Path(photo_path).stem}-reading.png"


def write_annotated(photo, halves, puzzle: Puzzle, reading, solution, target: Path, doubtful=None) -> None:
    labels = [puzzle.labels(tile.edges) for tile in puzzle.tiles]
    marked = reading.probabilities < DOUBTFUL
    if doubtful:
        marked = np.zeros_like(marked)
        for tile, side in doubtful:
            marked[tile, side] = True
    save_image(annotate(photo.image, halves.quads, labels, marked, placement_notes(solution, len(halves.quads))),
               target)


def save_photo_templates(puzzle: Puzzle, halves, folder: Path, photo_path: str) -> None:
    """The photo's own halves, labelled as finally read (after repair and answers), as a template set with the
    puzzle's tile list: the next photo of the same puzzle is read against it."""
    from ..vision.read.templates import TemplateSet, save_templates

    if folder.exists() and not folder.is_dir():
        raise Fail(f"--save-templates {folder} is a file: give a folder for the template set", ExitCode.BAD_INPUT)
    edges = tuple(tile.edges for tile in puzzle.tiles)
    templates = TemplateSet(name=folder.name, motif_names=dict(puzzle.motif_names), labels=np.array(edges).ravel(),
                            bands=halves.bands.reshape(-1, *halves.bands.shape[2:]),
                            source=f"read from {Path(photo_path).name}", tiles=edges)
    save_templates(templates, folder)
    say(f"template set '{templates.name}' written to {folder}: read the next photo of this puzzle with "
        f"--templates {folder}")


def save_tile_file(puzzle: Puzzle, reading, header: str, target: Path) -> None:
    """The reading as a tile file a person can edit, each edge's probability in a comment."""
    from ..solver.tilefile import format_tiles
    from ..vision.read.templates import write_atomically

    notes = [f"tile {tile.id}: " + " ".join(f"{side} {p:.2f}{'?' if p < DOUBTFUL else ''}"
                                            for side, p in zip("NESW", reading.probabilities[tile.id - 1]))
             for tile in puzzle.tiles]
    text = format_tiles(puzzle, notes=notes, header=header)
    write_atomically(target, lambda path: Path(path).write_text(text, encoding="utf-8"))


def placement_notes(solution, count: int) -> list[str] | None:
    """For each photographed tile, where it goes: 'row 2, col 3' and 'turn 90°' (clockwise) on two lines."""
    if solution is None:
        return None
    notes = [""] * count
    for r, row in enumerate(solution.cells):
        for c, placement in enumerate(row):
            notes[placement.tile - 1] = f"row {r + 1}, col {c + 1}\nturn {90 * placement.turns}°"
    return notes


def write_debug(folder: Path, halves) -> None:
    """The rectified tiles, for a person checking what photosolve saw."""
    folder.mkdir(parents=True, exist_ok=True)
    save_image(np.hstack(list(halves.squares)), folder / "tiles.png")
