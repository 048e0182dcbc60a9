"""Load a photo from any common format into an upright 8-bit RGB array; the only place BGR or modes matter."""
from __future__ import annotations

import threading
import warnings
from pathlib import Path
from typing import Callable

import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

from .errors import UnreadableImage
from .types import Photo

# Moved (bench/find_constants.py: every tile exact on 48 dev / 48 test medium and hard family photos, as set dev 46,
# test 33): 900 dev 46, test 36 (segmentation 0.8 times as long); 1500 dev 46, test 37 (1.65 times). Test photos turn
# both ways (7 and 8 of 48); dev does not move, so it stays.
WORK_SIDE = 1200  # segmentation runs on this many pixels along the longer side; crops come from full resolution
# The largest photo decoded, checked on the header before any pixel is: 150 MP takes a 108 MP phone's photos
# (12000 x 9000) and refuses decompression bombs; a photo just under it peaks at the memory bench/load_memory.py
# measures (README: Limits). Pillow refuses on its own above 2 x Image.MAX_IMAGE_PIXELS (179 MP).
MAX_PIXELS = 150_000_000
HEIF_BRANDS = (b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1", b"avif")

try:  # HEIC/HEIF from phones, when the optional plugin is installed
    from pillow_heif import register_heif_opener

    register_heif_opener()
except ImportError:  # pragma: no cover - optional
    pass


def load_photo(path: str | Path) -> Photo:
    """Decode `path`, apply its EXIF orientation, and convert 16-bit, grayscale, palette and alpha to RGB."""
    path = Path(path)
    if path.is_dir():
        raise UnreadableImage(f"{path}: a folder, not a photo: give the photo's file inside it")
    if not path.is_file():
        raise UnreadableImage(f"{path}: no such file")
    tables = threading.Thread(target=build_colour_tables, daemon=True)
    tables.start()
    try:
        # Pillow warns on stderr of what it skips (corrupt EXIF, odd chunks) and reads on: so do we, silently.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with open_checked(path) as opened:
                opened.load()
                ImageOps.exif_transpose(opened, in_place=True)  # in place: no second copy of a big photo
                rgb = to_rgb8(opened)
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError) as error:
        hint = " (HEIC needs `pip install pillow-heif`)" if is_heif(path) else ""
        raise UnreadableImage(f"{path}: not an image photosolve can read{hint}: {one_line(error)}") from None
    finally:
        tables.join()  # OpenCV may not guard the tables' first build: never two threads at it
    return photo_from_array(rgb, str(path))


def open_checked(path: Path) -> Image.Image:
    """The image opened (its header read, no pixel decoded), refused if it declares more than MAX_PIXELS."""
    refusal = (f"{path}: more pixels than photosolve reads ({MAX_PIXELS / 1e6:.0f} megapixels at most): "
               "take the photo at a lower resolution (12 megapixels is plenty)")
    with warnings.catch_warnings():  # Pillow warns of big images on stderr; refused below instead
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            opened = Image.open(path)
        except Image.DecompressionBombError:
            raise UnreadableImage(refusal) from None
    width, height = opened.size
    if width * height > MAX_PIXELS:
        opened.close()
        raise UnreadableImage(refusal.replace("more pixels", f"{width}x{height} pixels, more", 1))
    return opened


def is_heif(path: Path) -> bool:
    """Whether the file is HEIC/HEIF (or AVIF) by its name or by the brand in its first box."""
    if path.suffix.lower() in {".heic", ".heif", ".hif", ".avif"}:
        return True
    try:
        with open(path, "rb") as file:
            head = file.read(12)
    except OSError:  # asked while explaining why the photo would not open: that reason is the one to give
        return False
    return head[4:8] == b"ftyp" and head[8:12] in HEIF_BRANDS


def one_line(error: BaseException) -> str:
    """An error's message on one line (some decoders' messages span several)."""
    return " ".join(str(error).split()) or type(error).__name__


def begin_loading(path: str | Path) -> Callable[[], Photo]:
    """load_photo(path) started in the background, where the decoding (which lets go of Python's lock) overlaps
    whatever the program does meanwhile, such as importing the rest of itself. The function returned waits for
    the photo, raising what load_photo raised."""
    outcome: dict[str, object] = {}
    # Waited for through an Event, not Thread.join: a join interrupted by Ctrl-C (Python 3.11) may return at once
    # the next time, and a process that exits while OpenCV works in the thread aborts (exit 134).
    done = threading.Event()

    def load() -> None:
        try:
            outcome["photo"] = load_photo(path)
        except Exception as error:  # handed to whoever waits for the photo
            outcome["error"] = error
        finally:
            done.set()

    threading.Thread(target=load, daemon=True).start()

    def photo() -> Photo:
        done.wait()
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
    if image.mode.startswith("I") or image.mode == "F":
        array = np.asarray(image, dtype=np.float32)
        gray = np.clip(array * (255.0 / full_scale(image.mode, array)) + 0.5, 0, 255).astype(np.uint8)
        return np.repeat(gray[:, :, None], 3, axis=2)
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        background = Image.new("RGBA", rgba.size, (128, 128, 128, 255))
        return np.asarray(Image.alpha_composite(background, rgba).convert("RGB"))
    return rgb_array(image if image.mode == "RGB" else image.convert("RGB"))


def rgb_array(image: Image.Image, band: int = 64) -> np.ndarray:
    """An RGB Pillow image as an array, copied a band of rows at a time: np.asarray of the whole image holds two
    transient copies of its bytes besides the result (bench/load_memory.py: 10.4 bytes a pixel at peak, not 7.7).
    Bands of 64 rows stay in the processor's cache: 14 ms for 12 MP, np.asarray 44 ms (median of 7, this machine)."""
    width, height = image.size
    rgb = np.empty((height, width, 3), np.uint8)
    for top in range(0, height, band):
        rgb[top:top + band] = np.asarray(image.crop((0, top, width, min(height, top + band))))
    return rgb


def full_scale(mode: str, gray: np.ndarray) -> float:
    """The value that is white in a 16-bit, 32-bit or float grayscale image: 16-bit files use the full 65535,
    float files 1.0; 32-bit files carry no convention, so the smallest of 255, 65535 that holds every value."""
    if mode.startswith("I;16"):
        return 65535.0
    top = float(np.nanmax(gray)) if gray.size else 0.0
    if mode == "F" and top <= 1.0:
        return 1.0
    return next((scale for scale in (255.0, 65535.0) if top <= scale), max(top, 1.0))
