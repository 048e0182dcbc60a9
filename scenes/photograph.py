"""A simulated phone photo of tiles on a table: the camera, the table surface, shadows, light and sensor.

Everything is composed in the table plane ("canvas", about one canvas pixel per photo pixel at the photo's
centre) and then seen through one pinhole camera, so the corners a scene reports are exact. Colours are
float32 RGB in 0..1 until the sensor quantises them.
"""
from __future__ import annotations

import io
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

BACKGROUNDS = ("wood", "darkwood", "cloth", "tablecloth", "stone", "marble", "laminate", "granite", "whitedesk",
               "slate")


# ---------------------------------------------------------------------------------------------
# Camera

@dataclass(frozen=True)
class Camera:
    """A pinhole camera above the table. World: x right, y towards the photo's bottom, z into the table."""

    matrix: np.ndarray    # 3x3 intrinsics K
    rotation: np.ndarray  # 3x3, world -> camera
    position: np.ndarray  # camera centre in world units (canvas pixels); z < 0 is above the table
    size: tuple[int, int]  # photo width, height

    def homography(self, height: float = 0.0) -> np.ndarray:
        """Plane z = -height (a tile's top face when height is its thickness) to photo pixels."""
        r, t = self.rotation, -self.rotation @ self.position
        return self.matrix @ np.column_stack([r[:, 0], r[:, 1], t - height * r[:, 2]])


def _rodrigues(axis: np.ndarray, angle: float) -> np.ndarray:
    rotation, _ = cv2.Rodrigues((np.asarray(axis, float) * angle).reshape(3, 1))
    return rotation


def phone_camera(size: tuple[int, int], tilt: float, rng: np.random.Generator) -> Camera:
    """A phone's main camera (about 26 mm equivalent) tilted `tilt` degrees from straight down.

    The photographer stands at the photo's bottom, so the camera leans towards the top (a little sideways
    at random); the optical axis meets the table at the world origin one focal length away, which makes the
    canvas scale about 1 at the photo's centre.
    """
    w, h = size
    focal = 0.72 * max(w, h) * rng.uniform(0.95, 1.08)
    k = np.array([[focal, 0, (w - 1) / 2], [0, focal, (h - 1) / 2], [0, 0, 1]])
    lean = np.radians(rng.uniform(-25, 25))
    rotation = _rodrigues(np.array([np.cos(lean), np.sin(lean), 0.0]), -np.radians(tilt))
    axis = rotation.T @ np.array([0.0, 0.0, 1.0])
    return Camera(k, rotation, -focal * axis, (w, h))


def apply_homography(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """N x 2 points mapped by a 3x3 homography."""
    p = np.column_stack([points, np.ones(len(points))]) @ h.T
    return p[:, :2] / p[:, 2:3]


def translation(dx: float, dy: float) -> np.ndarray:
    return np.array([[1.0, 0, dx], [0, 1.0, dy], [0, 0, 1.0]])


@dataclass(frozen=True)
class Canvas:
    """The patch of table the photo sees, as an image: canvas pixel (u, v) is world (u + x0, v + y0)."""

    origin: tuple[float, float]  # world x0, y0 of canvas pixel (0, 0)
    size: tuple[int, int]        # width, height
    to_photo: np.ndarray         # canvas pixels -> photo pixels

    def from_world(self, h_world: np.ndarray) -> np.ndarray:
        """A homography into the world plane, re-expressed into canvas pixels."""
        return np.linalg.inv(self.to_photo) @ h_world


def canvas_for(camera: Camera, pad: int = 8) -> Canvas:
    """The smallest canvas whose image covers the photo (plus `pad` photo pixels for blur at the rim)."""
    w, h = camera.size
    h0 = camera.homography(0.0)
    rim = np.array([[-pad, -pad], [w + pad, -pad], [w + pad, h + pad], [-pad, h + pad]], float)
    world = apply_homography(np.linalg.inv(h0), rim)
    x0, y0 = np.floor(world.min(axis=0)) - 2
    x1, y1 = np.ceil(world.max(axis=0)) + 2
    return Canvas((float(x0), float(y0)), (int(x1 - x0), int(y1 - y0)), h0 @ translation(x0, y0))


# ---------------------------------------------------------------------------------------------
# Table surfaces

def smooth_noise(shape: tuple[int, int], cell: tuple[float, float], rng: np.random.Generator) -> np.ndarray:
    """Unit-variance-ish smooth noise: a random grid every cell = (cy, cx) pixels, bicubically enlarged.

    Unequal cells stretch the noise into streaks (wood grain, cloth folds).
    """
    h, w = shape
    cy, cx = max(cell[0], 1.0), max(cell[1], 1.0)
    gh, gw = int(np.ceil(h / cy)) + 4, int(np.ceil(w / cx)) + 4
    grid = rng.standard_normal((gh, gw), dtype=np.float32)
    big = cv2.resize(grid, (int(np.ceil(gw * cx)), int(np.ceil(gh * cy))), interpolation=cv2.INTER_CUBIC)
    oy, ox = int(cy * 1.5), int(cx * 1.5)
    return big[oy:oy + h, ox:ox + w]


def fractal_noise(shape, cell, rng, octaves: int = 4, falloff: float = 0.55) -> np.ndarray:
    """Sum of octaves of smooth_noise, each half the cell and `falloff` the amplitude of the last."""
    out = np.zeros(shape, np.float32)
    amp = 1.0
    for k in range(octaves):
        out += amp * smooth_noise(shape, (cell[0] / 2 ** k, cell[1] / 2 ** k), rng)
        amp *= falloff
    return out


def _rotated(make, shape: tuple[int, int], angle: float, detail: float) -> np.ndarray:
    """A texture made axis-aligned by `make(shape)` at `detail` times the resolution, then turned
    `angle` degrees and enlarged in one warp to fill `shape` (textures are the costliest pixels)."""
    h, w = shape
    a = np.radians(angle)
    c, s = abs(np.cos(a)), abs(np.sin(a))
    sw = int(np.ceil((w * c + h * s) * detail)) + 4
    sh = int(np.ceil((w * s + h * c) * detail)) + 4
    small = make((sh, sw))
    m = cv2.getRotationMatrix2D((sw / 2, sh / 2), angle, 1 / detail)
    m[:, 2] += np.array([w / 2 - sw / 2, h / 2 - sh / 2])
    return cv2.warpAffine(small, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _mix(colours: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """Per-pixel blend of two RGB colours (2 x 3) by weight 0..1 (H x W)."""
    a, b = np.asarray(colours[0], np.float32), np.asarray(colours[1], np.float32)
    return a + weight[..., None] * (b - a)


def wood(shape, tile: float, rng: np.random.Generator, dark: bool = False) -> np.ndarray:
    """Planks of oak (or walnut): grain streaks along the plank, growth rings, staggered butt joints."""
    h, w = shape
    plank = tile * rng.uniform(0.8, 1.5)
    if dark:
        base = np.array([[0.40, 0.22, 0.11], [0.20, 0.10, 0.05]]) * rng.uniform(0.85, 1.15)
    else:
        base = np.array([[0.70, 0.50, 0.32], [0.45, 0.28, 0.15]]) * rng.uniform(0.9, 1.1, 3)
    y = np.arange(h, dtype=np.float32)[:, None]
    x = np.arange(w, dtype=np.float32)[None, :]
    index = np.floor((y + rng.uniform(0, plank)) / plank).astype(np.int32)
    across = ((y + 0) % plank) / plank
    planks = int(index.max()) + 1
    # each plank its own shade and its own grain; rings are stretched sines warped by slow noise
    shade = rng.uniform(-0.10, 0.10, planks + 1).astype(np.float32)[index]
    streak = fractal_noise(shape, (tile * 0.02, tile * 1.5), rng, octaves=3)
    fine = smooth_noise(shape, (0.8, tile * 0.35), rng)  # pores: the finest streaks the photo resolves
    warp = smooth_noise(shape, (tile * 0.6, tile * 3.0), rng) * tile * 0.2
    rings = np.zeros(shape, np.float32)
    for period, width in ((rng.uniform(0.04, 0.07), 0.10), (rng.uniform(0.013, 0.02), 0.18)):
        phase = ((y + warp * (period * 15) + 3 * plank * index) / (tile * period)) % 1.0
        rings += np.exp(-((phase - 0.5) / width) ** 2)  # thin late-wood lines, not a smooth wave
    darkness = np.clip(0.42 + 0.10 * streak + 0.09 * fine + 0.22 * rings + shade, 0, 1)
    out = _mix(base, darkness)
    out *= (1 + 0.06 * fractal_noise(shape, (tile * 0.3, tile * 0.3), rng, octaves=2))[..., None]
    # joints: a dark line between planks, and butt ends staggered every few tiles along each plank
    seam = np.exp(-((np.minimum(across, 1 - across) * plank) / max(tile * 0.004, 0.6)) ** 2)
    ends = rng.uniform(0, 6 * tile, planks + 1).astype(np.float32)[index]
    along = (x + ends) % (tile * rng.uniform(4, 7))
    seam = np.maximum(seam, np.exp(-(along / max(tile * 0.005, 0.7)) ** 2) * (along < plank * 5))
    out *= (1 - 0.6 * seam)[..., None]
    return out


def cloth(shape, tile: float, rng: np.random.Generator) -> np.ndarray:
    """A woven tablecloth or felt mat: one colour, thread weave, soft folds."""
    palette = np.array([[0.16, 0.18, 0.22], [0.10, 0.22, 0.14], [0.45, 0.42, 0.36], [0.12, 0.16, 0.32],
                        [0.42, 0.10, 0.10], [0.30, 0.30, 0.30]])
    colour = palette[rng.integers(len(palette))] * rng.uniform(0.85, 1.15)
    weave = _weave(shape, tile, rng)
    folds = smooth_noise(shape, (tile * 1.5, tile * 0.7), rng)
    mottle = fractal_noise(shape, (tile * 0.2, tile * 0.2), rng, octaves=3)
    gain = (1 + 0.18 * weave + 0.10 * folds + 0.05 * mottle)
    return colour.astype(np.float32) * gain[..., None]


def _weave(shape, tile: float, rng: np.random.Generator) -> np.ndarray:
    """Thread texture in -1..1: warp and weft a few pixels apart, with irregular threads."""
    h, w = shape
    period = max(2.6, tile * rng.uniform(0.010, 0.016))
    y = np.arange(h, dtype=np.float32)[:, None]
    x = np.arange(w, dtype=np.float32)[None, :]
    jitter = smooth_noise(shape, (tile * 0.05, tile * 0.05), rng) * period * 0.15
    warp = np.sin(2 * np.pi * (x + jitter) / period)
    weft = np.sin(2 * np.pi * (y - jitter) / period)
    threads = 0.5 * (warp + weft) * np.sign(warp * weft + 1e-3)
    return np.clip(threads + 0.3 * smooth_noise(shape, (period * 4, period * 0.8), rng), -1, 1)


def tablecloth(shape, tile: float, rng: np.random.Generator) -> np.ndarray:
    """A gingham (checked) cloth: busy, with strong edges that are not tiles."""
    h, w = shape
    colours = np.array([[0.70, 0.10, 0.12], [0.10, 0.25, 0.60], [0.15, 0.45, 0.20], [0.15, 0.15, 0.15]])
    ink = colours[rng.integers(len(colours))]
    paper = np.array([0.92, 0.90, 0.86])
    stripe = tile * rng.uniform(0.18, 0.35)
    y = np.arange(h, dtype=np.float32)[:, None]
    x = np.arange(w, dtype=np.float32)[None, :]
    soft = 1.2
    sx = np.clip((np.abs(((x / stripe) % 2) - 1) - 0.5) * stripe / soft + 0.5, 0, 1)
    sy = np.clip((np.abs(((y / stripe) % 2) - 1) - 0.5) * stripe / soft + 0.5, 0, 1)
    cover = 1 - (1 - 0.55 * sx) * (1 - 0.55 * sy)
    out = _mix(np.stack([paper, ink]), cover)
    folds = smooth_noise(shape, (tile * 1.2, tile * 0.8), rng)
    out *= (1 + 0.10 * _weave(shape, tile, rng) + 0.08 * folds)[..., None]
    return out


def stone(shape, tile: float, rng: np.random.Generator) -> np.ndarray:
    """A granite worktop: grey speckle of several grain sizes."""
    base = np.array([0.52, 0.50, 0.48]) * rng.uniform(0.7, 1.2)
    grain = fractal_noise(shape, (tile * 0.015, tile * 0.015), rng, octaves=2, falloff=0.7)
    blotch = fractal_noise(shape, (tile * 0.4, tile * 0.4), rng, octaves=3)
    speck = smooth_noise(shape, (1.5, 1.5), rng)
    dark = np.clip((grain - 1.0) * 1.5, 0, 1) + np.clip((speck - 1.6), 0, 1)
    light = np.clip((-grain - 1.2) * 1.5, 0, 1)
    v = 1 + 0.08 * blotch - 0.55 * dark + 0.35 * light
    tint = np.array([1.0, 0.97, 0.95])[None, None, :] + 0.04 * smooth_noise(shape, (tile, tile), rng)[..., None]
    return (base * tint * v[..., None]).astype(np.float32)


def marble(shape, tile: float, rng: np.random.Generator) -> np.ndarray:
    """A light marble with dark veins: thin lines that a line finder may mistake for tile sides."""
    h, w = shape
    base = np.array([0.82, 0.80, 0.77]) * rng.uniform(0.9, 1.05)
    turbulence = fractal_noise(shape, (tile * 1.2, tile * 1.2), rng, octaves=4)
    x = np.arange(w, dtype=np.float32)[None, :]
    y = np.arange(h, dtype=np.float32)[:, None]
    phase = (x * 0.8 + y * 0.6) / (tile * 1.6) + 0.45 * turbulence
    strength = np.clip(smooth_noise(shape, (tile * 0.8, tile * 0.8), rng), 0, 1)
    veins = np.exp(-(np.sin(np.pi * phase) / 0.06) ** 2) * strength
    cloud = fractal_noise(shape, (tile * 0.3, tile * 0.3), rng, octaves=3)
    v = 1 - 0.35 * veins + 0.03 * cloud
    return (base * v[..., None]).astype(np.float32)


def laminate(shape, tile: float, rng: np.random.Generator) -> np.ndarray:
    """A pale desk top, close in colour to the tile faces: low contrast on purpose."""
    return plain_top(shape, rng, [0.78, 0.76, 0.71], (0.85, 1.05), (3.0, 0.015), (tile * 1.0, 0.03))


def plain_top(shape, rng: np.random.Generator, colour, brightness: tuple[float, float],
              fine: tuple[float, float], slow: tuple[float, float]) -> np.ndarray:
    """A plain table top of one colour: a fine grain and a slow wash, each as (scale in pixels, amplitude)."""
    base = np.array(colour) * rng.uniform(*brightness)
    grain = fractal_noise(shape, (fine[0], fine[0]), rng, octaves=2)
    wash = smooth_noise(shape, (slow[0], slow[0]), rng)
    return (base * (1 + fine[1] * grain + slow[1] * wash)[..., None]).astype(np.float32)


def granite(shape, tile: float, rng: np.random.Generator) -> np.ndarray:
    """A polished granite worktop: crystals of black, white and pink or grey a few millimetres across."""
    palettes = np.array([[[0.08, 0.08, 0.09], [0.62, 0.46, 0.42], [0.85, 0.84, 0.82]],   # rosa: black, pink, white
                         [[0.06, 0.06, 0.07], [0.38, 0.38, 0.40], [0.80, 0.80, 0.80]],   # salt and pepper
                         [[0.04, 0.04, 0.05], [0.16, 0.15, 0.15], [0.45, 0.42, 0.40]]])  # dark (absolute black-ish)
    colours = palettes[rng.integers(len(palettes))] * rng.uniform(0.9, 1.1)
    crystal = max(1.2, tile * rng.uniform(0.006, 0.012))  # 1-3 mm grains on a tile of ~8 cm
    a = smooth_noise(shape, (crystal, crystal), rng)
    b = smooth_noise(shape, (crystal * 1.7, crystal * 1.7), rng)
    out = np.empty(shape + (3,), np.float32)
    out[:] = colours[1]
    out[a > 0.55] = colours[0]
    out[(b > 0.7) & (a < 0.3)] = colours[2]
    return out * (1 + 0.05 * fractal_noise(shape, (tile * 0.5, tile * 0.5), rng, octaves=2))[..., None]


def whitedesk(shape, tile: float, rng: np.random.Generator) -> np.ndarray:
    """A white office desk: brighter than most tile faces, almost no texture."""
    return plain_top(shape, rng, [0.93, 0.93, 0.92], (0.95, 1.03), (2.0, 0.01), (tile * 1.5, 0.02))


def slate(shape, tile: float, rng: np.random.Generator) -> np.ndarray:
    """A dark matte table (slate, black-stained wood, a dark mat): where dark tiles lie hardest to see."""
    base = np.array([0.10, 0.10, 0.11]) * rng.uniform(0.7, 1.4) * rng.uniform(0.9, 1.1, 3)
    mottle = fractal_noise(shape, (tile * 0.15, tile * 0.15), rng, octaves=3)
    return (base * (1 + 0.12 * mottle)[..., None]).astype(np.float32)


def table_texture(kind: str, shape: tuple[int, int], tile: float, rng: np.random.Generator,
                  detail: float = 0.5) -> np.ndarray:
    """The table surface (H x W x 3 float32, 0..1) at `tile` pixels per tile side, turned at random.

    It is made at `detail` times the resolution: a phone photo of a table is soft at the pixel level
    anyway, and the sensor adds the finest grain.
    """
    full = tile
    tile = tile * detail
    makers = {
        "wood": lambda s: wood(s, tile, rng),
        "darkwood": lambda s: wood(s, tile, rng, dark=True),
        "cloth": lambda s: cloth(s, tile, rng),
        "tablecloth": lambda s: tablecloth(s, tile, rng),
        "stone": lambda s: stone(s, tile, rng),
        "marble": lambda s: marble(s, tile, rng),
        "laminate": lambda s: laminate(s, tile, rng),
        "granite": lambda s: granite(s, tile, rng),
        "whitedesk": lambda s: whitedesk(s, tile, rng),
        "slate": lambda s: slate(s, tile, rng),
    }
    if kind not in makers:
        raise ValueError(f"unknown background {kind!r}: choose one of {', '.join(BACKGROUNDS)}")
    # planks and checks run roughly along the photo's axes, as a photographer squares up to the table
    angle = rng.choice([0.0, 90.0]) + rng.uniform(-12, 12)
    return np.clip(_rotated(makers[kind], shape, angle, tile / full), 0, 1).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# Tiles on the table

def polygon_mask(points: np.ndarray, origin: tuple[int, int], shape: tuple[int, int]) -> np.ndarray:
    """Anti-aliased coverage 0..1 (float32) of a polygon in a patch whose (0, 0) is canvas `origin`."""
    mask = np.zeros(shape, np.uint8)
    local = np.round((points - np.asarray(origin, float)) * 16).astype(np.int32)
    cv2.fillPoly(mask, [local], 255, cv2.LINE_AA, 4)
    return mask.astype(np.float32) / 255.0


def box_around(points: np.ndarray, pad: float, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """Integer patch (x0, y0, x1, y1) around points, padded and clipped to a canvas of `size`."""
    x0, y0 = np.floor(points.min(axis=0) - pad).astype(int)
    x1, y1 = np.ceil(points.max(axis=0) + pad).astype(int) + 1
    return max(x0, 0), max(y0, 0), min(x1, size[0]), min(y1, size[1])


def lay_shadows(canvas: np.ndarray, footprints: list[np.ndarray], side: float, light_dir: np.ndarray,
                strength: float) -> None:
    """Darken the table under and beside each tile: a tight contact shadow and a soft cast one.

    Shadows are smooth, so they are worked out at a quarter of the resolution and enlarged.
    """
    h, w = canvas.shape[:2]
    offset = light_dir * side * 0.03
    soft = side * 0.035
    pad = soft * 3 + np.abs(offset).max() + 2
    k = 4.0
    for outline in footprints:
        x0, y0, x1, y1 = box_around(outline, pad, (w, h))
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        small = (max(int(np.ceil((y1 - y0) / k)), 1), max(int(np.ceil((x1 - x0) / k)), 1))
        origin = (x0 / k, y0 / k)
        contact = cv2.GaussianBlur(polygon_mask(outline / k, origin, small), (0, 0), max(side * 0.006 / k, 0.5))
        cast = cv2.GaussianBlur(polygon_mask((outline + offset) / k, origin, small), (0, 0), soft / k)
        dark = 1 - (1 - 0.45 * contact) * (1 - strength * cast)
        dark = cv2.resize(dark, (small[1] * int(k), small[0] * int(k)), interpolation=cv2.INTER_LINEAR)
        dark = dark[:y1 - y0, :x1 - x0]
        # shade is a little cooler than the lit table: it is lit by the room, not the lamp
        canvas[y0:y1, x0:x1] *= 1 - dark[..., None] * np.array([1.0, 0.97, 0.93], np.float32)


def lay_band(canvas: np.ndarray, outline: np.ndarray, colour: np.ndarray) -> None:
    """Paint one slice of a tile's cardboard side (its outline at one height) in a flat colour."""
    h, w = canvas.shape[:2]
    x0, y0, x1, y1 = box_around(outline, 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    patch = canvas[y0:y1, x0:x1]
    a = polygon_mask(outline, (x0, y0), (y1 - y0, x1 - x0))[..., None]
    patch += a * (colour - patch)


def lay_face(canvas: np.ndarray, face: np.ndarray, face_to_canvas: np.ndarray, outline: np.ndarray,
             glare: np.ndarray | None = None) -> None:
    """Paint a printed face (float RGBA 0..1) warped by `face_to_canvas` inside the patch around
    `outline`, washed out towards white where the glare field is strong."""
    h, w = canvas.shape[:2]
    x0, y0, x1, y1 = box_around(outline, 2, (w, h))
    if x1 <= x0 or y1 <= y0:
        return
    shape = (y1 - y0, x1 - x0)
    m = translation(-x0, -y0) @ face_to_canvas
    warped = cv2.warpPerspective(face, m, (shape[1], shape[0]), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    alpha, rgb = warped[..., 3:4], warped[..., :3]
    if glare is not None:
        rgb = rgb + glare[y0:y1, x0:x1, None] * (0.97 - rgb)
    patch = canvas[y0:y1, x0:x1]
    patch += alpha * (rgb - patch)


def glare_field(shape: tuple[int, int], side: float, strength: float, rng: np.random.Generator) -> np.ndarray:
    """Where a lamp or window reflects off glossy print: one or two soft elongated patches (0..1)."""
    h, w = shape
    out = np.zeros(shape, np.float32)
    if strength <= 0:
        return out
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h
        a, b = side * rng.uniform(0.5, 1.4), side * rng.uniform(0.15, 0.4)
        t = rng.uniform(0, np.pi)
        u = (xx - cx) * np.cos(t) + (yy - cy) * np.sin(t)
        v = -(xx - cx) * np.sin(t) + (yy - cy) * np.cos(t)
        blob = np.exp(-((u / a) ** 2 + (v / b) ** 2) * 2.0)
        sheen = smooth_noise(shape, (side * 0.15, side * 0.15), rng) * 0.25 + 1
        out = np.maximum(out, strength * np.clip(blob * sheen, 0, 1))
    return out


def cast_shadow(rgb: np.ndarray, centre: tuple[float, float], radius: float, depth: float,
                softness: float = 0.1) -> np.ndarray:
    """The photo with the shadow of a phone or a hand held between lamp and table laid over it: an ellipse
    1.3 x `radius` across and 0.7 x `radius` down (`centre` in fractions of the photo's width and height, `radius`
    of its longer side) where `depth` of the light is left, its edge soft over about `softness` of the radius."""
    h, w = rgb.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    reach = radius * max(h, w)
    distance = np.hypot((xx - centre[0] * w) / (1.3 * reach), (yy - centre[1] * h) / (0.7 * reach))
    inside = 1 / (1 + np.exp(np.clip((distance - 1) / softness, -50, 50)))
    light = 1 - (1 - depth) * inside
    return np.clip(rgb * light[..., None], 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------------
# Light and sensor

def light_gain(light: float, towards: float, rng: np.random.Generator) -> np.ndarray:
    """A small RGB gain map (48 x 64 x 3) to be stretched over the photo: brighter `towards` (radians,
    photo axes) where the lamp is, slow blotches, a slight colour drift across the frame, vignetting."""
    sw, sh = 64, 48
    y, x = np.mgrid[0:sh, 0:sw].astype(np.float32)
    x, y = x / (sw - 1) - 0.5, y / (sh - 1) - 0.5
    ramp = (x * np.cos(towards) + y * np.sin(towards)) * 2
    blotch = smooth_noise((sh, sw), (sh / 2.5, sw / 2.5), rng)
    level = np.exp(light * (0.45 * ramp + 0.12 * blotch))
    r2 = (x * 2) ** 2 * 0.6 + (y * 2) ** 2 * 0.4
    vignette = 1 - (0.12 + 0.35 * light) * r2
    drift = 1 + 0.05 * light * ramp[..., None] * np.array([1.0, 0.0, -1.0], np.float32)
    return ((level * vignette)[..., None] * drift).astype(np.float32)


def develop(photo: np.ndarray, gain: np.ndarray, white_balance, exposure: float, blur: float, noise: float,
            sharpen: float, rng: np.random.Generator) -> np.ndarray:
    """From scene radiance to 8-bit RGB: light (a small gain map), white balance, lens blur, the phone's
    sharpening, signal-dependent sensor noise. Works in 8-bit units in place; the costliest step at 12 MP."""
    h, w = photo.shape[:2]
    scale = np.asarray(white_balance, np.float32) * np.float32(exposure * 255.0)
    full = cv2.resize(gain * scale, (w, h), interpolation=cv2.INTER_CUBIC)
    out = cv2.multiply(photo, full)
    del full
    if blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if sharpen > 0:
        out = cv2.addWeighted(out, 1 + sharpen, cv2.GaussianBlur(out, (0, 0), 1.5), -sharpen, 0)
    if noise > 0:
        # noise grows with the signal (shot noise); its level map is smooth enough to make small
        level = cv2.resize(out, (max(w // 8, 1), max(h // 8, 1)), interpolation=cv2.INTER_AREA).mean(axis=2)
        sigma_small = noise * (0.45 + 0.9 * np.sqrt(np.clip(level / 255.0, 0, 1)))
        sigma = cv2.resize(sigma_small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        luma = rng.standard_normal((h, w), dtype=np.float32)
        luma *= sigma
        luma *= 0.85
        # a phone's denoiser leaves colour noise as soft blotches, not single pixels
        chroma = rng.standard_normal(((h + 1) // 2, (w + 1) // 2, 3), dtype=np.float32)
        chroma = cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR)
        chroma *= (0.6 * sigma)[..., None]
        out += chroma
        out += luma[..., None]
    out += 0.5
    np.clip(out, 0, 255, out=out)
    return out.astype(np.uint8)


def encode_jpeg(rgb: np.ndarray, quality: int) -> bytes:
    """JPEG bytes as a phone writes them (4:2:0 chroma), deterministic for the same pixels."""
    buffer = io.BytesIO()
    Image.fromarray(rgb).save(buffer, format="JPEG", quality=int(quality), subsampling=2)
    return buffer.getvalue()


def decode_jpeg(data: bytes) -> np.ndarray:
    """The RGB pixels photosolve's loader gets from these bytes (Pillow, as vision.load does)."""
    with Image.open(io.BytesIO(data)) as image:
        return np.asarray(image.convert("RGB"))
