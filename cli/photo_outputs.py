"""What `photosolve PHOTO` writes: the solved picture, the annotated photo, the tiles as read, a template set and
debug pictures; each written atomically, none over the photo."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..solver.tiles import Puzzle
from ..vision.render import annotate
from .exit_codes import ExitCode, Fail, say

DOUBTFUL = 0.9  # an edge read with less probability than this is shown as doubtful
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".tif", ".tiff")
DEBUG_FILES = ("tiles.png",)  # what --debug-dir holds


def check_output(path: str | None, inputs: dict[str, str | None], what: str,
                 suffixes: tuple[str, ...] | None = IMAGE_SUFFIXES, taken: tuple[Path | None, ...] = ()
                 ) -> Path | None:
    """An output path checked before any work is done: not one of the inputs (nor a link to one), not another
    output, not a folder, in a folder that exists, and (for pictures) with a name that says its format."""
    if path is None:
        return None
    if not path.strip():
        raise Fail(f"{what} is empty: give a file name", ExitCode.BAD_INPUT)
    target = Path(path)
    not_an_input(target, inputs, what)
    if any(other is not None and same_path(target, other) for other in taken):
        raise Fail(f"{what} {path} is also another output: give each output its own file name", ExitCode.BAD_INPUT)
    if target.is_dir():
        raise Fail(f"{what} {path} is a folder: give a file name", ExitCode.BAD_INPUT)
    if not target.parent.is_dir():
        raise Fail(f"{what} {path}: folder {target.parent} does not exist", ExitCode.BAD_INPUT)
    if suffixes and target.suffix.lower() not in suffixes:
        raise Fail(f"{what} {path}: give a file name ending in .png or .jpg", ExitCode.BAD_INPUT)
    check_writable(target.parent, what, path)
    return target


def check_folder(path: str | None, inputs: dict[str, str | None], what: str, writes: tuple[str, ...]
                 ) -> Path | None:
    """An output folder (made if missing) checked before any work is done: not a file, and none of the files
    written into it (`writes`) one of the inputs."""
    if path is None:
        return None
    if not path.strip():
        raise Fail(f"{what} is empty: give a folder", ExitCode.BAD_INPUT)
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise Fail(f"{what} {path} is a file: give a folder", ExitCode.BAD_INPUT)
    for name in writes:
        not_an_input(folder / name, inputs, what)
        if (folder / name).is_dir():
            raise Fail(f"{what} {path}: {folder / name} is a folder, where a file goes", ExitCode.BAD_INPUT)
    existing = next(p for p in (folder, *folder.absolute().parents) if p.exists())
    if not existing.is_dir():
        raise Fail(f"{what} {path}: {existing} is a file, not a folder", ExitCode.BAD_INPUT)
    check_writable(existing, what, path)
    return folder


def not_an_input(target: Path, inputs: dict[str, str | None], what: str) -> None:
    """Refuse an output that is one of the inputs ({"photo": path, ...}), by name or through a link."""
    for kind, given in inputs.items():
        if given is not None and same_file(target, Path(given)):
            raise Fail(f"{what} {target} is the input {kind} {given}: choose another file name", ExitCode.BAD_INPUT)


def check_writable(folder: Path, what: str, path: str) -> None:
    """Make and remove a file in the folder: the one test that holds for every reason a folder takes no files
    (permissions, a read-only or virtual file system) and for every user, root included."""
    import tempfile

    try:
        handle, probe = tempfile.mkstemp(prefix=".photosolve-", suffix=".tmp", dir=folder)
    except OSError as error:
        raise Fail(f"{what} {path}: cannot write into {folder}: {error.strerror or error}",
                   ExitCode.BAD_INPUT) from None
    os.close(handle)
    os.unlink(probe)


def same_file(a: Path, b: Path) -> bool:
    """Whether two paths name one file, through links too."""
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def same_path(a: Path, b: Path) -> bool:
    """Whether two paths, existing or not, name the same place."""
    return same_file(a, b) or a.resolve() == b.resolve()


def write_output(target: Path, write) -> None:
    """write_atomically, with a failure to write (a full disk, a folder that takes no files, an encoder that gives
    up) said in one line: the old file, if any, is left as it was and no part of the new one is left behind."""
    from ..vision.read.templates import write_atomically

    try:
        write_atomically(target, write)
    except (OSError, ValueError) as error:
        raise Fail(f"{target}: cannot write it: {reason_of(error)}", ExitCode.BAD_INPUT) from None


def save_image(rgb: np.ndarray, target: Path) -> None:
    """Write an RGB image atomically: a temporary file beside the target, then a rename."""
    from PIL import Image

    kind = {".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP", ".tif": "TIFF", ".tiff": "TIFF"}.get(
        target.suffix.lower(), "PNG")
    # PNG at zlib level 1: four times faster than the default for photo content, about 10% larger.
    options = {"compress_level": 1} if kind == "PNG" else {"quality": 92} if kind in ("JPEG", "WEBP") else {}
    write_output(target, lambda path: Image.fromarray(rgb).save(path, format=kind, **options))


def scratch_path(photo_path: str, what: str = "reading") -> Path:
    """Where a picture shown for a review goes (the annotated photo when --annotate was not given, the solutions a
    guess lies between): the system's temporary folder, named after the photo and what it shows."""
    import tempfile

    return Path(tempfile.gettempdir()) / f"photosolve-{Path(photo_path).stem}-{what}.png"


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
    from ..vision.read.templates import TemplateSet

    edges = tuple(tile.edges for tile in puzzle.tiles)
    templates = TemplateSet(name=folder.name, motif_names=dict(puzzle.motif_names), labels=np.array(edges).ravel(),
                            bands=halves.bands.reshape(-1, *halves.bands.shape[2:]),
                            source=f"read from {Path(photo_path).name}", tiles=edges)
    write_template_set(templates, folder)
    say(f"template set '{templates.name}' written to {folder}: read the next photo of this puzzle with "
        f"--templates {folder}")


def save_tile_file(puzzle: Puzzle, reading, header: str, target: Path) -> None:
    """The reading as a tile file a person can edit, each edge's probability in a comment."""
    from ..solver.tilefile import format_tiles

    notes = [f"tile {tile.id}: " + " ".join(f"{side} {p:.2f}{'?' if p < DOUBTFUL else ''}"
                                            for side, p in zip("NESW", reading.probabilities[tile.id - 1]))
             for tile in puzzle.tiles]
    text = format_tiles(puzzle, notes=notes, header=header)
    write_output(target, lambda path: Path(path).write_text(text, encoding="utf-8"))


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
    make_folder(folder)
    save_image(np.hstack(list(halves.squares)), folder / DEBUG_FILES[0])


def make_folder(folder: Path) -> None:
    """The output folder, made with its parents if missing; a failure said in one line."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise Fail(f"{folder}: cannot make the folder: {error.strerror or error}", ExitCode.BAD_INPUT) from None


def write_template_set(templates, folder: Path) -> None:
    """save_templates, with a failure to write said in one line."""
    from ..vision.read.templates import save_templates

    make_folder(folder)
    try:
        save_templates(templates, folder)
    except (OSError, ValueError) as error:
        raise Fail(f"{folder}: cannot write the template set: {reason_of(error)}", ExitCode.BAD_INPUT) from None


def reason_of(error: Exception) -> str:
    """Why a write failed, on one line: the system's words (No space left on device) or the encoder's."""
    return getattr(error, "strerror", None) or " ".join(str(error).split())
