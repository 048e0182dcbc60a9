"""Tiles found on hard tables: faces beside a checked cloth's pale squares."""
from __future__ import annotations

import numpy as np

from photosolve.scenes.evaluate import score_reading
from photosolve.scenes.scene import make_scene
from photosolve.vision.load import photo_from_array
from photosolve.vision.masks import biggest_part
from photosolve.vision.segment import find_tiles


def found_exactly(scene) -> None:
    quads = find_tiles(photo_from_array(scene.image), len(scene.truth["tiles"]))
    score = score_reading([q.corners for q in quads], None, scene.truth)
    assert score.found == score.tiles
    assert score.exact == score.tiles, f"worst corner off by {score.worst_corner:.3f} of a side"


def test_a_face_leaking_into_a_cloth_square_is_still_found():
    # The tier's own photo (scattered on a red and white checked cloth): one face leaks into a white square of the
    # cloth through a short gap in its outline. Before, that region was no face and 7 of 9 tiles were found.
    found_exactly(make_scene("insects", 10106, tier="hard"))


def test_a_region_is_cut_at_a_narrow_neck():
    # A face (100 x 100) joined to a cloth's square (40 x 40) through a gap 6 pixels wide: the face alone remains.
    region = np.zeros((200, 200), np.uint8)
    region[20:120, 20:120] = 1
    region[60:66, 120:140] = 1
    region[40:80, 140:180] = 1
    part = biggest_part(region)
    assert part[70, 70] and not part[60, 160]
    assert abs(int(part.sum()) - 100 * 100) < 200
