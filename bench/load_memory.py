"""Peak memory of `photosolve PHOTO -o solved.png --annotate reading.png` on the largest photo it reads, and on a
decompression bomb it refuses; each run a process of its own, its peak resident memory from the kernel.

    python bench/load_memory.py [--megapixels 149]

The photo is a generated 3x3 dogs scene enlarged to just under vision/load.py's MAX_PIXELS (a 4:3 JPEG, as a
phone writes); a 12 MP one is the everyday reference. The bomb is a 20000 x 20000 PNG of 48 kB. Takes a minute and
a few GB of memory: run it alone.

The photos are made, and the limit read, in processes of their own: a child's peak counts its parent's memory at
the moment it was started (vfork), so this process imports nothing but the standard library.
"""
from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def photo_of(megapixels: float, path: Path) -> tuple[int, int]:
    """A 4:3 JPEG of a dogs scene with `megapixels` million pixels (rounded down), written at `path`."""
    import cv2
    import numpy as np

    from photosolve.scenes.scene import make_scene

    height = int(math.sqrt(megapixels * 1e6 * 3 / 4))
    width = int(megapixels * 1e6 // height)
    scene = make_scene("dogs", 31, tier="easy", layout="scattered", size=(1600, 1200))
    big = cv2.resize(np.asarray(scene.image), (width, height), interpolation=cv2.INTER_LINEAR)
    cv2.imwrite(str(path), big[:, :, ::-1], [cv2.IMWRITE_JPEG_QUALITY, 90])
    return width, height


def bomb(path: Path) -> None:
    from PIL import Image

    Image.new("1", (20000, 20000)).save(path)


def in_child(code: str) -> str:
    """What a Python snippet prints, run in a process of its own."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout


def peak_of_run(args: list[str]) -> tuple[int, float, float]:
    """Exit code, peak resident memory in MB, and seconds of one photosolve process."""
    command = [str(Path(sys.executable).with_name("photosolve")), *args]
    start = time.perf_counter()
    with open(os.devnull, "w") as quiet:
        child = subprocess.Popen(command, stdout=quiet, stderr=subprocess.PIPE, text=True)
        _, status, usage = os.wait4(child.pid, 0)
        errors = child.stderr.read()
        child.stderr.close()
    seconds = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 3):
        print(errors, file=sys.stderr)
    return code, usage.ru_maxrss / 1024, seconds


def main() -> int:
    limit = int(in_child("from photosolve.vision.load import MAX_PIXELS; print(MAX_PIXELS)"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megapixels", type=float, default=limit / 1e6 - 1)
    options = parser.parse_args()
    print(f"limit: {limit / 1e6:.0f} megapixels (vision/load.py MAX_PIXELS)")
    here = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import load_memory as m; "
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        in_child(here + f"m.bomb(m.Path({str(folder / 'bomb.png')!r}))")
        code, peak, seconds = peak_of_run([str(folder / "bomb.png")])
        print(f"  20000x20000 PNG bomb ({(folder / 'bomb.png').stat().st_size // 1000} kB): exit {code}, "
              f"peak {peak:6.0f} MB, {seconds:5.2f} s")
        for megapixels in (12, options.megapixels):
            photo = folder / f"photo{megapixels:.0f}.jpg"
            width, height = map(int, in_child(here + f"print(*m.photo_of({megapixels}, m.Path({str(photo)!r})))").split())
            code, peak, seconds = peak_of_run([str(photo), "-o", str(folder / "solved.png"),
                                               "--annotate", str(folder / "reading.png")])
            print(f"  {width}x{height} JPEG ({width * height / 1e6:.0f} MP): exit {code}, peak {peak:6.0f} MB "
                  f"({peak * 2**20 / (width * height):.1f} bytes a pixel), {seconds:5.2f} s")
            photo.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
