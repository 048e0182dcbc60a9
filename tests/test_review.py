"""Doubt that changes the solution: exit 5 without a terminal, --yes, and the review's questions and answers.

The photos show a puzzle two of whose motifs are drawn alike (same figure, same colours): no reader can tell
them apart, so the doubt is real, and only the person can settle it.
"""
from __future__ import annotations

import json
import re

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from photosolve.cli.main import app, with_default_command
from photosolve.scenes.scene import make_scene, save_scene, twin_motif_puzzle
from photosolve.solver import turn_edges

from .solver_checks import board_is_valid

SIZE = (1400, 1050)


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, with_default_command(list(args)), input=input)


@pytest.fixture(scope="module")
def twins(tmp_path_factory):
    """A learned template set for a puzzle with look-alike motifs 1 and 2, and another photo of it."""
    folder = tmp_path_factory.mktemp("twins")
    puzzle, art = twin_motif_puzzle(12)
    teacher = make_scene(puzzle, 1, tier="easy", layout="scattered", art=art, size=SIZE)
    save_scene(teacher, folder / "teacher.jpg")
    (folder / "list.tiles").write_text("\n".join(" ".join(map(str, t.edges)) for t in puzzle.tiles) + "\n")
    learned = run("learn", str(folder / "teacher.jpg"), "--tiles", str(folder / "list.tiles"), "-o",
                  str(folder / "set"))
    assert learned.exit_code == 0, learned.stderr
    # A set that knows the puzzle's tile list tells the twins apart by the tiles' other edges; one without it
    # (as a set saved from a photo read with no templates is) cannot: drop the list.
    manifest = json.loads((folder / "set" / "manifest.json").read_text())
    manifest.pop("tiles", None)
    (folder / "set" / "manifest.json").write_text(json.dumps(manifest))
    photo = make_scene(puzzle, 2, tier="easy", layout="scattered", art=art, size=SIZE)
    save_scene(photo, folder / "photo.jpg")
    return folder, puzzle, photo.truth


def doubtful_edges(message: str) -> list[tuple[int, str]]:
    return [(int(tile), side) for tile, side in re.findall(r"tile (\d+) (north|east|south|west)", message)]


def test_without_a_terminal_doubt_exits_5_and_names_the_edges(twins, tmp_path):
    folder, _, _ = twins
    result = run(str(folder / "photo.jpg"), "--templates", str(folder / "set"), "-o", str(tmp_path / "solved.png"))
    assert result.exit_code == 5, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert "doubtful edges change the solution" in last and "--review" in last and "--yes" in last
    assert doubtful_edges(last)
    assert not (tmp_path / "solved.png").exists()
    assert "Traceback" not in result.stderr


def test_stopping_for_doubt_writes_what_was_asked_for_to_correct_by(twins, tmp_path):
    folder, _, _ = twins
    result = run(str(folder / "photo.jpg"), "--templates", str(folder / "set"), "-o", str(tmp_path / "solved.png"),
                 "--annotate", str(tmp_path / "reading.png"), "--save-tiles", str(tmp_path / "read.tiles"))
    assert result.exit_code == 5, result.stderr
    assert (tmp_path / "read.tiles").is_file()
    annotated = cv2.imread(str(tmp_path / "reading.png"))
    photo = cv2.imread(str(folder / "photo.jpg"))
    assert annotated is not None and annotated.shape == photo.shape
    assert np.abs(annotated.astype(int) - photo.astype(int)).max() > 100  # the reading is drawn on it
    assert "the doubtful edges marked" in result.stderr
    assert not (tmp_path / "solved.png").exists()


def test_yes_takes_the_best_reading(twins, tmp_path):
    folder, _, _ = twins
    result = run(str(folder / "photo.jpg"), "--templates", str(folder / "set"), "--yes", "-o",
                 str(tmp_path / "solved.png"))
    assert result.exit_code == 0, result.stderr
    assert "taking the best reading (--yes)" in result.stderr
    assert (tmp_path / "solved.png").is_file()


def test_review_asks_only_about_doubtful_edges_and_takes_the_answers(twins):
    folder, puzzle, truth = twins
    first = run(str(folder / "photo.jpg"), "--templates", str(folder / "set"))
    asked = doubtful_edges(first.stderr.strip().splitlines()[-1])
    # The person looks at the tiles and types each doubtful edge's true label as a free correction.
    found = json.loads(run(str(folder / "photo.jpg"), "--templates", str(folder / "set"), "--yes",
                           "--json").stdout)
    centres = np.array([tile["center"] for tile in found["tiles"]])
    true_of = {}
    for tile in truth["tiles"]:
        nearest = int(np.argmin(np.linalg.norm(centres - np.array(tile["center"]), axis=1)))
        true_of[nearest + 1] = tile["edges"]
    answers = "".join(f"{tile}{side[0]} {true_of[tile]['nesw'.index(side[0])]}\n" for tile, side in asked)
    result = run(str(folder / "photo.jpg"), "--templates", str(folder / "set"), "--review", "--json",
                 input="?\n" + answers + "\n" * 40)
    assert result.exit_code == 0, result.stderr
    assert "labels: " in result.stderr  # '?' listed them
    assert result.stderr.count("edge: read") >= 1
    document = json.loads(result.stdout)
    edges_of = {t["id"]: tuple(t["edges"]) for t in document["tiles"]}
    for tile, side in asked:
        assert edges_of[tile]["nesw".index(side[0])] == true_of[tile]["nesw".index(side[0])]
    # Every arrangement printed fits the tiles as they truly are.
    for solution in document["solutions"]:
        grid = [[turn_edges(tuple(true_of[c["tile"]]), c["turns"]) for c in row] for row in solution["cells"]]
        assert board_is_valid(grid)


def test_q_stops_asking_and_keeps_the_reading(twins):
    folder, _, _ = twins
    result = run(str(folder / "photo.jpg"), "--templates", str(folder / "set"), "--review", input="nonsense\nq\n")
    assert "'nonsense' is not a label" in result.stderr
    assert result.exit_code == 0  # the best reading stands, and it has a solution
    assert result.stderr.count("edge: read") == 2  # asked once, asked again after the bad answer, then q


def test_at_a_real_terminal_the_review_is_shown_and_answered(twins, tmp_path):
    """photosolve in tmux: stdin is a terminal, so it asks by itself; the person sees the table and a question."""
    import shutil
    import subprocess
    import sys
    import time
    from pathlib import Path

    tmux = shutil.which("tmux")
    command = Path(sys.executable).with_name("photosolve")
    if tmux is None or not command.exists():
        pytest.skip("needs tmux and the installed photosolve command")
    folder, _, _ = twins
    session = f"photosolve-test-{id(tmp_path)}"
    out = tmp_path / "solved.png"
    shell = (f"{command} {folder / 'photo.jpg'} --templates {folder / 'set'} -o {out}; "
             f"echo EXIT=$?; sleep 30")
    subprocess.run([tmux, "new-session", "-d", "-s", session, "-x", "160", "-y", "50", shell], check=True)

    def screen() -> str:
        return subprocess.run([tmux, "capture-pane", "-p", "-t", session], capture_output=True, text=True).stdout

    def wait_for(text: str, seconds: float = 60) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown = screen()
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen shows:\n{screen()}")

    try:
        shown = wait_for("edge: read")
        assert "Read from the photo" in shown and "tile" in shown  # the table of tiles as read
        assert "the annotated photo is" in shown
        subprocess.run([tmux, "send-keys", "-t", session, "q", "Enter"], check=True)
        shown = wait_for("EXIT=")
        assert "EXIT=0" in shown and "solved picture written to" in shown
        assert out.is_file()
    finally:
        subprocess.run([tmux, "kill-session", "-t", session], capture_output=True)
