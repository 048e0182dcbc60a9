"""At review, a guess between known readings is settled by the person's eye: each reading's solution is drawn from
the photo's tiles, and the reading whose drawing the person picks is taken (cli.photo_cmd.picked_drawing).

Counting motifs does not settle a guess between two pairings of the same halves; looking at two solved pictures
does: in the right one every figure is whole across its seams. A real generated photo (dev art family), through the
whole command.
"""
from __future__ import annotations

import json
import tempfile

import pytest
from typer.testing import CliRunner

from photosolve.cli.main import app, with_default_command
from photosolve.scenes.scene import save_scene
from photosolve.vision.pipeline import drawn_arrangement, guess_settled

from .test_guess_settled import arrangements, cells, read_scene


@pytest.fixture(scope="module")
def guessed_photo(tmp_path_factory):
    # three animals whose halves pair two ways that both lay the tiles out, the seams about as good either way
    scene, halves, read = read_scene("emoji-animals", 3, 20005, "easy")
    assert read.guess and read.rivals and not guess_settled(read, halves, 3, 3)
    path = tmp_path_factory.mktemp("guessed") / "animals.jpg"
    save_scene(scene, path)
    return path, halves, read


def review(photo, answers: str, scratch, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    result = CliRunner().invoke(app, with_default_command([str(photo), "--templates", "none", "--review", "--json"]),
                                input=answers)
    assert result.exit_code == 0, result.stderr
    return result, json.loads(result.stdout[result.stdout.index("{"):])


def test_each_reading_in_doubt_is_drawn_and_the_one_picked_is_solved(guessed_photo, tmp_path, monkeypatch):
    photo, halves, read = guessed_photo
    result, document = review(photo, "3x\n2\n", tmp_path, monkeypatch)
    assert "Which drawing shows every figure whole" in result.stderr
    assert "'3x' is not a number" in result.stderr
    drawings = sorted(tmp_path.glob("photosolve-animals-solution-*.png"))
    assert len(drawings) == 1 + len(read.rivals) and all(path.stat().st_size > 0 for path in drawings)
    assert "taking the reading of drawing 2" in result.stderr
    assert document["solutions"][0]["cells"] == cells(drawn_arrangement(read.rivals[0], halves, 3, 3))


def test_pressing_enter_keeps_the_guess(guessed_photo, tmp_path, monkeypatch):
    photo, halves, read = guessed_photo
    result, document = review(photo, "\n", tmp_path, monkeypatch)
    assert "Which drawing" in result.stderr and "taking the reading of drawing" not in result.stderr
    assert document["motifs_guessed"] is True
    guessed = [cells(arrangement) for arrangement in arrangements(read)]
    assert document["solutions"][0]["cells"] in guessed


def test_without_a_terminal_the_person_is_told_to_pick_a_drawing_not_to_count_motifs(guessed_photo):
    photo, *_ = guessed_photo
    result = CliRunner().invoke(app, with_default_command([str(photo), "--templates", "none"]))
    assert result.exit_code == 5 and "Traceback" not in result.stderr
    message = result.stderr.strip().splitlines()[-1]
    assert "pick the right one of its solutions drawn" in message and "--review" in message
    assert "--motifs N" not in message  # the guess is which halves pair, not how many motifs there are
