"""Things on the table beside the tiles (a note, a pen) differ from the table as a tile does: a mask that counts them
as tiles holds more than the puzzle has, and the ones far from a tile's size are left out (outlines.without_surplus)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from photosolve.scenes.evaluate import score_reading
from photosolve.scenes.scene import make_scene
from photosolve.vision.find import outlines
from photosolve.vision.find.outlines import without_surplus
from photosolve.vision.find.segment import find_tiles, segment
from photosolve.vision.load import photo_from_array


def square(centre: tuple[float, float], side: float) -> np.ndarray:
    x, y = centre
    half = side / 2
    return np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]])


def test_a_region_far_smaller_than_the_tiles_is_the_surplus_left_out():
    tiles = [(square((100 * i, 0), 40), 1) for i in range(8)] + [(square((0, 200), 40), 2)]
    speck = (square((500, 500), 12), 1)
    assert without_surplus([*tiles, speck], 11) == [*tiles, speck]  # as many tiles as expected: nothing left out
    assert without_surplus([*tiles, speck], 10) == tiles


def test_a_surplus_of_regions_of_a_tiles_size_is_left_as_it_is():
    # Which of ten tile-sized regions are the nine tiles, size cannot tell: the mask's count stays wrong.
    regions = [(square((100 * i, 0), 40 + i), 1) for i in range(10)]
    assert len(without_surplus(regions, 9)) == 10


def with_things_on_the_table(scene) -> np.ndarray:
    """The scene's photo with a note and a pen in the tiles' face colour laid on the table where no tile lies (of
    the table's colour, every kind of mask sees them)."""
    image = scene.image.copy()
    height, width = image.shape[:2]
    tiles = np.zeros((height, width), np.uint8)
    for tile in scene.truth["tiles"]:
        cv2.fillPoly(tiles, [np.round(np.asarray(tile["corners"])).astype(np.int32)], 255)
    side = float(np.median([np.linalg.norm(np.subtract(*np.asarray(t["corners"])[:2]))
                            for t in scene.truth["tiles"]]))
    # free: table at least a tile's side from every tile and from the photo's border
    free = cv2.dilate(tiles, np.ones((int(side), int(side)), np.uint8)) == 0
    free[: int(side / 2)], free[-int(side / 2):], free[:, : int(side / 2)], free[:, -int(side / 2):] = False, False, False, False
    places = np.argwhere(free)
    assert len(places) >= 2, "the scene leaves no table free for the things"
    corners = np.asarray(scene.truth["tiles"][0]["corners"])
    inside = np.round(corners[0] + 0.12 * (corners[2] - corners[0])).astype(int)  # plain face near a corner
    face = tuple(int(v) for v in np.median(image[inside[1] - 3:inside[1] + 4, inside[0] - 3:inside[0] + 4]
                                           .reshape(-1, 3), axis=0))
    pen_y, pen_x = places[0]  # the note's place
    coin_y, coin_x = places[-1]
    # a note half a tile big: counted as a tile by size and shape (a tile far off in a tilted photo looks as small)
    note = cv2.boxPoints(((float(pen_x), float(pen_y)), (0.9 * side, 0.5 * side), 20.0))
    cv2.fillPoly(image, [np.round(note).astype(np.int32)], face, cv2.LINE_AA)
    cv2.line(image, (int(coin_x - 0.4 * side), int(coin_y)), (int(coin_x + 0.4 * side), int(coin_y - 0.1 * side)),
             face, max(3, int(0.03 * side)), cv2.LINE_AA)  # and a pen, too thin to count
    return image


@pytest.fixture(scope="module")
def cluttered():
    scene = make_scene("dogs", 1003, tier="medium", layout="scattered", size=(1600, 1200))
    return scene, with_things_on_the_table(scene)


def test_tiles_are_found_beside_a_note_and_a_pen(cluttered):
    scene, image = cluttered
    tiles = find_tiles(photo_from_array(image), len(scene.truth["tiles"]))
    score = score_reading([t.corners for t in tiles], None, scene.truth)
    assert score.all_tiles_exact, f"worst corner {score.worst_corner:.1%} of a side"


def test_the_face_colour_counts_the_tiles_alone(cluttered, monkeypatch):
    # The note has the face's colour: the face-colour masks count it, and only leaving it out gives them the nine
    # tiles (here a reading of regions walled in by edges still finds them, later and from a coarser mask).
    scene, image = cluttered
    assert segment(photo_from_array(image), len(scene.truth["tiles"])).counts[0] == 9
    monkeypatch.setattr(outlines, "SURPLUS_SIZE", float("inf"))
    assert segment(photo_from_array(image), len(scene.truth["tiles"])).counts[0] == 10
