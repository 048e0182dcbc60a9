"""Screenshots of the review page (`photosolve PHOTO --review web`) at its main steps, for a person to look at.

A generated photo of a puzzle two of whose motifs are drawn alike (so one edge is truly in doubt) is read with a
template set learned from another photo of it; the page is driven in headless Chromium (selenium): opened, an
edge's labels offered, a wrong label set (no solution, a repair suggested), undone, the true label set (solved),
saved, done. Each step's screenshot is written to --out, and the timings printed.

    python bench/review_screenshots.py [--out DIR] [--width 1500 --height 950]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


def twins_photo(folder: Path) -> tuple[Path, Path, dict]:
    """A photo of a puzzle whose motifs 1 and 2 look alike, a template set learned from another photo of it (its
    tile list dropped, so the look-alikes stay in doubt), and the photo's ground truth."""
    from typer.testing import CliRunner

    from photosolve.cli.main import app
    from photosolve.scenes.scene import make_scene, save_scene, twin_motif_puzzle

    puzzle, art = twin_motif_puzzle(12)
    save_scene(make_scene(puzzle, 1, tier="easy", layout="scattered", art=art, size=(1400, 1050)),
               folder / "teacher.jpg")
    (folder / "list.tiles").write_text("\n".join(" ".join(map(str, t.edges)) for t in puzzle.tiles) + "\n")
    learned = CliRunner().invoke(app, ["learn", str(folder / "teacher.jpg"), "--tiles", str(folder / "list.tiles"),
                                       "-o", str(folder / "set")])
    if learned.exit_code != 0:
        sys.exit(f"learning the template set failed: {learned.stderr}")
    manifest = json.loads((folder / "set" / "manifest.json").read_text())
    manifest.pop("tiles", None)
    (folder / "set" / "manifest.json").write_text(json.dumps(manifest))
    photo = make_scene(puzzle, 2, tier="easy", layout="scattered", art=art, size=(1400, 1050))
    save_scene(photo, folder / "photo.jpg")
    return folder / "photo.jpg", folder / "set", photo.truth


def start_review(photo: Path, templates: Path, out: Path) -> tuple[subprocess.Popen, str]:
    """photosolve PHOTO --review web, as a person runs it (no browser opened: BROWSER=true); its page's address."""
    command = [sys.executable, "-c", "from photosolve.cli.main import run; run()", str(photo), "--review", "web",
               "--templates", str(templates), "-o", str(out / "solved.png"), "--save-tiles", str(out / "read.tiles")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=os.environ | {"BROWSER": "true"})
    for line in process.stderr:
        if "review page: " in line:
            return process, line.split("review page: ", 1)[1].split()[0]
    sys.exit(f"photosolve never served the page (exit {process.wait()})")


def chromium(width: int, height: int):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='photosolve-chromium-')}")
    options.add_argument(f"--window-size={width},{height}")
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    return webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver")))


def true_labels(truth: dict, page_tiles: list[dict], scale: float) -> dict[int, tuple]:
    """Each page tile's true edges (N E S W as the page reads them): the generated tile whose centre is nearest."""
    centres = np.array([tile["center"] for tile in truth["tiles"]])
    found = {}
    for tile in page_tiles:
        centre = np.mean(tile["corners"], axis=0) / scale
        nearest = int(np.argmin(np.linalg.norm(centres - centre, axis=1)))
        found[tile["number"]] = tuple(truth["tiles"][nearest]["edges"])
    return found


def settled(browser) -> dict:
    """The server's state, once the page shows it (no request of the page's is under way)."""
    from selenium.webdriver.support.ui import WebDriverWait

    fetch = "fetch('state').then(r => r.json()).then(arguments[0])"
    shown = lambda b: (b.execute_script("return document.body.dataset.busy") != "yes"
                       and b.execute_script("return document.body.dataset.version"))
    WebDriverWait(browser, 30, poll_frequency=0.02).until(
        lambda b: shown(b) and str(b.execute_async_script(fetch)["version"]) == shown(b))
    return browser.execute_async_script(fetch)


def click(browser, selector: str) -> dict:
    """Click what the selector finds; the state once the page shows what followed."""
    from selenium.webdriver.common.by import By

    browser.find_element(By.CSS_SELECTOR, selector).click()
    return settled(browser)


def set_label(browser, tile: int, side: int, label: int) -> dict:
    """Click the edge's label on the photo, then the label in the choice offered; the state that follows."""
    click(browser, f'.label[data-tile="{tile + 1}"][data-side="{side}"]')
    return click(browser, f'#choices li[data-label="{label}"]')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(Path(tempfile.gettempdir()) / "photosolve-review-screenshots"))
    parser.add_argument("--width", type=int, default=1500)
    parser.add_argument("--height", type=int, default=950)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    work = Path(tempfile.mkdtemp(prefix="photosolve-review-"))
    photo, templates, truth = twins_photo(work)
    started = time.perf_counter()
    process, url = start_review(photo, templates, work)
    served = time.perf_counter() - started
    browser = chromium(args.width, args.height)
    shots = []

    def shot(name: str) -> None:
        time.sleep(0.3)  # the solved picture and the halves' pictures load after the state
        browser.save_screenshot(str(out / name))
        shots.append(name)

    try:
        started = time.perf_counter()
        browser.get(url)
        WebDriverWait(browser, 30).until(lambda b: b.execute_script("return document.body.dataset.ready"))
        loaded = time.perf_counter() - started
        shot("1-loaded.png")
        document = settled(browser)
        first = document["doubtful"][0]
        tile, side = first["tile"], first["side"]
        browser.find_element(By.CSS_SELECTOR, f'.label[data-tile="{tile + 1}"][data-side="{side}"]').click()
        shot("2-labels-offered.png")
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
        truly = true_labels(truth, document["tiles"], document["photo_scale"])[tile + 1][side]
        # Wrong labels on the doubtful edges, one after another, until the tiles have no solution (a single edge
        # rarely does it: any one edge can lie on the board's frame); then undo them all.
        steps = 0
        for doubt in document["doubtful"]:
            t, s = doubt["tile"], doubt["side"]
            now = document["tiles"][t]["edges"][s]
            wrong = next(value for value, _ in reversed(now["choices"]) if value != now["label"])
            document = set_label(browser, t, s, wrong)
            steps += 1
            if document["outcome"]["count"] == 0:
                break
        shot("3-wrong-labels-no-solution.png")
        for _ in range(steps):
            document = click(browser, "#undo")
        started = time.perf_counter()
        set_label(browser, tile, side, truly)
        answered = time.perf_counter() - started
        shot("4-true-label-solved.png")
        browser.find_element(By.ID, "save").click()
        WebDriverWait(browser, 30).until(lambda b: "written" in b.find_element(By.ID, "message").text)
        shot("5-saved.png")
        browser.find_element(By.ID, "done").click()
        WebDriverWait(browser, 30).until(lambda b: b.find_element(By.ID, "finished").is_displayed())
        shot("6-done.png")
        code = process.wait(timeout=60)
    finally:
        browser.quit()
        if process.poll() is None:
            process.kill()
    print(f"page served {served:.2f} s after the command started (reading the photo included); loaded in "
          f"{loaded:.2f} s; a label set and the solver's verdict shown in {answered:.2f} s; command exit {code}")
    print(f"screenshots in {out}: " + ", ".join(shots))
    print((work / "read.tiles").read_text())


if __name__ == "__main__":
    main()
