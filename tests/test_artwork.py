"""The printed tile artwork: geometry of the face, halves that join across a seam, distinct motifs."""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from photosolve.scenes import artwork as art_module
from photosolve.scenes.artwork import (
    PUZZLE_ARTWORK, Artwork, Motif, artwork, colour_distance, draw_tile, random_artwork,
)
from photosolve.solver.tiles import turn_edges

SIZE = 160  # small tiles keep the file fast; the geometry scales with the side


def _motif_ink(tile: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """Where a motif is printed: pixels that differ clearly from the empty face."""
    return np.abs(tile[..., :3].astype(int) - blank[..., :3].astype(int)).sum(-1) > 40


@pytest.mark.parametrize("name", PUZZLE_ARTWORK)
def test_tile_shape_alpha_and_corners(name):
    tile = draw_tile((1, 2, -3, -4), artwork(name), SIZE)
    assert tile.shape == (SIZE, SIZE, 4) and tile.dtype == np.uint8
    for y, x in ((0, 0), (0, SIZE - 1), (SIZE - 1, 0), (SIZE - 1, SIZE - 1)):
        assert tile[y, x, 3] == 0  # rounded corners are cut away
    assert (tile[SIZE // 4:3 * SIZE // 4, SIZE // 4:3 * SIZE // 4, 3] == 255).all()
    assert tile[SIZE // 2, 0, 3] == 255 and tile[0, SIZE // 2, 3] == 255  # edges reach the outline
    # the face colour shows in the middle, where no half reaches
    assert np.abs(tile[SIZE // 2, SIZE // 2, :3].astype(int) - artwork(name).face).max() <= 2


def test_deterministic_even_after_cache_cleared():
    art = artwork("cats")
    first = draw_tile((1, -2, 3, -4), art, SIZE)
    art_module._whole_figure.cache_clear()
    art_module._half.cache_clear()
    assert np.array_equal(first, draw_tile((1, -2, 3, -4), art, SIZE))
    again = random_artwork(5, 11)
    assert again == random_artwork(5, 11)
    assert np.array_equal(draw_tile((1, 2, 3, 5), again, SIZE), draw_tile((1, 2, 3, 5), random_artwork(5, 11), SIZE))


def test_turning_the_edges_turns_the_picture():
    art = artwork("dogs")
    edges = (1, -2, 3, -4)
    tile = draw_tile(edges, art, SIZE)
    for turns in range(4):
        assert np.array_equal(draw_tile(turn_edges(edges, turns), art, SIZE), np.rot90(tile, -turns))


def _seam(left: np.ndarray, right: np.ndarray, blank: np.ndarray) -> float:
    """Mean grey-level difference across a vertical seam, over rows where the left half has a motif."""
    a, b = left[:, -1, :3].astype(float), right[:, 0, :3].astype(float)
    rows = np.abs(a - blank[:, -1, :3]).sum(1) > 30
    assert rows.sum() >= 3, "the motif should reach the edge"
    return float(np.abs(a - b)[rows].mean())


@pytest.mark.parametrize("name", PUZZLE_ARTWORK)
def test_matching_halves_join_across_the_seam(name):
    art = artwork(name)
    blank = draw_tile((0, 0, 0, 0), art, SIZE)
    for k in art.motifs:
        head = draw_tile((0, k, 0, 0), art, SIZE)
        match = _seam(head, draw_tile((0, 0, 0, -k), art, SIZE), blank)
        assert match < 25, (name, k, match)
        # the tail of another motif shows a different figure or colour right at the seam
        wrong = min(_seam(head, draw_tile((0, 0, 0, -j), art, SIZE), blank) for j in art.motifs if j != k)
        assert wrong > match + 10, (name, k, match, wrong)


@pytest.mark.parametrize("name", PUZZLE_ARTWORK)
def test_head_and_tail_halves_differ_in_shape(name):
    art = artwork(name)
    blank = draw_tile((0, 0, 0, 0), art, SIZE)
    band = slice(0, int(0.42 * SIZE))
    for k in art.motifs:
        plus = draw_tile((k, 0, 0, 0), art, SIZE)[band]
        minus = draw_tile((-k, 0, 0, 0), art, SIZE)[band]
        ink_p, ink_m = _motif_ink(plus, blank[band]), _motif_ink(minus, blank[band])
        overlap = (ink_p & ink_m).sum() / (ink_p | ink_m).sum()
        assert overlap < 0.8, (name, k, overlap)  # silhouettes, not only colours, differ
        assert np.abs(plus.astype(int) - minus.astype(int))[..., :3].mean() > 5


@pytest.mark.parametrize("name", PUZZLE_ARTWORK)
def test_halves_stay_in_their_own_quarter(name):
    art = artwork(name)
    blank = draw_tile((0, 0, 0, 0), art, SIZE)
    for k in art.motifs:
        inks = []
        for side in range(4):
            edges = [0, 0, 0, 0]
            edges[side] = k if side % 2 else -k
            inks.append(_motif_ink(draw_tile(tuple(edges), art, SIZE), blank))
        north = inks[0]
        rows, cols = np.nonzero(north)
        assert rows.max() < 0.42 * SIZE  # reaches at most ~40% into the tile
        assert cols.max() - cols.min() < 0.57 * SIZE  # at most ~55% wide
        assert min(cols.min(), SIZE - 1 - cols.max()) > 0.05 * SIZE  # clear of the corners
        for a, b in itertools.combinations(inks, 2):
            assert not (a & b).any()  # halves on neighbouring edges never overlap


@pytest.mark.parametrize("name", PUZZLE_ARTWORK)
def test_puzzle_motifs_named_in_order_with_distinct_colours(name):
    art = artwork(name)
    expected = {
        "dogs": ["brown", "grey", "spotted", "umber"],
        "insects": ["mantis", "beetle", "dragonfly", "ant"],
        "nsa": ["airforce", "army", "marines", "navy"],
        "cats": ["tiger", "lion", "panther", "jaguar"],
    }[name]
    assert art.name == name
    assert art.motif_names == dict(enumerate(expected, 1))
    assert set(art.half_names) == set(expected)
    assert all(set(h) == {"+", "-"} and h["+"] != h["-"] for h in art.half_names.values())
    mains = [m.colours[0] for m in art.motifs.values()]
    # the brownish dogs are meant to be close, but never the same colour
    assert min(colour_distance(a, b) for a, b in itertools.combinations(mains, 2)) > 15
    assert hash(art) == hash(artwork(name))


@pytest.mark.parametrize("count", range(3, 9))
def test_random_artwork_names_and_colours(count):
    for seed in (0, 1, 2):
        art = random_artwork(count, seed)
        assert isinstance(art, Artwork) and sorted(art.motifs) == list(range(1, count + 1))
        names = list(art.motif_names.values())
        assert len(set(names)) == count and all(n.isalpha() and n.islower() for n in names)
        mains = [m.colours[0] for m in art.motifs.values()]
        assert min(colour_distance(a, b) for a, b in itertools.combinations(mains, 2)) > 20
        assert all(colour_distance(c, art.face) > 25 for c in mains)
        assert np.mean(art.face) > 200  # a light printed face
        assert draw_tile((1, -count, 2, -1), art, SIZE).shape == (SIZE, SIZE, 4)
    assert random_artwork(count, 0) != random_artwork(count, 1) or count > 8


def test_random_artwork_accepts_twelve_motifs():
    art = random_artwork(12, 3)
    assert len(set(art.motif_names.values())) == 12
    blank = draw_tile((0, 0, 0, 0), art, SIZE)
    assert _seam(draw_tile((0, 12, 0, 0), art, SIZE), draw_tile((0, 0, 0, -12), art, SIZE), blank) < 25


def test_errors():
    with pytest.raises(ValueError, match="unknown artwork"):
        artwork("ponies")
    with pytest.raises(ValueError, match="no motif 5"):
        draw_tile((5, 0, 0, 0), artwork("dogs"), SIZE)
    with pytest.raises(ValueError):
        random_artwork(0, 1)
    with pytest.raises(ValueError):
        random_artwork(13, 1)
    odd = Artwork("odd", {1: Motif("plain", "no-such-figure", ((1, 2, 3),))})
    with pytest.raises(ValueError, match="no drawing"):
        draw_tile((1, 0, 0, 0), odd, SIZE)
