"""Entry point: `photosolve PHOTO ...` reads a photo; `photosolve solve TILES` runs the solver alone."""
from __future__ import annotations

import os
import signal
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
BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a program the signal ended


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
    match: Optional[str] = typer.Option(None, "--match", help="How edges fit: 'signed' (+k meets -k) or 'equal' (like colours; 0 the frame colour). Default: as the file says, else equal when there are border edges and no negative one."),
    clue: Optional[list[str]] = typer.Option(None, "--clue", help="Fix a tile: TILE,ROW,COL[,TURNS] (from 1 as printed; turns clockwise 0-3). Repeatable."),
    clues: Optional[str] = typer.Option(None, "--clues", help="A clue file, Gallicchio's `tile col row rot` (0-based, rot anticlockwise)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", help="Processes to count in (default: all cores once a search takes more than 0.3 s)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="Stop after this many seconds and print what was found (exit 6)."),
    progress: Optional[bool] = typer.Option(None, "--progress/--no-progress", help="A progress line on stderr (default: at a terminal)."),
    seed: int = typer.Option(0, "--seed", help="With --first: the seed of the restarts' random orders (the same seed, the same answer in one process)."),
) -> None:
    """Solve typed-in tiles: one tile per line, four edges clockwise from the top."""
    from .solve_cmd import SearchOptions, solve_command

    options = SearchOptions(first, match, tuple(clue or ()), clues, jobs, timeout, progress, seed)
    _finish(lambda: solve_command(tiles, rows, cols, order, as_json, options))


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
    held = HeldInterrupt()
    from ..vision.load import begin_loading

    loading = begin_loading(photo)  # decoded while the rest of photosolve is imported
    web = ctx.info_name == "review"

    def loaded():
        try:
            return loading()
        finally:
            held.release()

    def command():
        try:
            from .photo_cmd import PhotoOptions, photo_command

            options = PhotoOptions(photo, output, annotate, templates, rows, cols, as_json, debug_dir, save_tiles,
                                   tiles, save_templates, review, yes, motifs, web=web)
            return photo_command(options, loaded)
        finally:
            settle(loading)
            held.release()

    _finish(command)


# `photosolve review PHOTO` (or `photosolve PHOTO --review web`): `read`, with the reading shown and corrected on a
# page in the browser, served on 127.0.0.1 until the page says done.
app.command("review", help="Read a photo and review the reading on a page in the browser: click an edge to correct "
                           "it; the page solves at once; Save writes -o and --save-tiles.")(read)


def settle(loading) -> None:
    """Wait for a photo's loading begun in the background, whatever it came to: a command that stops before it
    needed the photo (a bad option, Ctrl-C) must not exit while OpenCV works in that thread, which aborts the
    process (exit 134, 'terminate called without an active exception')."""
    try:
        loading()
    except Exception:  # the command said what went wrong, or did not need the photo
        pass


class HeldInterrupt:
    """Ctrl-C held back from the moment it is made until release(), which raises it then. While the photo decodes
    beside the imports, both threads import modules, and a KeyboardInterrupt raised inside Python's import
    machinery can leave its lock taken (CPython 3.11): the decoding thread then waits for it forever, and so does
    the program (1 hang in 88 interrupts 0.3 to 0.9 s in). Held, an interrupt waits at most for the decode (3.5 s
    at 150 MP)."""

    def __init__(self):
        import signal
        import threading

        self.pending = self.holding = False
        if threading.current_thread() is threading.main_thread():  # only the main thread may set handlers
            self.previous = signal.signal(signal.SIGINT, self._hold)
            self.holding = True

    def _hold(self, signum, frame) -> None:
        self.pending = True

    def release(self) -> None:
        import signal

        if self.holding:
            signal.signal(signal.SIGINT, signal.default_int_handler if self.previous is None else self.previous)
            self.holding = False
        if self.pending:
            self.pending = False
            raise KeyboardInterrupt

    def finish(self) -> None:
        """Stop holding, and forget an interrupt made meanwhile: the work it would have stopped is done."""
        self.pending = False
        self.release()


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
        # One line, whatever the message carries: a file name may hold a line break.
        say("photosolve: " + str(failure).replace("\r", "\\r").replace("\n", "\\n"))
        raise typer.Exit(int(failure.code))
    except KeyboardInterrupt:
        say("photosolve: interrupted")
        raise typer.Exit(130)
    except BrokenPipeError:
        # Whoever read stdout has gone (`| head`): stop quietly with the status of a program ended by SIGPIPE,
        # never 1 (no solution); stdout goes nowhere, so the interpreter's last flush cannot fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        raise typer.Exit(BROKEN_PIPE)
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
    """Console entry point. A mistake in the command line (an unknown option, a number that is not one) is one
    line too, naming the help to read, rather than click's boxed usage message."""
    try:
        from click.exceptions import UsageError  # typer up to 0.2x is built on click ...
    except ImportError:
        from typer._click.exceptions import UsageError  # ... later ones carry their own copy of it

    args = with_default_command(sys.argv[1:])
    if not args:
        app(args=args, prog_name="photosolve")  # nothing asked: the help
    try:
        code = app(args=args, prog_name="photosolve", standalone_mode=False)
    except UsageError as error:
        where = error.ctx.command_path if error.ctx else "photosolve"
        say(f"photosolve: {' '.join(error.format_message().split())} (see `{where} --help`)")
        sys.exit(2)
    except KeyboardInterrupt:  # Ctrl-C as the command ended, after it stopped catching it (its outputs are whole)
        say("photosolve: interrupted")
        sys.exit(130)
    # Finished: a Ctrl-C from here on changes nothing, and must not kill the interpreter on its way out (exit -2).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code if isinstance(code, int) else 0)
