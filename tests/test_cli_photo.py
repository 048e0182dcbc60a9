"""`photosolve PHOTO` end to end on generated photos: what it prints, writes and exits with."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from photosolve.cli.main import app, with_default_command
from photosolve.scenes.artwork import random_artwork
from photosolve.scenes.evaluate import (edges_right_up_to_renaming, in_truth_numbers, listed_puzzle, pair_tiles,
                                        turn_to_found)
from photosolve.scenes.scene import make_scene, save_scene
from photosolve.solver import turn_edges
from photosolve.vision.read.features import white_balanced
from photosolve.vision.rectify import rectify_tile
from photosolve.vision.types import TileQuad

from .conftest import SAMPLES
from .solver_checks import board_is_valid

SIZE = (1400, 1050)


def run(*args: str):
    return CliRunner().invoke(app, with_default_command(list(args)))


@pytest.fixture(scope="module")
def dogs_photo(tmp_path_factory) -> tuple[Path, dict]:
    folder = tmp_path_factory.mktemp("dogs")
    scene = make_scene("dogs", 31, tier="easy", layout="scattered", size=SIZE)
    save_scene(scene, folder / "dogs.jpg")
    return folder / "dogs.jpg", scene.truth


def photograph_again(scene, seed: int, art, path: Path):
    """Another photo (a grid this time) of the puzzle in `scene`, drawn with the same artwork, saved at `path`."""
    again = make_scene(listed_puzzle(scene.truth), seed, tier="easy", layout="grid", art=art, size=SIZE)
    save_scene(again, path)
    return again


def read_edges_in_truth_order(document: dict, truth: dict) -> tuple[np.ndarray, np.ndarray]:
    """The edges photosolve read, and the true edges, paired tile by tile through their centres, in the truth's
    order. The read edges are named as the truth names the tile's sides: a tile near 45 degrees may have been found
    with another side N."""
    corners = [np.array(tile["corners"]) for tile in document["tiles"]]
    read, true = [], []
    for tile, found in zip(truth["tiles"], pair_tiles(np.array([c.mean(axis=0) for c in corners]), truth)):
        assert found is not None, f"tile {tile['id']} was not found"
        turn = turn_to_found(corners[found], np.array(tile["corners"]))
        read.append(np.roll(document["tiles"][found]["edges"], turn))
        true.append(tile["edges"])
    return np.array(read), np.array(true)


def test_reads_solves_and_draws_the_dogs(dogs_photo, tmp_path):
    photo, truth = dogs_photo
    solved, reading = tmp_path / "solved.png", tmp_path / "reading.png"
    before = photo.read_bytes()
    result = run(str(photo), "-o", str(solved), "--annotate", str(reading), "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert "templates: dogs" in result.stderr
    assert document["templates"] == "dogs"
    assert document["image_size"] == list(SIZE)
    assert document["counts"] == {"raw": 16, "distinct": 8, "up_to_rotation": 2}
    read, true = read_edges_in_truth_order(document, truth)
    motif_names = {int(k): name for k, name in document["motifs"].items()}
    assert np.array_equal(in_truth_numbers(read, motif_names, truth), true)
    for tile in document["tiles"]:
        assert len(tile["corners"]) == 4 and len(tile["confidence"]) == 4 and len(tile["runner_up"]) == 4
        assert all(0.0 <= p <= 1.0 for p in tile["confidence"])
    edges_of = {tile["id"]: tuple(tile["edges"]) for tile in document["tiles"]}
    for solution in document["solutions"]:
        grid = [[turn_edges(edges_of[c["tile"]], c["turns"]) for c in row] for row in solution["cells"]]
        assert board_is_valid(grid)
    assert photo.read_bytes() == before
    assert Image.open(solved).size == Image.open(solved).size and Image.open(solved).size[0] % 3 == 0
    assert Image.open(reading).size[0] <= 2000


def test_solved_picture_is_made_of_the_photos_tiles_with_seams_that_continue(dogs_photo, tmp_path):
    photo, truth = dogs_photo
    solved = tmp_path / "solved.png"
    result = run(str(photo), "-o", str(solved), "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    board = np.asarray(Image.open(solved).convert("RGB")).astype(float)
    cell = board.shape[0] // 3
    image = np.asarray(Image.open(photo).convert("RGB"))
    cells = document["solutions"][0]["cells"]
    for r, row in enumerate(cells):
        for c, placed in enumerate(row):
            corners = np.array(document["tiles"][placed["tile"] - 1]["corners"])
            crop = np.rot90(rectify_tile(image, TileQuad(corners), cell), -placed["turns"]).astype(float)
            # The cell is that tile's crop, turned as placed: far closer to it than to any other turn.
            here = board[r * cell:(r + 1) * cell, c * cell:(c + 1) * cell]
            other = np.rot90(crop, 1)
            assert np.mean(np.abs(here - crop)) < 3.0 < np.mean(np.abs(here - other))
    # Seams: the motif continues across each inner seam (a dog's two halves meet in one coat colour); a seam
    # between cells that are not neighbours mostly joins different coats.
    def coat(r, c, side):
        block = white_balanced(board[r * cell:(r + 1) * cell, c * cell:(c + 1) * cell].astype(np.uint8))
        # The middle of the edge, where the motif is, a little in from the tile's printed border line.
        middle, inside, depth = slice(int(0.4 * cell), int(0.6 * cell)), int(0.04 * cell), int(0.1 * cell)
        near = {"E": block[middle, -depth:-inside], "W": block[middle, inside:depth]}[side].reshape(-1, 3)
        motif = near[np.linalg.norm(near - 1.0, axis=1) > 0.25]
        return np.median(motif, axis=0)
    joined = [np.linalg.norm(coat(r, c, "E") - coat(r, c + 1, "W")) for r in range(3) for c in range(2)]
    unrelated = [np.linalg.norm(coat(r, c, "E") - coat(r2, c2, "W")) for r in range(3) for c in range(3)
                 for r2 in range(3) for c2 in range(3) if (r2, c2) != (r, c + 1)]
    assert max(joined) < 0.1 < np.median(unrelated)


def test_never_seen_puzzle_is_read_with_no_templates(tmp_path):
    scene = make_scene("random:4", 5, tier="easy", layout="scattered", size=SIZE)
    save_scene(scene, tmp_path / "random.jpg")
    result = run(str(tmp_path / "random.jpg"), "--templates", "none", "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["templates"] == "learned from the photo"
    read, true = read_edges_in_truth_order(document, scene.truth)
    assert edges_right_up_to_renaming(read, true) == 36


def test_learn_then_read_another_photo_of_the_same_puzzle(tmp_path):
    first = make_scene("random:5", 8, tier="easy", layout="scattered", size=SIZE)
    save_scene(first, tmp_path / "first.jpg")
    listed = [turn_edges(tuple(t["edges"]), -t["turns"]) for t in sorted(first.truth["tiles"], key=lambda t: t["id"])]
    rng = random.Random(3)
    rng.shuffle(listed)
    (tmp_path / "list.tiles").write_text("\n".join(" ".join(map(str, turn_edges(e, rng.randrange(4))))
                                                   for e in listed) + "\n")
    learned = run("learn", str(tmp_path / "first.jpg"), "--tiles", str(tmp_path / "list.tiles"),
                  "-o", str(tmp_path / "set"))
    assert learned.exit_code == 0, learned.stderr
    assert (tmp_path / "set" / "manifest.json").is_file() and (tmp_path / "set" / "halves.png").is_file()
    second = photograph_again(first, 9, random_artwork(5, 8), tmp_path / "second.jpg")
    result = run(str(tmp_path / "second.jpg"), "--templates", str(tmp_path / "set"), "--json")
    assert result.exit_code == 0, result.stderr
    read, true = read_edges_in_truth_order(json.loads(result.stdout), second.truth)
    assert edges_right_up_to_renaming(read, true) == 36


# --- bad input: one line, its exit code, nothing overwritten -------------------------------------------------------

def one_line(result) -> str:
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


def test_a_file_that_is_not_an_image_exits_3(tmp_path):
    fake = tmp_path / "photo.jpg"
    fake.write_text("not a photo")
    result = run(str(fake), "-o", str(tmp_path / "solved.png"))
    assert result.exit_code == 3
    assert "not an image" in one_line(result)
    assert not (tmp_path / "solved.png").exists()


def test_a_missing_photo_exits_3(tmp_path):
    result = run(str(tmp_path / "nowhere.jpg"))
    assert result.exit_code == 3 and "no such file" in one_line(result)


def test_the_wrong_number_of_tiles_exits_4_and_says_how_many_were_found(dogs_photo):
    photo, _ = dogs_photo
    result = run(str(photo), "--rows", "4", "--cols", "4")
    assert result.exit_code == 4
    line = one_line(result)
    assert "found 9 tiles, expected 16" in line


def test_output_onto_the_photo_is_refused(dogs_photo):
    photo, _ = dogs_photo
    before = photo.read_bytes()
    result = run(str(photo), "-o", str(photo))
    assert result.exit_code == 2 and "input photo" in one_line(result)
    assert photo.read_bytes() == before


def test_unknown_template_set_exits_2(dogs_photo):
    photo, _ = dogs_photo
    result = run(str(photo), "--templates", "no-such-set")
    assert result.exit_code == 2 and "no template set 'no-such-set'" in one_line(result)


def test_installed_command_on_the_bundled_sample(tmp_path):
    beside = Path(sys.executable).with_name("photosolve")
    if not beside.exists():
        pytest.skip("the photosolve command is not installed")
    done = subprocess.run([str(beside), str(SAMPLES / "dogs.jpg"), "-o", str(tmp_path / "solved.png")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "16 arrangements, 8 distinct, 2 up to rotation" in done.stdout
    assert Image.open(tmp_path / "solved.png").size == (1200, 1200)


def test_saved_tiles_can_be_edited_and_solved_with_the_photos_own_crops(dogs_photo, tmp_path):
    photo, _ = dogs_photo
    saved = tmp_path / "read.tiles"
    first = run(str(photo), "--save-tiles", str(saved), "--json")
    assert first.exit_code == 0, first.stderr
    text = saved.read_text()
    assert text.count("# tile ") == 9 and "N " in text  # each tile line carries its edges' probabilities
    again = run(str(photo), "--tiles", str(saved), "--json", "-o", str(tmp_path / "solved.png"))
    assert again.exit_code == 0, again.stderr
    assert json.loads(again.stdout)["counts"] == json.loads(first.stdout)["counts"]
    assert (tmp_path / "solved.png").is_file()
    # A person's correction is taken as given, not repaired: a tile showing a motif no other tile completes on
    # all four sides fits nowhere (every cell has at least two inner seams).
    lines = text.splitlines()
    first_tile = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    lines[first_tile] = "purple+ purple+ purple+ purple+"
    saved.write_text("\n".join(lines) + "\n")
    edited = run(str(photo), "--tiles", str(saved))
    assert edited.exit_code == 1
    assert "edges: as typed in" in edited.stderr and "no solution" in edited.stderr


def test_many_arrangements_are_listed_as_photosolve_solve_lists_them(dogs_photo, tmp_path):
    # Edges that let the tiles lie in 249 ways: the text shows the first hundred, best seams first, and says so.
    photo, _ = dogs_photo
    typed = tmp_path / "loose.tiles"
    typed.write_text("2 -2 2 -2\n-2 2 -2 -1\n2 1 2 -1\n2 1 -1 2\n2 1 1 -2\n-2 1 2 1\n-2 -1 1 2\n-2 -2 1 1\n"
                     "1 -2 2 2\n")
    result = run(str(photo), "--tiles", str(typed))
    assert result.exit_code == 0, result.stderr
    assert "249 arrangements fit the tiles as read: listed by how well the figures" in result.stderr
    assert result.stdout.count("\nSolution ") == 100 and "Solution 100 of 249:" in result.stdout
    assert "(149 more solutions not shown: --json lists them all)" in result.stdout
    listed = json.loads(run(str(photo), "--tiles", str(typed), "--json").stdout)["solutions"]
    assert len(listed) == 249


def test_a_tile_file_for_another_count_is_refused(dogs_photo, tmp_path):
    photo, _ = dogs_photo
    short = tmp_path / "short.tiles"
    short.write_text("1 2 -1 -2\n")
    result = run(str(photo), "--tiles", str(short))
    assert result.exit_code == 2 and "1 tiles listed, but the photo shows 9" in one_line(result)


def test_outputs_get_ordinary_permissions(dogs_photo, tmp_path):
    import os
    import stat

    photo, _ = dogs_photo
    result = run(str(photo), "-o", str(tmp_path / "solved.png"))
    assert result.exit_code == 0, result.stderr
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(tmp_path / "solved.png").st_mode) == 0o666 & ~umask


def test_a_puzzle_read_on_its_own_is_saved_as_templates_for_the_next_photo(tmp_path):
    first = make_scene("random:4", 21, tier="easy", layout="scattered", size=SIZE)
    save_scene(first, tmp_path / "first.jpg")
    # One motif of this puzzle shows a single half, on the frame, which may make the reading a guess; --yes takes
    # it then, as what is read does not matter here.
    saved = run(str(tmp_path / "first.jpg"), "--templates", "none", "--save-templates", str(tmp_path / "set"), "--json",
                "--yes")
    assert saved.exit_code == 0, saved.stderr
    assert "written to" in saved.stderr and (tmp_path / "set" / "manifest.json").is_file()
    names = json.loads(saved.stdout)["motifs"]
    second = photograph_again(first, 22, random_artwork(4, 21), tmp_path / "second.jpg")
    result = run(str(tmp_path / "second.jpg"), "--templates", str(tmp_path / "set"), "--json")
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["motifs"] == names  # the same colour names as the first photo gave
    # Each tile reads the same in both photos (turned back to the tile as listed), whatever the first read got.
    assert as_listed(document, second.truth) == as_listed(json.loads(saved.stdout), first.truth)


def as_listed(document: dict, truth: dict) -> dict[int, tuple]:
    """What was read on each true tile (by id), turned back to the tile as listed."""
    read, _ = read_edges_in_truth_order(document, truth)
    return {tile["id"]: turn_edges(tuple(int(v) for v in edges), -tile["turns"])
            for tile, edges in zip(truth["tiles"], read)}
