"""Entry point: `photosolve PHOTO ...` reads a photo; `photosolve solve TILES` runs the solver alone."""
from __future__ import annotations

import sys
from typing import Optional

import typer

from .exit_codes import ExitCode, Fail, say

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Solve edge-matching puzzles from a photo of the tiles, or from tiles typed in.",
    pretty_exceptions_enable=False,
)
SUBCOMMANDS = {"solve"}


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


def run() -> None:
    """Console entry point."""
    app(prog_name="photosolve")
