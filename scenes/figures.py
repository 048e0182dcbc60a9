"""Cartoon figures for tile artwork, each drawn whole in one canonical frame so its halves join.

The frame is measured in fractions of the tile side: x across (-0.275..0.275), y along the figure's
axis (-0.40..0.40), the cut at y = 0 and the + half (head, top, front) at negative y. Animals are
seen from above, like the turtles of a real puzzle; a figure keeps inside |x| + |y| < 0.45 so that
halves on neighbouring edges of one tile never meet.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

HALF_WIDTH = 0.275  # half of the widest a figure may be at the cut, as a fraction of the tile side
DEPTH = 0.40  # how far each half may reach into its tile

RGB = tuple[int, int, int]
Point = tuple[float, float]
_SHIFT = 4  # sub-pixel bits for cv2 drawing
INK = (28, 24, 22)  # printed black
LINE = 0.0055  # outline width, of the side


def shade(colour: Sequence[float], factor: float) -> RGB:
    """The colour darkened (factor < 1) or lightened towards white (factor > 1)."""
    out = [c * factor if factor <= 1 else c + (255 - c) * (factor - 1) for c in colour]
    return tuple(min(255, max(0, int(round(v)))) for v in out)  # type: ignore[return-value]


def outline_of(colour: Sequence[float]) -> RGB:
    """The darker shade a cartoon outline of this colour is printed in."""
    return shade(colour, 0.45) if np.mean(colour) > 60 else shade(colour, 0.5)


@dataclass(frozen=True, eq=False)
class Pen:
    """Draws on a premultiplied RGBA canvas in frame units; cv2 anti-aliasing over premultiplied
    pixels is exactly the 'over' operator, so no fringes appear when the canvas is downsampled."""

    canvas: np.ndarray  # (H, W, 4) uint8, premultiplied
    scale: float  # pixels per tile side, supersampled
    origin: tuple[float, float]  # pixel position of frame point (0, 0)

    def pt(self, x: float, y: float) -> tuple[int, int]:
        f = 1 << _SHIFT
        return (int(round((self.origin[0] + x * self.scale) * f)),
                int(round((self.origin[1] + y * self.scale) * f)))

    def px(self, length: float) -> int:
        return max(1, int(round(length * self.scale)))

    def blank(self) -> "Pen":
        """An empty canvas of the same frame, for a layer to be clipped and pasted."""
        return Pen(np.zeros_like(self.canvas), self.scale, self.origin)

    def paste(self, layer: "Pen", clip: "Pen | None" = None) -> None:
        """Lay `layer` over this canvas, only where `clip` has ink."""
        src = layer.canvas
        if clip is not None:
            src = cv2.multiply(src, cv2.merge([clip.canvas[..., 3]] * 4), scale=1 / 255)
        keep = cv2.merge([255 - src[..., 3]] * 4)
        self.canvas[:] = cv2.add(src, cv2.multiply(self.canvas, keep, scale=1 / 255))

    def ellipse(self, centre: Point, axes: Point, angle: float, fill: RGB | None,
                line: RGB | None = None, width: float = LINE, alpha: int = 255) -> None:
        f = 1 << _SHIFT
        c = self.pt(*centre)
        ax = (max(1, int(round(axes[0] * self.scale * f))), max(1, int(round(axes[1] * self.scale * f))))
        if fill is not None:
            cv2.ellipse(self.canvas, c, ax, angle, 0, 360, _ink(fill, alpha), -1, cv2.LINE_AA, _SHIFT)
        if line is not None:
            cv2.ellipse(self.canvas, c, ax, angle, 0, 360, _ink(line), self.px(width), cv2.LINE_AA, _SHIFT)

    def circle(self, centre: Point, r: float, fill: RGB | None, line: RGB | None = None,
               width: float = LINE) -> None:
        self.ellipse(centre, (r, r), 0, fill, line, width)

    def poly(self, points: Sequence[Point], fill: RGB | None, line: RGB | None = None,
             width: float = LINE, closed: bool = True, alpha: int = 255) -> None:
        p = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        pts = np.round((p * self.scale + self.origin) * (1 << _SHIFT)).astype(np.int32)
        if fill is not None:
            cv2.fillPoly(self.canvas, [pts], _ink(fill, alpha), cv2.LINE_AA, _SHIFT)
        if line is not None:
            cv2.polylines(self.canvas, [pts], closed, _ink(line), self.px(width), cv2.LINE_AA, _SHIFT)

    def line(self, points: Sequence[Point], colour: RGB, width: float = LINE) -> None:
        self.poly(points, None, colour, width, closed=False)

    def shape(self, s: tuple, fill: RGB | None, line: RGB | None = None, width: float = LINE) -> None:
        """Draw a shape given as ('ellipse', centre, axes, angle) or ('poly', points)."""
        if s[0] == "ellipse":
            self.ellipse(s[1], s[2], s[3], fill, line, width)
        else:
            self.poly(s[1], fill, line, width)


def _ink(colour: Sequence[int], alpha: int = 255) -> tuple[int, int, int, int]:
    # premultiplied, so a see-through wing composites correctly later
    return tuple(int(round(c * alpha / 255)) for c in colour) + (int(alpha),)  # type: ignore[return-value]


def bezier(*ctrl: Point, n: int = 18) -> list[Point]:
    """Points along a quadratic or cubic Bezier curve through its control points."""
    t = np.linspace(0, 1, n)[:, None]
    p = [np.asarray(c, float) for c in ctrl]
    if len(p) == 3:
        pts = (1 - t) ** 2 * p[0] + 2 * (1 - t) * t * p[1] + t ** 2 * p[2]
    else:
        pts = (1 - t) ** 3 * p[0] + 3 * (1 - t) ** 2 * t * p[1] + 3 * (1 - t) * t ** 2 * p[2] + t ** 3 * p[3]
    return [(float(x), float(y)) for x, y in pts]


def ribbon(centre: Sequence[Point], w0: float, w1: float) -> list[Point]:
    """Outline of a stroke along `centre` whose width tapers from w0 to w1: limbs, tails, stripes."""
    c = np.asarray(centre, float)
    d = np.gradient(c, axis=0)
    n = np.stack([-d[:, 1], d[:, 0]], 1) / (np.linalg.norm(d, axis=1, keepdims=True) + 1e-9)
    w = np.linspace(w0, w1, len(c))[:, None] / 2
    left, right = c + n * w, c - n * w
    return [tuple(p) for p in np.concatenate([left, right[::-1]])]  # type: ignore[misc]


def mirrored(points: Sequence[Point]) -> list[Point]:
    return [(-x, y) for x, y in points]


# ---------------------------------------------------------------------------------------------
# Four-legged animals seen from above: dogs and cats

def _coat(pen: Pen, shapes: list[tuple], main: RGB, line: RGB) -> Pen:
    """Draw the coat as one silhouette (all outlines first, then all fills) and return its mask."""
    for s in shapes:
        pen.shape(s, None, line, 2.2 * LINE)
    mask = pen.blank()
    for s in shapes:
        pen.shape(s, main)
        mask.shape(s, (255, 255, 255))
    return mask


def _legs(front_paw: Point, hind_paw: Point) -> list[tuple]:
    """Fore legs reaching forward and hind legs folded back, both sides."""
    shapes = []
    for sx in (-1, 1):
        fx, fy = front_paw
        shapes.append(("poly", ribbon(bezier((sx * 0.07, -0.12), (sx * 0.13, -0.15), (sx * fx, fy + 0.02)), 0.05, 0.034)))
        shapes.append(("ellipse", (sx * fx, fy), (0.024, 0.028), 0))
        hx, hy = hind_paw
        shapes.append(("ellipse", (sx * 0.085, 0.135), (0.05, 0.08), sx * -12))
        shapes.append(("poly", ribbon(bezier((sx * 0.1, 0.17), (sx * 0.135, 0.2), (sx * hx, hy - 0.02)), 0.04, 0.03)))
        shapes.append(("ellipse", (sx * hx, hy), (0.022, 0.028), 0))
    return shapes


def _body() -> list[tuple]:
    return [("ellipse", (0, 0.01), (0.1, 0.21), 0),
            ("ellipse", (0, -0.12), (0.105, 0.085), 0),
            ("ellipse", (0, 0.13), (0.11, 0.085), 0),
            ("ellipse", (0, -0.2), (0.055, 0.06), 0)]


def _pattern(pen: Pen, kind: str, colour: RGB, rng: np.random.Generator, base: RGB) -> Pen:
    """A coat pattern layer, to be clipped to the coat."""
    layer = pen.blank()
    if kind == "stripes":
        for y in np.arange(-0.25, 0.4, 0.038):
            y = float(y + rng.uniform(-0.008, 0.008))
            if abs(y) < 0.025:  # a stripe along the cut would make the seam flicker
                continue
            for sx in (-1, 1):
                reach = rng.uniform(0.012, 0.04)
                c = bezier((sx * 0.2, y + 0.02), (sx * 0.08, y - 0.015), (sx * reach, y + rng.uniform(-0.01, 0.01)))
                layer.poly(ribbon(c, 0.022, 0.005), colour)
    elif kind in ("rosettes", "ghost"):
        for _ in range(70):
            cx, cy = rng.uniform(-0.2, 0.2), rng.uniform(-0.3, 0.4)
            r = rng.uniform(0.014, 0.022)
            if abs(cy) < r + 0.015:
                continue
            layer.circle((cx, cy), r * 0.8, shade(base, 0.8))
            for a in np.linspace(0, 2 * np.pi, 6)[:-1] + rng.uniform(0, 1):
                if rng.uniform() < 0.85:
                    layer.ellipse((cx + r * np.cos(a), cy + r * np.sin(a)), (0.0075, 0.005), np.degrees(a) + 90, colour)
    elif kind == "blotches":
        for _ in range(16):
            cx, cy = rng.uniform(-0.14, 0.14), rng.uniform(-0.3, 0.34)
            if abs(cy) < 0.05:
                continue
            pts = [(cx + r * np.cos(a), cy + r * np.sin(a))
                   for a, r in zip(np.linspace(0, 2 * np.pi, 9)[:-1], rng.uniform(0.018, 0.04, 8))]
            layer.poly(bezier(*pts[:3]) + bezier(*pts[2:5]) + bezier(*pts[4:7]) + bezier(pts[6], pts[7], pts[0]), colour)
    return layer


def draw_quadruped(pen: Pen, colours: Sequence[RGB], rng: np.random.Generator, head: str,
                   pattern: str | None = None) -> None:
    """A dog or cat from above: head, fore legs and chest in front of the cut; hips, hind legs and tail
    behind it."""
    main, second, accent = colours[0], colours[1], colours[2]
    line = outline_of(main)
    cat = head != "dog"
    # tail first, so the body covers its root
    if cat:
        tail = bezier((0, 0.2), (0.07, 0.27), (-0.06, 0.31), (0.02, 0.372))
        tail_shape = ("poly", ribbon(tail, 0.038, 0.024))
    else:
        tail = bezier((0, 0.2), (0.01, 0.3), (0.055, 0.37))
        tail_shape = ("poly", ribbon(tail, 0.045, 0.012))
    shapes = [tail_shape] + _legs((0.15, -0.245), (0.125, 0.27)) + _body()
    skull = ("ellipse", (0, -0.275), (0.07, 0.066), 0) if not cat else ("ellipse", (0, -0.275), (0.074, 0.062), 0)
    if head == "lion":
        mane = [(0.118 * (1 + 0.14 * (i % 2)) * np.sin(a), -0.27 - 0.11 * (1 + 0.14 * (i % 2)) * np.cos(a))
                for i, a in enumerate(np.linspace(0, 2 * np.pi, 29)[:-1])]
        pen.poly(mane, second, outline_of(second), 1.5 * LINE)
    mask = _coat(pen, shapes, main, line)
    if pattern:
        pen.paste(_pattern(pen, pattern, second if pattern != "ghost" else shade(main, 1.12), rng, main), mask)
    if head == "lion":
        pen.ellipse((0.02, 0.366), (0.02, 0.026), 0, second, outline_of(second))  # tail tuft
    # head
    pen.shape(skull, main, line, 1.6 * LINE)
    if pattern in ("stripes",):
        for sx in (-1, 1):
            pen.poly(ribbon(bezier((sx * 0.065, -0.26), (sx * 0.04, -0.265), (sx * 0.02, -0.25)), 0.014, 0.003), second)
        pen.poly(ribbon(bezier((0, -0.235), (0, -0.25), (0.0, -0.265)), 0.012, 0.003), second)
    if pattern == "blotches":
        pen.ellipse((0.035, -0.27), (0.028, 0.022), 20, second)
    if not cat:
        light = shade(main, 1.35)
        pen.ellipse((0, -0.335), (0.04, 0.05), 0, light, line, 1.4 * LINE)
        pen.ellipse((0, -0.372), (0.02, 0.013), 0, INK)
        for sx in (-1, 1):
            pen.ellipse((sx * 0.072, -0.255), (0.026, 0.056), sx * -18, shade(main, 0.62), line, 1.4 * LINE)
            pen.circle((sx * 0.03, -0.295), 0.011, INK)
            pen.circle((sx * 0.027, -0.298), 0.004, (255, 255, 255))
        pen.line(bezier((0, -0.36), (0, -0.345), (0.0, -0.335)), line, 0.8 * LINE)
    else:
        eye = accent if head == "panther" else (150, 170, 40)
        for sx in (-1, 1):
            ear = [(sx * 0.02, -0.305), (sx * 0.072, -0.33), (sx * 0.068, -0.27)]
            pen.poly(ear, main, line, 1.4 * LINE)
            pen.poly([(sx * 0.035, -0.308), (sx * 0.062, -0.322), (sx * 0.06, -0.285)], shade(main, 0.7))
            pen.ellipse((sx * 0.032, -0.285), (0.014, 0.01), 0, eye, INK, 0.6 * LINE)
            pen.ellipse((sx * 0.032, -0.285), (0.003, 0.009), 0, INK)
        muzzle = shade(main, 1.5) if head != "panther" else shade(main, 1.3)
        pen.ellipse((0, -0.318), (0.034, 0.024), 0, muzzle, line, 0.8 * LINE)
        pen.poly([(-0.011, -0.335), (0.011, -0.335), (0, -0.322)], (200, 110, 110) if head != "panther" else INK)
        for sx in (-1, 1):
            for dy in (-0.012, 0.0, 0.012):
                pen.line(bezier((sx * 0.02, -0.318), (sx * 0.06, -0.322 + dy), (sx * 0.095, -0.33 + 2 * dy)),
                         shade(line, 0.6) if head != "panther" else (200, 200, 200), 0.5 * LINE)


# ---------------------------------------------------------------------------------------------
# Insects seen from above

def _leg(pen: Pen, joints: Sequence[Point], colour: RGB, width: float = 0.011) -> None:
    for sx in (-1, 1):
        pen.line([(sx * x, y) for x, y in joints], colour, width)


def draw_mantis(pen: Pen, colours: Sequence[RGB], rng: np.random.Generator) -> None:
    """A praying mantis: triangular head and raptorial fore legs before the cut, folded wings and
    long abdomen behind it."""
    main, second, accent = colours
    line = outline_of(main)
    _leg(pen, [(0.02, -0.09), (0.13, -0.13), (0.2, -0.06)], line, 0.012)
    _leg(pen, [(0.02, 0.03), (0.13, 0.08), (0.19, 0.2)], line, 0.012)
    pen.ellipse((0, 0.15), (0.045, 0.22), 0, main, line)  # abdomen
    for sx in (-1, 1):  # folded wings overlapping along the back
        pen.poly(bezier((0, -0.1), (sx * 0.11, 0.05), (sx * 0.02, 0.37)) + [(0, 0.3)], second, line, alpha=235)
        pen.line(bezier((sx * 0.01, -0.06), (sx * 0.06, 0.08), (sx * 0.02, 0.3)), shade(second, 0.7), 0.5 * LINE)
    pen.ellipse((0, -0.17), (0.022, 0.1), 0, main, line)  # prothorax
    for sx in (-1, 1):  # raptorial fore legs, folded as if praying
        fem = ribbon([(sx * 0.012, -0.23), (sx * 0.07, -0.22), (sx * 0.085, -0.3)], 0.026, 0.02)
        pen.poly(fem, main, line)
        for t in range(4):
            pen.line([(sx * 0.072, -0.24 - 0.015 * t), (sx * 0.095, -0.245 - 0.015 * t)], line, 0.6 * LINE)
        pen.poly(ribbon([(sx * 0.085, -0.3), (sx * 0.04, -0.305), (sx * 0.02, -0.27)], 0.016, 0.008), main, line)
    pen.poly([(-0.062, -0.3), (0.062, -0.3), (0.022, -0.35), (0, -0.365), (-0.022, -0.35)], main, line)
    for sx in (-1, 1):
        pen.circle((sx * 0.055, -0.31), 0.02, second, line)
        pen.circle((sx * 0.058, -0.312), 0.008, accent)
        pen.line(bezier((sx * 0.01, -0.35), (sx * 0.03, -0.39), (sx * 0.06, -0.38)), line, 0.6 * LINE)


def draw_beetle(pen: Pen, colours: Sequence[RGB], rng: np.random.Generator) -> None:
    """A stag beetle: antlered head and shield before the cut, rounded spotted wing cases behind."""
    main, second, accent = colours
    dark = shade(second, 0.8)
    _leg(pen, [(0.07, -0.17), (0.15, -0.2), (0.17, -0.27)], INK, 0.013)
    _leg(pen, [(0.1, -0.06), (0.19, -0.08), (0.23, -0.04)], INK, 0.013)
    _leg(pen, [(0.1, 0.1), (0.19, 0.16), (0.2, 0.24)], INK, 0.013)
    pen.ellipse((0, 0.07), (0.14, 0.22), 0, main, INK, 1.6 * LINE)  # wing cases
    pen.line([(0, -0.1), (0, 0.29)], INK, 1.2 * LINE)
    pen.ellipse((-0.06, 0.02), (0.025, 0.09), 10, shade(main, 1.35))  # shine
    spots = [(rng.uniform(0.04, 0.1), rng.uniform(0.06, 0.22), rng.uniform(0.016, 0.026)) for _ in range(4)]
    for x, y, r in spots:
        for sx in (-1, 1):
            pen.circle((sx * x, y), r, accent, INK, 0.5 * LINE)
    pen.poly([(-0.1, -0.1), (-0.11, -0.17), (-0.06, -0.22), (0.06, -0.22), (0.11, -0.17), (0.1, -0.1)],
             second, INK, 1.4 * LINE)  # shield
    pen.ellipse((0, -0.25), (0.06, 0.04), 0, dark, INK)
    for sx in (-1, 1):
        pen.poly(ribbon(bezier((sx * 0.03, -0.27), (sx * 0.09, -0.33), (sx * 0.02, -0.385)), 0.022, 0.006),
                 dark, INK, 0.8 * LINE)
        pen.line([(sx * 0.055, -0.27), (sx * 0.1, -0.3), (sx * 0.12, -0.27)], INK, 0.7 * LINE)
        pen.circle((sx * 0.035, -0.255), 0.008, accent)


def draw_dragonfly(pen: Pen, colours: Sequence[RGB], rng: np.random.Generator) -> None:
    """A dragonfly: big eyes and fore wings before the cut, hind wings and a long thin abdomen behind."""
    main, second, accent = colours
    line = outline_of(main)
    for sx in (-1, 1):
        for y, ang in ((-0.13, -12), (0.06, 10)):
            pen.ellipse((sx * 0.13, y), (0.12, 0.032), sx * ang, second, shade(accent, 1.0), 0.8 * LINE, alpha=200)
            pen.line([(sx * 0.02, y), (sx * 0.24, y + sx * np.tan(np.radians(sx * ang)) * 0.23)],
                     shade(accent, 1.2), 0.5 * LINE)
            pen.ellipse((sx * 0.22, y + np.tan(np.radians(ang)) * 0.2), (0.012, 0.007), ang, accent)
    segs = np.linspace(0.04, 0.37, 9)
    pen.poly(ribbon([(0, -0.06), (0, 0.39)], 0.036, 0.02), main, line)
    for y in segs[1:]:
        pen.line([(-0.016, y), (0.016, y)], accent, 0.9 * LINE)
    pen.ellipse((0, -0.12), (0.045, 0.085), 0, main, line)  # thorax
    pen.line([(-0.02, -0.14), (0.02, -0.14)], accent, LINE)
    for sx in (-1, 1):
        pen.circle((sx * 0.033, -0.2), 0.038, shade(main, 0.75), line)
        pen.circle((sx * 0.04, -0.21), 0.012, shade(main, 1.6))
    pen.ellipse((0, -0.238), (0.025, 0.014), 0, accent, line, 0.6 * LINE)


def draw_ant(pen: Pen, colours: Sequence[RGB], rng: np.random.Generator) -> None:
    """An ant: head with elbowed feelers and a slim thorax before the cut, waist and big banded gaster
    behind it."""
    main, second, accent = colours
    line = outline_of(main)
    _leg(pen, [(0.02, -0.15), (0.12, -0.2), (0.16, -0.28)], second, 0.012)
    _leg(pen, [(0.025, -0.11), (0.17, -0.1), (0.24, -0.04)], second, 0.012)
    _leg(pen, [(0.025, -0.07), (0.12, -0.04), (0.15, 0.08), (0.19, 0.2)], second, 0.012)
    pen.ellipse((0, 0.2), (0.1, 0.15), 0, main, line, 1.4 * LINE)  # gaster
    for y in (0.12, 0.19, 0.26):
        w = 0.1 * np.sqrt(max(0.0, 1 - ((y - 0.2) / 0.15) ** 2))
        pen.line(bezier((-w, y - 0.01), (0, y + 0.02), (w, y - 0.01)), second, 1.4 * LINE)
    pen.ellipse((-0.04, 0.16), (0.018, 0.04), 15, shade(main, 1.5))
    pen.ellipse((0, 0.0), (0.02, 0.045), 0, main, line)  # waist, crossing the cut square
    pen.ellipse((0, -0.11), (0.035, 0.075), 0, main, line)  # thorax
    pen.ellipse((0, -0.26), (0.06, 0.055), 0, main, line, 1.2 * LINE)  # head
    for sx in (-1, 1):
        pen.line([(sx * 0.03, -0.3), (sx * 0.045, -0.36), (sx * 0.1, -0.35), (sx * 0.12, -0.31)], second, 1.2 * LINE)
        pen.poly(ribbon(bezier((sx * 0.02, -0.305), (sx * 0.035, -0.33), (sx * 0.005, -0.34)), 0.014, 0.004), second)
        pen.ellipse((sx * 0.045, -0.27), (0.012, 0.018), 0, INK)


# ---------------------------------------------------------------------------------------------
# Emblems

def _star(c: Point, r: float, points: int = 5, inner: float = 0.42) -> list[Point]:
    a = np.linspace(0, 2 * np.pi, 2 * points, endpoint=False)
    rr = np.where(np.arange(2 * points) % 2 == 0, r, r * inner)
    return [(c[0] + q * np.sin(t), c[1] - q * np.cos(t)) for q, t in zip(rr, a)]


def draw_badge(pen: Pen, colours: Sequence[RGB], rng: np.random.Generator) -> None:
    """A round emblem: a crown of rays, wings and a star on the top half; a ribbon banner with tails and
    a dotted ring on the bottom half."""
    main, second, accent = colours
    line = outline_of(main)
    gold = second
    R = 0.2
    # ribbon tails hang below the badge
    for sx in (-1, 1):
        pen.poly([(sx * 0.02, 0.2), (sx * 0.12, 0.2), (sx * 0.1, 0.36), (sx * 0.07, 0.32), (sx * 0.04, 0.37)],
                 main, shade(gold, 0.6), LINE)
    # rays on the top rim only
    rays = []
    for t in np.linspace(-75, 75, 11):
        a = np.radians(t)
        for r, dt in ((R - 0.01, -6), (R + 0.06 + 0.02 * (abs(t) < 20), 0), (R - 0.01, 6)):
            b = a + np.radians(dt)
            rays.append((r * np.sin(b), -r * np.cos(b)))
    pen.poly(rays, gold, shade(gold, 0.55), 0.8 * LINE)
    pen.circle((0, 0), R, main, line, 1.6 * LINE)
    pen.circle((0, 0), R - 0.025, None, gold, 1.8 * LINE)
    for t in np.linspace(100, 260, 9):  # dotted ring on the bottom half
        a = np.radians(t)
        pen.circle((0.2 * np.sin(a) * 0.88, -0.2 * np.cos(a) * 0.88), 0.009, gold)
    pen.circle((0, 0), R - 0.05, shade(main, 0.85), gold, LINE)
    # wings and star above the cut
    for sx in (-1, 1):
        feathers = []
        for i in range(4):
            y = -0.04 - 0.028 * i
            feathers += [(sx * (0.03 + 0.012 * i), y - 0.012), (sx * (0.13 - 0.02 * i), y - 0.03), (sx * (0.03 + 0.012 * i), y + 0.012)]
        pen.poly([(sx * 0.02, -0.02)] + feathers + [(sx * 0.02, -0.14)], gold, shade(gold, 0.55), 0.7 * LINE)
    pen.poly(_star((0, -0.085), 0.065), accent, shade(gold, 0.45), LINE)
    # banner across the lower half
    band = [(-0.15, 0.06), (0.15, 0.06), (0.14, 0.12), (-0.14, 0.12)]
    pen.poly(band, gold, shade(gold, 0.5), LINE)
    for i in range(5):
        pen.line([(-0.09 + 0.045 * i, 0.082), (-0.07 + 0.045 * i, 0.082)], shade(gold, 0.45), 0.8 * LINE)
    pen.poly([(0, 0.135), (0.03, 0.165), (0, 0.178), (-0.03, 0.165)], accent, shade(gold, 0.45), 0.7 * LINE)


FIGURES: dict[str, Callable[[Pen, Sequence[RGB], np.random.Generator], None]] = {
    "dog": lambda p, c, r: draw_quadruped(p, c, r, "dog"),
    "spotted_dog": lambda p, c, r: draw_quadruped(p, c, r, "dog", "blotches"),
    "tiger": lambda p, c, r: draw_quadruped(p, c, r, "cat", "stripes"),
    "lion": lambda p, c, r: draw_quadruped(p, c, r, "lion"),
    "panther": lambda p, c, r: draw_quadruped(p, c, r, "panther", "ghost"),
    "jaguar": lambda p, c, r: draw_quadruped(p, c, r, "cat", "rosettes"),
    "mantis": draw_mantis,
    "beetle": draw_beetle,
    "dragonfly": draw_dragonfly,
    "ant": draw_ant,
    "badge": draw_badge,
}
