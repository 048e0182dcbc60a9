"""Real camera photos from ../shared/realphotos (not part of the project; skipped cleanly without them)."""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from photosolve.cli.exit_codes import ExitCode
from photosolve.cli.main import app, with_default_command
from photosolve.scenes.evaluate import arrangement_fits, edges_right_up_to_renaming
from photosolve.solver import Puzzle, solve, turn_edges
from photosolve.vision.read.classify import read_halves
from photosolve.vision.geometry import north_first
from photosolve.vision.read.learn import learn_templates
from photosolve.vision.load import load_photo, photo_from_array
from photosolve.vision.pipeline import cut_halves
from photosolve.vision.read.selflabel import self_label

REAL = Path(__file__).resolve().parents[2] / "shared" / "realphotos"
pytestmark = pytest.mark.skipif(not REAL.is_dir(), reason="../shared/realphotos is not beside the project")


def truth_of(name: str) -> dict:
    return json.loads((REAL / f"{Path(name).stem}.truth.json").read_text())


def grid_edges(truth: dict) -> np.ndarray:
    """Truth edges in reading order (row by row), as the photo's tiles are numbered."""
    return np.array([t["edges"] for t in sorted(truth["tiles"], key=lambda t: tuple(t["grid_rc"]))])


def test_scattered_cars_are_found_where_the_truth_says():
    photo = load_photo(REAL / "IMG_20231030_092105.jpg")
    truth = truth_of("IMG_20231030_092105.jpg")
    quads = cut_halves(photo, 9).quads
    scale = max(photo.size) / 1600
    side = np.median([q.side for q in quads])
    for tile in truth["tiles"]:
        center = np.array(tile["center_1600"]) * scale
        nearest = min(quads, key=lambda q: np.linalg.norm(q.center - center))
        corners = north_first(np.array(tile["quad_1600"]) * scale)
        # The hand-marked truth is itself good to about a pixel at 1600 px, i.e. ~2 px here.
        assert np.linalg.norm(nearest.center - center) < 0.02 * side
        assert np.max(np.linalg.norm(nearest.corners - corners, axis=1)) < 0.04 * side


@pytest.mark.parametrize("name", ["board.jpeg", "solution1.jpeg"])
def test_turtle_grids_split_into_nine_tiles(name):
    quads = cut_halves(load_photo(REAL / name), 9).quads
    assert len(quads) == 9
    # The camera looks slightly down the board, so rows nearer to it are larger (by ~11% in solution1.jpeg);
    # within one row the three tiles are the same size.
    for row in range(3):
        sides = [q.side for q in quads[3 * row:3 * row + 3]]
        assert max(sides) / min(sides) < 1.05


def test_white_tiles_on_a_white_desk_are_found():
    # Neither the face colour (the desk is as white) nor walled-in regions (glare, motifs on every edge) find
    # these tiles; what differs from the desk's colours along the photo's border does.
    quads = cut_halves(load_photo(REAL / "SkiierExample.jpg"), 9).quads
    assert len(quads) == 9
    rows = [quads[3 * row:3 * row + 3] for row in range(3)]
    for upper, lower in zip(rows, rows[1:]):
        assert max(q.center[1] for q in upper) < min(q.center[1] for q in lower)
    for first, second in itertools.combinations(quads, 2):
        overlap, _ = cv2.intersectConvexConvex(first.corners.astype(np.float32), second.corners.astype(np.float32))
        assert overlap < 0.01 * first.side**2


def test_turtles_learned_from_the_board_read_the_solved_photo():
    board_truth = grid_edges(truth_of("board.jpeg"))
    rng = random.Random(5)
    listed = [turn_edges(tuple(int(v) for v in e), rng.randrange(4)) for e in board_truth]
    rng.shuffle(listed)
    board = cut_halves(load_photo(REAL / "board.jpeg"), 9)
    templates, match = learn_templates(board.bands, board.features, Puzzle.from_edges(listed), "turtles")
    assert np.array_equal(templates.labels.reshape(9, 4), board_truth)

    solved = cut_halves(load_photo(REAL / "solution1.jpeg"), 9)
    reading = read_halves(solved.features, templates)
    solved_truth = grid_edges(truth_of("solution1.jpeg"))
    assert np.array_equal(reading.labels, solved_truth)
    result = solve(Puzzle.from_edges([tuple(int(v) for v in e) for e in reading.labels]), 3, 3)
    assert result.raw > 0


@pytest.mark.parametrize("name", ["IMG_20231030_092105.jpg", "board.jpeg", "solution1.jpeg"])
def test_puzzles_never_seen_are_read_with_no_templates(name):
    photo = load_photo(REAL / name)
    halves = cut_halves(photo, 9)
    truth = truth_of(name)
    if "grid_rc" in truth["tiles"][0]:
        true_edges = grid_edges(truth)
    else:  # scattered: each found tile against the true tile nearest it
        scale = max(photo.size) / 1600
        true_edges = np.array([min(truth["tiles"], key=lambda t: np.linalg.norm(
            np.array(t["center_1600"]) * scale - quad.center))["edges"] for quad in halves.quads])
    read = self_label(halves.bands, 3, 3)
    assert read.motifs == 4
    assert edges_right_up_to_renaming(read.reading.labels, true_edges) == 36
    assert solve(Puzzle.from_edges([tuple(int(v) for v in e) for e in read.reading.labels]), 3, 3).raw > 0


@pytest.mark.parametrize("name", ["IMG_20231030_092105.jpg", "SkiierExample.jpg", "board.jpeg", "solution1.jpeg"])
def test_real_photos_are_solved_with_no_question(name, tmp_path):
    # As a person runs it, with no terminal: any doubt that changes the solution would exit 5 (needs review).
    solved = tmp_path / "solved.png"
    result = CliRunner().invoke(app, with_default_command([str(REAL / name), "--templates", "none", "-o", str(solved)]))
    assert result.exit_code == ExitCode.SOLVED, result.output
    assert solved.is_file()


def skiers_as_another_camera_took_them(kind: str) -> np.ndarray:
    """The skiers photo under-exposed (a dim room) or saved as a poor JPEG (quality 60), as a cheaper phone would."""
    rgb = load_photo(REAL / "SkiierExample.jpg").image
    if kind == "dim":
        return (rgb * 0.55).astype(np.uint8)
    _, data = cv2.imencode(".jpg", rgb[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 60])
    return np.ascontiguousarray(cv2.imdecode(data, cv2.IMREAD_COLOR)[:, :, ::-1])


@pytest.mark.parametrize("kind", ["dim", "jpeg 60"])
def test_white_tiles_on_a_white_desk_are_outlined_square_whatever_the_camera(kind):
    # On a white desk the masks are patchy, and an outline's side can cut across a tile's face at 10-25 degrees;
    # read from such outlines the halves of one type no longer look alike and the puzzle is misread.
    halves = cut_halves(photo_from_array(skiers_as_another_camera_took_them(kind)), 9)
    truth = grid_edges(truth_of("SkiierExample.jpg"))
    read = self_label(halves.bands, 3, 3)
    assert edges_right_up_to_renaming(read.reading.labels, truth) >= 35  # the truth file has one edge wrong
    result = solve(Puzzle.from_edges([tuple(int(v) for v in e) for e in read.reading.labels]), 3, 3, first=True)
    assert result.solutions and arrangement_fits(result.solutions[0], truth)



def skiers_turned(degrees: float) -> tuple[np.ndarray, np.ndarray]:
    """The skiers photo with the phone turned clockwise by `degrees`, on a canvas grown to hold all of it, whose
    empty corners go on as the photo's border does (the desk beside the desk, the carpet beside the carpet); and
    the 2 x 3 map from the photo's pixels to the turned one's."""
    rgb = load_photo(REAL / "SkiierExample.jpg").image
    height, width = rgb.shape[:2]
    turn = cv2.getRotationMatrix2D((width / 2, height / 2), -degrees, 1.0)
    cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
    size = np.array([width * cos + height * sin, width * sin + height * cos])
    turn[:, 2] += (size - (width, height)) / 2
    turned = cv2.warpAffine(rgb, turn, tuple(int(round(v)) for v in size), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    return turned, turn


@pytest.mark.parametrize("degrees", [7, -7])
def test_white_tiles_on_a_white_desk_are_read_with_the_phone_turned(degrees):
    # Turned, the patchy masks of white tiles on a white desk lose a block's corners (its fitted quad then cut
    # across two tiles at 17 degrees) or join a shaded strip of the desk to a block of four (which then looked like
    # a block of all nine); either way the puzzle was misread. A 7 degree turn moves no tile's north side; each
    # found tile is scored against the upright photo's tile (numbered as grid_rc numbers them) that lands nearest.
    turned, turn = skiers_turned(degrees)
    upright = cut_halves(load_photo(REAL / "SkiierExample.jpg"), 9).quads
    landed = np.array([quad.center @ turn[:, :2].T + turn[:, 2] for quad in upright])
    halves = cut_halves(photo_from_array(turned), 9)
    grid = grid_edges(truth_of("SkiierExample.jpg"))
    truth = grid[[int(np.argmin(np.linalg.norm(landed - quad.center, axis=1))) for quad in halves.quads]]
    assert len(set(map(tuple, truth))) == 9  # each found tile is a different true tile
    read = self_label(halves.bands, 3, 3)
    assert edges_right_up_to_renaming(read.reading.labels, truth) >= 35  # the truth file has one edge wrong
    result = solve(Puzzle.from_edges([tuple(int(v) for v in e) for e in read.reading.labels]), 3, 3, first=True)
    assert result.solutions and arrangement_fits(result.solutions[0], truth)
