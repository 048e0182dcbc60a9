"""Simulated photos: determinism, ground truth that agrees with itself and with the pixels, every tier and
layout, random puzzles, and the committed samples regenerated bit for bit."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import cv2
import numpy as np
import pytest

from photosolve.solver import turn_edges
from photosolve.solver.generate import planted_puzzle
from photosolve.scenes.evaluate import score_reading, true_edges_as_found
from photosolve.scenes.photograph import decode_jpeg
from photosolve.scenes.scene import (LAYOUTS, TIERS, Conditions, convex_gap, make_scene, save_scene,
                                     tier_conditions)

from .conftest import SAMPLES

SMALL = (800, 600)


def scene_of(puzzle="dogs", seed=1, tier="easy", **overrides):
    overrides.setdefault("size", SMALL)
    return make_scene(puzzle, seed, tier, **overrides)


def polygon_area(points: np.ndarray) -> float:
    """Shoelace area; positive for a clockwise outline in image (y-down) coordinates."""
    x, y = points[:, 0], points[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def outward_up_angles(corners: np.ndarray) -> np.ndarray:
    """Angle (degrees) of each side's outward normal from straight up, sides N E S W."""
    edge = np.roll(corners, -1, axis=0) - corners
    normal = np.column_stack([edge[:, 1], -edge[:, 0]])
    return np.degrees(np.arccos(-normal[:, 1] / np.linalg.norm(normal, axis=1)))


def check_truth(scene, listed):
    """Every self-consistency rule of the ground truth, against the puzzle's listed tiles."""
    truth = scene.truth
    w, h = truth["image_size"]
    assert scene.image.shape == (h, w, 3) and scene.image.dtype == np.uint8
    assert np.array_equal(scene.image, decode_jpeg(scene.jpeg))
    assert sorted(t["id"] for t in truth["tiles"]) == list(range(1, len(listed) + 1))
    names = {int(k): v for k, v in truth["motifs"].items()}
    for tile in truth["tiles"]:
        edges = tuple(tile["edges"])
        assert edges == turn_edges(listed[tile["id"] - 1], tile["turns"])
        assert tile["labels"] == [f"{names[abs(e)]}{'+' if e > 0 else '-'}" for e in edges]
        corners = np.array(tile["corners"])
        assert polygon_area(corners) > 0, "corners must run clockwise"
        angles = outward_up_angles(corners)
        assert np.argmin(angles) == 0, "the first side (from the first corner) must be N, the most upward"
        assert angles[0] <= 40 and np.sort(angles)[1] >= 50, "tile within 5 degrees of 45"
        assert np.allclose(tile["center"], corners.mean(axis=0), atol=0.01)
        assert corners.min() >= 0 and corners[:, 0].max() <= w - 1 and corners[:, 1].max() <= h - 1
    if truth["layout"] == "scattered":
        quads = [np.array(t["corners"]) for t in truth["tiles"]]
        side = np.mean([np.linalg.norm(q[1] - q[0]) for q in quads])
        for i in range(len(quads)):
            for j in range(i):
                assert convex_gap(quads[i], quads[j]) > 0.03 * side
    else:
        cells = {tuple(t["grid_rc"]) for t in truth["tiles"]}
        rows, cols = max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1
        assert len(cells) == len(listed) == rows * cols
        assert {rows, cols} == {truth["rows"], truth["cols"]}


@pytest.fixture(scope="module")
def dogs(load_sample):
    return [t.edges for t in load_sample("dogs").tiles]


@pytest.fixture(scope="module")
def load_sample():
    from photosolve.solver.tilefile import parse_tiles

    return lambda name: parse_tiles((SAMPLES / f"{name}.tiles").read_text(), name)


def test_same_seed_same_bytes_other_seed_other_photo():
    a, b, c = scene_of(seed=5), scene_of(seed=5), scene_of(seed=6)
    assert a.jpeg == b.jpeg and a.truth == b.truth
    assert a.jpeg != c.jpeg and a.truth["tiles"] != c.truth["tiles"]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_every_layout_has_consistent_truth(layout, dogs):
    check_truth(scene_of(seed=3, tier="medium", layout=layout), dogs)


@pytest.mark.parametrize("tier", TIERS)
def test_every_tier_generates_within_its_ranges(tier, dogs):
    scene = scene_of(seed=8, tier=tier)
    check_truth(scene, dogs)
    c = scene.truth["conditions"]
    limits = {"easy": (5, 0, 95), "medium": (15, 0.3, 92), "hard": (30, 0.7, 85)}[tier]
    assert c["tilt"] <= limits[0] and c["glare"] <= limits[1] and c["jpeg_quality"] <= limits[2]
    assert scene.truth["tier"] == tier


def test_tier_conditions_differ_and_pin_layout_and_size():
    rng = np.random.default_rng(0)
    hard = [tier_conditions("hard", rng, layout="grid", size=(640, 480)) for _ in range(5)]
    assert all(c.layout == "grid" and c.size == (640, 480) for c in hard)
    assert len({c.tilt for c in hard}) == 5
    with pytest.raises(ValueError, match="unknown tier"):
        tier_conditions("impossible", rng)


def test_solved_board_matches_along_every_inner_seam():
    for puzzle, seed in (("cats", 2), ("insects", 4), ("random:6", 9)):
        truth = scene_of(puzzle, seed, "medium", layout="solved").truth
        at = {tuple(t["grid_rc"]): t["edges"] for t in truth["tiles"]}
        seams = 0
        for (r, c), edges in at.items():
            if (r, c + 1) in at:
                assert edges[1] + at[r, c + 1][3] == 0
                seams += 1
            if (r + 1, c) in at:
                assert edges[2] + at[r + 1, c][0] == 0
                seams += 1
        assert seams == 12


def test_face_colour_at_the_centre_and_table_outside():
    scene = scene_of(seed=2, background="darkwood", layout="scattered", noise=1.0, light=0.0)
    image = scene.image.astype(float)
    w, h = scene.truth["image_size"]
    inside = np.zeros((h, w), bool)
    yy, xx = np.mgrid[0:h, 0:w]
    for tile in scene.truth["tiles"]:
        cx, cy = tile["center"]
        side = np.linalg.norm(np.subtract(tile["corners"][1], tile["corners"][0]))
        # the middle of a face is blank print (the halves stop short of it): light, nearly grey
        centre = image[int(cy) - 3:int(cy) + 4, int(cx) - 3:int(cx) + 4].reshape(-1, 3).mean(axis=0)
        assert centre.min() > 150 and centre.max() - centre.min() < 50
        inside |= (xx - cx) ** 2 + (yy - cy) ** 2 < (0.8 * side) ** 2
    table = image[~inside]
    assert table.mean() < 120, "the dark wood shows between the tiles"


def test_random_puzzles_any_motifs_and_board_shapes():
    for motifs, rows, cols, layout in ((3, 2, 4, "solved"), (5, 4, 4, "scattered"), (8, 3, 3, "touching"),
                                       (4, 4, 4, "grid"), (7, 2, 4, "scattered")):
        scene = make_scene(f"random:{motifs}", motifs, "easy", rows=rows, cols=cols, size=SMALL, layout=layout)
        truth = scene.truth
        assert (truth["rows"], truth["cols"]) == (rows, cols) and len(truth["tiles"]) == rows * cols
        assert len(truth["motifs"]) == motifs and set(truth["halves"]) == set(truth["motifs"].values())
        puzzle, _ = planted_puzzle(rows, cols, motifs, random.Random(motifs))
        check_truth(scene, [t.edges for t in puzzle.tiles])


def test_explicit_conditions_and_unknown_override():
    scene = make_scene("nsa", 1, conditions=Conditions(size=SMALL, layout="grid", background="tablecloth"))
    assert scene.truth["conditions"]["background"] == "tablecloth" and scene.truth["layout"] == "grid"
    with pytest.raises(TypeError, match="unknown condition"):
        make_scene("nsa", 1, size=SMALL, sparkle=3)
    with pytest.raises(ValueError, match="unknown puzzle"):
        make_scene("unicorns", 1)


def test_save_scene_writes_photo_and_truth(tmp_path):
    scene = scene_of(seed=4)
    save_scene(scene, tmp_path / "shot.jpg")
    assert (tmp_path / "shot.jpg").read_bytes() == scene.jpeg
    assert json.loads((tmp_path / "shot.truth.json").read_text()) == scene.truth
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_one_full_size_photo(dogs):
    scene = make_scene("dogs", 3, "easy", size=(1600, 1200))
    check_truth(scene, dogs)


def test_committed_samples_regenerate_bit_for_bit():
    # the 12 MP dogs photo takes several seconds; the smaller three show the generator has not drifted
    result = subprocess.run([sys.executable, "-m", "photosolve.scenes.samples", "--check",
                             "--only", "insects,nsa,cats"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    for name in ("dogs", "insects", "nsa", "cats"):
        truth = json.loads((SAMPLES / f"{name}.truth.json").read_text())
        assert truth["puzzle"] == name and (SAMPLES / f"{name}.jpg").is_file()


def test_a_tile_found_with_another_side_up_is_scored_turned():
    # At 45 degrees either of two sides faces "most nearly up": a tile found naming the next side N is found
    # exactly, and its edges as read are the true edges turned by one.
    scene = make_scene("dogs", 3, tier="easy", layout="scattered")
    tile = scene.truth["tiles"][0]
    corners = [np.asarray(t["corners"], dtype=float) for t in scene.truth["tiles"]]
    corners[0] = np.roll(corners[0], -1, axis=0)
    labels = np.array([t["edges"] for t in scene.truth["tiles"]])
    labels[0] = np.roll(tile["edges"], -1)
    score = score_reading(corners, labels, scene.truth)
    assert score.all_tiles_exact and score.all_edges_right
    assert np.array_equal(true_edges_as_found(corners, scene.truth)[0], np.roll(tile["edges"], -1))
    labels[0] = tile["edges"]  # the edges as the truth names them no longer fit the tile as found
    assert not score_reading(corners, labels, scene.truth).all_edges_right


def test_things_on_the_table_lie_beside_the_tiles_and_change_nothing_else():
    # A photo asks for them (Conditions.clutter); without, it is the very photo it was.
    plain = scene_of(seed=5, tier="medium")
    assert np.array_equal(scene_of(seed=5, tier="medium", clutter=0).image, plain.image)
    cluttered = scene_of(seed=5, tier="medium", clutter=4)
    assert cluttered.truth["conditions"]["clutter"] == 4
    assert cluttered.truth["tiles"] == plain.truth["tiles"]
    moved = np.abs(cluttered.image.astype(int) - plain.image.astype(int)).max(axis=2) > 40
    assert moved.sum() > 0.002 * moved.size  # the things are seen
    inside = np.zeros(moved.shape, np.uint8)
    for tile in plain.truth["tiles"]:
        corners = np.asarray(tile["corners"], dtype=np.float64)
        centre = corners.mean(axis=0)
        cv2.fillPoly(inside, [np.round(centre + 0.9 * (corners - centre)).astype(np.int32)], 1)
    assert not moved[inside > 0].any()  # and never on a tile's face
