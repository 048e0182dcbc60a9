"""Template sets: labelled example halves of a puzzle's motifs, kept as a folder a person can look into.

A set is a folder holding `manifest.json` (motif names, which half is +, one label per example, and the
puzzle's tile list when it was learned from one: older sets without it still load) and
`halves.png`, a mosaic of the example halves, white-balanced, each with its edge on top. The halves' features
and the print distances between them are kept beside them in `features.npz`, each stamped with the version of
the code that computed it, so that a photo is not kept waiting while they are computed again; a set whose stamp
is of another version (or that has none) has them computed from the pictures when it is loaded, so a set
outlives changes to the features.
"""
from __future__ import annotations

import json
import os
import tempfile
import zipfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np
from PIL import Image

from ..errors import TemplateError, VisionError
from ..load import open_checked
from .features import FEATURES_VERSION, band_features, feature_length
from .structure import STRUCTURE_VERSION, structure_distances

BUNDLED = Path(__file__).parent / "templates"
MOSAIC_COLUMNS = 8
FEATURES_FILE = "features.npz"
SET_FILES = ("manifest.json", "halves.png", FEATURES_FILE)  # what save_templates writes into a set's folder
WHITE_SCALE = 1.2  # white-balanced values run to 1.2; stored as 8 bits over that range


@dataclass(frozen=True)
class TemplateSet:
    """Example halves of one puzzle, each with its signed label."""

    name: str
    motif_names: dict[int, str]
    labels: np.ndarray  # (examples,) signed motif numbers
    bands: np.ndarray  # (examples, height, width, 3) float, white-balanced, edge on top
    half_names: dict[str, dict[str, str]] = field(default_factory=dict)  # {"brown": {"+": "head", "-": "tail"}}
    source: str = ""
    tiles: tuple[tuple[int, int, int, int], ...] = ()  # the puzzle's listed tiles N E S W, if known
    face: tuple[float, float, float] = (100.0, 0.0, 0.0)  # the face's Lab in the bands (face.py): white for card
    stored_features: np.ndarray | None = field(default=None, repr=False, compare=False)  # as loaded, if current
    stored_prints: np.ndarray | None = field(default=None, repr=False, compare=False)  # as loaded, if current

    @cached_property
    def features(self) -> np.ndarray:
        """(examples, F) features of the example halves, computed once per set unless they were stored."""
        # Kept on the instance, not in a table keyed by id(): ids are reused once a set is freed.
        return (self.stored_features if self.stored_features is not None
                else band_features(self.bands, np.asarray(self.face, np.float32)))

    @cached_property
    def prints(self) -> np.ndarray:
        """(examples, examples) how unlike the example halves' registered prints are, about the edge's middle
        (structure.structure_distances, centred): computed once per set unless they were stored."""
        return self.stored_prints if self.stored_prints is not None else example_prints(self.bands)

    def label_name(self, label: int) -> str:
        name = self.motif_names.get(abs(label), str(abs(label)))
        return f"{name}{'+' if label > 0 else '-'}"


def bundled_names() -> list[str]:
    """Names of the template sets installed with photosolve."""
    if not BUNDLED.is_dir():
        return []
    return sorted(p.name for p in BUNDLED.iterdir() if (p / "manifest.json").is_file())


def load_templates(name_or_dir: str | Path) -> TemplateSet:
    """A bundled set by name ('dogs') or a set from a folder."""
    folder = Path(name_or_dir)
    if not (folder / "manifest.json").is_file():
        folder = BUNDLED / str(name_or_dir)
    manifest_path = folder / "manifest.json"
    if not manifest_path.is_file():
        known = ", ".join(bundled_names()) or "none"
        raise TemplateError(f"no template set '{name_or_dir}': give a folder made by `photosolve learn` "
                            f"or one of the bundled sets ({known})")
    try:
        manifest = read_manifest(manifest_path)
        labels = np.array(manifest["labels"], dtype=np.int64)
        height, width = manifest["band_size"]
        mosaic = read_mosaic(folder / manifest["mosaic"], len(labels), height, width)
        bands = [mosaic[(i // MOSAIC_COLUMNS) * height:(i // MOSAIC_COLUMNS + 1) * height,
                        (i % MOSAIC_COLUMNS) * width:(i % MOSAIC_COLUMNS + 1) * width] for i in range(len(labels))]
        return TemplateSet(
            name=manifest["name"] or folder.name,
            motif_names={int(k): v for k, v in manifest["motifs"].items()},
            labels=labels,
            bands=as_bands(np.stack(bands)),
            half_names=manifest["halves"],
            source=manifest["source"],
            tiles=tuple(tuple(int(v) for v in edges) for edges in manifest["tiles"]),  # older sets lack it
            face=tuple(float(v) for v in manifest["face"]),  # older sets lack it: card
            stored_features=current_features(folder / FEATURES_FILE, len(labels)),
            stored_prints=current_prints(folder / FEATURES_FILE, len(labels)),
        )
    except (OSError, ValueError, KeyError, TypeError, VisionError) as error:
        raise TemplateError(f"{folder}: not a readable template set ({' '.join(str(error).split())}): "
                            "make it again with `photosolve learn`") from None


def read_manifest(path: Path) -> dict:
    """manifest.json with every field checked for its kind (a ValueError names the first that is wrong) and the
    optional ones filled in: a set is input like any other, and may have been edited by hand."""
    manifest = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(manifest, dict):
        raise ValueError("manifest.json is not an object")
    checked = {}
    for key, (default, valid, kind) in MANIFEST_FIELDS.items():
        checked[key] = manifest.get(key, default)
        if not valid(checked[key]):
            raise ValueError(f"manifest.json: '{key}' is not {kind}")
    return checked


def _is_int(value) -> bool:
    return type(value) is int and abs(value) < 10**6  # JSON's true/false are not numbers; 10**6: as tile files


def _is_names(value) -> bool:
    return isinstance(value, dict) and all(isinstance(name, (str, dict)) for name in value.values())


# Each field: its default (None: required), its check, and what it should be, for the message.
MANIFEST_FIELDS = {
    "labels": (None, lambda v: isinstance(v, list) and all(map(_is_int, v)) and len(set(v)) >= 2,
               "a list of signed motif numbers, two different ones at least"),
    # 1000: far above the bands photosolve cuts (a few dozen to a hundred pixels), far below a memory bomb.
    "band_size": (None, lambda v: isinstance(v, list) and len(v) == 2 and all(_is_int(n) and 1 <= n <= 1000
                                                                               for n in v),
                  "two pixel counts from 1 to 1000"),
    "mosaic": ("halves.png", lambda v: isinstance(v, str) and v not in ("", ".", "..") and Path(v).name == v,
               "a file name in the set's folder"),
    "name": ("", lambda v: isinstance(v, str), "text"),
    "source": ("", lambda v: isinstance(v, str), "text"),
    "motifs": ({}, lambda v: _is_names(v) and all(k.lstrip("-").isdigit() and isinstance(n, str) for k, n in v.items()),
               "an object from motif numbers to names"),
    "halves": ({}, _is_names, "an object of names"),
    "tiles": ([], lambda v: isinstance(v, list) and all(isinstance(t, list) and len(t) == 4 and all(map(_is_int, t))
                                                         for t in v),
              "a list of tiles of 4 signed motif numbers"),
    "face": ([100.0, 0.0, 0.0], lambda v: isinstance(v, list) and len(v) == 3
             and all(type(n) in (int, float) and -200 <= n <= 200 for n in v), "three Lab numbers"),
}


def read_mosaic(path: Path, count: int, height: int, width: int) -> np.ndarray:
    """halves.png as pixels, refused unless it is exactly the mosaic of `count` halves of height x width that
    save_templates writes (checked on its header, before decoding: a set is input like any other)."""
    expected = (MOSAIC_COLUMNS * width, -(-count // MOSAIC_COLUMNS) * height)
    with open_checked(path) as image:
        if image.size != expected:
            raise ValueError(f"{path.name} is {image.size[0]}x{image.size[1]} pixels, the manifest's "
                             f"{count} halves of {height}x{width} make {expected[0]}x{expected[1]}")
        return np.asarray(image.convert("RGB"))


def bundled_features(name: str) -> np.ndarray:
    """A bundled set's example features (load_templates(name).features), from its stored file when that is current,
    without decoding the set's pictures."""
    try:
        count = len(json.loads((BUNDLED / name / "manifest.json").read_text(encoding="utf-8"))["labels"])
    except (OSError, ValueError, KeyError, TypeError):
        count = -1  # load_templates says what is wrong with the set
    stored = current_features(BUNDLED / name / FEATURES_FILE, count)
    return stored if stored is not None else load_templates(name).features


def as_pixels(bands: np.ndarray) -> np.ndarray:
    """White-balanced bands as the 8-bit pixels of halves.png."""
    return np.clip(bands / WHITE_SCALE * 255.0 + 0.5, 0, 255).astype(np.uint8)


def as_bands(pixels: np.ndarray) -> np.ndarray:
    """halves.png's 8-bit pixels as white-balanced float bands."""
    return pixels.astype(np.float32) / 255.0 * WHITE_SCALE


def current_features(path: Path, count: int) -> np.ndarray | None:
    """The features stored at `path` if they are of this version of the feature code and of `count` halves."""
    try:
        with np.load(path) as stored:
            features, version = stored["features"], int(stored["version"])
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):
        return None  # missing or damaged: measured again from the pictures
    current = version == FEATURES_VERSION and features.shape == (count, feature_length())
    return features.astype(np.float32) if current else None


def current_prints(path: Path, count: int) -> np.ndarray | None:
    """The print distances stored at `path` if they are of this version of the structure code and of `count`
    halves (older sets have none)."""
    try:
        with np.load(path) as stored:
            prints, version = stored["prints"], int(stored["prints_version"])
    except (OSError, ValueError, KeyError, TypeError, EOFError, zipfile.BadZipFile):
        return None  # missing or damaged: measured again from the pictures
    return prints.astype(np.float64) if version == STRUCTURE_VERSION and prints.shape == (count, count) else None


def example_prints(bands: np.ndarray) -> np.ndarray:
    """TemplateSet.prints of these example halves."""
    return structure_distances(bands.astype(np.float32), centred=True)


def save_templates(templates: TemplateSet, folder: str | Path) -> Path:
    """Write the set as manifest.json and halves.png into `folder` (created); each file written atomically."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    count, height, width = templates.bands.shape[:3]
    rows = -(-count // MOSAIC_COLUMNS)
    mosaic = np.full((rows * height, MOSAIC_COLUMNS * width, 3), 255, np.uint8)
    pixels = as_pixels(templates.bands)
    for i, band in enumerate(pixels):
        r, c = divmod(i, MOSAIC_COLUMNS)
        mosaic[r * height:(r + 1) * height, c * width:(c + 1) * width] = band
    manifest = {
        "name": templates.name,
        "motifs": {str(k): v for k, v in sorted(templates.motif_names.items())},
        "halves": templates.half_names,
        "labels": [int(v) for v in templates.labels],
        "band_size": [height, width],
        "mosaic": "halves.png",
        "source": templates.source,
        "tiles": [list(edges) for edges in templates.tiles],
        "face": [round(float(v), 3) for v in templates.face],
    }
    write_atomically(folder / "halves.png", lambda path: Image.fromarray(mosaic).save(path, format="PNG"))
    # of the halves as they will be loaded: 8-bit
    loaded = as_bands(pixels)
    write_features(band_features(loaded, np.asarray(templates.face, np.float32)), example_prints(loaded), folder)
    write_atomically(folder / "manifest.json",
                     lambda path: Path(path).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8"))
    return folder


def write_features(features: np.ndarray, prints: np.ndarray, folder: Path) -> None:
    """Store a set's features and print distances beside its pictures, stamped with their code's versions."""
    def write(path: str) -> None:
        with open(path, "wb") as handle:
            np.savez(handle, features=features, version=FEATURES_VERSION, prints=prints,
                     prints_version=STRUCTURE_VERSION)

    write_atomically(folder / FEATURES_FILE, write)


def write_atomically(target: Path, write) -> None:
    """Write through a temporary file in the same folder, then rename: a reader never sees half a file."""
    target = Path(target)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(handle)
    try:
        write(temporary)
        # mkstemp makes the file private (0600); the result should have the permissions any new file gets.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
