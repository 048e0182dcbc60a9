"""The review page (cli/web/): its logic as plain functions, its HTTP layer on 127.0.0.1, and the page itself in
headless Chromium, driven through `photosolve PHOTO --review web` as a person runs it.

The photo is test_review.py's: a puzzle two of whose motifs are drawn alike, read with a learned template set,
so that one edge is truly in doubt.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np
import pytest

from photosolve.cli.main import with_default_command
from photosolve.cli.web import session
from photosolve.cli.web.server import Desk, review_in_browser
from photosolve.solver.tilefile import parse_tiles

from .test_review import twins  # noqa: F401  (the fixture: the look-alike puzzle's photo and template set)

CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync")


@pytest.fixture(scope="module")
def reviewed(twins):  # noqa: F811
    """The twins photo read as `photosolve PHOTO --templates SET` reads it, ready for the page."""
    from photosolve.solver.repair import repair
    from photosolve.vision.load import load_photo
    from photosolve.vision.pipeline import cut_halves, edge_posteriors, read_photo_edges

    folder, _, truth = twins
    photo = load_photo(folder / "photo.jpg")
    halves = cut_halves(photo, 9)
    read = read_photo_edges(halves, str(folder / "set"), 3, 3)
    fixed = repair(edge_posteriors(read.reading), 3, 3, rival=True)
    doubtful = tuple(fixed.doubtful(3.0))
    assert doubtful, "the look-alike motifs should leave an edge in doubt"
    return session.Reviewed(photo.image, halves.quads, halves.squares, read.reading, fixed.edges,
                            dict(read.templates.motif_names), doubtful, 3, 3, str(folder / "photo.jpg"), read.how)


def count(reviewed, corrections) -> int:
    result = session.solve_now(reviewed, corrections.edges)
    return result.up_to_rotation


def break_the_solution(reviewed):
    """Wrong labels (the least likely) on the doubtful edges, one after another, until no solution is left: the
    corrections, and how many steps it took."""
    corrections = session.start(reviewed)
    for steps, (tile, side) in enumerate(session.doubt_order(reviewed), start=1):
        labels = session.labels_of(reviewed)
        least = min(labels, key=lambda label: session.probability(reviewed, tile, side, label))
        corrections = session.set_edges(reviewed, corrections, [(tile, side, least)])
        if count(reviewed, corrections) == 0:
            return corrections, steps
    raise AssertionError("no set of wrong labels on the doubtful edges left the tiles without a solution")


def test_corrections_set_confirm_and_undo(reviewed):
    start = session.start(reviewed)
    tile, side = reviewed.decisive[0]
    read = start.edges[tile][side]
    other = next(label for label in session.labels_of(reviewed) if label != read)
    changed = session.set_edges(reviewed, start, [(tile, side, other)])
    assert changed.edges[tile][side] == other and changed.checked == {(tile, side)}
    assert session.changed(reviewed, changed.edges) == {(tile, side)}
    confirmed = session.set_edges(reviewed, changed, [(0, 0, changed.edges[0][0])])  # kept: the person's word
    assert confirmed.edges == changed.edges and confirmed.checked == {(tile, side), (0, 0)}
    assert session.set_edges(reviewed, confirmed, [(0, 0, changed.edges[0][0])]) is confirmed  # nothing new
    assert session.undo(session.undo(confirmed)) == start and session.undo(start) is start
    for bad in [(9, 0, other), (0, 4, other), (0, 0, 99)]:
        with pytest.raises(session.ReviewError):
            session.set_edges(reviewed, start, [bad])


def test_the_verdict_follows_the_corrections_and_a_repair_is_suggested(reviewed):
    assert count(reviewed, session.start(reviewed)) > 0  # as read (and repaired), the tiles have a solution
    broken, steps = break_the_solution(reviewed)
    suggested = session.suggestion(reviewed, broken)
    assert suggested, "the repair should find the labels that give a solution again"
    # the person's word stands: the suggestion changes none of the edges they set
    assert not {(t, s) for t, s, _ in suggested} & broken.checked
    repaired = session.set_edges(reviewed, broken, suggested)
    assert count(reviewed, repaired) > 0
    assert session.undo(repaired) == broken  # the suggestion applied is one step


def test_page_document_lists_doubt_first_and_draws_where_the_tiles_are(reviewed):
    corrections = session.start(reviewed)
    result = session.solve_now(reviewed, corrections.edges)
    document = json.loads(json.dumps(session.page_document(reviewed, corrections, result, 0.5, [], [])))
    order = [(d["tile"], d["side"]) for d in document["doubtful"]]
    assert set(order[:len(reviewed.decisive)]) == set(reviewed.decisive)
    chances = [document["tiles"][t]["edges"][s]["probability"] for t, s in order[len(reviewed.decisive):]]
    assert chances == sorted(chances) and all(p < 0.9 for p in chances)
    for tile, quad in zip(document["tiles"], reviewed.quads):
        assert np.allclose(tile["corners"], quad.corners * 0.5, atol=0.1)
        for edge in tile["edges"]:
            assert [c[1] for c in edge["choices"]] == sorted((c[1] for c in edge["choices"]), reverse=True)
            assert abs(sum(c[1] for c in edge["choices"]) - 1) < 0.01
    names = [label["name"] for label in document["labels"]]
    assert len(set(names)) == len(names)  # a motif's two halves never look alike
    assert document["outcome"]["count"] == result.up_to_rotation > 0
    assert len(document["outcome"]["places"][0]) == 9
    picture = session.half_picture(reviewed, document["labels"][0]["value"])
    assert picture.shape[1] == session.HALF_WIDTH and picture.std() > 10  # a picture, not a blank


def test_save_writes_the_corrected_tile_file_and_the_solved_picture(reviewed, tmp_path):
    from PIL import Image

    tile, side = reviewed.decisive[0]
    corrections = session.set_edges(reviewed, session.start(reviewed), [(tile, side, reviewed.first[tile][side])])
    result = session.solve_now(reviewed, corrections.edges)
    said = session.save(reviewed, corrections, result, tmp_path / "read.tiles", tmp_path / "solved.png")
    assert said == [f"tiles written to {tmp_path / 'read.tiles'}", f"solved picture written to {tmp_path / 'solved.png'}"]
    text = (tmp_path / "read.tiles").read_text()
    assert [t.edges for t in parse_tiles(text).tiles] == list(corrections.edges)
    note = re.search(rf"# tile {tile + 1}: (.*)", text).group(1).split()
    assert note[2 * side + 1] == "1.00"  # the edge the person confirmed is certain
    with Image.open(tmp_path / "solved.png") as picture:
        assert picture.size[0] == picture.size[1] > 3 * 64
    broken, _ = break_the_solution(reviewed)
    said = session.save(reviewed, broken, session.solve_now(reviewed, broken.edges), None, tmp_path / "none.png")
    assert said[0].startswith("no solution") and not (tmp_path / "none.png").exists()


def test_the_server_answers_only_with_its_token_and_stops_when_done(reviewed):
    opened = []
    addresses = threading.Event()

    def open_page(url: str) -> bool:
        opened.append(url)
        addresses.set()
        return False  # as on a machine with no browser: the address is printed instead

    said = []
    ended = {}
    desk = Desk.open(reviewed, None, None)
    serving = threading.Thread(target=lambda: ended.update(c=review_in_browser(desk, said.append, open_page)))
    serving.start()
    try:
        assert addresses.wait(10)
        url = opened[0]
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/[\w-]{20,}/", url)
        assert any(url in line for line in said) and any("no browser" in line for line in said)
        root = url.rsplit("/", 2)[0]
        for wrong in (root + "/state", root + "/x" + url.rsplit("/", 2)[1] + "/state"):
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(wrong, timeout=10)
            assert refused.value.code == 403
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        assert "app.js" in page and "style.css" in page
        tile, side = reviewed.decisive[0]
        other = next(label for label in session.labels_of(reviewed) if label != reviewed.first[tile][side])
        state = post(url + "edge", {"tile": tile + 1, "side": side, "label": other})
        assert state["tiles"][tile]["edges"][side]["label"] == other and state["can_undo"]
        with pytest.raises(urllib.error.HTTPError) as bad:
            post(url + "edge", {"tile": 10, "side": 0, "label": other})
        assert bad.value.code == 400 and "no tile 10" in json.loads(bad.value.read())["error"]
        for nonsense in ([1, 2], {"tile": "x"}):
            with pytest.raises(urllib.error.HTTPError) as bad:
                post(url + "edge", nonsense)
            assert bad.value.code == 400
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(url + "solved.png?n=x", timeout=10)
        assert missing.value.code == 404
        if state["outcome"]["count"]:  # the solved picture is there exactly when the change leaves a solution
            assert urllib.request.urlopen(url + "solved.png", timeout=10).read()[:4] == b"\x89PNG"
        else:
            with pytest.raises(urllib.error.HTTPError) as unsolved:
                urllib.request.urlopen(url + "solved.png", timeout=10)
            assert unsolved.value.code == 404
        assert post(url + "done", {}) == {"done": True}
        serving.join(10)
        assert not serving.is_alive()
    finally:
        if serving.is_alive():
            post(url + "done", {})
    assert ended["c"].edges[tile][side] == other


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(request, timeout=30).read())


def test_review_web_on_the_command_line_means_the_review_command():
    assert with_default_command(["p.jpg", "--review", "web", "-o", "s.png"]) == ["review", "p.jpg", "-o", "s.png"]
    assert with_default_command(["read", "p.jpg", "--review=web"]) == ["review", "p.jpg"]
    assert with_default_command(["p.jpg", "--review", "--json"]) == ["read", "p.jpg", "--review", "--json"]
    assert with_default_command(["review", "p.jpg"]) == ["review", "p.jpg"]


def chromium():
    """Headless Chromium through selenium, or a skip saying what is missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if browser is None or driver is None:
        pytest.skip("needs Chromium and its driver (Debian: apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="needs selenium (pip install -e '.[test]')")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in CHROMIUM_FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tempfile.mkdtemp(prefix='photosolve-chromium-')}")
    options.add_argument("--window-size=1400,900")
    options.binary_location = browser
    return webdriver.Chrome(options=options, service=Service(driver))


def test_in_a_browser_an_edge_is_corrected_the_board_solved_and_the_tiles_saved(twins, tmp_path):  # noqa: F811
    """photosolve PHOTO --review web, the page driven in headless Chromium as a person would: edges set by
    clicking the photo and a label, undo by key, the solution shown, Save, Done."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait

    browser = chromium()
    folder, _, truth = twins
    command = [sys.executable, "-c", "from photosolve.cli.main import run; run()", str(folder / "photo.jpg"),
               "--review", "web", "--templates", str(folder / "set"), "-o", str(tmp_path / "solved.png"),
               "--save-tiles", str(tmp_path / "read.tiles")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=os.environ | {"BROWSER": "true"})  # `true URL`: no browser of the machine's
    wait = WebDriverWait(browser, 60)

    def settled() -> dict:
        """The server's state once the page shows it."""
        fetch = "fetch('state').then(r => r.json()).then(arguments[0])"
        shown = lambda b: b.execute_script("return document.body.dataset.busy !== 'yes' && "
                                           "document.body.dataset.version")
        wait.until(lambda b: shown(b) and b.execute_async_script(fetch)["version"] == shown(b))
        return browser.execute_async_script(fetch)

    def set_label(tile: int, side: int, label: int) -> dict:
        browser.find_element(By.CSS_SELECTOR, f'.label[data-tile="{tile + 1}"][data-side="{side}"]').click()
        browser.find_element(By.CSS_SELECTOR, f'#choices li[data-label="{label}"]').click()
        return settled()

    verdict = lambda: browser.find_element(By.ID, "verdict-text").text
    try:
        url = next(line.split("review page: ", 1)[1].split()[0] for line in process.stderr if "review page: " in line)
        browser.get(url)
        wait.until(lambda b: b.execute_script("return document.body.dataset.ready"))
        state = settled()
        assert len(browser.find_elements(By.CSS_SELECTOR, "#photo .outline")) == 9
        assert verdict().startswith("✓") and browser.find_element(By.ID, "solved").is_displayed()
        first = state["doubtful"][0]
        assert state["tiles"][first["tile"]]["edges"][first["side"]]["decisive"]
        assert "changes the solution" in browser.find_element(By.CSS_SELECTOR, "#doubts li").text
        # Wrong labels until no solution is left: the page says so, then U takes the last one back.
        for doubt in state["doubtful"]:
            edge = state["tiles"][doubt["tile"]]["edges"][doubt["side"]]
            state = set_label(doubt["tile"], doubt["side"], edge["choices"][-1][0])
            if state["outcome"]["count"] == 0:
                break
        assert verdict().startswith("✗ no solution")
        browser.find_element(By.TAG_NAME, "body").send_keys("u")
        state = settled()
        assert state["outcome"]["count"] > 0 and verdict().startswith("✓")
        wait.until(lambda b: b.execute_script("const p = document.getElementById('solved');"
                                              "return p.complete && p.naturalWidth > 0 && !p.hidden"))
        # The most doubtful edge set to what the tile truly shows (the nearest generated tile's edge).
        tile, side = first["tile"], first["side"]
        centre = np.mean(state["tiles"][tile]["corners"], axis=0) / state["photo_scale"]
        nearest = min(truth["tiles"], key=lambda t: np.hypot(*(np.array(t["center"]) - centre)))
        truly = nearest["edges"][side]
        state = set_label(tile, side, truly)
        assert state["tiles"][tile]["edges"][side]["set_by_hand"]
        browser.find_element(By.ID, "save").click()
        wait.until(lambda b: "tiles written to" in b.find_element(By.ID, "message").text)
        saved = (tmp_path / "read.tiles").read_text()
        edges = [[edge["label"] for edge in t["edges"]] for t in state["tiles"]]
        assert [list(t.edges) for t in parse_tiles(saved).tiles] == edges
        assert edges[tile][side] == truly
        assert re.search(rf"# tile {tile + 1}: (.*)", saved).group(1).split()[2 * side + 1] == "1.00"
        assert (tmp_path / "solved.png").is_file() == (state["outcome"]["count"] > 0)
        browser.find_element(By.ID, "done").click()
        wait.until(lambda b: b.find_element(By.ID, "finished").is_displayed())
        out, err = process.communicate(timeout=60)
    finally:
        browser.quit()
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert "edge(s) changed" in err and "Solution 1 of" in out
