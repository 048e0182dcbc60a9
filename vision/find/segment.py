"""Find every tile in a photo: rough outlines from masks of where tiles may be, then each side snapped to its edge.

The masks (masks.py, background.py) are the face colour at three strictnesses, regions walled in by edges, what
differs from the table's colours at the photo's border, the face colour forgiving the lightness a shadow takes, and
what differs from the table's texture; where none of those lies on clear edges, the outlines that differ from the
table closed into rims (faces of the table's colour) and walls of faint edges; where no reading gives the count at
all, what differs from the table's texture several times more than the table does from itself (busy pale faces).
Lone tiles are one component each; a block of touching (or nearly touching) tiles is split as an R x C grid of
equal tiles (blocks.py). Of the readings that may be right, one whose tiles have the table around them wins
(table.py): a tile is an object on the table, and a face-colour mask outlines only the plain patch of a face with a
printed border or figures covering most of it. Each tile's four sides are then searched for locally, as the
strongest straight edge near the rough side, because tiles in a hand-laid board each lie a little off any common
grid; a tile cut from a block is taken off the gaps between tiles it crossed (gaps.py). Tile by tile, the outline
that more kinds of reading agree on replaces the chosen reading's (each kind of mask errs in its own way); a tile
of the chosen reading that another reading saw alone and far better outlined is taken from that one (mending.py).
Finally a lone tile's sides are traced to where its face ends, and the side two touching tiles share is put on
their seam, midway between where their two faces end. Last, every tile being the same square, an outline wider or
narrower than the others across a pair of sides is brought to their size (same_size.py).
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field, replace
from typing import Callable

import cv2
import numpy as np

from .background import (DIFFERENCE_THRESHOLDS, background_masks, rim_masks, table_difference,
                         texture_beyond_table_masks, texture_difference, texture_masks)
from ..errors import WrongTileCount
from ..geometry import north_first, rescale_points
from .masks import (FACE_THRESHOLDS, FAINT_EDGES, SHADE_THRESHOLDS, WALLS, enclosed_masks, face_colour,
                    face_likeness, face_masks, shade_likeness)
from .gaps import off_gaps
from .mending import mended, patched
from .outlines import four_cornered, plausible, rough_quads, tile_components
from .same_size import to_size
from .seams import fit_seams
from .sides import (REACH_BLOCK, REACH_LONE, agreed_outlines, face_runs_on, no_less_square, order_screen_clockwise,
                    refine_quad, remembered_support, sharpest_outlines)
from .snap import open_sides, snap_to_face
from .squaring import FAINT, askew, squared_where_weak
from .table import (LEFT_OUT, object_left_out, reaching_beyond, table_level, table_within, unbounded,
                    without_table)
from ..types import Photo, TileQuad

TABLE_READINGS = len(FACE_THRESHOLDS) + len(WALLS)  # the number of the first table-difference reading (reading_kind)
# Moved (bench/find_constants.py, 2026-11-30): colour 1.125 dev 55, test 37; 1.875 dev 55, test 36 (as set 55, 34).
EDGE_WEIGHTS = np.array([1.0, 1.5, 1.5], dtype=np.float32)  # an edge may be one of lightness or of colour
# Edge support (see edge_support) of a reading whose every tile has a clear outline; the weakest tile of a right
# reading of a generated medium photo scores 4-40, a wrong reading's under 1.5.
# Moved to 6.0 or 10.0: dev and test as set.
CONVINCING = 8.0
# How far (of a side) a tile's side may move to where the face ends: across its side band, not onto things beyond it
# in the face's colour (a checked cloth's white square beside a lone tile, which jumps 6-14%); its outline was
# already put on its own edge.
# Moved to 0.0225 or 0.0375: dev and test as set.
BLOCK_SNAP = 0.03
# Moved to 0.375 or 0.625: dev and test as set.
SNAPPED_SUPPORT = 0.5  # of a tile's edge support before its sides were traced to where its face ends
# Moved to 0.45 or 0.75: dev and test as set.
RIVAL = 0.6  # of the best edge support: a reading this well supported that sees more lone tiles is preferred
# Of the best edge support: a reading this well supported with the table around more of its tiles is preferred. The
# tiles' outer edges against the table lay at 0.43-0.54 of their printed border's inner edge on generated medium
# photos; on a checked cloth, readings with the table around a tile the best one was taken to lack lay under 0.11.
# Moved to 0.225 or 0.375: dev and test as set.
WHOLE_RIVAL = 0.3
# Places (of 24 a side, see face_runs_on) where a lone tile's face runs on past its open sides: its mask lost a
# strip of the face. A tile's true outline has at most 2 on 200 generated hard photos (none on medium ones); one
# cut short by the strip a strict face mask lost to shading, 4.
# Moved to 2 or 4: dev and test as set.
CUT_SHORT = 3
# Degrees off a right angle at two neighbouring corners of a tile cut from a block: a split of the table when its
# sides lie on no clear edge (a pale desk taken in with the tiles of the real skiers' photo turned 7 degrees, its
# top row of cells 30 degrees askew; the tiles of the right reading there, 8 or less).
# Moved to 15.0 or 25.0: dev and test as set.
ASKEW = 20.0
# Of a side's length: how much more of the band just inside an outline may be table than of the one it replaces.
# Outlines of a block's tile that took in a wedge of the gap beside it: 0.41-0.45; the tile's own: 0-0.005 (dev
# emoji-food easy 20008, where two kinds of reading agreed on the wedge).
# Moved to 0.1125 or 0.1875: dev and test as set.
TAKEN_IN = 0.15


@dataclass(frozen=True)
class Segmentation:
    """What segmenting a photo gave: the tiles (None when no reading gave the expected count), which reading they
    came from (its place in find_tiles' order of readings), the count each reading tried gave, and the chosen
    reading's edge support."""

    tiles: list[TileQuad] | None
    reading: int | None
    counts: list[int]
    support: float


def find_tiles(photo: Photo, expected: int = 9) -> list[TileQuad]:
    """The outline of each tile in the photo, in full-resolution pixels, ordered top to bottom, left to right.

    Several readings of the photo are made (face-colour masks at three strictnesses, regions walled in by edges,
    what differs from the colours along the photo's border); of those that give the expected number of plausible
    tiles, the one whose tiles' sides lie best on real edges wins (see choose_reading): a tile's side is a
    straight edge along its whole length, a wrong outline is not.
    """
    found = segment(photo, expected)
    if found.tiles is None:
        # Report the count of the first (face colour) reading: it is the one a person can check on the photo.
        raise WrongTileCount(found.counts[0], expected)
    return found.tiles


def segment(photo: Photo, expected: int = 9) -> Segmentation:
    """find_tiles, also saying which reading won and what each reading gave (for benchmarks and debugging)."""
    smooth = cv2.GaussianBlur(photo.work, (5, 5), 0)
    lab = cv2.cvtColor(smooth, cv2.COLOR_RGB2LAB).astype(np.float32)
    face = face_colour(lab)
    edges_image = lab * EDGE_WEIGHTS
    raw_lightness = cv2.cvtColor(photo.work, cv2.COLOR_RGB2LAB)[..., 0]
    difference = table_difference(lab)
    texture = functools.cache(lambda: texture_difference(lab))  # each neighbourhood's, made only if a reading needs it
    found = Found(difference=difference)
    refined: dict[tuple, tuple[np.ndarray, float, np.ndarray]] = {}  # readings often share tiles: refine each once
    support = remembered_support(edges_image)  # and measure each outline once
    def readings():
        # (number, mask), numbered in reading_kind's order
        yield from enumerate(face_masks(face_likeness(lab, face)))
        if settled(found.candidates, expected, difference):
            return  # the face colour found each tile's own clear outline, the whole object
        table = enumerate(background_masks(difference), start=TABLE_READINGS)
        if inside_a_border(found.candidates, expected):
            # The face colour outlined every tile clearly, but the object runs on past them: the face inside a
            # printed border. What differs from the table outlines the whole tiles: read first, and alone if
            # that settles them.
            yield from table
            if settled(found.candidates, expected, difference):
                return
        yield from enumerate(enclosed_masks(raw_lightness, expected), start=len(FACE_THRESHOLDS))
        yield from table  # nothing more where it was read first
        later = itertools.chain(face_masks(shade_likeness(lab, face), SHADE_THRESHOLDS), texture_masks(texture()))
        yield from enumerate(later, start=TABLE_READINGS + len(DIFFERENCE_THRESHOLDS))

    for number, mask in readings():
        take_reading(number, mask, expected, edges_image, refined, support, found)
    mend_near_misses(found, edges_image, refined, support)
    if all(c.support < FAINT for c in found.candidates):
        # Last resorts, with no reading on clear edges: the outlines that differ from the table closed across their
        # breaks enclose faces of the table's colour (background.rim_masks), and walls of faint edges (glare) may
        # enclose faces clear ones did not. Tried only here: their blocks and walls are coarser than the readings
        # above where those succeed. (Dev photos-a hard 20007's only reading outlined pieces of black faces, their
        # sides on no edge: support 0.22.)
        last = itertools.chain(rim_masks(difference), enclosed_masks(raw_lightness, expected, FAINT_EDGES))
        for number, mask in enumerate(last, start=len(found.counts)):
            take_reading(number, mask, expected, edges_image, refined, support, found)
        mend_near_misses(found, edges_image, refined, support)
    if not found.candidates and not found.counts[0]:
        # With no reading of the right count at all and no tile in the loosest face-colour mask (the face is nearly
        # the table's colour): what differs from the table's texture several times more than the table does from
        # itself (background.texture_beyond_table_masks), where a busy face leaves only its motifs to the other
        # readings. Where the face colour did find tiles, but too few (one cut off by the photo's frame), the count
        # error is the answer: this coarser reading split a tile in two there. Only here: the texture's window blurs
        # the gaps of a laid-out grid into blocks; tried beside the faint last resorts, it won over a right reading
        # on 1 of 53 dev photos where those ran (9% off, from exact) and put right one other.
        for mask in texture_beyond_table_masks(texture()):
            take_reading(len(found.counts), mask, expected, edges_image, refined, support, found)
        mend_near_misses(found, edges_image, refined, support)
    counts, candidates, seen = found.counts, found.candidates, found.seen
    if not candidates:
        return Segmentation(None, None, counts, -np.inf)
    chosen = choose_reading(candidates)
    chosen = off_block_gaps(chosen, found.difference, edges_image)
    whole = whole_tile(chosen, found.difference)
    agreed = agreed_outlines(chosen.quads, by_kind(sound_readings(candidates)), support, whole)
    sharpest = sharpest_outlines(agreed, [c.quads for c in candidates], support, whole)
    best = no_less_square(mended(sharpest, chosen.number, seen, edges_image, support), sharpest)
    # A lone tile's sides are traced to where its face ends, a block's outer sides only across their side band; a
    # seam between touching tiles is no such place, and is fitted once for the two tiles it divides.
    tiles = [order_screen_clockwise(rescale_points(q, photo.scale)) for q, _ in best]
    snapped = [snap_to_face(q, photo.image, open_sides(q, tiles), BLOCK_SNAP) for q in tiles]
    tiles = [traced if on_edges(traced, work, support, photo.scale) else q
             for traced, q, (work, _) in zip(snapped, tiles, best)]
    tiles = to_size(fit_seams(tiles, photo.image), edges_image, photo.scale)
    return Segmentation(reading_order([TileQuad(north_first(q)) for q in tiles]), chosen.number, counts,
                        chosen.support)


@dataclass
class Found:
    """What the readings tried so far gave: each one's tile count, the readings that may be right, the lone
    four-cornered outlines each saw (reading, outline), and the readings with the right count but a misshapen tile
    (reading, rough tiles), which another reading's outlines may mend."""

    difference: np.ndarray  # each work pixel's difference from the table (background.table_difference)
    counts: list[int] = field(default_factory=list)
    candidates: list[Reading] = field(default_factory=list)
    seen: list[tuple[int, np.ndarray]] = field(default_factory=list)
    near_misses: list[tuple[int, list[tuple[np.ndarray, bool]]]] = field(default_factory=list)


def take_reading(number: int, mask: np.ndarray, expected: int, edges_image: np.ndarray,
                 refined: dict[tuple, tuple[np.ndarray, float, np.ndarray]], support: Callable[[np.ndarray], float],
                 found: Found) -> None:
    """Reading `number`'s mask counted and, if it may be right, outlined; `found` gains what it gave."""
    components, unlike = tile_components(mask, expected)
    found.counts.append(sum(count for _, count in components))
    # Only a four-cornered outline can stand in for a tile: a face-colour mask can join a cloth's pale square to one.
    found.seen.extend((number, hull) for hull, count in components if count == 1 and four_cornered(hull))
    if found.counts[-1] != expected:
        return  # outlines are fitted only for readings that may be right
    rough = rough_quads(components, edges_image, found.difference)
    if not plausible([q for q, _ in rough]):
        found.near_misses.append((number, rough))
        return
    reading = reading_of(number, rough, edges_image, refined, support)
    add_candidate(found, replace(reading, unlike=unlike), support)


def add_candidate(found: Found, reading: Reading, support: Callable[[np.ndarray], float]) -> None:
    """A reading that may be right joins the candidates, unless it split a pale table into askew cells; it is told
    how many of its tiles have no table around them."""
    if not split_askew(reading, support):
        found.candidates.append(replace(reading, unbounded=unbounded([q for q, _ in reading.quads], found.difference)))


def off_block_gaps(reading: Reading, difference: np.ndarray, edges_image: np.ndarray) -> Reading:
    """The reading with each tile it cut from a block taken off the gaps between tiles it crossed (gaps.py)."""
    if reading.lone == len(reading.quads):
        return reading
    outlines = [order_screen_clockwise(q) for q, _ in reading.quads]
    level = table_level(outlines, difference)
    return replace(reading, quads=[
        (quad if lone else off_gaps(quad, [not o for o in open_sides(outline, outlines)], difference, level,
                                    edges_image), lone) for (quad, lone), outline in zip(reading.quads, outlines)])


def by_kind(candidates: list[Reading]) -> list[list[list[tuple[np.ndarray, bool]]]]:
    """The candidate readings' tiles grouped by the kind of mask each reading came from: the face colour (in light
    or shade), regions walled in by edges (clear or faint), what differs from the table's colours, from its
    texture (see segment's order of readings)."""
    kinds = {}
    for candidate in candidates:
        kinds.setdefault(reading_kind(candidate.number), []).append(candidate.quads)
    return list(kinds.values())


def reading_kind(number: int) -> str:
    """The kind of mask reading `number` came from, in segment's order: face colour, edges, table difference,
    face colour in shade, texture, table difference with its outlines closed (rims), faint edges, then texture
    beyond the table's own."""
    for kind, count in (("face", len(FACE_THRESHOLDS)), ("edges", len(WALLS)), ("table", len(DIFFERENCE_THRESHOLDS)),
                        ("face", len(SHADE_THRESHOLDS)), ("texture", 1), ("table", 1), ("edges", len(WALLS))):
        if number < count:
            return kind
        number -= count
    return "texture"


def whole_tile(reading: Reading, difference: np.ndarray) -> Callable[[np.ndarray, np.ndarray], bool]:
    """Whether an outline standing in for one of a reading's tiles has the table around it, as the reading's other
    tiles leave it room, takes in no more of it along a side than the outline it replaces, and leaves out of that
    outline no strip of what differs from the table (`difference`: each work pixel's difference from the table):
    a tile is the whole object, a printed border and all."""
    outlines = [order_screen_clockwise(quad) for quad, _ in reading.quads]
    level = table_level(outlines, difference)

    def whole(outline: np.ndarray, replaced: np.ndarray) -> bool:
        rest = [o for o, (quad, _) in zip(outlines, reading.quads) if quad is not replaced]
        outline = order_screen_clockwise(outline)
        replaced = order_screen_clockwise(replaced)
        return (not without_table(outline, rest, difference, level) and table_within(outline, difference, level)
                <= table_within(replaced, difference, level) + TAKEN_IN
                and object_left_out(outline, replaced, difference, level, open_sides(replaced, [replaced, *rest]))
                <= LEFT_OUT)

    return whole


def split_askew(reading: Reading, support: Callable[[np.ndarray], float]) -> bool:
    """Whether a tile the reading cut from a block is far from square (two neighbouring corners ASKEW or more off a
    right angle) with its sides on no clear edge (FAINT): a pale table taken in by a mask is split into cells
    skewed like that block's outline, lying across the faces. A tilted camera skews a real tile as much, but its
    sides then lie on its edges."""
    return any(not lone and askew(quad, ASKEW) and support(quad) < FAINT for quad, lone in reading.quads)


def mend_near_misses(found: Found, edges_image: np.ndarray, refined: dict[tuple, tuple[np.ndarray, float, np.ndarray]],
                     support: Callable[[np.ndarray], float]) -> None:
    """With no reading right so far, each with the right count but a misshapen tile mended by another's outlines
    of that tile, where it can be; the near misses are then used up."""
    if not found.candidates:
        for number, rough in found.near_misses:
            rough = patched(rough, number, found.seen, edges_image, support)
            if rough is not None and plausible([q for q, _ in rough]):
                add_candidate(found, reading_of(number, rough, edges_image, refined, support), support)
    found.near_misses.clear()


def reading_of(number: int, rough: list[tuple[np.ndarray, bool]], edges_image: np.ndarray,
               refined: dict[tuple, tuple[np.ndarray, float, np.ndarray]],
               support: Callable[[np.ndarray], float]) -> Reading:
    """A reading's rough tiles with each side put on its edge, the reading's edge support (its weakest tile's) and
    how many of its lone tiles were cut short of their face. `refined` holds the tiles refined so far (with their
    support and where their face runs on past them), by rough outline, and gains this reading's; `support` gives a
    quad's edge support on `edges_image` (sides.remembered_support)."""
    keys = [(lone, *np.rint(quad / 2).astype(int).ravel()) for quad, lone in rough]
    for key, (quad, lone) in zip(keys, rough):
        if key not in refined:
            tile = refine_quad(quad, edges_image, REACH_LONE if lone else REACH_BLOCK)
            runs = face_runs_on(tile, edges_image) if lone else np.zeros(4, int)  # a block's tiles face each other
            refined[key] = (tile, support(tile), runs)
    tiles = [refined[key][:2] for key in keys]
    if number >= len(FACE_THRESHOLDS):  # masks other than the face colour's often eat a strip of a tile
        tiles = squared_where_weak(tiles, rough, edges_image)
    quads = [(tile, lone) for (tile, _), (_, lone) in zip(tiles, rough)]
    return Reading(number, quads, min(value for _, value in tiles), cut_short(quads, [refined[key] for key in keys]))


def cut_short(quads: list[tuple[np.ndarray, bool]], refined: list[tuple[np.ndarray, float, np.ndarray]]) -> int:
    """How many lone tiles of a reading were outlined short of their face: the face runs on past an open side (one
    no other tile lies across, where a neighbour's face could) at CUT_SHORT places or more. Only tiles still as
    refined count: a tile squared afterwards was never measured as it now is."""
    outlines = [order_screen_clockwise(quad) for quad, _ in quads]
    count = 0
    for (quad, lone), outline, (tile, _, runs) in zip(quads, outlines, refined):
        if lone and quad is tile:
            count += int(runs[np.array(open_sides(outline, outlines))].sum() >= CUT_SHORT)
    return count


def on_edges(snapped: np.ndarray, quad: np.ndarray, support: Callable[[np.ndarray], float], scale: float) -> bool:
    """Whether a tile traced to where its face ends (full-resolution pixels) still lies on edges nearly as well as
    it did (`quad`, work pixels; `support`: a quad's edge support in work pixels): a face's end is an edge too, and
    traces misled by glare or a face as bright as the table end nowhere."""
    return support(rescale_points(snapped, 1 / scale)) >= SNAPPED_SUPPORT * support(quad)


@dataclass(frozen=True)
class Reading:
    """One reading's tiles (work pixels, each marked whether it was a lone tile) and their edge support."""

    number: int
    quads: list[tuple[np.ndarray, bool]]
    support: float
    cut: int = 0  # lone tiles outlined short of their face (see cut_short)
    unbounded: int = 0  # tiles with no table just outside an open side: a patch inside a tile (see table.py)
    unlike: int = 0  # regions of its mask unlike a tile: things on the table, left out or kept (outlines.unlike_a_tile)

    @property
    def lone(self) -> int:
        return sum(lone for _, lone in self.quads)


def choose_reading(candidates: list[Reading]) -> Reading:
    """Of the readings with the table around the most tiles, among those on clear edges, the one whose tiles'
    sides lie best on edges, unless one nearly as good has fewer regions unlike a tile in its mask, cut fewer tiles
    short of their face or saw more tiles whole.

    A mask of the face colour outlines the plain face, which on a face with a printed border or figures covering
    most of it is a patch inside the tile, its sides on the border's or the figures' straight edges (sharper than
    the tile's own against the table). A checked cloth's square or a shadow beside a tile can look like more of
    it, so only readings on clear edges (WHOLE_RIVAL) are weighed by the table around them.

    A tile seen as a lone outline is measured; one cut from a block by an even grid is a guess (tilt and uneven
    gaps shift the cuts), and a cut can land on a printed frame line that is as straight as an edge. A tile cut
    short of its face by a mask that lost a shaded strip of it can lie on a motif's straight edges as well. And a
    region unlike a tile (a note, a phone, a keyboard's keys) is a guess either way: left out as a thing on the
    table, or kept as a tile where the mask lost a tile and counts right with it.
    """
    sound = sound_readings(candidates)
    best = max(c.support for c in sound)
    rivals = [c for c in sound if c.support >= RIVAL * best]
    return max(rivals, key=lambda c: (-c.unlike, -c.cut, c.lone, c.support))


def sound_readings(candidates: list[Reading]) -> list[Reading]:
    """Of the readings on clear edges (WHOLE_RIVAL of the best, FAINT at least), those with the table around the
    most tiles; all of them when all are faint (the table then decides nothing)."""
    strongest = max(c.support for c in candidates)
    sound = [c for c in candidates if c.support >= max(WHOLE_RIVAL * strongest, FAINT)]
    fewest = min((c.unbounded for c in sound), default=0)
    return [c for c in sound if c.unbounded == fewest] or candidates


def settled(candidates: list[Reading], expected: int, difference: np.ndarray) -> bool:
    """Whether a reading so far already gives every tile as its own clear outline, the whole object on the table
    (`difference`: background.table_difference): no other can do better."""
    return any(clear_and_bounded(c, expected) and not reaching_beyond([q for q, _ in c.quads], difference)
               for c in candidates)


def inside_a_border(candidates: list[Reading], expected: int) -> bool:
    """Whether a reading gives every tile as its own clear outline with the table around it. Asked once `settled`
    has said no: such a reading then failed only because the object runs on past its outlines (a face inside a
    printed border)."""
    return any(clear_and_bounded(c, expected) for c in candidates)


def clear_and_bounded(reading: Reading, expected: int) -> bool:
    """Whether a reading gives every tile as its own clear outline, uncut, with the table in the ring around it."""
    return reading.support >= CONVINCING and reading.lone == expected and not reading.cut and not reading.unbounded


def reading_order(tiles: list[TileQuad]) -> list[TileQuad]:
    """Tiles numbered as a person reads the photo: by rows of similar height, then left to right."""
    if not tiles:
        return tiles
    side = float(np.median([t.side for t in tiles]))
    remaining = sorted(tiles, key=lambda t: t.center[1])
    ordered: list[TileQuad] = []
    while remaining:
        top = remaining[0].center[1]
        row = [t for t in remaining if t.center[1] < top + 0.6 * side]
        ordered.extend(sorted(row, key=lambda t: t.center[0]))
        remaining = [t for t in remaining if t.center[1] >= top + 0.6 * side]
    return ordered
