"""The viewer in a real browser over a generated album of 1,000 photos: only tiles near the
screen exist, nodes are recycled, every tile shows its own photo, the lightbox and the back
button work, and with scripts off every tile is still there."""
import json
import os
import subprocess
import sys
import time
import urllib.request

import pytest

from conftest import REPO, free_port, make_driver
from photo_factory import album

COUNT = 1000


@pytest.fixture(scope="module")
def big_album(tmp_path_factory):
    root = tmp_path_factory.mktemp("big")
    album(root / "photos" / "Many", COUNT)
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(root / "photos"), "--output", str(out), "--quiet"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "-d", str(out)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/many/"
    for _ in range(100):
        try:
            urllib.request.urlopen(base + "index.html", timeout=1)
            break
        except OSError:
            time.sleep(0.05)
    frames = json.loads((out / "many" / "frames.json").read_text())
    yield base, frames
    server.terminate()
    server.wait(timeout=5)


def frames_at(frames, width):
    """Every item's (top, bottom) at a wall width, from frames.json and the CSS formulas."""
    breakpoint = [b for b in frames["breakpoints"] if width >= b["minWidth"]][-1]
    gap = frames["gap"]
    n = breakpoint["columns"]
    colw = (width - (n - 1) * gap) / n
    sums, counts, result = [0.0] * n, [0] * n, []
    for item, (x, _, _, _) in zip(frames["items"], breakpoint["frames"]):
        c = round(x / (breakpoint["columnWidth"] + gap))
        top = sums[c] * colw + counts[c] * gap
        result.append((top, top + item["ratio"] * colw))
        sums[c] += item["ratio"]
        counts[c] += 1
    return result


STATE = """
const wall = document.querySelector('.wall'), outer = wall.parentElement;
const tiles = [...wall.querySelectorAll('.tile')].map(t => {
  const r = t.getBoundingClientRect(), img = t.querySelector('img');
  return {index: +t.dataset.index, l: r.left, t: r.top, r: r.right, b: r.bottom,
          src: img.getAttribute('src'), srcset: img.getAttribute('srcset'), href: t.getAttribute('href')};
});
const v = window.cascadeViewer;
return {tiles, wallTop: outer.getBoundingClientRect().top, width: outer.getBoundingClientRect().width,
        created: v.recycler.created, reused: v.recycler.reused, height: innerHeight,
        scrollMax: document.documentElement.scrollHeight - innerHeight};
"""


def wait_for_viewer(driver):
    for _ in range(100):
        if driver.execute_script("return !!window.cascadeViewer"):
            return
        time.sleep(0.05)
    pytest.fail("the viewer did not start")


def test_scrolling_the_whole_album_keeps_nodes_bounded_and_correct(big_album):
    base, frames = big_album
    items = frames["items"]
    driver = make_driver()
    try:
        driver.set_window_size(1920, 1080)
        driver.get(base + "index.html")
        wait_for_viewer(driver)
        max_nodes, created_at_half, problems = 0, None, []
        scroll, step = 0, 400
        while True:
            driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
            time.sleep(0.03)
            driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
            state = driver.execute_script(STATE)
            tiles = state["tiles"]
            max_nodes = max(max_nodes, len(tiles))
            present = {t["index"] for t in tiles}
            assert len(present) == len(tiles), "two nodes show the same photo"
            # Every tile that intersects the viewport exists.
            view_top, view_bottom = -state["wallTop"], -state["wallTop"] + state["height"]
            for index, (top, bottom) in enumerate(frames_at(frames, state["width"])):
                if bottom > view_top and top < view_bottom and index not in present:
                    problems.append(f"at {scroll}px tile {index} is on screen but missing")
            for t in tiles:
                item = items[t["index"]]
                expected = ", ".join(f"{x['url']} {x['width']}w" for x in item["thumbnails"])
                if t["srcset"] != expected or t["href"] != item["page"] or t["src"] not in {x["url"] for x in item["thumbnails"]}:
                    problems.append(f"at {scroll}px tile {t['index']} shows {t['src']}")
            for i, a in enumerate(tiles):
                for b in tiles[i + 1:]:
                    if a["l"] < b["r"] - 0.5 and b["l"] < a["r"] - 0.5 and a["t"] < b["b"] - 0.5 and b["t"] < a["b"] - 0.5:
                        problems.append(f"at {scroll}px tiles {a['index']} and {b['index']} overlap")
            if created_at_half is None and scroll > state["scrollMax"] / 2:
                created_at_half = state["created"]
            if scroll >= state["scrollMax"]:
                break
            scroll = min(scroll + step, state["scrollMax"])
        assert not problems, "\n".join(problems[:20])
        assert max_nodes < 100, f"{max_nodes} tile nodes at once"
        assert state["created"] - created_at_half <= 4, "nodes were created while scrolling steadily"
        assert state["reused"] > COUNT / 2
        # The last tile was reached.
        assert max(t["index"] for t in state["tiles"]) >= COUNT - 10
    finally:
        driver.quit()


def test_lightbox_keys_back_button_and_deep_link(big_album):
    base, frames = big_album
    driver = make_driver()
    try:
        driver.set_window_size(1280, 900)
        driver.get(base + "index.html")
        wait_for_viewer(driver)
        driver.execute_script("document.querySelector('.wall .tile[data-index=\"3\"]').click()")
        assert driver.execute_script("return !document.querySelector('.lightbox').hidden")
        first_id = frames["items"][3]["page"].removesuffix(".html")
        assert driver.execute_script("return location.hash") == f"#photo={first_id}"
        src = driver.execute_script("return document.querySelector('.lightbox-image').getAttribute('src')")
        assert src == frames["items"][3]["images"][-1]["url"]
        driver.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
        assert driver.execute_script("return location.hash") == "#photo=" + frames["items"][4]["page"].removesuffix(".html")
        driver.back()
        time.sleep(0.3)
        assert driver.execute_script("return document.querySelector('.lightbox').hidden")
        assert driver.execute_script("return location.hash") == ""
        assert driver.execute_script("return document.activeElement.dataset.index") == "4"
        # A link to a photo opens it directly; Escape closes it.
        deep = frames["items"][900]["page"].removesuffix(".html")
        driver.get(base + "index.html#photo=" + deep)
        wait_for_viewer(driver)
        assert driver.execute_script("return !document.querySelector('.lightbox').hidden")
        assert driver.execute_script("return document.querySelector('.lightbox-image').getAttribute('src')") == frames["items"][900]["images"][-1]["url"]
        driver.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}))")
        assert driver.execute_script("return document.querySelector('.lightbox').hidden")
        assert driver.execute_script("return document.activeElement.dataset.index") == "900"
    finally:
        driver.quit()


def test_scripts_off_shows_every_tile(big_album):
    base, frames = big_album
    driver = make_driver(javascript=False)
    try:
        driver.set_window_size(1280, 900)
        driver.get(base + "index.html")
        assert driver.execute_script("return document.querySelectorAll('.wall .tile').length") == COUNT
        assert driver.execute_script("return !window.cascadeViewer")
    finally:
        driver.quit()
