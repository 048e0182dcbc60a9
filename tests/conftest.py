from __future__ import annotations

from pathlib import Path

import pytest

from photosolve.solver.tilefile import parse_tiles

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
SEED_PUZZLES = ("dogs", "insects", "nsa", "cats")


@pytest.fixture
def load_sample():
    def load(name: str):
        path = SAMPLES / f"{name}.tiles"
        return parse_tiles(path.read_text(), str(path))
    return load
