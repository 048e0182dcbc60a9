"""Motifs read from the photo alone that are a guess: never solved unasked; the person says how many there are.

A reading is a guess when no way of sorting the halves pairs a motif's two halves by like colours. Telling a
4-motif puzzle that it has 3 motifs makes it so, whatever the reader does: two motifs must then share one.
"""
from __future__ import annotations

import io
import json

import pytest
from typer.testing import CliRunner

from photosolve.cli.main import app, with_default_command
from photosolve.cli.review import ask_motif_count
from photosolve.scenes.evaluate import edges_right_up_to_renaming
from photosolve.scenes.scene import make_scene, save_scene
from photosolve.vision.load import load_photo
from photosolve.vision.pipeline import cut_halves
from photosolve.vision.read.selflabel import self_label

from .test_cli_photo import SIZE, one_line, read_edges_in_truth_order


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, with_default_command(list(args)), input=input)


@pytest.fixture(scope="module")
def four_motifs(tmp_path_factory):
    """A photo of a never-seen puzzle with 4 motifs, and its truth."""
    folder = tmp_path_factory.mktemp("four")
    scene = make_scene("random:4", 5, tier="easy", layout="scattered", size=SIZE)
    save_scene(scene, folder / "four.jpg")
    return folder / "four.jpg", scene.truth


def test_a_reading_pairing_unlike_colours_is_said_to_be_a_guess(four_motifs):
    halves = cut_halves(load_photo(str(four_motifs[0])), 9)
    assert not self_label(halves.bands, 3, 3).guessed
    told_three = self_label(halves.bands, 3, 3, range(3, 4))
    assert told_three.guessed and told_three.motifs == 3


def test_a_guess_is_not_solved_unasked_it_exits_5(four_motifs, tmp_path):
    photo, _ = four_motifs
    result = run(str(photo), "--motifs", "3", "-o", str(tmp_path / "solved.png"), "--save-tiles",
                 str(tmp_path / "read.tiles"), "--annotate", str(tmp_path / "reading.png"))
    assert result.exit_code == 5 and "Traceback" not in result.stderr
    message = result.stderr.strip().splitlines()[-1]
    assert "guess" in message and "--yes" in message
    assert "--motifs N" not in message  # the person has said how many already
    assert not (tmp_path / "solved.png").exists()
    assert (tmp_path / "read.tiles").is_file()  # kept, to correct and give back with --tiles
    assert (tmp_path / "reading.png").is_file()  # to see which edge is which


def test_yes_takes_the_guess_and_says_so(four_motifs):
    result = run(str(four_motifs[0]), "--motifs", "3", "--yes", "--json")
    assert "taking the guess" in result.stderr
    assert json.loads(result.stdout)["motifs_guessed"] is True


def test_told_how_many_motifs_the_photo_is_read_with_that_many(four_motifs):
    photo, truth = four_motifs
    result = run(str(photo), "--motifs", "4", "--json")
    assert result.exit_code == 0, result.stderr
    assert "4 motifs as told" in result.stderr
    document = json.loads(result.stdout)
    assert document["motifs_guessed"] is False and len(document["motifs"]) == 4
    assert edges_right_up_to_renaming(*read_edges_in_truth_order(document, truth)) == 36


def test_at_review_an_open_guess_asks_how_many_motifs_and_reads_again(tmp_path):
    """Dev photo: five photographs under glare, read as five or six half-types, neither surely; the puzzle shows ten
    (five motifs). The guess lies between no known readings (the types may be finer than every reading), so the
    person is asked for the number of motifs, and the photo is read again with the number given."""
    scene = make_scene("family:photos-a:5", 10005, tier="hard")
    save_scene(scene, tmp_path / "photos.jpg")
    result = run(str(tmp_path / "photos.jpg"), "--templates", "none", "--review", "--json", input="seven\n5\n")
    assert "How many different motifs" in result.stderr and "'seven' is not a number" in result.stderr
    assert "Which drawing" not in result.stderr
    assert "5 motifs as told" in result.stderr
    assert len(json.loads(result.stdout[result.stdout.index("{"):])["motifs"]) == 5


@pytest.mark.parametrize("args, says", [(["--motifs", "0"], "from 1 to 18"), (["--motifs", "19"], "from 1 to 18"),
                                        (["--motifs", "4", "-t", "dogs"], "drop --templates dogs")])
def test_a_motif_count_that_cannot_be_is_refused(four_motifs, args, says):
    result = run(str(four_motifs[0]), *args)
    assert result.exit_code == 2
    assert says in one_line(result)


def test_the_motif_count_question_keeps_the_guess_on_enter_or_its_own_count():
    for kept in ("\n", "3\n", "q\n"):
        answers = iter([kept])
        assert ask_motif_count(3, 18, lambda: next(answers), out=io.StringIO()) is None
    answers = iter(["20\n", "5\n"])
    assert ask_motif_count(3, 18, lambda: next(answers), out=io.StringIO()) == 5
