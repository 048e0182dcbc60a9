"""The tile-file parser on good and bad input, and format_tiles -> parse_tiles round trips."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from photosolve.solver.tilefile import TileFileError, TileReader, format_tiles, parse_order, parse_tiles
from photosolve.solver.tiles import Puzzle

from .conftest import SAMPLES


def edges_of(puzzle: Puzzle) -> list[tuple[int, ...]]:
    return [t.edges for t in puzzle.tiles]


# --- good input -------------------------------------------------------------------------------------------------

def test_signed_integers_comments_and_blank_lines():
    text = (
        "# a comment line\n"
        "\n"
        "1 2 -4 -3\n"
        "   \n"
        "+1 3 -1 -4   # a trailing comment\n"
        "\t-2  4\t1 2\n"
    )
    puzzle = parse_tiles(text, "t.tiles")
    assert edges_of(puzzle) == [(1, 2, -4, -3), (1, 3, -1, -4), (-2, 4, 1, 2)]
    assert [t.id for t in puzzle.tiles] == [1, 2, 3]
    assert [t.line for t in puzzle.tiles] == [3, 5, 6]
    assert puzzle.motif_names == {}
    assert puzzle.source == "t.tiles"


def test_named_halves_are_numbered_in_order_of_first_appearance():
    text = "brown+ grey+ umber- spotted-\nspotted+ brown- grey- umber+\n"
    puzzle = parse_tiles(text)
    assert puzzle.motif_names == {1: "brown", 2: "grey", 3: "umber", 4: "spotted"}
    assert edges_of(puzzle) == [(1, 2, -3, -4), (4, -1, -2, 3)]
    assert puzzle.labels(puzzle.tiles[1].edges) == ["spotted+", "brown-", "grey-", "umber+"]


def test_zero_is_a_border_edge_with_names_and_with_numbers():
    assert edges_of(parse_tiles("0 0 1 -2\n")) == [(0, 0, 1, -2)]
    named = parse_tiles("0 tiger+ lion- 0\n")
    assert edges_of(named) == [(0, 1, -2, 0)]
    assert named.labels(named.tiles[0].edges) == ["0", "tiger+", "lion-", "0"]


def test_numbers_after_names_are_fine_when_they_do_not_collide():
    # brown is motif 1; the number 2 is another motif and stays a number.
    puzzle = parse_tiles("brown+ 2 -2 brown-\n")
    assert edges_of(puzzle) == [(1, 2, -2, -1)]


def test_order_nwes_is_converted_to_clockwise_from_the_top():
    # Written as top, left, right, bottom: N=1, W=2, E=3, S=4, i.e. N E S W = 1 3 4 2.
    puzzle = parse_tiles("1 2 3 4\n-5 6 -7 8\n", order="NWES")
    assert edges_of(puzzle) == [(1, 3, 4, 2), (-5, -7, 8, 6)]
    assert parse_order("nwes") == (0, 3, 1, 2)
    assert parse_order("NESW") == (0, 1, 2, 3)


def test_order_conversion_reads_a_sample_written_the_other_way():
    """The cats sample rewritten as top/left/right/bottom reads back to the same tiles with --order NWES."""
    cats = parse_tiles((SAMPLES / "cats.tiles").read_text())
    tlrb = "\n".join(" ".join(cats.labels((n, w, e, s))) for n, e, s, w in edges_of(cats))
    assert edges_of(parse_tiles(tlrb, order="NWES")) == edges_of(cats)


def test_reader_checks_one_line_at_a_time_and_skips_comments():
    reader = TileReader("<typed>")
    assert reader.read_line("   # nothing here", 1) is None
    tile = reader.read_line("brown+ grey- 0 brown-", 2)
    assert tile is not None and tile.edges == (1, -2, 0, -1) and tile.id == 1
    with pytest.raises(TileFileError):
        reader.read_line("brown+ grey-", 3)
    assert len(reader.tiles) == 1  # a rejected line adds nothing
    assert reader.read_line("grey+ 3 -3 brown+", 4).id == 2
    assert reader.puzzle().motif_names == {1: "brown", 2: "grey"}


@pytest.mark.parametrize("name", ["dogs", "insects", "nsa", "cats"])
def test_samples_parse_to_nine_tiles_of_four_named_motifs(name):
    puzzle = parse_tiles((SAMPLES / f"{name}.tiles").read_text())
    assert len(puzzle.tiles) == 9
    assert sorted(puzzle.motif_names) == [1, 2, 3, 4]
    assert {abs(e) for t in puzzle.tiles for e in t.edges} == {1, 2, 3, 4}


# --- bad input: TileFileError naming file:line and the token ------------------------------------------------------

@pytest.mark.parametrize("line,token", [
    ("1 2 x 4", "x"),
    ("1 2 3 brown", "brown"),          # a name without its half
    ("1 2 3 1.5", "1.5"),
    ("1 2 3 +-3", "+-3"),
    ("1 2 3 brown+-", "brown+-"),
    ("1 2 3 7brown+", "7brown+"),
])
def test_a_token_that_is_not_an_edge(line, token):
    with pytest.raises(TileFileError) as caught:
        parse_tiles(f"# header\n1 2 3 4\n{line}\n", "bad.tiles")
    message = str(caught.value)
    assert message.startswith("bad.tiles:3: ")
    assert f"'{token}'" in message and "not an edge" in message
    assert caught.value.source == "bad.tiles" and caught.value.line == 3


@pytest.mark.parametrize("line,count", [("1 2 3", 3), ("1 2 3 4 5", 5), ("brown+", 1)])
def test_a_tile_with_the_wrong_number_of_edges(line, count):
    with pytest.raises(TileFileError) as caught:
        parse_tiles(f"1 2 3 4\n\n{line}  # comment\n", "few.tiles")
    message = str(caught.value)
    assert message.startswith("few.tiles:3: ")
    assert f"found {count} ({line})" in message
    assert "\n" not in message


def test_a_number_that_collides_with_a_name():
    with pytest.raises(TileFileError) as caught:
        parse_tiles("brown+ grey+ 0 0\n2 3 4 5\n", "mix.tiles")
    assert str(caught.value).startswith("mix.tiles:2: '2' is motif 2, already named 'grey'")


def test_a_name_that_collides_with_a_number():
    with pytest.raises(TileFileError) as caught:
        parse_tiles("1 2 3 4\n5 brown+ brown- 6\n", "mix.tiles")
    message = str(caught.value)
    assert message.startswith("mix.tiles:2: 'brown+' would be motif 1")
    assert "names or numbers, not both" in message


@pytest.mark.parametrize("order", ["NEWW", "NES", "NESWN", "ABCD", "", "N E S W"])
def test_an_order_that_is_not_a_permutation_of_nesw(order):
    with pytest.raises(TileFileError) as caught:
        parse_tiles("1 2 3 4\n", "o.tiles", order=order)
    assert str(caught.value).startswith(f"o.tiles: edge order '{order}' is not a permutation of NESW")
    with pytest.raises(TileFileError, match=r"^--order: edge order"):
        parse_order(order)


def test_no_tiles_at_all():
    with pytest.raises(TileFileError, match=r"^empty\.tiles: no tiles found"):
        parse_tiles("# only a comment\n\n", "empty.tiles")


def test_control_characters_in_a_token_are_escaped_in_the_message():
    with pytest.raises(TileFileError) as caught:
        parse_tiles("1 2 3 \x01\x02\n", "ctl.tiles")
    message = str(caught.value)
    assert message.startswith("ctl.tiles:1: '\\x01\\x02' is not an edge")
    assert message.isprintable()


# --- round trips -------------------------------------------------------------------------------------------------

NAMES = st.from_regex(r"[A-Za-z][A-Za-z0-9_.]{0,7}", fullmatch=True)


@st.composite
def puzzles(draw, named: bool):
    motifs = draw(st.integers(1, 6))
    halves = [k for m in range(1, motifs + 1) for k in (m, -m)] + [0]
    tiles = draw(st.lists(st.tuples(*[st.sampled_from(halves)] * 4), min_size=1, max_size=16))
    names = {}
    if named:
        chosen = draw(st.lists(NAMES, min_size=motifs, max_size=motifs, unique=True))
        names = dict(zip(range(1, motifs + 1), chosen))
    return Puzzle.from_edges(tiles, names)


@settings(max_examples=150, deadline=None)
@given(puzzles(named=False), st.text(max_size=30))
def test_numbered_puzzles_round_trip_exactly(puzzle, header):
    text = format_tiles(puzzle, header=header)
    again = parse_tiles(text, "round.tiles")
    assert edges_of(again) == edges_of(puzzle)
    assert again.motif_names == {}


@settings(max_examples=150, deadline=None)
@given(puzzles(named=True), st.data())
def test_named_puzzles_round_trip_label_for_label(puzzle, data):
    notes = data.draw(st.lists(st.text(max_size=20), min_size=len(puzzle.tiles), max_size=len(puzzle.tiles)))
    text = format_tiles(puzzle, notes=notes)
    again = parse_tiles(text, "round.tiles")
    # Names are renumbered in order of first appearance, so compare what a person reads ...
    assert [again.labels(t.edges) for t in again.tiles] == [puzzle.labels(t.edges) for t in puzzle.tiles]
    # ... which fixes the edges up to that renumbering, sign and border included.
    renumber = {k: number for number, name in again.motif_names.items()
                for k, other in puzzle.motif_names.items() if other == name}
    renumbered = [tuple(0 if e == 0 else (renumber[abs(e)] if e > 0 else -renumber[abs(e)]) for e in t.edges)
                  for t in puzzle.tiles]
    assert edges_of(again) == renumbered
    # Once numbered in first-appearance order, a second trip changes nothing.
    assert edges_of(parse_tiles(format_tiles(again))) == edges_of(again)
