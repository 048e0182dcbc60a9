"""A first look whose half-types stand apart sharply, every one paired, and lay the tiles out keeps its types when
its doubt is only which pairing: a later look's other types do not replace them (vision/read/selflabel.py,
types_sure).

The photo goes through the whole pipeline (segmentation included), as bench/families.py reads it with no templates.
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
