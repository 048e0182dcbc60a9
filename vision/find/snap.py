"""A lone tile's sides moved to where its top face ends, traced outward across each side."""
from __future__ import annotations

import cv2
import numpy as np

from ..geometry import apply_homography, line_through, mean_side, quad_from_lines, robust_line
from .sides import channel_norm

SNAP_CELL = 256  # pixels per tile side in the rectified canvas where a tile's face is traced
SNAP_MARGIN = 0.3  # of a side, around the tile in that canvas (only traced pixels are sampled)
SNAP_POSITIONS = 64  # places along each side where the face is traced outward
# Moved (tiles found exactly, the 504 family photos of bench/families.py, seeds 20000 + 10000, 2026-11-29): reach
# 0.06 or 0.10 of a side, dev 91/89/85 of 96 (easy/medium/hard) and test families (never tuned on) 66/71/58 of 72,
# as set; traces starting 0.08 inside, dev 90/89/85, test 66/71/57.
SNAP_REACH = int(round(0.08 * SNAP_CELL))  # how far the face's edge may lie from the side found by edge strength
SNAP_INNER = int(round(0.1 * SNAP_CELL))  # traces start this far inside the side
SNAP_OUTER = SNAP_REACH + int(round(0.1 * SNAP_CELL))  # and end this far outside: past the edge, the face
# colour must not come back for a while
SNAP_WEIGHTS = np.array([1.0, 1.5, 1.5], dtype=np.float32)
# Moved to 0.6 or 1.0: dev and test as set.
SNAP_SUPPORT = 0.8  # of the step across a side where it was: a traced side must lie on a step nearly as sharp


def snap_to_face(quad: np.ndarray, image: np.ndarray, sides: list[bool] | None = None,
                 farthest: float | None = None) -> np.ndarray:
    """The quad (full-resolution pixels, clockwise on screen) with each side moved to where the tile's top face
    ends, traced outward across the side; a side stays where too few traces agree on a straight edge.

    A tile's face is one colour near its edge, save a thin printed frame line; outward of the edge lie the
    darker side band, the shadow or the table, and the face colour does not come back for a while. So, across
    the side at many places, the edge is where the face colour is left for good; a motif that reaches the edge,
    or a neighbour's face beyond a seam, only leaves some places without an answer. Only the `sides` marked
    True are traced (all by default), and each moves at most `farthest` (of a side) if given.
    """
    traces, along, from_canvas = face_traces(quad, image)
    traces = frame_lines_closed(traces)
    margin, size = snap_canvas()
    side_length = mean_side(quad)
    lines = []
    every_offset = face_edge_offsets(traces)
    for side, offsets in enumerate(every_offset):
        good = np.concatenate([agreeing(half) for half in np.split(offsets, 2)])
        line = line_through(quad[side], quad[(side + 1) % 4])
        if good.any() and (sides is None or sides[side]):
            edge = np.column_stack([along[good], margin - offsets[good]])
            traced = robust_line(apply_homography(from_canvas, unturn(edge, side, size)))
            moved = np.abs(np.c_[quad[side], quad[(side + 1) % 4]].T @ traced[:2] + traced[2]).max()
            # The face's end is an edge too: where the traces agreed on a place with a far weaker step across it
            # than the side had (glare, a face as bright as the table), they were misled.
            steps = [np.median(step_across(traces[side][good], SNAP_INNER + at)) for at in (offsets[good], 0)]
            if (farthest is None or moved <= farthest * side_length) and steps[0] >= SNAP_SUPPORT * steps[1]:
                line = traced
        lines.append(line)
    try:
        snapped = quad_from_lines(lines)
    except ValueError:
        return quad
    return snapped if np.max(np.linalg.norm(snapped - quad, axis=1)) < 3 * SNAP_REACH / SNAP_CELL * side_length else quad


def step_across(traces: np.ndarray, at: np.ndarray | float) -> np.ndarray:
    """How sharply each trace (places x depth x channels) changes across depth `at` (one per trace, or one for
    all): the colour distance between two samples either side."""
    depth = traces.shape[1]
    at = np.broadcast_to(np.rint(np.asarray(at, dtype=np.float64)).astype(int), (len(traces),))
    before, after = np.clip(at - 2, 0, depth - 1), np.clip(at + 2, 0, depth - 1)
    rows = np.arange(len(traces))
    return channel_norm(traces[rows, after] - traces[rows, before])


def open_sides(quad: np.ndarray, tiles: list[np.ndarray], gap: float = 0.15) -> list[bool]:
    """For each side of a quad (clockwise on screen), whether no other tile lies across it within `gap` of a side:
    across a seam or a narrow gap a neighbour's face comes back, and the face cannot be traced to its end."""
    side_length = mean_side(quad)
    centres = np.array([t.mean(axis=0) for t in tiles if t is not quad]).reshape(-1, 2)
    result = []
    for start, end in zip(quad, np.roll(quad, -1, axis=0)):
        length = float(np.linalg.norm(end - start))
        direction = (end - start) / length
        outward = np.array([direction[1], -direction[0]])  # clockwise on screen (y down): the outside is on the left
        along, away = (centres - start) @ direction, (centres - start) @ outward
        across = (along > 0) & (along < length) & (away > 0) & (away < (0.5 + gap) * side_length + length / 2)
        result.append(not across.any())
    return result


def agreeing(offsets: np.ndarray, tolerance: float = 0.012 * SNAP_CELL) -> np.ndarray:
    """Which of one end's traced edge offsets agree, within `tolerance`, on where the edge is; none unless most
    traces found it and they agree closely (at a seam, or where the face colour is the table's, they scatter)."""
    found = np.isfinite(offsets)
    if found.sum() < 0.4 * len(offsets):
        return np.zeros(len(offsets), dtype=bool)
    middle = np.median(offsets[found])
    near = found & (np.abs(np.where(found, offsets, np.inf) - middle) <= tolerance)
    return near if near.sum() >= 0.3 * len(offsets) else np.zeros(len(offsets), dtype=bool)


def snap_canvas() -> tuple[int, int]:
    """The margin and size of the square canvas a tile is rectified to for tracing its face."""
    margin = int(round(SNAP_MARGIN * SNAP_CELL))
    return margin, SNAP_CELL + 2 * margin


def face_traces(quad: np.ndarray, image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Weighted Lab traces across each side of the quad (side, place, depth, channel), from SNAP_INNER inside the
    side outward; the places' positions along the side in the rectified canvas; and the homography from the
    canvas to the image.

    Side k is traced in the canvas turned k times (np.rot90), where it is the top row at the margin, running left
    to right with the outside above it; only the traced pixels are sampled, straight from the full photo.
    """
    margin, size = snap_canvas()
    target = np.array([[0, 0], [SNAP_CELL, 0], [SNAP_CELL, SNAP_CELL], [0, SNAP_CELL]], dtype=np.float32) + margin
    from_canvas = np.linalg.inv(cv2.getPerspectiveTransform(quad.astype(np.float32), target))
    # Motif halves sit on the middle of each side and may reach the edge: the face is traced near the ends.
    ends = np.linspace(0.05, 0.2, SNAP_POSITIONS // 2)
    along = margin + np.r_[ends, 1 - ends[::-1]] * SNAP_CELL
    across = margin + SNAP_INNER - np.arange(SNAP_INNER + SNAP_OUTER + 1, dtype=np.float64)
    turned = np.stack(np.meshgrid(along, across, indexing="ij"), axis=-1).reshape(-1, 2)
    points = np.concatenate([apply_homography(from_canvas, unturn(turned, side, size)) for side in range(4)])
    where = points.reshape(4 * SNAP_POSITIONS, len(across), 2).astype(np.float32)
    samples = cv2.remap(image, where[..., 0], where[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(samples, cv2.COLOR_RGB2LAB).astype(np.float32) * SNAP_WEIGHTS
    return lab.reshape(4, SNAP_POSITIONS, len(across), 3), along, from_canvas


def unturn(points: np.ndarray, turns: int, size: int) -> np.ndarray:
    """Points (x, y) of a square canvas np.rot90-ed `turns` times, back in the canvas's own (x, y)."""
    points = np.asarray(points, dtype=np.float64)
    for _ in range(turns % 4):
        # np.rot90 once: new[i, j] = old[j, size - 1 - i], i.e. old x = size - 1 - new y, old y = new x.
        points = np.column_stack([size - 1 - points[:, 1], points[:, 0]])
    return points


def frame_lines_closed(traces: np.ndarray) -> np.ndarray:
    """Weighted Lab traces (..., depth, 3) with printed frame lines closed over in lightness.

    A printed frame line is a thin dark dip in lightness (its colour is the face's, darker): closed over, so the
    face seems to run on to the edge. A side band is as thick or thicker, and differs in colour too.
    """
    close = cv2.getStructuringElement(cv2.MORPH_RECT, (int(round(0.02 * SNAP_CELL)) | 1, 1))
    closed = np.array(traces)
    lightness = np.ascontiguousarray(closed[..., 0]).reshape(-1, closed.shape[-2])
    closed[..., 0] = cv2.morphologyEx(lightness, cv2.MORPH_CLOSE, close).reshape(closed.shape[:-1])
    return closed


def face_edge_offsets(profiles: np.ndarray) -> np.ndarray:
    """Outward offsets (pixels from the side) where the face colour ends for good along each trace across a side;
    NaN where a trace starts off the face, finds no clear end within SNAP_REACH, or sees a face come back.

    `profiles` holds weighted Lab traces (sides x places x depth x 3), from SNAP_INNER pixels inside each side
    outward, with printed frame lines closed over (frame_lines_closed); each side is judged against its own
    noise. Returns sides x places.
    """
    sides, places, length = profiles.shape[:3]
    depth = np.arange(length)
    start = int(round(0.05 * SNAP_CELL))  # the reference stretch: 5-10% inside, past any printed frame
    reference = np.median(profiles[:, :, :start], axis=2)
    distance = channel_norm(profiles - reference[:, :, None])
    noise = np.median(distance[:, :, :start], axis=2)
    side_noise = np.median(noise, axis=1, keepdims=True)
    tolerance = np.maximum(4 * side_noise, 6.0)  # (sides, 1)
    # Face-like: nearer the face than half way to what lies outside (a pale table is near the face colour).
    outside = np.median(distance[:, :, SNAP_INNER + int(round(0.03 * SNAP_CELL)):], axis=2)
    face = distance < np.maximum(tolerance, 0.5 * outside)[:, :, None]
    run = int(round(0.025 * SNAP_CELL))  # off the face this long: the face left for good, not a printed line
    off = np.pad(~face, ((0, 0), (0, 0), (0, run)), constant_values=True).astype(np.int32)
    sums = np.cumsum(np.pad(off, ((0, 0), (0, 0), (1, 0))), axis=2)
    gone = (sums[:, :, run:run + length] - sums[:, :, :length] == run) & (depth >= start)
    leave = np.argmax(gone, axis=2)
    valid = gone.any(axis=2) & (leave <= SNAP_INNER + SNAP_REACH) & face[:, :, :start].all(axis=2)
    valid &= noise <= 2 * side_noise + 1  # a motif's texture in the reference stretch
    # Beyond a seam or a narrow gap lies a neighbour's face: its colour comes back soon. Judged loosely in
    # lightness, as the neighbour may lie in other light.
    change = np.abs(profiles - reference[:, :, None])
    alike = ((change[..., 0] < np.maximum(tolerance, 15.0)[:, :, None])
             & (channel_norm(change[..., 1:]) < tolerance[:, :, None]))
    later = np.clip(leave[:, :, None] + np.arange(SNAP_OUTER - SNAP_REACH), 0, length - 1)
    valid &= np.take_along_axis(alike, later, axis=2).mean(axis=2) < 0.3
    # The edge: where the trace rises through half its step off the face, just inward of where it left.
    window = np.clip(leave[:, :, None] + np.arange(run), 0, length - 1)
    half = np.median(np.take_along_axis(distance, window, axis=2), axis=2) / 2
    below = (distance <= half[:, :, None]) & (depth < leave[:, :, None])
    last_below = np.max(np.where(below, depth, start - 1), axis=2)
    j = np.clip(last_below + 1, 1, length - 1)
    d0 = np.take_along_axis(distance, (j - 1)[:, :, None], axis=2)[:, :, 0]
    d1 = np.take_along_axis(distance, j[:, :, None], axis=2)[:, :, 0]
    crossing = (j - 1) + np.clip((half - d0) / np.maximum(d1 - d0, 1e-6), 0, 1)
    return np.where(valid, crossing - SNAP_INNER, np.nan)
