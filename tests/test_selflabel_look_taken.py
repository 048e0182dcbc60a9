"""Which of self-labelling's looks at the halves gives the reading (vision/read/selflabel.py, self_label; see also
test_selflabel_looks.py, at true corners).

A first look whose half-types stand apart sharply, every one paired, and lay the tiles out keeps its types when its
doubt is only which pairing: a later look's other types do not replace them (types_sure). And the print alone is
taken (as a guess) over looks that see colour and read more half-types only where those lay the tiles out: finer
types that lay out nowhere say nothing of the puzzle's.

The photos go through the whole pipeline (segmentation included), as bench/families.py reads them with no templates.
"""
from __future__ import annotations

from photosolve.scenes.evaluate import edges_right_up_to_renaming

from .test_selflabel_dearer import read_family_photo


def test_sharp_types_are_kept_over_a_later_looks_surer_reading():
    """Emoji food, easy (dev): three pizza slices whose halves the first look sorts into six types with a sharp jump
    (2.97); two pairings of them lay out, so the reading is a guess between them. The centred look read ten types,
    surely, and was taken: 29 of 36 edges. Now the six types stay, every edge is right, and the reading is still a
    guess between the pairings that lay out."""
    read, truth = read_family_photo("emoji-food", 3, 10003, "easy")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
    assert read.templates.labels.max() == 3  # three motifs, not the centred look's five
    assert read.guess and read.rivals  # a guess that lies between known readings


def test_the_print_is_taken_over_finer_types_that_lay_out_nowhere():
    """Photos A, medium (dev): three photo crops on a strong face. The first look reads nine half-types and the
    centred look seven, and the tiles lay out with neither; the print alone reads six, surely, and they lay out. It
    was passed over for reading fewer types than the looks that see colour (31 of 36 edges); now it is taken, as a
    guess, and every edge is right."""
    read, truth = read_family_photo("photos-a", 3, 20011, "medium")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
    assert read.guess  # the print is blind to colour: asked about
