"""Outputs a hostile user asks for: into a missing folder, onto a folder, onto an unwritable place, onto the input
(by name, through a link, as a file of a template set), two outputs on one path; and writes interrupted half way.
Each: exit 2 in one line before any work, the inputs untouched, no file half-written, no temporary file left."""
from __future__ import annotations

import errno
import hashlib
import os
import shutil
from pathlib import Path

import pytest
from PIL import Image, PngImagePlugin
from typer.testing import CliRunner

from photosolve.cli.main import app, with_default_command

from .conftest import SAMPLES
from .interrupting import output_when_done, started_at_a_terminal


def run(*args: str):
    return CliRunner().invoke(app, with_default_command(list(args)))


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot(folder: Path) -> dict[str, str]:
    """Every file under the folder with its hash: what a run must leave as it was."""
    return {str(p.relative_to(folder)): sha(p) if p.is_file() else "folder" for p in sorted(folder.rglob("*"))}


@pytest.fixture
def desk(tmp_path) -> Path:
    """A folder holding the dogs photo and its tile file, as a person's desk would."""
    shutil.copy(SAMPLES / "dogs.jpg", tmp_path / "dogs.jpg")
    shutil.copy(SAMPLES / "dogs.tiles", tmp_path / "dogs.tiles")
    return tmp_path


def refused_untouched(desk: Path, *args: str) -> str:
    before = snapshot(desk)
    result = run(*args)
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert snapshot(desk) == before
    return lines[0]


def unwritable_folder(tmp_path: Path) -> Path:
    """A folder no file can be made in. Tests may run as root, whom permissions do not stop: then /proc, which
    takes no new files from anyone."""
    if os.geteuid() == 0:
        return Path("/proc")
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    return locked


CASES = {
    "into a missing folder": (["-o", "{desk}/nowhere/solved.png"], "folder {desk}/nowhere does not exist"),
    "onto a folder": (["-o", "{desk}/made"], "--output {desk}/made is a folder"),
    "onto the photo": (["-o", "{desk}/dogs.jpg"], "is the input photo"),
    "onto a link to the photo": (["-o", "{desk}/link.jpg"], "is the input photo"),
    "annotation onto the photo": (["--annotate", "{desk}/dogs.jpg"], "is the input photo"),
    "tiles onto the photo": (["--save-tiles", "{desk}/dogs.jpg"], "is the input photo"),
    "tiles onto the tile file given": (["--tiles", "{desk}/dogs.tiles", "--save-tiles", "{desk}/dogs.tiles"],
                                       "is the input tile file"),
    "two outputs on one path": (["-o", "{desk}/same.png", "--annotate", "{desk}/same.png"], "also another output"),
    "an empty name": (["-o", ""], "--output is empty"),
    "templates onto a file": (["--save-templates", "{desk}/dogs.tiles"], "is a file: give a folder"),
    "templates over the photo": (["--save-templates", "{desk}/set"], "is the input photo"),
    "debug pictures onto a file": (["--debug-dir", "{desk}/dogs.jpg"], "is a file: give a folder"),
    "debug pictures under a file": (["--debug-dir", "{desk}/dogs.jpg/debug"], "is a file, not a folder"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_bad_output_is_refused_before_any_work_and_nothing_is_touched(desk, case):
    (desk / "made").mkdir()
    (desk / "link.jpg").symlink_to(desk / "dogs.jpg")
    (desk / "set").mkdir()
    os.link(desk / "dogs.jpg", desk / "set" / "halves.png")  # the photo, as the file a template set writes
    args, expected = CASES[case]
    photo = "{desk}/set/halves.png" if case == "templates over the photo" else "{desk}/dogs.jpg"
    line = refused_untouched(desk, *[a.format(desk=desk) for a in [photo, *args]])
    assert expected.format(desk=desk) in line


@pytest.mark.parametrize("option", ["-o", "--annotate", "--save-tiles", "--save-templates", "--debug-dir"])
def test_an_unwritable_place_is_refused_before_any_work(desk, tmp_path, option):
    folder = unwritable_folder(tmp_path)
    target = folder / ("out.png" if option in ("-o", "--annotate") else "out")
    line = refused_untouched(desk, str(desk / "dogs.jpg"), option, str(target))
    assert f"cannot write into {folder}" in line
    assert not target.exists()


def test_learn_refuses_a_set_folder_over_its_photo(desk):
    (desk / "set").mkdir()
    os.link(desk / "dogs.jpg", desk / "set" / "halves.png")
    line = refused_untouched(desk, "learn", str(desk / "set" / "halves.png"), "--tiles", str(desk / "dogs.tiles"),
                             "-o", str(desk / "set"))
    assert "is the input photo" in line


# --- writes interrupted half way -----------------------------------------------------------------------------------

def encoder_that_stops(failure: BaseException):
    """Pillow's PNG writer made to fail half way, as a full disk or a Ctrl-C would make it: it writes the start of
    the file, then raises."""
    def save(image, handle, filename, *args, **kwargs):
        handle.write(b"\x89PNG\r\n\x1a\n" + b"\x00" * 4096)
        handle.flush()
        raise failure
    return save


@pytest.mark.parametrize("failure, code, said", [
    (OSError(errno.ENOSPC, "No space left on device"), 2, "cannot write it: No space left on device"),
    (KeyboardInterrupt(), 130, "interrupted"),
])
def test_an_interrupted_write_leaves_the_old_file_whole_and_no_part_of_the_new(desk, monkeypatch, failure, code,
                                                                               said):
    old = desk / "solved.png"
    Image.new("RGB", (10, 10), "red").save(old)
    before = snapshot(desk)
    monkeypatch.setitem(Image.SAVE, "PNG", encoder_that_stops(failure))
    assert Image.SAVE["PNG"] is not PngImagePlugin._save
    result = run(str(desk / "dogs.jpg"), "-o", str(old))
    assert result.exit_code == code, result.stderr
    assert result.stderr.splitlines()[-1].endswith(said) and "Traceback" not in result.stderr
    assert snapshot(desk) == before  # the old picture as it was, the photo too, and no temporary file


def test_ctrl_c_at_any_moment_stops_cleanly(desk):
    """A real SIGINT to a real process, at four moments of its run (importing, decoding beside it, reading,
    writing): exit 130, saying so last (or 0 if it had finished), never an abort or a traceback, and no
    output or temporary file unless the run finished."""
    import signal
    import subprocess
    import sys
    import time

    command = Path(sys.executable).with_name("photosolve")
    for delay in (0.3, 0.5, 0.7, 0.9):
        solved = desk / "solved.png"
        child = started_at_a_terminal([str(command), str(desk / "dogs.jpg"), "-o", str(solved)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        time.sleep(delay)
        child.send_signal(signal.SIGINT)
        said = output_when_done(child, timeout=60)[1]
        assert child.returncode in (0, 130), (delay, child.returncode, said)
        assert "Traceback" not in said and "terminate called" not in said
        if child.returncode == 130:
            assert not said.strip() or said.splitlines()[-1] == "photosolve: interrupted", said
            assert not solved.exists()
        assert not [p for p in desk.iterdir() if p.name.startswith(".")]  # no temporary file
        solved.unlink(missing_ok=True)
