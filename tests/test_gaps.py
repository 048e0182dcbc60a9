"""A block's cells taken off the gaps beside them (vision/find/gaps.py)."""
from __future__ import annotations

from photosolve.scenes.evaluate import score_reading
from photosolve.scenes.scene import make_scene
from photosolve.vision.find import gaps
from photosolve.vision.find.segment import segment
from photosolve.vision.find.sides import CELL, MARGIN
from photosolve.vision.load import photo_from_array


def test_gaps_looked_for_deeper_than_the_side_search_margin_stay_on_the_canvas(monkeypatch):
    # GAP_DEPTH reaching past sides.MARGIN once read past the rectified cell's canvas (IndexError) on every
    # touching board: the canvas is now as wide as the deepest look outside a side needs
    deeper = (MARGIN + 4) / CELL
    monkeypatch.setattr(gaps, "GAP_DEPTH", deeper)
    assert gaps.canvas_margin() > MARGIN
    scene = make_scene("random:4", 20000, tier="hard", layout="touching")
    found = segment(photo_from_array(scene.image), 9)
    score = score_reading([q.corners for q in found.tiles], None, scene.truth)
    assert score.found == 9


def test_a_block_tile_is_not_given_another_readings_outline_on_no_edge():
    # Dev photos-a medium 10008 (a grid with narrow gaps, photographic art): the chosen reading split a block and
    # one cell crossed a gap, 16% off; taken off the gap, 1% off, on edges (support 6.4). No reading shared that
    # outline any more, so one other reading's outline across the gap (support 2.3) outvoted it: 8% off.
    scene = make_scene("family:photos-a:4", 10008, tier="medium")
    found = segment(photo_from_array(scene.image), 9)
    score = score_reading([q.corners for q in found.tiles], None, scene.truth)
    assert score.all_tiles_exact, score.worst_corner


def test_gaps_are_found_beside_faces_that_look_like_the_table_in_places():
    # Dev photos-a hard 20007: a grid on dark speckled granite, each face printed with dark bands and corners that
    # look like the table. The table map was not read at all there (more than FACE_CLEAR of each cell looks like
    # the table), and the middle cell kept a side across the gap on its neighbour's edge: 9.4% off. A gap is still
    # the table along a whole side, where the face shows it at a quarter of the places; taken off it, every tile
    # lies within 5.2%.
    scene = make_scene("family:photos-a:5", 20007, tier="hard")
    found = segment(photo_from_array(scene.image), 9)
    score = score_reading([q.corners for q in found.tiles], None, scene.truth)
    assert score.found == 9
    assert score.worst_corner < 0.07
