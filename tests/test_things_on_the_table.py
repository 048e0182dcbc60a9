"""Things on the table beside the tiles (a note, a phone, a keyboard's keys) differ from the table as a tile does: a
mask that counts them as tiles holds more than the puzzle has, and the regions least like a tile, lying apart from
the rest, are left out (outlines.without_surplus)."""
from __future__ import annotations

import numpy as np

from photosolve.scenes.evaluate import score_reading
from photosolve.scenes.scene import make_scene
from photosolve.vision.find import outlines
from photosolve.vision.find.outlines import unlike_a_tile, without_surplus
from photosolve.vision.find.segment import segment
from photosolve.vision.load import photo_from_array


def square(centre: tuple[float, float], width: float, height: float | None = None) -> np.ndarray:
    x, y = centre
    half_width, half_height = width / 2, (width if height is None else height) / 2
    return np.array([[x - half_width, y - half_height], [x + half_width, y - half_height],
                     [x + half_width, y + half_height], [x - half_width, y + half_height]])


TILE = 40.0
TILES = [square((100 * i, 0), TILE) for i in range(9)]


def kept(regions: list[np.ndarray], expected: int = 9) -> list[bool]:
    counts = [1] * len(regions)
    return without_surplus(counts, unlike_a_tile(regions, counts, np.full(len(regions), TILE ** 2)), expected)


def test_a_note_and_a_phone_beside_the_tiles_are_left_out():
    note = square((0, 200), 0.6 * TILE)  # a third of a tile's area
    phone = square((300, 200), TILE, 0.5 * TILE)  # half its area, twice as long as wide
    assert kept([*TILES, note, phone]) == [True] * 9 + [False, False]


def test_nothing_is_left_out_where_the_mask_counts_the_tiles_expected():
    note = square((0, 200), 0.6 * TILE)
    assert all(kept([*TILES[:8], note]))


def test_a_surplus_of_regions_like_tiles_is_left_as_it_is():
    # Which of ten tile-sized regions are the nine tiles, neither size nor shape can tell: the count stays wrong.
    assert all(kept([*TILES, square((0, 200), 1.1 * TILE)]))


def test_a_piece_against_a_tile_is_no_thing_on_the_table():
    # A mask that split a tile leaves a sliver beside the rest of it: leaving it out would keep a tile cut short.
    sliver = square((100 * 8 + TILE / 2 + 3, 0), 0.3 * TILE, TILE)
    assert all(kept([*TILES, sliver]))
    assert not kept([*TILES, sliver + [0, 200]])[-1]  # the same shape lying apart is a thing on the table


def test_a_region_unlike_a_tile_is_told_where_the_count_is_right():
    # A mask that lost a tile and took in a note counts nine: the note is still unlike a tile, and the reading
    # is told so (segment.choose_reading weighs it as one that left a note out).
    note = square((0, 200), 0.6 * TILE)
    regions = [*TILES[:8], note]
    assert list(unlike_a_tile(regions, [1] * 9, np.full(9, TILE ** 2))) == [8]
    assert all(kept(regions))


def test_tiles_are_found_beside_things_on_the_table(monkeypatch):
    # Two notes lie on the granite beside the scattered tiles (scenes/clutter.py): every mask that tells the tiles
    # from the table tells the notes too, and counts ten or eleven.
    scene = make_scene("family:emoji-animals:4", 20004, tier="easy", clutter=3)
    found = segment(photo_from_array(scene.image), len(scene.truth["tiles"]))
    assert found.tiles is not None, f"no reading counted the tiles: {found.counts}"
    score = score_reading([t.corners for t in found.tiles], None, scene.truth)
    assert score.all_tiles_exact, f"worst corner {score.worst_corner:.1%} of a side"
    monkeypatch.setattr(outlines, "SURPLUS_SIZE", float("inf"))  # nothing is ever unlike a tile enough
    assert segment(photo_from_array(scene.image), len(scene.truth["tiles"])).tiles is None
