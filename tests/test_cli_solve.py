"""`photosolve solve` through typer's CliRunner and once as the installed command: output, JSON, exit codes."""
from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from photosolve.cli.exit_codes import ExitCode, Fail
from photosolve.cli.main import app
from photosolve.cli.solve_cmd import read_puzzle
from photosolve.solver.tilefile import parse_tiles

from .conftest import SAMPLES
from .solver_checks import board_is_valid, turned

DOGS = str(SAMPLES / "dogs.tiles")
CATS = str(SAMPLES / "cats.tiles")
KNOWN_COUNTS = {"dogs": (16, 8, 2), "insects": (4, 4, 1), "nsa": (4, 4, 1), "cats": (4, 4, 1)}
DOCUMENT_KEYS = {"schema", "source", "motifs", "tiles", "rows", "cols", "counts", "exhaustive", "stopped", "match",
                 "nodes", "seconds", "solutions"}


def run(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(app, ["solve", *args], input=input)


def one_line_error(result) -> str:
    """The single stderr line of a failed run, after checking nothing else was said and nothing went to stdout."""
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def check_document_solutions(document: dict) -> None:
    """Each solution's cells, applied with their turns to the tiles as given, form a valid board of all the tiles."""
    edges_of = {tile["id"]: tuple(tile["edges"]) for tile in document["tiles"]}
    assert document["solutions"], "no solutions to check"
    for solution in document["solutions"]:
        cells = solution["cells"]
        assert len(cells) == document["rows"] and all(len(row) == document["cols"] for row in cells)
        grid = [[turned(edges_of[cell["tile"]], cell["turns"]) for cell in row] for row in cells]
        assert board_is_valid(grid)
        assert sorted(cell["tile"] for row in cells for cell in row) == sorted(edges_of)
        assert all(cell["turns"] in range(4) for row in cells for cell in row)


# --- solving ------------------------------------------------------------------------------------------------------

def test_dogs_as_text():
    result = run(DOGS)
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith("9 tiles, 3x3 board: 16 arrangements, 8 distinct, 2 up to rotation; ")
    assert "placements tried in" in first
    assert result.stdout.count("Solution ") == 2
    assert "brown+" in result.stdout and "row 3, col 3: tile " in result.stdout
    assert result.stderr == ""


@pytest.mark.parametrize("name", sorted(KNOWN_COUNTS))
def test_json_document_for_each_sample(name):
    path = str(SAMPLES / f"{name}.tiles")
    result = run(path, "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)  # stdout is the JSON and nothing else
    assert result.stderr == ""
    assert DOCUMENT_KEYS <= set(document)
    raw, distinct, classes = KNOWN_COUNTS[name]
    assert document["counts"] == {"raw": raw, "distinct": distinct, "up_to_rotation": classes}
    assert (document["rows"], document["cols"], document["schema"], document["source"]) == (3, 3, 1, path)
    assert document["exhaustive"] is True
    assert isinstance(document["nodes"], int) and document["nodes"] > 0
    assert isinstance(document["seconds"], float) and 0 <= document["seconds"] < 5
    assert len(document["solutions"]) == classes
    puzzle = parse_tiles(Path(path).read_text(), path)
    assert document["motifs"] == {str(k): v for k, v in puzzle.motif_names.items()}
    assert [t["id"] for t in document["tiles"]] == list(range(1, 10))
    for tile, given in zip(document["tiles"], puzzle.tiles):
        assert set(tile) >= {"id", "edges", "labels", "line"}
        assert tuple(tile["edges"]) == given.edges and tile["line"] == given.line
        assert tile["labels"] == puzzle.labels(given.edges)
    check_document_solutions(document)


def test_stdin_dash_reads_the_tiles():
    result = run("-", "--json", input=Path(DOGS).read_text())
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["source"] == "<stdin>"
    assert document["counts"] == {"raw": 16, "distinct": 8, "up_to_rotation": 2}


def test_first_stops_at_one_solution():
    text = run(DOGS, "--first")
    assert text.exit_code == 0
    assert "stopped at the first" in text.stdout.splitlines()[0]
    assert text.stdout.count("Solution ") == 1
    result = run(DOGS, "--first", "--json")
    assert result.exit_code == 0
    document = json.loads(result.stdout)
    assert document["exhaustive"] is False and len(document["solutions"]) == 1
    assert document["nodes"] < json.loads(run(DOGS, "--json").stdout)["nodes"]
    check_document_solutions(document)


@pytest.mark.parametrize("left_out", [0, 4, 8])
def test_two_by_four_board_from_eight_cats_tiles(left_out):
    lines = [line for line in Path(CATS).read_text().splitlines() if line and not line.startswith("#")]
    eight = "\n".join(line for i, line in enumerate(lines) if i != left_out) + "\n"
    result = run("-", "--rows", "2", "--cols", "4", "--json", input=eight)
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert (document["rows"], document["cols"]) == (2, 4)
    assert document["counts"]["raw"] >= 2 and document["counts"]["raw"] % 2 == 0  # a half turn is another
    check_document_solutions(document)
    only_cols = run("-", "--cols", "4", input=eight)
    assert only_cols.exit_code == 0 and "8 tiles, 2x4 board" in only_cols.stdout


def test_order_option_reads_top_left_right_bottom():
    puzzle = parse_tiles(Path(DOGS).read_text())
    tlrb = "\n".join(" ".join(puzzle.labels((n, w, e, s))) for n, e, s, w in (t.edges for t in puzzle.tiles))
    result = run("-", "--order", "NWES", "--json", input=tlrb)
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    # Motifs are numbered as they first appear, which the order changes, so compare the labels.
    assert [t["labels"] for t in document["tiles"]] == [puzzle.labels(t.edges) for t in puzzle.tiles]
    assert document["counts"] == {"raw": 16, "distinct": 8, "up_to_rotation": 2}
    check_document_solutions(document)


# --- no solution: exit 1 ------------------------------------------------------------------------------------------

def test_unsolvable_puzzle_exits_1_with_one_line():
    result = run("-", input="1 1 1 1\n" * 9)
    assert result.exit_code == 1
    assert result.stdout.startswith("9 tiles, 3x3 board: 0 arrangements")
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("no solution")
    as_json = run("-", "--json", input="1 1 1 1\n" * 9)
    assert as_json.exit_code == 1
    document = json.loads(as_json.stdout)
    assert document["counts"]["raw"] == 0 and document["solutions"] == []


def test_border_edge_inside_the_board_has_no_solution():
    # Exactly the frame's eight flat edges, but the last tile has two on opposite sides: on a 2x2 board one of them
    # would face inwards, so there is no arrangement.
    result = run("-", input="0 0 1 -1\n" * 3 + "0 1 0 -1\n")
    assert result.exit_code == 1


# --- bad input: exit 2 with one line naming file:line:token ------------------------------------------------------

def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    return str(path)


def test_bad_token_names_file_line_and_token(tmp_path):
    path = write(tmp_path, "bad.tiles", "# dogs with a typo\n1 2 -4 -3\n1 3 -l -4\n")
    result = run(path)
    assert result.exit_code == 2
    assert one_line_error(result).startswith(f"photosolve: {path}:3: '-l' is not an edge")


@pytest.mark.parametrize("line,count", [("1 2 3", 3), ("1 2 3 4 5", 5)])
def test_wrong_edge_count_from_stdin(line, count):
    result = run("-", input=f"1 2 3 4\n{line}\n")
    assert result.exit_code == 2
    assert one_line_error(result).startswith(f"photosolve: <stdin>:2: a tile needs 4 edges, found {count} ({line})")


def test_names_and_numbers_that_collide():
    result = run("-", input="brown+ grey- 1 2\n")
    assert result.exit_code == 2
    assert one_line_error(result).startswith("photosolve: <stdin>:1: '1' is motif 1, already named 'brown'")


@pytest.mark.parametrize("args,expected", [
    (["--rows", "2"], "9 tiles do not fill a board with 2 rows"),
    (["--cols", "4"], "9 tiles do not fill a board with 4 columns"),
    (["--rows", "2", "--cols", "4"], "9 tiles do not fill a board with 2 rows"),
    (["--rows", "3", "--cols", "4"], "9 tiles do not fill a 3x4 board"),
    (["--rows", "0"], "--rows must be a positive number"),
])
def test_tile_count_that_does_not_fit_the_board(args, expected):
    result = run(DOGS, *args)
    assert result.exit_code == 2
    line = one_line_error(result)
    assert expected in line
    assert args[1] == "0" or line.startswith(f"photosolve: {DOGS}: ")


def test_tile_count_that_makes_no_square():
    result = run("-", input="1 2 3 4\n" * 8)
    assert result.exit_code == 2
    assert "8 tiles do not make a square board: give the size with --rows and --cols" in one_line_error(result)


@pytest.mark.parametrize("order", ["NEWW", "NES", "XYZW"])
def test_bad_order(order):
    result = run(DOGS, "--order", order)
    assert result.exit_code == 2
    assert one_line_error(result) == (f"photosolve: --order: edge order '{order}' is not a permutation of NESW: "
                                      "write e.g. NESW or NWES")


def test_missing_file(tmp_path):
    path = str(tmp_path / "nowhere.tiles")
    result = run(path)
    assert result.exit_code == 2
    assert one_line_error(result).startswith(f"photosolve: {path}: no such file")


@pytest.mark.parametrize("content", [
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",  # not UTF-8
    b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
    b"\x00\x01\x02\x03 1 2 3\n",                            # valid UTF-8, but binary
])
def test_binary_file(tmp_path, content):
    path = write(tmp_path, "photo.tiles", content)
    result = run(path)
    assert result.exit_code == 2
    assert one_line_error(result).startswith(f"photosolve: {path}: not a text tile file")


def test_empty_input():
    result = run("-", input="# nothing\n\n")
    assert result.exit_code == 2
    assert one_line_error(result) == "photosolve: <stdin>: no tiles found: write one tile per line, four edges N E S W"


# --- the installed command ----------------------------------------------------------------------------------------

def installed_command() -> str:
    beside = Path(sys.executable).with_name("photosolve")
    found = str(beside) if beside.exists() else shutil.which("photosolve")
    if not found:
        pytest.skip("the photosolve command is not installed")
    return found


def test_installed_command_solves_dogs_in_a_real_process():
    command = installed_command()
    done = subprocess.run([command, "solve", DOGS, "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    document = json.loads(done.stdout)
    assert document["counts"] == {"raw": 16, "distinct": 8, "up_to_rotation": 2}
    check_document_solutions(document)
    # The solver alone must not load the vision stack.
    probe = ("import sys; sys.argv = ['photosolve', 'solve', %r]\n"
             "from photosolve.cli.main import run\n"
             "try:\n    run()\nexcept SystemExit:\n    pass\n"
             "heavy = sorted(m for m in ('numpy', 'cv2', 'skimage', 'photosolve.vision') if m in sys.modules)\n"
             "print('HEAVY', heavy, file=sys.stderr)") % DOGS
    checked = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in checked.stderr, checked.stderr


def test_installed_command_bad_input_has_no_traceback():
    done = subprocess.run([installed_command(), "solve", "-"], input="1 2 3\n", capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "photosolve: <stdin>:1: a tile needs 4 edges, found 3 (1 2 3): write one tile per line, "
        "edges clockwise from the top"
    ]


# --- typing the tiles in at a terminal ----------------------------------------------------------------------------

class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_prompt_checks_each_line_and_asks_again(monkeypatch, capsys):
    lines = Path(DOGS).read_text().splitlines()[3:]
    typed = "\n".join([lines[0], "brown+ grey+", *lines[1:]]) + "\n\n"
    monkeypatch.setattr(sys, "stdin", Terminal(typed))
    puzzle = read_puzzle(None, "NESW", None)
    assert [t.edges for t in puzzle.tiles] == [t.edges for t in parse_tiles(Path(DOGS).read_text()).tiles]
    said = capsys.readouterr()
    assert said.out == ""  # prompts go to stderr
    assert "a tile needs 4 edges, found 2 (brown+ grey+)" in said.err and "try that tile again" in said.err


def test_prompt_stops_at_the_board_size_and_refuses_nothing(monkeypatch):
    monkeypatch.setattr(sys, "stdin", Terminal("1 2 3 4\n-1 -2 -3 -4\nnot read\n"))
    assert len(read_puzzle(None, "NESW", 2).tiles) == 2
    monkeypatch.setattr(sys, "stdin", Terminal("\n"))
    with pytest.raises(Fail) as caught:
        read_puzzle(None, "NESW", None)
    assert caught.value.code == ExitCode.BAD_INPUT
