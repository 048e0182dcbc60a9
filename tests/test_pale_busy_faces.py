"""Tiles whose busy faces are nearly the table's colour (grey bricks, a pale print on a white desk) found by what
differs from the table's texture beyond the table's own (background.texture_beyond_table_masks)."""
from __future__ import annotations

import pytest

from photosolve.scenes.evaluate import score_reading
from photosolve.scenes.scene import make_scene
from photosolve.vision.find.segment import find_tiles
from photosolve.vision.load import photo_from_array


@pytest.mark.parametrize("puzzle, seed, tier, layout", [
    # Dev emoji-animals' dolphins on grey bricks and photos-a's pale prints, on a white desk with a lit patch: every
    # reading saw only the motifs, or the faces broken into pieces, and none gave 9 tiles.
    ("family:emoji-animals", 20008, "medium", "touching"),
    ("family:photos-a", 10010, "easy", "solved"),
])
def test_pale_busy_faces_on_a_white_desk_are_found_exactly(puzzle, seed, tier, layout):
    scene = make_scene(puzzle, seed, tier=tier, layout=layout, size=(1200, 900))
    tiles = find_tiles(photo_from_array(scene.image), len(scene.truth["tiles"]))
    assert score_reading([t.corners for t in tiles], None, scene.truth).all_tiles_exact
