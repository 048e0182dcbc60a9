"""Art families (scenes/families.py): the dev/test split, photos with exact truth, figures that a correct neighbour
completes, the printed face kinds, recolouring, and the new tables. Small sizes only: these run in seconds."""
from __future__ import annotations

import numpy as np
import pytest

from photosolve.scenes import emoji
from photosolve.scenes.artwork import draw_tile
from photosolve.scenes.evaluate import arrangement_fits, listed_puzzle
from photosolve.scenes.faces import FACE_KINDS, FacePrint, face_rgb
from photosolve.scenes.families import DEV, FAMILIES, MOTIF_KINDS, TEST, family, family_artwork
from photosolve.scenes.photograph import table_texture
from photosolve.scenes.pictures import Picture, Recolour, hue_bands, recoloured
from photosolve.scenes.scene import make_scene
from photosolve.solver import Puzzle, solve

needs_font = pytest.mark.skipif(not emoji.available(),
                                 reason="Noto Color Emoji not installed (apt-get install fonts-noto-color-emoji)")
SMALL = (800, 600)


def test_every_family_is_dev_or_test_and_at_least_two_are_test():
    assert set(DEV) | set(TEST) == set(FAMILIES)
    assert not set(DEV) & set(TEST)
    assert len(TEST) >= 2 and len(DEV) >= 2
    assert {FAMILIES[n].needs_font for n in TEST} == {True, False}  # emoji and photographic art both tested


def test_an_unknown_family_is_a_one_line_error():
    with pytest.raises(ValueError, match="unknown art family 'nope'.*emoji-animals"):
        make_scene("family:nope", 1, size=SMALL)
    with pytest.raises(ValueError, match="family:<family>:<motifs>"):
        make_scene("family:photos-a:four", 1, size=SMALL)


@pytest.mark.parametrize("name", [pytest.param("emoji-people", marks=needs_font), "photos-b"])
def test_a_family_photo_is_the_same_bytes_each_time_and_its_truth_solves(name):
    first = make_scene(f"family:{name}:5", 3, tier="medium", size=SMALL, layout="scattered")
    again = make_scene(f"family:{name}:5", 3, tier="medium", size=SMALL, layout="scattered")
    assert first.jpeg == again.jpeg
    truth = first.truth
    assert len(truth["tiles"]) == 9 and len(truth["motifs"]) == 5
    assert truth["motifs"] == {str(k): v for k, v in family_artwork(name, 5, 3).motif_names.items()}
    puzzle = listed_puzzle(truth)
    result = solve(Puzzle(puzzle.tiles, puzzle.motif_names), 3, 3, first=True)
    assert result.solutions
    edges = np.array([t.edges for t in puzzle.tiles])
    assert arrangement_fits(result.solutions[0], edges)


@pytest.mark.parametrize("name", [pytest.param("emoji-vehicles", marks=needs_font), "photos-a"])
def test_a_correct_neighbour_completes_the_figure_across_the_seam(name):
    """Tile A's + half on its E edge and tile B's - half on its W edge are two sides of one cut: across the seam
    the picture changes no more than between two columns inside A, and far more with another motif's - half."""
    art = family_artwork(name, 4, 13)
    assert art.key[3] == "distinct"  # four different pictures, so a wrong neighbour shows
    size = 256
    a = draw_tile((0, 1, 0, 0), art, size).astype(float)
    rows = slice(size // 2 - size // 8, size // 2 + size // 8)  # the middle of the cut, inside any figure
    east, inside = a[rows, -1, :3], a[rows, -2, :3]
    gaps = {k: np.abs(east - draw_tile((0, 0, 0, -k), art, size)[rows, 0, :3].astype(float)).mean()
            for k in range(1, 5)}
    assert gaps[1] <= 1.5 * np.abs(east - inside).mean() + 2
    assert 3 * gaps[1] < min(gaps[k] for k in (2, 3, 4))


def test_each_face_kind_prints_what_it_says():
    size = 128
    plain = face_rgb(FacePrint("plain", (240, 236, 226)), size)
    assert np.ptp(plain.reshape(-1, 3), axis=0).max() == 0
    strong = face_rgb(FacePrint("strong", (108, 52, 150)), size)
    assert np.allclose(strong[size // 2, size // 2], (108, 52, 150))
    border = face_rgb(FacePrint("border", (240, 236, 226), (36, 88, 186), band=0.08), size)
    assert np.allclose(border[2, size // 2], (36, 88, 186)) and np.allclose(border[size // 2, size // 2],
                                                                           (240, 236, 226))
    for pattern in ("dots", "stripes", "grass", "photo"):
        busy = face_rgb(FacePrint("busy", (240, 236, 226), (60, 90, 40), pattern, seed=5), size)
        assert busy[..., 1].std() > 8, pattern  # a busy print varies across the face
    assert set(FACE_KINDS) == {"plain", "strong", "border", "busy"}


@needs_font
def test_a_recolour_moves_its_band_of_hues_and_leaves_the_rest():
    glyph = np.asarray(emoji.glyph("🚗"))
    main_hue, share = hue_bands(glyph)[0]
    assert share > 0.25  # the car's body
    moved = recoloured(glyph[..., :3], Recolour(main_hue, 22, (main_hue + 120) % 360))
    inked = glyph[..., 3] > 200
    changed = np.abs(moved.astype(int) - glyph[..., :3]).max(axis=2) > 30
    assert 0.15 < changed[inked].mean() < 0.9
    grey = inked & (np.ptp(glyph[..., :3].astype(int), axis=2) < 10)  # tyres, windows: no hue to move
    assert not changed[grey].any()


@needs_font
def test_skin_tone_variants_differ_only_in_a_small_part_of_the_figure():
    base = emoji.BODIES[0]
    light, dark = (np.asarray(emoji.glyph(emoji.with_skin_tone(base, t)), float) for t in (0, 4))
    assert light.shape == dark.shape
    differs = np.abs(light - dark)[..., :3].max(axis=2) > 40
    assert 0.01 < differs.mean() < 0.3


def test_detail_variants_differ_on_both_halves_as_a_real_puzzles_motifs_do():
    """Were two motifs' tails one print, a head could take either tail: no reading could tell them apart. Drawn on
    a tile's north edge, every two variants' + halves differ, and so do their - halves."""
    size, found = 128, 0
    for name in FAMILIES:
        if family(name).needs_font and not emoji.available():
            continue
        for seed in range(12):
            art = family_artwork(name, 4, seed)
            if art.key[3] != "detail":
                continue
            found += 1
            for sign in (1, -1):
                norths = [draw_tile((sign * k, 0, 0, 0), art, size)[: size // 3].astype(int) for k in range(1, 5)]
                for i in range(4):
                    for j in range(i):
                        differs = np.abs(norths[i] - norths[j]).sum(axis=2) > 60
                        assert differs.mean() > 0.002, (name, seed, sign, i, j)
    assert found >= 3


def test_every_family_mixes_motif_kinds_and_faces_over_seeds():
    for name in FAMILIES:
        if family(name).needs_font and not emoji.available():
            continue
        arts = [family_artwork(name, 4, seed) for seed in range(24)]
        assert len({a.key[3] for a in arts}) >= 3, name
        assert len({a.design.kind if a.design else "plain" for a in arts}) >= 3, name
        assert all(len(set(a.motif_names.values())) == 4 for a in arts)
        assert {a.key[3] for a in arts} <= set(MOTIF_KINDS)


def test_the_new_tables_are_white_granite_and_dark():
    rng = np.random.default_rng(2)
    mean = {kind: table_texture(kind, (120, 160), 60, rng).mean() for kind in ("whitedesk", "granite", "slate",
                                                                               "laminate", "darkwood")}
    assert mean["whitedesk"] > mean["laminate"] > mean["darkwood"] > mean["slate"]
    # crystals: neighbouring pixels differ as on no plain top
    speckle = {kind: np.abs(np.diff(table_texture(kind, (120, 160), 60, rng), axis=1)).mean()
               for kind in ("granite", "laminate", "whitedesk")}
    assert speckle["granite"] > 3 * max(speckle["laminate"], speckle["whitedesk"])
