"""Albums in justified rows (`layout: rows`) in a real browser: at widths from 320 to 3840 px,
with scripts on and off, every tile is where frames.json's formulas put it, the tiles of a row
have one height and fill the wall with fixed gaps (the last row at most the target height,
left-aligned), rows never overlap, and panoramas and tall strips are shown whole in tiles of
a clamped shape."""
import os
import subprocess

import pytest

import framedata
from conftest import REPO, serve
from test_layout import TWO_FRAMES
from test_sections import overlaps
from test_viewer import viewer_started
from photo_factory import album, png

WIDTHS = [320, 360, 414, 600, 768, 1000, 1024, 1280, 1440, 1600, 1920, 2560, 3840]
TOLERANCE = 0.5  # px

MEASURE = """
const wall = document.querySelector('div.wall');
const w = wall.getBoundingClientRect();
return {width: w.width, height: w.height, rows: wall.classList.contains('is-rows'),
  tiles: [...wall.querySelectorAll('a.tile')].map(t => {
    const r = t.getBoundingClientRect(), img = t.querySelector('img'), i = img.getBoundingClientRect();
    return {index: +t.dataset.index, l: r.left - w.left, t: r.top - w.top, r: r.right - w.left, b: r.bottom - w.top,
            fit: getComputedStyle(img).objectFit};
  }),
  scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth};
"""

@pytest.fixture(scope="module")
def row_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("rows")
    folder = album(root / "photos" / "Rows", 180, seed=8)
    (folder / "zz-panorama.png").write_bytes(png(600, 20, (40, 90, 160)))
    (folder / "zz-strip.png").write_bytes(png(20, 500, (160, 90, 40)))
    (folder / "index.md").write_text("---\nlayout: rows\n---\nIn rows.\n")
    (root / "photos" / "cascade.yml").write_text(
        "breakpoints:\n  - {min_width: 0, columns: 2, row_height: 110}\n  - {min_width: 700, columns: 3}\n"
        "  - {min_width: 1500, columns: 5, row_height: 300}\n")
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(root / "photos"), "--output", str(out), "--quiet"],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    with serve(out) as base:
        yield base, framedata.load(out / "rows" / "frames.json")


@pytest.mark.parametrize("javascript", [True, False], ids=["scripts-on", "scripts-off"])
def test_rows_hold_at_every_width(request, row_site, javascript):
    base, frames = row_site
    assert frames["layout"] == "rows"
    assert [bp["rowHeight"] for bp in frames["breakpoints"]] == [110, 180, 300]
    driver = request.getfixturevalue("driver" if javascript else "driver_nojs")
    failures = []
    for width in WIDTHS:
        driver.set_window_size(width, 900)
        driver.get(base + "rows/index.html")
        if javascript:
            if not viewer_started(driver, tries=100):
                failures.append(f"at {width} px: the viewer did not start")
            driver.execute_async_script(TWO_FRAMES)
        m = driver.execute_script(MEASURE)
        where = f"at {width} px"
        if not m["rows"]:
            failures.append(f"{where}: the wall is not marked is-rows")
        bp = [b for b in frames["breakpoints"] if m["width"] >= b["minWidth"]][-1]
        expected = framedata.place_rows(bp["rows"], frames["raw"]["rowRatios"], frames["raw"]["ratioScale"],
                                        bp["rowHeight"], frames["gap"], m["width"])
        tiles = {t["index"]: t for t in m["tiles"]}
        if not javascript and len(tiles) != frames["count"]:
            failures.append(f"{where}: {len(tiles)} tiles of {frames['count']}")
        for index, t in tiles.items():
            x, y, w, h = expected[index]
            if max(abs(t["l"] - x), abs(t["t"] - y), abs(t["r"] - (x + w)), abs(t["b"] - (y + h))) > TOLERANCE:
                failures.append(f"{where}: tile {index} at ({t['l']:.1f}, {t['t']:.1f}, {t['r']:.1f}, {t['b']:.1f}), "
                                f"its frame ({x:.1f}, {y:.1f}, {x + w:.1f}, {y + h:.1f})")
            if t["fit"] != "contain":
                failures.append(f"{where}: tile {index}'s photo is not shown whole ({t['fit']})")
        # Rows as the page shows them: equal heights, fixed gaps, filling the wall, no overlap.
        start, previous_bottom = 0, None
        for number, n in enumerate(bp["rows"]):
            row = [tiles[i] for i in range(start, start + n) if i in tiles]
            start += n
            if len(row) < n:
                continue  # the viewer keeps only the rows near the screen
            if max(t["b"] - t["t"] for t in row) - min(t["b"] - t["t"] for t in row) > TOLERANCE:
                failures.append(f"{where}: row {number}'s tiles differ in height")
            if abs(row[0]["l"]) > TOLERANCE:
                failures.append(f"{where}: row {number} starts at {row[0]['l']:.2f}")
            for a, b in zip(row, row[1:]):
                if abs(b["l"] - a["r"] - frames["gap"]) > TOLERANCE:
                    failures.append(f"{where}: a gap of {b['l'] - a['r']:.2f} px in row {number}")
            if number < len(bp["rows"]) - 1 and abs(row[-1]["r"] - m["width"]) > TOLERANCE:
                failures.append(f"{where}: row {number} ends at {row[-1]['r']:.2f}, not at the wall's edge {m['width']:.2f}")
            if number == len(bp["rows"]) - 1:
                if row[0]["b"] - row[0]["t"] > bp["rowHeight"] + TOLERANCE or row[-1]["r"] > m["width"] + TOLERANCE:
                    failures.append(f"{where}: the last row is taller than its target or wider than the wall")
                if not javascript and abs(m["height"] - row[0]["b"]) > TOLERANCE:
                    failures.append(f"{where}: the wall is {m['height']:.2f} tall, its last row ends at {row[0]['b']:.2f}")
            if previous_bottom is not None and row[0]["t"] < previous_bottom + frames["gap"] - TOLERANCE:
                failures.append(f"{where}: row {number} overlaps the row above")
            previous_bottom = row[0]["b"]
        if m["scrollWidth"] > m["clientWidth"]:
            failures.append(f"{where}: the page scrolls sideways")
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures[:40])


def test_extreme_shapes_are_clamped_for_layout(row_site):
    """The 30:1 panorama and the 1:25 strip are laid out at the clamped ratios (4:1 and 1:3)."""
    _, frames = row_site
    ids = frames["raw"]["ids"]
    ratios = dict(zip(ids, frames["raw"]["rowRatios"]))
    assert ratios["zz-panorama"] == 400000
    assert ratios["zz-strip"] == 33333


LARGE_STATE = """
const wall = document.querySelector('.wall'), w = wall.getBoundingClientRect();
return {height: w.height, virtual: wall.classList.contains('is-virtual'),
  tiles: [...wall.querySelectorAll('.tile')].map(t => { const r = t.getBoundingClientRect();
    return {index: +t.dataset.index, l: r.left - w.left, t: r.top - w.top, r: r.right - w.left, b: r.bottom - w.top}; })};
"""


def overlapping(tiles):
    ordered = sorted(tiles, key=lambda t: (t["t"], t["l"]))
    found = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:i + 40]:
            if overlaps(a, b):
                found.append((a["index"], b["index"]))
    return found


def test_a_large_album_in_rows_pages_and_scrolls(tmp_path, driver, driver_nojs):
    """1,300 photos in rows: with scripts off, three static pages of rows, each wall ending at
    its last row; with scripts on, the whole album in one wall of rows, scrolled to its end
    with few tile nodes."""
    album(tmp_path / "photos" / "Many", 1300, seed=5, small=True)
    (tmp_path / "photos" / "cascade.yml").write_text("layout: rows\n")
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    result = subprocess.run([binary, "build", str(tmp_path / "photos"), "--output", str(tmp_path / "site"), "--quiet"],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    failures = []
    with serve(tmp_path / "site") as base:
        for page, count, last in [("index.html", 500, 499), ("pages/2.html", 500, 999), ("pages/3.html", 300, 1299)]:
            for width in (360, 1280, 2600):
                driver_nojs.set_window_size(width, 900)
                driver_nojs.get(base + "many/" + page)
                m = driver_nojs.execute_script(LARGE_STATE)
                where = f"{page} at {width} px"
                if len(m["tiles"]) != count or max(t["index"] for t in m["tiles"]) != last:
                    failures.append(f"{where}: {len(m['tiles'])} tiles up to {max(t['index'] for t in m['tiles'])}")
                if abs(m["height"] - max(t["b"] for t in m["tiles"])) > TOLERANCE:
                    failures.append(f"{where}: the wall does not end at its last row")
                failures += [f"{where}: tiles {a} and {b} overlap" for a, b in overlapping(m["tiles"])]
        driver.set_window_size(1280, 900)
        driver.get(base + "many/index.html")
        viewer_started(driver, tries=100)
        most = 0
        for scroll in range(0, 200_000, 2500):
            driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
            driver.execute_async_script(TWO_FRAMES)
            m = driver.execute_script(LARGE_STATE)
            most = max(most, len(m["tiles"]))
            failures += [f"scripts on at {scroll} px: tiles {a} and {b} overlap" for a, b in overlapping(m["tiles"])]
        if not m["virtual"] or max(t["index"] for t in m["tiles"]) != 1299:
            failures.append(f"scripts on: the end of the album was not reached ({max(t['index'] for t in m['tiles'])})")
        if most >= 120:
            failures.append(f"scripts on: {most} tile nodes at once")
    assert not failures, "\n".join(failures[:30])
