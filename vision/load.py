"""Load a photo from any common format into an upright 8-bit RGB array; the only place BGR or modes matter."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from .errors import UnreadableImage
from .types import Photo

WORK_SIDE = 1200  # segmentation runs on this many pixels along the longer side; crops come from full resolution

try:  # HEIC/HEIF from phones, when the optional plugin is installed
    from pillow_heif import register_heif_opener

    register_heif_opener()
except ImportError:  # pragma: no cover - optional
    pass


def load_photo(path: str | Path) -> Photo:
    """Decode `path`, apply its EXIF orientation, and convert 16-bit, grayscale, palette and alpha to RGB."""
    path = Path(path)
    if not path.is_file():
        raise UnreadableImage(f"{path}: no such file")
    tables = threading.Thread(target=build_colour_tables, daemon=True)
    tables.start()
    try:
        with Image.open(path) as opened:
            opened.load()
            image = ImageOps.exif_transpose(opened)
            rgb = to_rgb8(image)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as error:
        hint = " (HEIC needs `pip install pillow-heif`)" if path.suffix.lower() in {".heic", ".heif"} else ""
        raise UnreadableImage(f"{path}: not an image photosolve can read{hint}: {error}") from None
    finally:
        tables.join()  # OpenCV may not guard the tables' first build: never two threads at it
    return photo_from_array(rgb, str(path))


def begin_loading(path: str | Path) -> Callable[[], Photo]:
    """load_photo(path) started in the background, where the decoding (which lets go of Python's lock) overlaps
    whatever the program does meanwhile, such as importing the rest of itself. The function returned waits for
    the photo, raising what load_photo raised."""
    outcome: dict[str, object] = {}

    def load() -> None:
        try:
            outcome["photo"] = load_photo(path)
        except Exception as error:  # handed to whoever waits for the photo
            outcome["error"] = error

    thread = threading.Thread(target=load, daemon=True)
    thread.start()

    def photo() -> Photo:
        thread.join()
        if "error" in outcome:
            raise outcome["error"]
        return outcome["photo"]

    return photo


def build_colour_tables() -> None:
    """Make OpenCV build its RGB-to-Lab tables, which it does on first use and which take about 0.1 s: built
    beside the decoding of a photo (both let go of Python's lock), they cost no time of their own."""
    import cv2

    for dtype in (np.uint8, np.float32):
        cv2.cvtColor(np.zeros((1, 1, 3), dtype), cv2.COLOR_RGB2LAB)


def photo_from_array(rgb: np.ndarray, source: str = "<array>") -> Photo:
    """A Photo from an upright H x W x 3 uint8 RGB array."""
    import cv2

    if rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
        raise UnreadableImage(f"{source}: expected an 8-bit RGB image, got shape {rgb.shape} {rgb.dtype}")
    height, width = rgb.shape[:2]
    if min(height, width) < 64:
        raise UnreadableImage(f"{source}: the image is only {width}x{height} pixels; photograph the tiles larger")
    scale = max(1.0, max(height, width) / WORK_SIDE)
    if scale > 1.0:
        size = (round(width / scale), round(height / scale))
        work = cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)
        scale = width / size[0]
    else:
        work = rgb
    return Photo(image=np.ascontiguousarray(rgb), work=work, scale=scale, source=source)


def to_rgb8(image: Image.Image) -> np.ndarray:
    """Any Pillow mode as H x W x 3 uint8 RGB; alpha is laid over mid grey, 16-bit is scaled down."""
    if image.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        array = np.asarray(image, dtype=np.float64)
        top = 65535.0 if image.mode.startswith("I;16") or array.max() > 255 else 255.0
        gray = np.clip(array / top * 255.0 + 0.5, 0, 255).astype(np.uint8)
        return np.repeat(gray[:, :, None], 3, axis=2)
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (128, 128, 128, 255))
        return np.asarray(Image.alpha_composite(background, rgba).convert("RGB"))
    return np.asarray(image if image.mode == "RGB" else image.convert("RGB"))
