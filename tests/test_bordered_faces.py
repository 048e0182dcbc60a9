"""A tile is the whole object, its printed border and all: an outline on the border's inner edge, however sharply it
lies on edges, does not stand in for the tile's own (table.object_left_out)."""
from __future__ import annotations

import cv2
import numpy as np

from photosolve.scenes.evaluate import score_reading
from photosolve.scenes.scene import make_scene
from photosolve.vision.find.background import table_difference
from photosolve.vision.find.seams import fit_seams
from photosolve.vision.find.segment import find_tiles
from photosolve.vision.find.table import LEFT_OUT, object_left_out, reaching_beyond, table_level, unbounded
from photosolve.vision.load import photo_from_array

TABLE = (118, 82, 52)  # a wooden table's brown
FACE = (236, 232, 222)
BORDER = (40, 80, 180)  # a blue border printed along the tile's edge


def square(x: float, y: float, side: float) -> np.ndarray:
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], dtype=np.float64)


def bordered_tile(border: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 200-pixel tile on the table, its face inside a `border`-pixel printed border, a little noise (seed): the
    tile's outline, the face's, and each pixel's difference from the table (background.table_difference)."""
    image = np.zeros((400, 400, 3), np.uint8)
    image[:] = TABLE
    tile, face = square(100, 100, 200), square(100 + border, 100 + border, 200 - 2 * border)
    cv2.fillConvexPoly(image, tile.astype(np.int32), BORDER)
    cv2.fillConvexPoly(image, face.astype(np.int32), FACE)
    image = np.clip(image + np.random.default_rng(seed).normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_RGB2LAB).astype(np.float32)
    return tile, face, table_difference(lab)


def test_an_outline_leaving_out_a_printed_border_leaves_out_the_object_and_one_leaving_out_table_does_not():
    tile, face, difference = bordered_tile(12, seed=0)  # a border 6% of a side wide
    level = table_level([tile], difference)
    assert object_left_out(face, tile, difference, level, [True] * 4) > LEFT_OUT
    # Across a seam the object beyond a side is a neighbour: only open sides are weighed.
    assert object_left_out(face, tile, difference, level, [False] * 4) == 0
    # An outline that had taken in a wedge of the table beside the tile: leaving the wedge out leaves out no object.
    wedge = tile + np.array([[0, 0], [16, 0], [16, 0], [0, 0]])
    assert object_left_out(tile, wedge, difference, level, [True] * 4) < 0.01


def test_a_bordered_tile_keeps_its_own_outline():
    # Dev emoji-animals (seed 10006, easy, scattered on granite): whales on faces with a blue border. The chosen
    # reading outlined every tile within 1.2% of a side; another reading's outline of one tile, on the border's inner
    # edge (7% in), lay sharper on edges and replaced it.
    scene = make_scene("family:emoji-animals", 10006, tier="easy", layout="scattered")
    tiles = find_tiles(photo_from_array(scene.image), len(scene.truth["tiles"]))
    assert score_reading([t.corners for t in tiles], None, scene.truth).all_tiles_exact


def test_a_face_inside_a_narrow_border_is_seen_to_leave_the_object_going_on_past_it():
    tile, face, difference = bordered_tile(8, seed=1)  # a border 4% of a side wide
    # The ring `unbounded` looks in lies mostly past so narrow a border, on the table: it finds the face whole.
    assert unbounded([face], difference) == 0
    assert reaching_beyond([face], difference) == 1
    assert reaching_beyond([tile], difference) == 0


def test_a_grid_of_tiles_with_narrow_borders_is_not_settled_on_their_faces():
    # Dev emoji-animals (seed 10006, medium, a grid on granite): whales on faces inside a dark blue border 4-5% of a
    # side wide. The face colour's outlines lay clearly on edges with the table in their ring, so no other reading
    # was tried: every tile 7% off. What differs from the table outlines the whole tiles, on sharper edges still.
    scene = make_scene("family:emoji-animals:4", 10006, tier="medium")
    tiles = find_tiles(photo_from_array(scene.image), len(scene.truth["tiles"]))
    assert score_reading([t.corners for t in tiles], None, scene.truth).all_tiles_exact


def test_a_bordered_grid_is_outlined_by_the_table_difference_alone():
    # Dev emoji-nature (seed 10007, medium, a grid): faces inside a printed border. The face colour outlines every
    # tile clearly, but the object runs on past them. When every reading was made, the edge and shade readings'
    # outlines of the inner faces outvoted the whole tiles where sides face neighbours (4 tiles 6.7% off); what
    # differs from the table, read next (segment.inside_a_border), settles the tiles alone, whole.
    scene = make_scene("family:emoji-nature:6", 10007, tier="medium")
    tiles = find_tiles(photo_from_array(scene.image), len(scene.truth["tiles"]))
    assert score_reading([t.corners for t in tiles], None, scene.truth).all_tiles_exact


def two_tiles(border: int, gap: int, seam_line: bool) -> np.ndarray:
    """Two 200-pixel tiles side by side on the table, `gap` pixels apart, faces inside a `border`-pixel border."""
    image = np.zeros((300, 560, 3), np.uint8)
    image[:] = TABLE
    for left in (40, 240 + gap):
        cv2.fillConvexPoly(image, square(left, 50, 200).astype(np.int32), BORDER)
        cv2.fillConvexPoly(image, square(left + border, 50 + border, 200 - 2 * border).astype(np.int32), FACE)
    if seam_line:
        image[50:250, 239:242] = (60, 60, 60)  # where touching tiles meet, a thin dark line
    return np.clip(image + np.random.default_rng(1).normal(0, 3, image.shape), 0, 255).astype(np.uint8)


def x_of_shared_sides(quads: list[np.ndarray]) -> tuple[float, float]:
    """The first quad's east side and the second's west side, as their mean x (quads clockwise from top left)."""
    return float(quads[0][1:3, 0].mean()), float(quads[1][[0, 3], 0].mean())


def test_touching_bordered_tiles_share_the_seam_between_their_borders():
    # Found so on a solved board: both sides on the first tile's border's inner edge, 7% of a side inside it.
    image = two_tiles(border=14, gap=0, seam_line=True)
    first, second = square(40, 50, 186), square(226, 50, 216)
    east, west = x_of_shared_sides(fit_seams([first, second], image))
    assert abs(east - 240) <= 2 and abs(west - 240) <= 2  # within 1% of a side of the seam


def test_tiles_with_the_table_between_keep_their_own_sides():
    # Plain faces 12% of a side apart: the table between mirrors itself too, but has no seam's line in its middle.
    image = two_tiles(border=0, gap=24, seam_line=False)
    east, west = x_of_shared_sides(fit_seams([square(40, 50, 200), square(264, 50, 200)], image))
    assert abs(east - 240) <= 2 and abs(west - 264) <= 2


def test_bordered_tiles_with_the_table_between_keep_their_own_sides():
    # Borders 5% of a side and a gap of 6%: border, table, border mirror each other about the gap's middle too, but
    # what is unlike the borders there is wider than a seam's line.
    image = two_tiles(border=10, gap=12, seam_line=False)
    east, west = x_of_shared_sides(fit_seams([square(40, 50, 200), square(252, 50, 200)], image))
    assert abs(east - 240) <= 2 and abs(west - 252) <= 2
