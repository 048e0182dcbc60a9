"""Simulated photos of a puzzle's tiles with exact ground truth: layouts, difficulty tiers, make_scene.

A scene is decided by (puzzle, seed, conditions); the same three always give the same JPEG bytes.
"""
from __future__ import annotations

import json
import math
import os
import random
import tempfile
import zlib
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from photosolve.solver import Puzzle, Solution, solve, turn_edges
from photosolve.solver.generate import planted_puzzle
from photosolve.solver.tilefile import parse_tiles

from . import families
from . import photograph as ph
from .artwork import PUZZLE_ARTWORK, Artwork, artwork, draw_tile, random_artwork
from .clutter import lay_clutter

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
LAYOUTS = ("scattered", "grid", "touching", "solved")
TIERS = ("easy", "medium", "hard")
FACE_CORNER_RADIUS = 0.03  # of the side; the side band follows the print's rounded outline
UPRIGHT_MARGIN = 5.0       # degrees every tile keeps away from 45 (mod 90), so its N is unambiguous


@dataclass(frozen=True)
class Conditions:
    """Everything that decides how the photo looks; the defaults make an easy photo."""

    layout: str = "scattered"              # scattered | grid | touching | solved
    size: tuple[int, int] = (1600, 1200)   # photo width, height
    tilt: float = 0.0                      # camera tilt from straight down, degrees
    light: float = 0.0                     # 0 even .. 1 strongly uneven (gradient + vignetting)
    background: str = "wood"               # one of photograph.BACKGROUNDS
    noise: float = 1.0                     # sensor noise sigma, 8-bit levels (mid grey)
    blur: float = 0.0                      # gaussian blur sigma, photo pixels
    jpeg_quality: int = 92
    glare: float = 0.0                     # 0..1 strength of glare patches on the glossy faces
    white_balance: tuple[float, float, float] = (1.0, 1.0, 1.0)
    exposure: float = 1.0
    tile_fraction: float | None = None     # tile side / photo's shorter side at its centre; None: by layout
    thickness: float = 0.02                # tile thickness / side
    shadow: float = 0.35                   # darkness of the soft cast shadow, 0..1
    sharpen: float = 0.5                   # the phone's unsharp mask (amount); halos along edges
    clutter: int = 0                       # things on the table beside the tiles (clutter.py): none unless asked


def twin_motif_puzzle(seed: int) -> tuple[Puzzle, Artwork]:
    """A random 3x3 puzzle of 4 motifs whose motifs 1 and 2 are drawn alike (the second named "twin"): a photo of it
    leaves edges in doubt, for the review tests and screenshots."""
    puzzle, _ = planted_puzzle(3, 3, 4, random.Random(seed))
    art = random_artwork(4, seed)
    motifs = dict(art.motifs)
    motifs[2] = replace(motifs[1], name="twin")
    art = replace(art, name="twins", motifs=motifs, key=("twins",))
    return Puzzle(puzzle.tiles, art.motif_names), art


def tier_conditions(tier: str, rng: np.random.Generator, layout: str | None = None,
                    size: tuple[int, int] | None = None) -> Conditions:
    """Random conditions within a tier's ranges; `layout` and `size` pin those two."""
    u = rng.uniform
    if tier == "easy":
        return Conditions(
            layout=layout or str(rng.choice(["scattered", "grid"])),
            size=size or (1600, 1200), tilt=u(0, 5), light=u(0, 0.2),
            background=str(rng.choice(["wood", "darkwood", "cloth", "stone"])),
            noise=u(0.5, 1.5), blur=u(0, 0.5), jpeg_quality=int(rng.integers(90, 96)),
            white_balance=tuple(float(g) for g in u(0.97, 1.03, 3)), exposure=u(0.95, 1.05),
            sharpen=u(0.3, 0.7))
    if tier == "medium":
        return Conditions(
            layout=layout or str(rng.choice(LAYOUTS)), size=size or _phone_size(rng, 1600, 2400, 0.25),
            tilt=u(0, 15), light=u(0, 0.5),
            background=str(rng.choice(["wood", "darkwood", "cloth", "stone", "laminate", "marble"])),
            noise=u(1.5, 4), blur=u(0, 1.0), jpeg_quality=int(rng.integers(80, 93)),
            glare=u(0, 0.3) if rng.random() < 0.3 else 0.0,
            white_balance=tuple(float(g) for g in u(0.9, 1.1, 3)), exposure=u(0.88, 1.08),
            thickness=u(0.015, 0.025), sharpen=u(0.2, 0.9))
    if tier == "hard":
        return Conditions(
            layout=layout or str(rng.choice(LAYOUTS)), size=size or _phone_size(rng, 1200, 3000, 0.3),
            tilt=u(5, 30), light=u(0.3, 0.9),
            background=str(rng.choice(["tablecloth", "marble", "stone", "laminate", "darkwood", "wood", "cloth"],
                                      p=[0.2, 0.2, 0.15, 0.15, 0.1, 0.1, 0.1])),
            noise=u(3, 7), blur=u(0.5, 1.8), jpeg_quality=int(rng.integers(65, 86)),
            glare=u(0.2, 0.7) if rng.random() < 0.7 else 0.0,
            white_balance=tuple(float(g) for g in u(0.8, 1.2, 3)), exposure=u(0.75, 1.15),
            thickness=u(0.015, 0.03), shadow=u(0.3, 0.6), sharpen=u(0.0, 1.2))
    raise ValueError(f"unknown tier {tier!r}: choose one of {', '.join(TIERS)}")


def _phone_size(rng: np.random.Generator, low: int, high: int, portrait: float) -> tuple[int, int]:
    """A 4:3 photo whose longer side is in [low, high], held upright with probability `portrait`."""
    w = int(rng.integers(low // 8, high // 8 + 1)) * 8
    h = w * 3 // 4
    return (h, w) if rng.random() < portrait else (w, h)


@dataclass(frozen=True)
class Scene:
    """A simulated photo and its ground truth."""

    image: np.ndarray  # H x W x 3 uint8 RGB, exactly what decoding `jpeg` gives
    jpeg: bytes        # the encoded photo, what a file on disk would hold
    truth: dict        # ground truth, JSON-ready


@dataclass(frozen=True)
class Pose:
    """Where one tile lies on the table: world centre, turn of its listed N from world up (degrees
    clockwise), and its cell when the layout is a grid."""

    tile: int  # 0-based index into the puzzle's tiles
    center: tuple[float, float]
    angle: float
    grid_rc: tuple[int, int] | None = None


# ---------------------------------------------------------------------------------------------
# Geometry of one tile

def local_square(side: float) -> np.ndarray:
    """The listed tile's sharp corners NW NE SE SW about its centre (y down)."""
    s = side / 2
    return np.array([[-s, -s], [s, -s], [s, s], [-s, s]], float)


def local_rounded(side: float, radius: float, steps: int = 6) -> np.ndarray:
    """The rounded outline of a printed face, clockwise from the NW arc."""
    r, s = radius * side, side / 2 - radius * side
    points = []
    for cx, cy, start in ((-s, -s, 180), (s, -s, 270), (s, s, 0), (-s, s, 90)):
        for a in np.radians(np.linspace(start, start + 90, steps)):
            points.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    return np.array(points)


def placed(points: np.ndarray, pose: Pose) -> np.ndarray:
    """Local tile points turned by the pose and moved to its centre (world)."""
    t = np.radians(pose.angle)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    return points @ rot.T + np.asarray(pose.center)


def seen_north(corners: np.ndarray) -> tuple[int, float, float]:
    """For photo corners of the listed tile (NW NE SE SW), the listed side whose outward normal points
    most nearly up, and the angles (degrees) of the most and second-most upward normals from straight up."""
    edge = np.roll(corners, -1, axis=0) - corners
    normal = np.column_stack([edge[:, 1], -edge[:, 0]])  # outward for a clockwise (y-down) outline
    angle = np.degrees(np.arccos(np.clip(-normal[:, 1] / np.linalg.norm(normal, axis=1), -1, 1)))
    order = np.argsort(angle)
    return int(order[0]), float(angle[order[0]]), float(angle[order[1]])


def convex_gap(a: np.ndarray, b: np.ndarray) -> float:
    """A lower bound on the distance between two convex polygons (negative when they overlap)."""
    best = -np.inf
    for poly in (a, b):
        edge = np.roll(poly, -1, axis=0) - poly
        normals = np.column_stack([edge[:, 1], -edge[:, 0]])
        normals /= np.linalg.norm(normals, axis=1, keepdims=True) + 1e-12
        pa, pb = a @ normals.T, b @ normals.T
        gaps = np.maximum(pb.min(axis=0) - pa.max(axis=0), pa.min(axis=0) - pb.max(axis=0))
        best = max(best, float(gaps.max()))
    return best


def hull(points: np.ndarray) -> np.ndarray:
    return cv2.convexHull(points.astype(np.float32)).reshape(-1, 2).astype(float)


@dataclass(frozen=True)
class Shot:
    """The camera and the tile size shared by every pose check."""

    camera: ph.Camera
    side: float       # world units
    height: float     # tile thickness, world units

    def corners(self, pose: Pose) -> np.ndarray:
        """Photo corners of the listed tile's top face, NW NE SE SW."""
        return ph.apply_homography(self.camera.homography(self.height), placed(local_square(self.side), pose))

    def body(self, pose: Pose) -> np.ndarray:
        """Photo outline of the whole tile, top face and side band."""
        square = placed(local_square(self.side), pose)
        bottom = ph.apply_homography(self.camera.homography(0.0), square)
        return hull(np.vstack([bottom, self.corners(pose)]))

    def upright_ok(self, pose: Pose) -> bool:
        _, first, second = seen_north(self.corners(pose))
        return first <= 45 - UPRIGHT_MARGIN and second >= 45 + UPRIGHT_MARGIN

    def inside(self, pose: Pose, margin: float) -> bool:
        w, h = self.camera.size
        b = self.body(pose)
        return bool(b.min() >= margin and b[:, 0].max() <= w - 1 - margin and b[:, 1].max() <= h - 1 - margin)

    def photo_side(self, pose: Pose) -> float:
        c = self.corners(pose)
        return float(np.mean(np.linalg.norm(np.roll(c, -1, axis=0) - c, axis=1)))

    def world_at(self, photo_xy) -> tuple[float, float]:
        x, y = ph.apply_homography(np.linalg.inv(self.camera.homography(0.0)), np.array([photo_xy], float))[0]
        return float(x), float(y)


# ---------------------------------------------------------------------------------------------
# Layouts

class LayoutError(RuntimeError):
    """The tiles do not fit the photo under these conditions (try a smaller tile_fraction)."""


def scattered_poses(shot: Shot, count: int, rng: np.random.Generator) -> list[Pose] | None:
    """Tiles dropped at random angles, spread over the photo as a hand spreads them: a loose grid with
    large jitter, or anywhere at all; None when this try does not fit."""
    w, h = shot.camera.size
    margin = 0.015 * min(w, h)
    cols = max(1, math.ceil(math.sqrt(count * w / h)))
    rows = math.ceil(count / cols)
    cells = sorted(rng.choice(rows * cols, size=count, replace=False).tolist())
    loose = rng.random() < 0.6
    bodies: list[np.ndarray] = []
    poses: list[Pose] = []
    for i, cell in enumerate(cells):
        r, c = divmod(cell, cols)
        for attempt in range(200):
            if loose and attempt < 120:
                jitter = 0.32 * (1 - attempt / 150)
                px = (c + 0.5 + rng.uniform(-jitter, jitter)) / cols * w
                py = (r + 0.5 + rng.uniform(-jitter, jitter)) / rows * h
            else:
                px, py = rng.uniform(0.08, 0.92) * w, rng.uniform(0.08, 0.92) * h
            pose = Pose(i, shot.world_at((px, py)), float(rng.uniform(0, 360)))
            if not (shot.inside(pose, margin) and shot.upright_ok(pose)):
                continue
            body = shot.body(pose)
            gap = 0.05 * shot.photo_side(pose)
            if all(convex_gap(body, other) >= gap for other in bodies):
                bodies.append(body)
                poses.append(pose)
                break
        else:
            return None
    return poses


def board_poses(shot: Shot, rows: int, cols: int, layout: str, rng: np.random.Generator) -> list[Pose] | None:
    """Tiles in a rows x cols board squared up to the photo: with gaps ('grid') or edge to edge with the
    small slips of a hand-laid board ('touching', 'solved'); pose i is cell i in reading order."""
    w, h = shot.camera.size
    margin = 0.015 * min(w, h)
    s = shot.side
    if layout == "grid":
        gap, slide, twist, board_twist = rng.uniform(0.06, 0.16) * s, 0.03 * s, 2.5, 5.0
    else:
        gap, slide, twist, board_twist = rng.uniform(0.004, 0.012) * s, 0.003 * s, 0.5, 4.0
    pitch = s + gap
    center = np.array(shot.world_at((w / 2 + rng.uniform(-0.03, 0.03) * w, h / 2 + rng.uniform(-0.03, 0.03) * h)))
    beta = np.radians(rng.uniform(-board_twist, board_twist))
    rot = np.array([[np.cos(beta), -np.sin(beta)], [np.sin(beta), np.cos(beta)]])
    footprints: list[np.ndarray] = []
    poses: list[Pose] = []
    for r in range(rows):
        for c in range(cols):
            cell = rot @ np.array([(c - (cols - 1) / 2) * pitch, (r - (rows - 1) / 2) * pitch]) + center
            for attempt in range(40):
                calm = 1 - attempt / 40
                pose = Pose(len(poses), tuple(cell + rng.uniform(-slide, slide, 2) * calm),
                            float(np.degrees(beta) + rng.uniform(-twist, twist) * calm),
                            (r, c))
                foot = placed(local_square(s), pose)
                if all(convex_gap(foot, other) >= 0.002 * s for other in footprints):
                    break
            else:
                return None
            if not (shot.inside(pose, margin) and shot.upright_ok(pose)):
                return None
            footprints.append(foot)
            poses.append(pose)
    return poses


def auto_fraction(layout: str, size: tuple[int, int], rows: int, cols: int, rng: np.random.Generator) -> float:
    """Tile side over the photo's shorter side, as people frame such a photo."""
    w, h = size
    count = rows * cols
    if layout == "scattered":
        return float(rng.uniform(0.17, 0.22) * math.sqrt(9 / count))
    long_cells, short_cells = max(rows, cols), min(rows, cols)
    fill = rng.uniform(0.72, 0.88)
    ratio = max(w, h) / min(w, h)
    return float(fill * min(1 / short_cells, ratio / long_cells) / (1.12 if layout == "grid" else 1.01))


# ---------------------------------------------------------------------------------------------
# Puzzles

def _resolve_puzzle(puzzle, seed: int, rows: int | None, cols: int | None, art: Artwork | None):
    """(name, Puzzle with motif names, Artwork, rows, cols, planted solution or None)."""
    planted = None
    if isinstance(puzzle, Puzzle):
        name = puzzle.source
        motifs = max((abs(e) for t in puzzle.tiles for e in t.edges), default=1)
        art = art or random_artwork(max(1, motifs), seed)
        if not puzzle.motif_names:
            puzzle = Puzzle(puzzle.tiles, {k: v for k, v in art.motif_names.items() if k <= motifs}, puzzle.source)
    elif puzzle.startswith("random:"):
        name = puzzle
        motifs = int(puzzle.split(":", 1)[1])
        rows, cols = rows or 3, cols or 3
        given, planted = planted_puzzle(rows, cols, motifs, random.Random(seed))
        art = art or random_artwork(motifs, seed)
        puzzle = Puzzle(given.tiles, art.motif_names, name)
    elif puzzle.startswith("family:"):
        family, motifs = _family_spec(puzzle)
        name = puzzle
        rows, cols = rows or 3, cols or 3
        given, planted = planted_puzzle(rows, cols, motifs, random.Random(seed))
        art = art or families.family_artwork(family, motifs, seed)
        puzzle = Puzzle(given.tiles, art.motif_names, name)
    elif puzzle in PUZZLE_ARTWORK:
        name = puzzle
        path = SAMPLES / f"{puzzle}.tiles"
        puzzle = parse_tiles(path.read_text(), str(path))
        art = art or artwork(name)
    else:
        raise ValueError(f"unknown puzzle {puzzle!r}: a name in {PUZZLE_ARTWORK}, 'random:<motifs>', "
                         f"'family:<family>[:<motifs>]' or a Puzzle")
    count = len(puzzle.tiles)
    if rows is None and cols is None:
        rows = cols = round(math.sqrt(count))
    rows = rows or count // cols
    cols = cols or count // rows
    if rows * cols != count:
        raise ValueError(f"{count} tiles do not fill a {rows}x{cols} board")
    return name, puzzle, art, rows, cols, planted


def _family_spec(puzzle: str) -> tuple[str, int]:
    """'family:NAME' or 'family:NAME:MOTIFS' -> (NAME, MOTIFS); 4 motifs, the usual count, when not given."""
    parts = puzzle.split(":")
    if len(parts) not in (2, 3) or (len(parts) == 3 and not parts[2].isdigit()):
        raise ValueError(f"bad family puzzle {puzzle!r}: write 'family:<family>' or 'family:<family>:<motifs>'")
    families.family(parts[1])
    return parts[1], int(parts[2]) if len(parts) == 3 else 4


def _art_edges(puzzle: Puzzle, art: Artwork):
    """Turns the puzzle's motif numbers into the artwork's (a tile file numbers motifs as they appear)."""
    by_name = {n: k for k, n in art.motif_names.items()}
    mapping = {k: by_name.get(n, k) for k, n in puzzle.motif_names.items()}
    return lambda edges: tuple(int(np.sign(e)) * mapping.get(abs(e), abs(e)) for e in edges)


def _solution_for(puzzle: Puzzle, rows: int, cols: int, planted: Solution | None) -> Solution:
    if planted is not None:
        return planted
    result = solve(puzzle, rows, cols, first=True)
    if not result.solutions:
        raise ValueError(f"{puzzle.source} has no {rows}x{cols} solution to lay out as 'solved'")
    return result.solutions[0]


# ---------------------------------------------------------------------------------------------
# The scene

def _streams(puzzle_name: str, seed: int):
    """Independent random streams for each decision, so changing one condition moves nothing else."""
    base = zlib.crc32(puzzle_name.encode())
    names = ("conditions", "camera", "layout", "table", "tiles", "light", "sensor", "glare", "family", "clutter")
    return {k: np.random.default_rng([seed, base, i]) for i, k in enumerate(names)}  # new streams go last


def make_scene(puzzle: str | Puzzle, seed: int, tier: str = "medium", conditions: Conditions | None = None,
               rows: int | None = None, cols: int | None = None, art: Artwork | None = None,
               **overrides) -> Scene:
    """A photo of the puzzle's tiles and its ground truth; `overrides` replace fields of the conditions."""
    name, puzzle, art, rows, cols, planted = _resolve_puzzle(puzzle, seed, rows, cols, art)
    rng = _streams(name, seed)
    if conditions is None:
        conditions = tier_conditions(tier, rng["conditions"], overrides.get("layout"), overrides.get("size"))
        if name.startswith("family:"):
            conditions = families.vary_conditions(conditions, tier, art, rng["family"])
    known = {f.name for f in fields(Conditions)}
    unknown = set(overrides) - known
    if unknown:
        raise TypeError(f"unknown condition(s) {sorted(unknown)}: choose from {sorted(known)}")
    conditions = replace(conditions, **overrides)
    if conditions.layout not in LAYOUTS:
        raise ValueError(f"unknown layout {conditions.layout!r}: choose one of {', '.join(LAYOUTS)}")
    conditions = replace(conditions, size=tuple(int(v) for v in conditions.size),
                         white_balance=tuple(float(v) for v in conditions.white_balance))

    camera = ph.phone_camera(conditions.size, conditions.tilt, rng["camera"])
    w, h = conditions.size
    landscape = w >= h
    board = (rows, cols) if (cols >= rows) == landscape else (cols, rows)
    fraction = conditions.tile_fraction or auto_fraction(conditions.layout, conditions.size, *board, rng["layout"])
    layout_rng = rng["layout"]
    poses = None
    for attempt in range(60):
        side = fraction * min(w, h) * 0.97 ** (attempt // 3)
        shot = Shot(camera, side, conditions.thickness * side)
        if conditions.layout == "scattered":
            poses = scattered_poses(shot, len(puzzle.tiles), layout_rng)
        else:
            poses = board_poses(shot, *board, conditions.layout, layout_rng)
        if poses is not None:
            break
    if poses is None:
        raise LayoutError(f"{len(puzzle.tiles)} tiles do not fit a {w}x{h} photo as '{conditions.layout}'")
    conditions = replace(conditions, tile_fraction=round(side / min(w, h), 5))

    # which tile lies where, and turned how far (whole quarter turns come from the angle)
    order = list(range(len(puzzle.tiles)))
    tiles_rng = rng["tiles"]
    if conditions.layout == "solved":
        solution = _solution_for(puzzle, rows, cols, planted)
        if (rows, cols) != board:
            solution = solution.rotated()
        if tiles_rng.random() < 0.5:
            solution = solution.rotated().rotated()
        by_id = {t.id: i for i, t in enumerate(puzzle.tiles)}
        cells = [p for row in solution.cells for p in row]
        poses = [replace(pose, tile=by_id[p.tile], angle=pose.angle + 90 * p.turns)
                 for pose, p in zip(poses, cells)]
    else:
        tiles_rng.shuffle(order)
        quarter = 0 if conditions.layout == "scattered" else 1
        poses = [replace(pose, tile=order[i], angle=pose.angle + 90 * quarter * int(tiles_rng.integers(4)))
                 for i, pose in enumerate(poses)]

    photo = _render(puzzle, art, shot, poses, conditions, rng)
    jpeg = ph.encode_jpeg(photo, conditions.jpeg_quality)
    image = ph.decode_jpeg(jpeg)
    truth = _truth(name, seed, tier, conditions, puzzle, art, rows, cols, shot, poses)
    return Scene(image, jpeg, truth)


def _render(puzzle: Puzzle, art: Artwork, shot: Shot, poses: list[Pose], conditions: Conditions, rng) -> np.ndarray:
    """Compose the table, shadows, tiles and glare in the table plane, then photograph it."""
    camera = shot.camera
    canvas = ph.canvas_for(camera)
    cw, ch = canvas.size
    to_canvas = np.linalg.inv(ph.translation(*canvas.origin))  # world -> canvas pixels
    table = ph.table_texture(conditions.background, (ch, cw), shot.side, rng["table"])

    light_rng = rng["light"]
    towards = float(light_rng.uniform(0, 2 * np.pi))
    # shadows fall away from the brighter side of the frame
    away = -np.array([np.cos(towards), np.sin(towards)])
    footprints = [ph.apply_homography(to_canvas, placed(local_square(shot.side), p)) for p in poses]
    ph.lay_shadows(table, footprints, shot.side, away, conditions.shadow)
    if conditions.clutter:
        lay_clutter(table, footprints, shot.side, conditions.clutter, canvas.to_photo, camera.size, away,
                    conditions.shadow, rng["clutter"])

    glare = None
    if conditions.glare > 0:
        small = ph.glare_field((max(ch // 8, 8), max(cw // 8, 8)), shot.side / 8, conditions.glare, rng["glare"])
        glare = cv2.resize(small, (cw, ch), interpolation=cv2.INTER_LINEAR)

    tiles_rng = rng["tiles"]
    edge_colour = np.array([0.60, 0.57, 0.52], np.float32) * np.float32(tiles_rng.uniform(0.85, 1.1))
    heights = (0.0, shot.height / 2, shot.height)
    outline = local_rounded(shot.side, FACE_CORNER_RADIUS)
    by_height = [[ph.apply_homography(canvas.from_world(camera.homography(z)), placed(outline, p)) for p in poses]
                 for z in heights]
    # paint by height, not by tile: a nearer tile's band must not cover a farther tile's face; each slice
    # of the band is the hull of two outlines, so no steps show however far the top is displaced
    for k, shade in enumerate((0.6, 0.9)):
        for lower, upper in zip(by_height[k], by_height[k + 1]):
            ph.lay_band(table, hull(np.vstack([lower, upper])), edge_colour * np.float32(shade))

    size = int(np.clip(np.ceil(1.25 * max(shot.photo_side(p) for p in poses) / 32) * 32, 64, 1024))
    convert = _art_edges(puzzle, art)
    paper = np.array([0.965, 0.975, 0.99], np.float32) * np.float32(tiles_rng.uniform(0.96, 1.0))
    top = canvas.from_world(camera.homography(shot.height))
    for pose, polygon in zip(poses, by_height[-1]):
        face = _drawn(convert(puzzle.tiles[pose.tile].edges), art, size).astype(np.float32) / 255.0
        face = _printed(face, paper, tiles_rng)
        ph.lay_face(table, face, top @ _face_to_world(pose, shot.side, size), polygon, glare)

    photo = cv2.warpPerspective(table, canvas.to_photo, camera.size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    gain = ph.light_gain(conditions.light, towards, light_rng)
    return ph.develop(photo, gain, conditions.white_balance, conditions.exposure, conditions.blur,
                      conditions.noise, conditions.sharpen, rng["sensor"])


@lru_cache(maxsize=64)
def _drawn(edges: tuple[int, int, int, int], art: Artwork, size: int) -> np.ndarray:
    """draw_tile, remembered: benchmarks draw the same tiles at the same size scene after scene."""
    face = draw_tile(edges, art, size)
    face.setflags(write=False)
    return face


def _printed(face: np.ndarray, paper: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The drawn face as printed on card: ink on slightly grey-blue stock, a faint bow in the card."""
    n = face.shape[0]
    ramp = np.linspace(-1, 1, n, dtype=np.float32)
    t = rng.uniform(0, 2 * np.pi)
    bow = 1 + 0.025 * (np.cos(t) * ramp[None, :] + np.sin(t) * ramp[:, None])
    face[..., :3] *= paper * bow[..., None]
    return face


def _face_to_world(pose: Pose, side: float, size: int) -> np.ndarray:
    """Pixels of a drawn face (size x size, pixel centres at integers) to the world points of the tile."""
    scale = side / size
    to_local = np.array([[scale, 0, (0.5 - size / 2) * scale], [0, scale, (0.5 - size / 2) * scale], [0, 0, 1]])
    t = np.radians(pose.angle)
    turn = np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0], [0, 0, 1]])
    return ph.translation(*pose.center) @ turn @ to_local


def conditions_shown(conditions: Conditions) -> dict:
    """The conditions as the truth records them: things on the table only where there are some, so that the truth of
    every photo made before they could be asked for stays as it was."""
    shown = asdict(conditions)
    if not shown["clutter"]:
        del shown["clutter"]
    return shown


def _truth(name, seed, tier, conditions, puzzle: Puzzle, art: Artwork, rows, cols, shot: Shot, poses) -> dict:
    """The ground truth in full-resolution photo pixels (pixel centres at integer coordinates)."""
    tiles = []
    for pose in poses:
        corners = shot.corners(pose)
        north, _, _ = seen_north(corners)
        turns = (-north) % 4
        listed = puzzle.tiles[pose.tile]
        edges = turn_edges(listed.edges, turns)
        seen = np.roll(corners, -north, axis=0)
        entry = {
            "id": listed.id,
            "edges": list(edges),
            "labels": puzzle.labels(edges),
            "turns": turns,
            "center": [round(float(v), 3) for v in seen.mean(axis=0)],
            "corners": [[round(float(x), 3), round(float(y), 3)] for x, y in seen],
        }
        if pose.grid_rc is not None:
            entry["grid_rc"] = list(pose.grid_rc)
        tiles.append(entry)
    if conditions.layout != "scattered":
        tiles.sort(key=lambda t: tuple(t["grid_rc"]))
    halves = art.half_names
    return {
        "image_size": list(conditions.size),
        "puzzle": name,
        "seed": seed,
        "tier": tier,
        "conditions": _jsonable(conditions_shown(conditions)),
        "rows": rows,
        "cols": cols,
        "motifs": {str(k): v for k, v in sorted(puzzle.motif_names.items())},
        "halves": {v: halves.get(v, {"+": "+", "-": "-"}) for _, v in sorted(puzzle.motif_names.items())},
        "layout": conditions.layout,
        "coords_note": "full-resolution pixels, pixel centres at integer coordinates; corners of the top face, "
                       "clockwise from the corner between the W and N sides",
        "tiles": tiles,
    }


def _jsonable(value):
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, (np.floating, float)):
        return round(float(value), 5)
    if isinstance(value, np.integer):
        return int(value)
    return value


def truth_json(truth: dict) -> str:
    return json.dumps(truth, indent=1) + "\n"


def save_scene(scene: Scene, path: Path) -> None:
    """Write the photo to `path` and its truth beside it (.truth.json), each atomically."""
    path = Path(path)
    _atomic_write(path, scene.jpeg)
    _atomic_write(path.with_suffix(".truth.json"), truth_json(scene.truth).encode())


def _atomic_write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.chmod(temp, 0o644)  # mkstemp makes it private; these are ordinary repository files
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
