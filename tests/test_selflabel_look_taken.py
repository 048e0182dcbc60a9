"""Which of self-labelling's looks at the halves gives the reading (vision/read/selflabel.py, self_label; see also
test_selflabel_looks.py, at true corners).

A first look whose half-types stand apart sharply, every one paired, and lay the tiles out keeps its types when its
doubt is only which pairing: a later look's other types do not replace them (displaces). And the print alone is
taken (as a guess) over looks that see colour and read more half-types only where those lay the tiles out: finer
types that lay out nowhere say nothing of the puzzle's.

The photos go through the whole pipeline (segmentation included), as bench/families.py reads them with no templates.
"""
from __future__ import annotations

import numpy as np

from photosolve.scenes.evaluate import edges_right_up_to_renaming, true_edges_as_found
from photosolve.vision.read.descriptors import describe_halves
from photosolve.vision.read.selflabel import MOTIF_RANGE, choose_trial, displaces, surer, types_sure

from .test_guess_settled import read_scene
from .test_selflabel_dearer import read_family_photo


def test_sharp_types_are_kept_over_a_later_looks_surer_reading():
    """Emoji food, easy (dev): four burritos whose fillings differ in colour, on a red face in a black border. The
    first look sorts the halves into eight types with a sharp jump (2.5), every one paired, and the tiles lay out so,
    but as a guess between pairings. The centred look groups them alike, with no guess but a weaker jump (1.8): the
    surer choice, but the doubt was only which pairing, and a weaker look at the same types does not settle it. The
    first look's reading is kept; every edge is right."""
    scene, halves, read = read_scene("emoji-food", 4, 10002, "easy")
    flat = halves.bands.reshape(-1, *halves.bands.shape[2:])
    first = choose_trial(describe_halves(flat, halves.face), 3, 3, 9, MOTIF_RANGE)
    centred = choose_trial(describe_halves(flat, halves.face, centred=True), 3, 3, 9, MOTIF_RANGE)
    assert first.fits and not first.coherent and types_sure(first.trial) and first.trial.types == 8
    assert surer(centred, first) and centred.coherent
    assert not displaces(centred, first)
    truth = np.array(true_edges_as_found([quad.corners for quad in halves.quads], scene.truth))
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size


def test_the_print_is_taken_over_finer_types_that_lay_out_nowhere():
    """Photos A, medium (dev): three photo crops on a strong face. The first look reads nine half-types and the
    centred look seven, and the tiles lay out with neither; the print alone reads six, surely, and they lay out. It
    was passed over for reading fewer types than the looks that see colour (31 of 36 edges); now it is taken, as a
    guess, and every edge is right."""
    read, truth = read_family_photo("photos-a", 3, 20011, "medium")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
    assert read.guess  # the print is blind to colour: asked about
