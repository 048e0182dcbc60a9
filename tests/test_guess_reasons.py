"""A never-seen puzzle whose motifs are a guess says why (vision/read/selflabel.py, SelfReading.doubt): the person
asked is told what the doubt is about, not one sentence for every cause.

The photos go through the whole pipeline (segmentation included), as bench/families.py reads them with no templates;
each is read right, and asked about, for the reason its test names.
"""
from __future__ import annotations

from photosolve.scenes.evaluate import edges_right_up_to_renaming
from photosolve.vision.read.selflabel import COARSER, PAIRING, PRINT, WHY_GUESSED

from .test_selflabel_dearer import read_family_photo


def assert_guessed_for(read, cause: str) -> None:
    assert read.guess.startswith(WHY_GUESSED[cause] + ", so the ")
    other_causes = [text for key, text in WHY_GUESSED.items() if key != cause]
    assert not any(text in read.guess for text in other_causes)


def test_two_pairings_that_lay_out_are_named_as_the_doubt():
    """Emoji animals, easy (dev): three motifs whose six types stand apart very sharply; the cut alone or the
    colours alone prefer another pairing of them (one_sided_rival), and the tiles lay out with it too."""
    read, truth = read_family_photo("emoji-animals", 3, 20005, "easy")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
    assert_guessed_for(read, PAIRING)


def test_halves_that_look_like_more_motifs_are_named_as_the_doubt():
    """Emoji nature, easy (dev): three motifs read, where the halves' appearance says there are more types: fewer
    motifs lay the tiles out wherever more do."""
    read, truth = read_family_photo("emoji-nature", 3, 20005, "easy")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
    assert_guessed_for(read, COARSER)


def test_a_reading_by_the_print_alone_says_it_does_not_see_colour():
    """Photos-a, medium (dev): no look that sees colour reads the halves surely; the print alone does, and its
    reading is taken and asked about."""
    read, truth = read_family_photo("photos-a", 3, 20011, "medium")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
    assert_guessed_for(read, PRINT)
