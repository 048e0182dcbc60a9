"""`photosolve learn`: a template set from one photo of a puzzle and its tile list typed in any order and turn."""
from __future__ import annotations

from pathlib import Path

from .exit_codes import ExitCode, Fail, say
from .photo_cmd import board_shape
from .photo_outputs import check_folder, write_template_set
from .solve_cmd import read_puzzle

CLOSE_MATCH = 1.2  # a best match that explains the halves less than this many times better than any other is checked


def learn_command(photo_path: str, tiles_path: str, output: str, rows: int | None, cols: int | None,
                  name: str | None) -> ExitCode:
    from ..vision.errors import UnreadableImage, WrongTileCount
    from ..vision.read.learn import learn_templates
    from ..vision.load import load_photo
    from ..vision.pipeline import cut_halves
    from ..vision.read.templates import SET_FILES

    rows, cols = board_shape(rows, cols)
    folder = check_folder(output, {"photo": photo_path, "tile file": tiles_path}, "--output", SET_FILES)
    puzzle = read_puzzle(tiles_path, "NESW", None)
    if len(puzzle.tiles) != rows * cols:
        raise Fail(f"{tiles_path}: {len(puzzle.tiles)} tiles listed, but the board is {rows}x{cols}: "
                   f"give --rows/--cols to match the list", ExitCode.BAD_INPUT)
    try:
        halves = cut_halves(load_photo(photo_path), rows * cols)
    except UnreadableImage as error:
        raise Fail(str(error), ExitCode.UNREADABLE_IMAGE) from None
    except WrongTileCount as error:
        raise Fail(f"{photo_path}: {error}", ExitCode.WRONG_TILE_COUNT) from None
    templates, match = learn_templates(halves.bands, halves.features, puzzle, name or folder.name,
                                       source=f"learned from {Path(photo_path).name} and {Path(tiles_path).name}",
                                       face=halves.face)
    write_template_set(templates, folder)
    for photo_tile, (listed, turns) in enumerate(zip(match.tiles, match.turns), start=1):
        say(f"photo tile {photo_tile} is listed tile {listed}, turned {90 * int(turns)}° clockwise")
    margin = match.runner_up_spread / max(match.spread, 1e-9)
    say(f"template set '{templates.name}' written to {folder} ({len(templates.labels)} halves; "
        f"the best match explains the halves {margin:.1f}x better than any other)")
    # Measured by bench/learning.py (medium photos of the art families' puzzles, every tile found exactly): dev 6 of
    # the 8 learned wrong have a margin under 1.2, 14 of the 279 learned right; test families 5 of 5 and 9 of 211.
    if margin < CLOSE_MATCH:
        say("warning: another match of photo tiles to listed tiles is nearly as good: check the tile list")
    return ExitCode.SOLVED
