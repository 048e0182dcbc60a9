"""Tile files as other programs save them (Windows Notepad's byte-order marks and CRLF, UTF-16, a word processor's
minus sign) and as a hostile user writes them; `photosolve solve` on each: read, or one line and exit 2."""
from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from typer.testing import CliRunner

from photosolve.cli.main import app
from photosolve.solver.tilefile import MAX_TEXT_BYTES, MAX_TILES, TileFileError, parse_tiles

from .conftest import SAMPLES

DOGS = SAMPLES / "dogs.tiles"


def run(*args: str, input: bytes | None = None):
    return CliRunner().invoke(app, ["solve", *args], input=input)


def refused(result) -> str:
    """The one stderr line of a run refused as bad input (exit 2), with nothing on stdout and no traceback."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def dogs_text() -> str:
    return DOGS.read_text(encoding="utf-8")


def solved_dogs(result) -> None:
    assert result.exit_code == 0, result.stderr
    assert "9 tiles, 3x3 board: 16 arrangements, 8 distinct, 2 up to rotation" in result.stdout


@pytest.mark.parametrize("encoding, bom", [
    ("utf-8", codecs.BOM_UTF8),          # Notepad's "UTF-8 with BOM"
    ("utf-16-le", codecs.BOM_UTF16_LE),  # Notepad's "Unicode"
    ("utf-16-be", codecs.BOM_UTF16_BE),  # "Unicode big endian"
    ("utf-32-le", codecs.BOM_UTF32_LE),
])
def test_windows_files_with_a_byte_order_mark_and_crlf_are_read(tmp_path, encoding, bom):
    path = tmp_path / "dogs.tiles"
    path.write_bytes(bom + dogs_text().replace("\n", "\r\n").encode(encoding))
    solved_dogs(run(str(path)))
    solved_dogs(run("-", input=path.read_bytes()))  # the same through a pipe


def test_a_file_from_a_word_processor_with_minus_signs_and_non_breaking_spaces(tmp_path):
    typed = dogs_text().replace(" -", "\u00a0\u2212")
    assert "\u2212" in typed and "\u00a0" in typed
    path = tmp_path / "dogs.tiles"
    path.write_text(typed, encoding="utf-8")
    solved_dogs(run(str(path)))


def test_names_in_any_alphabet():
    puzzle = parse_tiles("grün+ 紅+ grün- 紅-\n", "umlaut.tiles")
    assert puzzle.tiles[0].edges == (1, 2, -1, -2)
    assert puzzle.motif_names == {1: "grün", 2: "紅"}


def test_utf16_without_a_byte_order_mark_is_refused_in_one_line(tmp_path):
    path = tmp_path / "dogs.tiles"
    path.write_bytes(dogs_text().encode("utf-16-le"))
    assert refused(run(str(path))).startswith(f"photosolve: {path}: not a text tile file in UTF-8 or UTF-16")


def test_a_legacy_code_page_file_is_refused_and_stdin_is_not_called_a_photo(tmp_path):
    latin = "grün+ 2 grün- -2\n".encode("cp1252")
    line = refused(run("-", input=latin))
    assert line == "photosolve: <stdin>: not a text tile file in UTF-8 or UTF-16"


def test_a_huge_number_is_refused_with_the_token_cut_short():
    line = refused(run("-", input=("1" + "0" * 5000 + " 1 -1 -1\n").encode()))
    assert "at most 6 digits" in line and len(line) < 250


def test_a_very_long_line_is_named_not_echoed():
    line = refused(run("-", input=(" ".join(["1"] * 100000) + "\n").encode()))
    assert "a tile needs 4 edges, found 100000" in line and len(line) < 250


def test_more_tiles_than_the_largest_board_are_refused_at_the_first_one_too_many():
    text = "# many\n" + "1 -1 1 -1\n" * (MAX_TILES + 5)
    with pytest.raises(TileFileError) as caught:
        parse_tiles(text, "many.tiles")
    assert str(caught.value).startswith(f"many.tiles:{MAX_TILES + 2}: more than {MAX_TILES} tiles")
    # The largest board itself is read.
    assert len(parse_tiles("1 -1 1 -1\n" * MAX_TILES).tiles) == MAX_TILES


def test_a_file_longer_than_any_tile_file_is_refused_unread(tmp_path):
    path = tmp_path / "huge.tiles"
    path.write_text(dogs_text() + "#" * MAX_TEXT_BYTES)
    expected = f"more than {MAX_TEXT_BYTES // 1000} kB: no tile file is that long"
    assert refused(run(str(path))) == f"photosolve: {path}: {expected} ({MAX_TILES} tiles at most)"
    assert expected in refused(run("-", input=path.read_bytes()))
    # The longest real tile file, 400 tiles each with a note, is far inside the limit.
    assert len(("brown+ grey+ umber- spotted-  # tile 400: N 0.98 E 0.52? S 0.99 W 0.97\n" * MAX_TILES)
               .encode()) < MAX_TEXT_BYTES / 20


def test_a_photo_board_larger_than_the_limit_is_refused_before_loading(tmp_path):
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"not read")
    result = CliRunner().invoke(app, ["read", str(photo), "--rows", "21", "--cols", "20"])
    assert refused(result) == f"photosolve: a 21x20 board has 420 tiles: photosolve solves boards of up to {MAX_TILES}"


def test_a_photo_of_a_one_tile_board_is_refused_before_loading(tmp_path):
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"not read")
    result = CliRunner().invoke(app, ["read", str(photo), "--rows", "1"])
    assert refused(result) == "photosolve: a 1x1 board has one tile and no seam: there is nothing to solve"


def test_a_directory_and_an_unreadable_path_as_tile_file(tmp_path):
    assert "a folder, not a tile file" in refused(run(str(tmp_path)))
    assert "no such file" in refused(run(str(tmp_path / "missing.tiles")))


def test_the_input_file_is_left_as_it_was(tmp_path):
    path = tmp_path / "bad.tiles"
    content = codecs.BOM_UTF8 + b"1 2 3\r\n"
    path.write_bytes(content)
    assert "a tile needs 4 edges, found 3" in refused(run(str(path)))
    assert path.read_bytes() == content and sorted(Path(tmp_path).iterdir()) == [path]


@pytest.mark.parametrize("args, said", [
    (["solve", str(DOGS), "--rows", "abc"], "Invalid value for '--rows' / '-r': 'abc' is not a valid int."),
    (["solve", "--bogus"], "No such option: --bogus"),
    (["read"], "Missing argument 'photo'."),
])
def test_a_mistake_in_the_command_line_is_one_line_from_the_installed_command(args, said):
    import subprocess
    import sys

    command = Path(sys.executable).with_name("photosolve")
    assert command.exists(), "the photosolve command is installed with the package"
    done = subprocess.run([str(command), *args], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"photosolve: {said}") and "--help" in lines[0], done.stderr


def test_output_into_a_closed_pipe_stops_quietly_with_the_sigpipe_status():
    import subprocess
    import sys

    command = Path(sys.executable).with_name("photosolve")
    child = subprocess.Popen([str(command), "solve", str(DOGS)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()  # as `| head -0` does, long before photosolve has imported itself and solved
    said = child.stderr.read()
    child.stderr.close()
    assert child.wait(timeout=60) == 141 and said == b""
