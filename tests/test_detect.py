"""A face walled in by edges that leaks into a checked cloth's pale square is cut from it at the narrow neck
(the whole photo this fixed is in tests/test_segment.py)."""
from __future__ import annotations

import numpy as np

from photosolve.vision.find.masks import biggest_part


def test_a_region_is_cut_at_a_narrow_neck():
    # A face (100 x 100) joined to a cloth's square (40 x 40) through a gap 6 pixels wide: the face alone remains.
    region = np.zeros((200, 200), np.uint8)
    region[20:120, 20:120] = 1
    region[60:66, 120:140] = 1
    region[40:80, 140:180] = 1
    part = biggest_part(region)
    assert part[70, 70] and not part[60, 160]
    assert abs(int(part.sum()) - 100 * 100) < 200
