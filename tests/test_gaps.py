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
