"""Make the bundled template sets the way a user would: photograph each puzzle, then `photosolve learn` it.

    python -m photosolve.scenes.bundle            # rewrites vision/read/templates/<puzzle>/ for the four puzzles

Each set is learned from a generated photo of its own (seed LEARN_SEED, scattered, medium light), never from
the sample photo the README uses, with the tile list shuffled and turned as a box would print it.
"""
from __future__ import annotations

import random
import sys
import tempfile
from pathlib import Path

from ..solver.tiles import turn_edges
from .artwork import PUZZLE_ARTWORK
from .scene import make_scene, save_scene

LEARN_SEED = 4242
ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = ROOT / "vision" / "read" / "templates"


def shuffled_tile_list(name: str, seed: int) -> str:
    """The puzzle's tile file with its lines shuffled and each tile turned at random: a list as printed on a box."""
    lines = (ROOT / "samples" / f"{name}.tiles").read_text(encoding="utf-8").splitlines()
    comments = [line for line in lines if line.startswith("#")]
    tiles = [line.split() for line in lines if line.strip() and not line.startswith("#")]
    rng = random.Random(seed)
    rng.shuffle(tiles)
    turned = ["  ".join(turn_edges(tuple(edges), rng.randrange(4))) for edges in tiles]
    return "\n".join(comments + turned) + "\n"


def make_bundled_set(name: str, folder: Path = TEMPLATES) -> int:
    from ..cli.learn_cmd import learn_command

    with tempfile.TemporaryDirectory() as work:
        photo = Path(work) / f"{name}-learn.jpg"
        save_scene(make_scene(name, LEARN_SEED, tier="medium", layout="scattered", size=(2400, 1800)), photo)
        tiles = Path(work) / f"{name}.tiles"
        tiles.write_text(shuffled_tile_list(name, LEARN_SEED), encoding="utf-8")
        return int(learn_command(str(photo), str(tiles), str(folder / name), None, None, name))


def main(names: list[str]) -> int:
    for name in names or PUZZLE_ARTWORK:
        print(f"learning {name}", file=sys.stderr)
        if make_bundled_set(name):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
