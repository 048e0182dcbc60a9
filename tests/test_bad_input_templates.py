"""Template sets damaged or edited by hand (manifest.json, halves.png, features.npz missing or garbled): refused in
one line (exit 2 from the command), or, for the features, which are only a stored measurement, measured again."""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from photosolve.cli.main import app, with_default_command
from photosolve.vision.errors import TemplateError
from photosolve.vision.read.templates import BUNDLED, load_templates

from .conftest import SAMPLES


@pytest.fixture
def dogs_set(tmp_path) -> Path:
    folder = tmp_path / "dogs-set"
    shutil.copytree(BUNDLED / "dogs", folder)
    return folder


def edit_manifest(folder: Path, **fields) -> None:
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "manifest.json").write_text(json.dumps({**manifest, **fields}))


def save_bomb(path: Path) -> None:
    Image.new("1", (20000, 20000)).save(path)  # 48 kB on disk, 400 megapixels decoded


DAMAGE = {
    "manifest empty": lambda f: (f / "manifest.json").write_text(""),
    "manifest garbled": lambda f: (f / "manifest.json").write_bytes(b"\x00\xff{{"),
    "manifest a list": lambda f: (f / "manifest.json").write_text("[]"),
    "labels text": lambda f: edit_manifest(f, labels="abc"),
    "labels missing": lambda f: edit_manifest(f, labels=None),
    "labels all alike": lambda f: edit_manifest(f, labels=[1] * 36),
    "labels too large": lambda f: edit_manifest(f, labels=[10 ** 30, -1] * 18),
    "band size zero": lambda f: edit_manifest(f, band_size=[0, -5]),
    "band size huge": lambda f: edit_manifest(f, band_size=[50000, 50000]),
    "motifs a list": lambda f: edit_manifest(f, motifs=[1, 2]),
    "motif number text": lambda f: edit_manifest(f, motifs={"x": "brown"}),
    "tiles of 2 edges": lambda f: edit_manifest(f, tiles=[[1, 2]]),
    "name a list": lambda f: edit_manifest(f, name=[1]),
    "mosaic outside the folder": lambda f: edit_manifest(f, mosaic="/etc/passwd"),
    "halves.png missing": lambda f: (f / "halves.png").unlink(),
    "halves.png garbled": lambda f: (f / "halves.png").write_bytes(b"\x89PNG\r\n\x1a\ngarbage"),
    "halves.png truncated": lambda f: (f / "halves.png").write_bytes((f / "halves.png").read_bytes()[:2000]),
    "halves.png too small": lambda f: Image.new("RGB", (3, 3)).save(f / "halves.png"),
    "halves.png a bomb": lambda f: save_bomb(f / "halves.png"),
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_set_is_refused_in_one_line_naming_it(dogs_set, damage):
    DAMAGE[damage](dogs_set)
    with pytest.raises(TemplateError) as caught:
        load_templates(dogs_set)
    message = str(caught.value)
    assert message.startswith(f"{dogs_set}: not a readable template set (") and "\n" not in message
    assert message.endswith("make it again with `photosolve learn`")


FEATURE_DAMAGE = {
    "missing": lambda f: (f / "features.npz").unlink(),
    "garbled zip": lambda f: (f / "features.npz").write_bytes(b"PK\x03\x04garbage"),
    "truncated": lambda f: (f / "features.npz").write_bytes((f / "features.npz").read_bytes()[:500]),
    "text": lambda f: (f / "features.npz").write_text("hello"),
    "a folder": lambda f: ((f / "features.npz").unlink(), (f / "features.npz").mkdir()),
    "version an array": lambda f: np.savez(f / "features.npz", features=np.zeros(3), version=np.array([1, 2])),
}


@pytest.mark.parametrize("damage", FEATURE_DAMAGE)
def test_damaged_stored_features_are_measured_again(dogs_set, damage):
    intact = load_templates(dogs_set)
    assert intact.stored_features is not None
    FEATURE_DAMAGE[damage](dogs_set)
    again = load_templates(dogs_set)
    assert again.stored_features is None
    assert np.allclose(again.features, intact.features, atol=1e-4)


def run(*args: str):
    return CliRunner().invoke(app, with_default_command(list(args)))


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def test_the_command_exits_2_in_one_line_and_leaves_photo_and_set_untouched(dogs_set, tmp_path):
    photo = SAMPLES / "dogs.jpg"
    before = hashlib.sha256(photo.read_bytes()).hexdigest()
    edit_manifest(dogs_set, band_size="x")
    kept = digest(dogs_set)
    result = run(str(photo), "--templates", str(dogs_set), "-o", str(tmp_path / "solved.png"))
    assert result.exit_code == 2
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert result.stderr.splitlines() == [f"photosolve: {dogs_set}: not a readable template set (manifest.json: "
                                          "'band_size' is not two pixel counts from 1 to 1000): make it again "
                                          "with `photosolve learn`"]
    assert hashlib.sha256(photo.read_bytes()).hexdigest() == before and digest(dogs_set) == kept
    assert not (tmp_path / "solved.png").exists()
