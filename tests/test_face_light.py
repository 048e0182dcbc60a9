"""Each tile's light is measured on its face; a tile that shows too little face in the photo's light is not read in
the colour of its motifs (features.face_plane, face_planes).

The photos go through the whole pipeline (segmentation included), as bench/families.py reads them with no templates.
"""
from __future__ import annotations

import numpy as np

from photosolve.scenes.evaluate import edges_right_up_to_renaming, true_edges_as_found
from photosolve.vision.read.face import face_colour
from photosolve.vision.read.features import face_plane, face_planes

from .test_guess_settled import read_scene
from .test_selflabel_dearer import read_family_photo


def test_a_tile_in_a_deep_shadow_is_read_in_its_own_light():
    """Emoji animals, hard (dev): one tile lies in a shadow so deep that none of its face is as bright as the
    others'. It was measured on its brightest cells, which on that tile are its birds, and its halves read as other
    motifs: 22 of 36 edges. Its face is still the face's colour, darker: measured on that, every edge is read right."""
    read, truth = read_family_photo("emoji-animals", 3, 10009, "hard")
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size


def test_a_tile_its_motifs_cover_takes_the_light_of_the_others():
    """Photos A, hard (dev): two tiles' photo crops cover all but a few cells of their bordered face. Measured on
    their brightest cells, they were washed yellow and their halves sorted with no copy of their own. Lit as the
    photo's other tiles are, every edge is read right."""
    scene, halves, read = read_scene("photos-a", 4, 20010, "hard")
    colour = face_colour(halves.squares)
    covered = [i for i, square in enumerate(halves.squares) if face_plane(square, colour, brightest=False) is None]
    assert covered  # the case this test is about
    planes = face_planes(halves.squares, colour)
    typical = np.median([plane for i, plane in enumerate(planes) if i not in covered], axis=0)
    for i in covered:
        assert np.allclose(planes[i], typical)
        # the brightest cells' light is far off the others' in some channel (more than a fifth, in log)
        assert np.abs(face_plane(halves.squares[i], colour)[0] - typical[0]).max() > 0.2
    truth = true_edges_as_found([quad.corners for quad in halves.quads], scene.truth)
    assert edges_right_up_to_renaming(read.reading.labels, truth) == truth.size
