"""Entry point: `photosolve PHOTO ...` reads a photo; `photosolve solve TILES` runs the solver alone."""
from __future__ import annotations

import sys
from typing import Optional

import typer

from .exit_codes import Fail, say

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Solve edge-matching puzzles from a photo of the tiles, or from tiles typed in.",
    pretty_exceptions_enable=False,
)
SUBCOMMANDS = {"solve", "read", "review", "learn"}


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        print(f"photosolve {version('photosolve')}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version and exit."),
) -> None:
    """Solve edge-matching puzzles from a photo of the tiles, or from tiles typed in."""


@app.command("solve")
def solve(
    tiles: Optional[str] = typer.Argument(None, help="Tile file; '-' reads stdin; none at a terminal asks for the tiles."),
    rows: Optional[int] = typer.Option(None, "--rows", "-r", help="Board rows (default: the square that fits)."),
    cols: Optional[int] = typer.Option(None, "--cols", "-c", help="Board columns."),
    order: str = typer.Option("NESW", "--order", help="Order of the edges on each line, e.g. NWES."),
    first: bool = typer.Option(False, "--first", help="Stop at the first solution."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document on stdout."),
) -> None:
    """Solve typed-in tiles: one tile per line, four edges clockwise from the top."""
    from .solve_cmd import solve_command

    _finish(lambda: solve_command(tiles, rows, cols, order, first, as_json))


@app.command("read")
def read(
    ctx: typer.Context,
    photo: str = typer.Argument(..., help="Photo of the tiles (JPEG, PNG, WebP, TIFF; HEIC with pillow-heif)."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write the solved board, made of the photo's tiles, here (.png or .jpg)."),
    annotate: Optional[str] = typer.Option(None, "--annotate", "-a", help="Write the photo annotated with what was read and where each tile goes."),
    templates: Optional[str] = typer.Option(None, "--templates", "-t", help="Template set: a bundled name, a folder from `photosolve learn`, or 'none' to read the puzzle from the photo alone (default: the bundled set that fits, else none)."),
    rows: Optional[int] = typer.Option(None, "--rows", "-r", help="Board rows (default 3)."),
    cols: Optional[int] = typer.Option(None, "--cols", "-c", help="Board columns (default: same as rows)."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON document on stdout."),
    debug_dir: Optional[str] = typer.Option(None, "--debug-dir", help="Write intermediate pictures here."),
    save_tiles: Optional[str] = typer.Option(None, "--save-tiles", help="Write what was read as a tile file (with each edge's probability), to edit and give back with --tiles."),
    tiles: Optional[str] = typer.Option(None, "--tiles", help="Solve this tile file (tile order as in --annotate) instead of reading the edges; still draw from the photo."),
    save_templates: Optional[str] = typer.Option(None, "--save-templates", help="Save the photo's halves, labelled as read (after any correction), as a template set for the next photo of this puzzle."),
    review: bool = typer.Option(False, "--review", help="Ask about the doubtful edges (the default at a terminal), reading answers from stdin; `--review web`: on a page in the browser."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Never ask: take the most probable reading even if doubt remains."),
    motifs: Optional[int] = typer.Option(None, "--motifs", "-m", help="How many motifs the puzzle shows (a motif: two halves that complete each other); read the photo alone with that many."),
) -> None:
    """Read a photo of the tiles, solve, and draw the solution (also: `photosolve PHOTO`)."""
    from ..vision.load import begin_loading

    loading = begin_loading(photo)  # decoded while the rest of photosolve is imported
    from .photo_cmd import PhotoOptions, photo_command

    options = PhotoOptions(photo, output, annotate, templates, rows, cols, as_json, debug_dir, save_tiles, tiles,
                           save_templates, review, yes, motifs, web=ctx.info_name == "review")
    _finish(lambda: photo_command(options, loading))


# `photosolve review PHOTO` (or `photosolve PHOTO --review web`): `read`, with the reading shown and corrected on a
# page in the browser, served on 127.0.0.1 until the page says done.
app.command("review", help="Read a photo and review the reading on a page in the browser: click an edge to correct "
                           "it; the page solves at once; Save writes -o and --save-tiles.")(read)


@app.command("learn")
def learn(
    photo: str = typer.Argument(..., help="Photo of all the tiles of the puzzle."),
    tiles: str = typer.Option(..., "--tiles", help="The puzzle's tile list (tile-file format), in any order and turn."),
    output: str = typer.Option(..., "--output", "-o", help="Folder to write the template set into."),
    rows: Optional[int] = typer.Option(None, "--rows", "-r", help="Board rows (default 3)."),
    cols: Optional[int] = typer.Option(None, "--cols", "-c", help="Board columns."),
    name: Optional[str] = typer.Option(None, "--name", help="Name of the set (default: the folder's name)."),
) -> None:
    """Build a template set from one photo of a puzzle and its tile list."""
    from .learn_cmd import learn_command

    _finish(lambda: learn_command(photo, tiles, output, rows, cols, name))


def _finish(action) -> None:
    """Run a command; a Fail becomes its one-line message and exit code, never a traceback."""
    try:
        code = action()
    except Fail as failure:
        say(f"photosolve: {failure}")
        raise typer.Exit(int(failure.code))
    except KeyboardInterrupt:
        say("photosolve: interrupted")
        raise typer.Exit(130)
    raise typer.Exit(int(code))


def with_default_command(args: list[str]) -> list[str]:
    """`photosolve PHOTO ...` means `photosolve read PHOTO ...`; `photosolve FILE.tiles` means `solve`; `--review
    web` means the `review` command."""
    web = [i for i, arg in enumerate(args) if arg == "--review=web" or
           (arg == "--review" and args[i + 1:i + 2] == ["web"])]
    if web:
        args = args[:web[0]] + args[web[0] + (1 if args[web[0]] == "--review=web" else 2):]
    if args and args[0] not in SUBCOMMANDS and not args[0].startswith("-"):
        args = ["solve" if args[0].lower().endswith(".tiles") else "read", *args]
    return ["review", *args[1:]] if web and args and args[0] == "read" else args


def run() -> None:
    """Console entry point."""
    app(args=with_default_command(sys.argv[1:]), prog_name="photosolve")
