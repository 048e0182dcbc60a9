"""A never-seen puzzle read at the finest number of half-types that lays out with its cheapest pairing, where the
types read first do not stand apart sharply (vision/read/selflabel.py, finest_fitting): a coarser reading lays the
tiles out wherever the true one does, so its fitting proves little.

The photos go through the whole pipeline (segmentation included), as bench/families.py reads them with no templates.
"""
from __future__ import annotations

from photosolve.scenes.evaluate import edges_right_up_to_renaming

from .test_selflabel_dearer import read_family_photo


def test_a_finer_reading_that_lays_out_cheaply_wins_over_a_weakly_sharper_coarser_one():
    """Photos-a, easy (dev): the halves jump at eight types (1.74) more than at the puzzle's ten (1.44), and both
    lay out, the ten with their cheapest pairing. The eight were taken (two motifs read as one, 31 of 36 edges
    right); now the ten are, and every edge is read right."""
    read, truth = read_family_photo("photos-a", 5, 10011, "easy")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size


def test_types_that_stand_apart_sharply_are_not_given_up_for_finer_ones():
    """Emoji food, medium (dev): six types stand apart very sharply (a jump of 5.2) and lay out; eight (1.4) lay out
    too, by splitting two motifs. Sharp types are the puzzle's more surely: the six are kept, every edge right."""
    read, truth = read_family_photo("emoji-food", 3, 10009, "medium")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size


def test_types_as_sharp_as_a_coarser_sure_reading_win_over_it():
    """Emoji animals, medium (dev): whales in four colourings, two of them close (purple and pinkish purple). The
    halves jump sharply at six types (2.6), those two colourings as one, and again at the puzzle's eight (2.2);
    both lay out with their cheapest pairing. The six were taken (32 of 36 edges right); a coarser reading lays
    out wherever the true one does, so now the eight are, and every edge is read right."""
    read, truth = read_family_photo("emoji-animals", 4, 10006, "medium")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
