"""Grouped albums (`group: day`, `month`) in a real browser: at widths from 320 to 3840 px, with
scripts on and off, every tile and every section header is where frames.json's formulas put
it, no tile overlaps another or a header, headers come in order with their dates, and a header
sticks to the top of the screen while its section scrolls by. The 100,000-photo album grouped
by day keeps a bounded number of tile and header nodes while it is scrolled from top to bottom.

The 100,000-photo album takes a few minutes to generate and build; CASCADE_SKIP_100K=1 skips it."""
import bisect
import os
import random
import subprocess
import time

import pytest

import framedata
import sitecheck
from conftest import REPO, make_driver, serve
from test_layout import TWO_FRAMES
from test_viewer import viewer_started
from photo_factory import dated_album

WIDTHS = [320, 360, 414, 600, 768, 1000, 1024, 1280, 1440, 1600, 1920, 2560, 3840]
TOLERANCE = 0.5  # px

# Tiles, section boxes and headers, relative to the wall, in one round trip.
MEASURE = """
const wall = document.querySelector('div.wall');
if (!wall) return null;
const w = wall.getBoundingClientRect();
function box(node) {
  const r = node.getBoundingClientRect();
  return {l: r.left - w.left, t: r.top - w.top, r: r.right - w.left, b: r.bottom - w.top};
}
return {
  width: w.width, height: w.height, grouped: wall.classList.contains('is-grouped'),
  tiles: [...wall.querySelectorAll('a.tile')].map(t => Object.assign(box(t), {index: +t.dataset.index})),
  sections: [...wall.querySelectorAll('.section')].map(s => Object.assign(box(s), {
    index: +s.dataset.section, head: box(s.querySelector('.section-head')),
    label: s.querySelector('.section-head').textContent})),
  order: [...wall.children].map(c => (c.classList.contains('section') ? 'h' : 't') + c.dataset.index),
  scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth,
};
"""

def overlaps(a, b):
    """Whether two boxes ({l, t, r, b}) share interior, beyond the tolerance."""
    return sitecheck.overlaps((a["l"], a["t"], a["r"], a["b"]), (b["l"], b["t"], b["r"], b["b"]), TOLERANCE)


def expected_layout(frames, width):
    """Tiles' frames and sections' boxes at a wall width, by docs/layout.md's formulas."""
    bp = [b for b in frames["breakpoints"] if width >= b["minWidth"]][-1]
    ratios = [item["ratio"] for item in frames["items"]]
    return framedata.place(bp["column"], ratios, bp["columns"], frames["gap"], width,
                           frames["sections"], frames["headerHeight"])


@pytest.fixture(scope="module")
def grouped_site(tmp_path_factory):
    """A site whose `cascade.yml` groups by month, with an album grouped by day by its
    index.md (with undated photos) and one that takes the site's month."""
    root = tmp_path_factory.mktemp("grouped")
    rng = random.Random(3)
    days = [rng.randint(1, 25) for _ in range(24)]
    labels = dated_album(root / "photos" / "Days", days, seed=4, undated=5)
    (root / "photos" / "Days" / "index.md").write_text("---\ngroup: day\n---\nBy day.\n")
    dated_album(root / "photos" / "Months", [7] * 70, seed=5)
    (root / "photos" / "cascade.yml").write_text("group: month\n")
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(root / "photos"), "--output", str(out), "--quiet"],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    with serve(out) as base:
        yield base, out, labels + ["Undated"]


def test_sections_have_their_dates_in_order(grouped_site):
    _, out, day_labels = grouped_site
    days = framedata.load(out / "days" / "frames.json")
    assert [s["label"] for s in days["sections"]] == day_labels
    months = framedata.load(out / "months" / "frames.json")
    assert [s["label"] for s in months["sections"]] == ["July 2024", "August 2024", "September 2024"]
    starts = [s["start"] for s in days["sections"]]
    assert starts[0] == 0 and starts == sorted(starts) and len(set(starts)) == len(starts)
    # The engine's content height at each reference width is the documented formulas' wall.
    for bp in days["breakpoints"]:
        last = bp["boxes"][-1]
        assert abs(last[0] + last[1] - bp["contentHeight"]) < 0.01


@pytest.mark.parametrize("javascript", [True, False], ids=["scripts-on", "scripts-off"])
def test_grouped_wall_holds_at_every_width(request, grouped_site, javascript):
    """Tiles and headers at their formulas' places, no tile over another or over a header,
    headers before their tiles in the page, the wall as tall as its last section."""
    base, out, _ = grouped_site
    driver = request.getfixturevalue("driver" if javascript else "driver_nojs")
    failures = []
    for album in ("days", "months"):
        frames = framedata.load(out / album / "frames.json")
        for width in WIDTHS:
            driver.set_window_size(width, 900)
            driver.get(base + album + "/index.html")
            if javascript:
                if not viewer_started(driver, tries=100):
                    failures.append(f"{album} at {width} px: the viewer did not start")
                driver.execute_async_script(TWO_FRAMES)
            m = driver.execute_script(MEASURE)
            where = f"{album} at {width} px"
            if not m["grouped"]:
                failures.append(f"{where}: the wall is not marked is-grouped")
            tile_frames, boxes = expected_layout(frames, m["width"])
            if not m["tiles"] or not m["sections"]:
                failures.append(f"{where}: {len(m['tiles'])} tiles, {len(m['sections'])} sections")
                continue
            if not javascript and len(m["tiles"]) != frames["count"]:
                failures.append(f"{where}: {len(m['tiles'])} tiles of {frames['count']}")
            for t in m["tiles"]:
                x, y, w, h = tile_frames[t["index"]]
                if abs(t["l"] - x) > TOLERANCE or abs(t["t"] - y) > TOLERANCE or abs(t["b"] - (y + h)) > TOLERANCE:
                    failures.append(f"{where}: tile {t['index']} at ({t['l']:.1f}, {t['t']:.1f}), its frame at ({x:.1f}, {y:.1f})")
            for s in m["sections"]:
                y, h = boxes[s["index"]]
                if abs(s["t"] - y) > TOLERANCE or abs(s["b"] - (y + h)) > TOLERANCE:
                    failures.append(f"{where}: section {s['index']} is {s['t']:.1f}..{s['b']:.1f}, its box {y:.1f}..{y + h:.1f}")
                if abs(s["head"]["t"] - y) > TOLERANCE or abs(s["head"]["b"] - s["head"]["t"] - frames["headerHeight"]) > TOLERANCE:
                    failures.append(f"{where}: header {s['index']} is not at the top of its section")
                if s["label"] != frames["sections"][s["index"]]["label"]:
                    failures.append(f"{where}: header {s['index']} says {s['label']!r}")
            tiles = sorted(m["tiles"], key=lambda t: t["t"])
            for i, a in enumerate(tiles):
                for b in tiles[i + 1:]:
                    if b["t"] >= a["b"]:
                        break
                    if overlaps(a, b):
                        failures.append(f"{where}: tiles {a['index']} and {b['index']} overlap")
                for s in m["sections"]:
                    if overlaps(a, s["head"]):
                        failures.append(f"{where}: tile {a['index']} is over header {s['index']}")
            # Each header comes in the page right before its section's first tile.
            for s in m["sections"]:
                start = frames["sections"][s["index"]]["start"]
                at = m["order"].index(f"h{start}")
                if at + 1 < len(m["order"]) and m["order"][at + 1] != f"t{start}":
                    failures.append(f"{where}: header {s['index']} is followed by {m['order'][at + 1]}, not tile {start}")
            last = boxes[-1]
            if abs(m["height"] - (last[0] + last[1])) > TOLERANCE:
                failures.append(f"{where}: the wall is {m['height']:.1f} tall, its last section ends at {last[0] + last[1]:.1f}")
            if m["scrollWidth"] > m["clientWidth"]:
                failures.append(f"{where}: the page scrolls sideways")
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures[:40])


def settle(driver, javascript):
    """Lets the page lay out after a scroll (with scripts off the page cannot be asked)."""
    if javascript:
        driver.execute_async_script(TWO_FRAMES)
    else:
        time.sleep(0.3)


@pytest.mark.parametrize("javascript", [True, False], ids=["scripts-on", "scripts-off"])
def test_header_sticks_while_its_section_scrolls(request, grouped_site, javascript):
    base, out, _ = grouped_site
    driver = request.getfixturevalue("driver" if javascript else "driver_nojs")
    frames = framedata.load(out / "days" / "frames.json")
    driver.set_window_size(1280, 800)
    driver.get(base + "days/index.html")
    if javascript:
        time.sleep(0.5)
    width, wall_top = driver.execute_script(
        "const r = document.querySelector('.wall').getBoundingClientRect(); return [r.width, r.top + scrollY]")
    _, boxes = expected_layout(frames, width)
    # The tallest section, scrolled to a third of its height: its header is at the top of the
    # screen, and no other header is on screen above the next section.
    chosen = max(range(len(boxes)), key=lambda s: boxes[s][1])
    y, h = boxes[chosen]
    driver.execute_script("window.scrollTo(0, arguments[0])", wall_top + y + h / 3)
    settle(driver, javascript)
    head = driver.execute_script(
        "const s = document.querySelector('.section[data-section=\"' + arguments[0] + '\"] .section-head');"
        "const r = s.getBoundingClientRect(); return {t: r.top, b: r.bottom, label: s.textContent,"
        " hit: document.elementFromPoint(r.left + 4, r.top + r.height / 2) === s}", chosen)
    assert abs(head["t"]) <= 1, f"the header of section {chosen} is at {head['t']:.1f}, not stuck at the top"
    assert head["label"] == frames["sections"][chosen]["label"]
    assert head["hit"], "the stuck header is not on top of the tiles scrolling under it"
    # At the end of its section it is pushed away by the next one, never over it.
    driver.execute_script("window.scrollTo(0, arguments[0])", wall_top + y + h - 10)
    settle(driver, javascript)
    top = driver.execute_script(
        "return document.querySelector('.section[data-section=\"' + arguments[0] + '\"] .section-head').getBoundingClientRect().top", chosen)
    assert top < -1, "the header stayed at the top past the end of its section"


def skip_100k():
    return pytest.mark.skipif(os.environ.get("CASCADE_SKIP_100K") == "1", reason="CASCADE_SKIP_100K=1")


@pytest.fixture(scope="module")
def big_grouped(tmp_path_factory):
    root = tmp_path_factory.mktemp("grouped100k")
    rng = random.Random(11)
    days, total = [], 0
    while total < 100_000:
        days.append(min(100_000 - total, rng.randint(1, 60)))
        total += days[-1]
    dated_album(root / "photos" / "Many", days, seed=12, small=True)
    # (The search index at this size is benchmarks/search.py's to measure, not this test's.)
    (root / "photos" / "cascade.yml").write_text("group: day\nsearch: false\n")
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(root / "photos"), "--output", str(out), "--quiet"],
                            capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stderr
    frames = framedata.load(out / "many" / "frames.json")
    assert frames["count"] == 100_000 and len(frames["sections"]) == len(days)
    with serve(out) as base:
        yield base + "many/", frames


STATE = """
const wall = document.querySelector('.wall'), w = wall.getBoundingClientRect(), v = window.cascadeViewer;
function box(node) { const r = node.getBoundingClientRect(); return {l: r.left - w.left, t: r.top - w.top, r: r.right - w.left, b: r.bottom - w.top}; }
return {
  tiles: [...wall.querySelectorAll('.tile')].map(t => Object.assign(box(t), {index: +t.dataset.index})),
  sections: [...wall.querySelectorAll('.section')].map(s => Object.assign(box(s), {index: +s.dataset.section,
    label: s.querySelector('.section-head').textContent, head: box(s.querySelector('.section-head'))})),
  width: wall.parentElement.getBoundingClientRect().width, wallTop: w.top, shift: v.shift || 0, scaled: v.mapping.scaled,
  height: innerHeight, scrollMax: document.documentElement.scrollHeight - innerHeight,
  created: v.recycler.created, headersCreated: v.headers.created,
};
"""

SETTLE = """
const done = arguments[arguments.length - 1], v = window.cascadeViewer, started = performance.now();
(function wait() {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (v.loading.size === 0 || performance.now() - started > 3000) done(); else wait();
  }));
})();
"""


@skip_100k()
def test_100k_grouped_by_day_keeps_nodes_bounded(big_grouped):
    """Scrolled a screen at a time through 40 stretches of 25 screens from top to bottom: every
    tile and header on screen exists where its frame says, tile and header nodes stay few."""
    base, frames = big_grouped
    driver = make_driver()
    driver.set_script_timeout(10)
    try:
        driver.set_window_size(1920, 1080)
        driver.get(base + "index.html")
        viewer_started(driver)
        state = driver.execute_script(STATE)
        tile_frames, boxes = expected_layout(frames, state["width"])
        bp = [b for b in frames["breakpoints"] if state["width"] >= b["minWidth"]][-1]
        columns = [[] for _ in range(bp["columns"])]
        for index, char in enumerate(bp["column"]):
            columns[int(char, 36)].append(index)
        bottoms = [[tile_frames[i][1] + tile_frames[i][3] for i in column] for column in columns]
        box_tops = [b[0] for b in boxes]
        problems, max_tiles, max_headers, scroll, steps = [], 0, 0, 0, 0
        while True:
            driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
            driver.execute_async_script(SETTLE)
            state = driver.execute_script(STATE)
            steps += 1
            max_tiles = max(max_tiles, len(state["tiles"]))
            max_headers = max(max_headers, len(state["sections"]))
            top = -state["wallTop"] + state["shift"]
            bottom = top + state["height"]
            present = {t["index"] for t in state["tiles"]}
            for column, ends in zip(columns, bottoms):
                p = bisect.bisect_right(ends, top)
                while p < len(column) and tile_frames[column[p]][1] < bottom:
                    if column[p] not in present:
                        problems.append(f"at {scroll}px tile {column[p]} is on screen but missing")
                    p += 1
            shown = {s["index"] for s in state["sections"]}
            s = max(0, bisect.bisect_right(box_tops, top) - 1)
            while s < len(boxes) and boxes[s][0] < bottom:
                if boxes[s][0] + boxes[s][1] > top and s not in shown:
                    problems.append(f"at {scroll}px section {s} is on screen but has no header")
                s += 1
            for t in state["tiles"]:
                x, y, _, _ = tile_frames[t["index"]]
                if abs(t["l"] - x) > 1 or abs(t["t"] - (y - state["shift"])) > 1:
                    problems.append(f"at {scroll}px tile {t['index']} is at {t['l']:.1f},{t['t']:.1f}, its frame at {x:.1f},{y - state['shift']:.1f}")
                for sec in state["sections"]:
                    if overlaps(t, sec["head"]) and abs(sec["head"]["t"] - (boxes[sec["index"]][0] - state["shift"])) <= 1:
                        problems.append(f"at {scroll}px tile {t['index']} is over header {sec['index']}")
            for sec in state["sections"]:
                if sec["label"] != frames["sections"][sec["index"]]["label"]:
                    problems.append(f"at {scroll}px header {sec['index']} says {sec['label']!r}")
                if abs(sec["t"] - (boxes[sec["index"]][0] - state["shift"])) > 1:
                    problems.append(f"at {scroll}px section {sec['index']} is at {sec['t']:.1f}, its box at {boxes[sec['index']][0] - state['shift']:.1f}")
            if scroll >= state["scrollMax"] or len(problems) > 40:
                break
            scroll = min(scroll + 1000, state["scrollMax"])
            if steps % 25 == 0:
                scroll = max(scroll, min(state["scrollMax"], round(state["scrollMax"] * (steps // 25) / 39)))
        assert not problems, "\n".join(problems[:30])
        assert max_tiles < 100, f"{max_tiles} tile nodes at once"
        assert max_headers < 40, f"{max_headers} header nodes at once"
        assert state["headersCreated"] < 60, f"{state['headersCreated']} header nodes created in all"
        assert max(t["index"] for t in state["tiles"]) >= frames["count"] - 10
        print(f"\n100,000 photos in {len(boxes)} days: {steps} steps, at most {max_tiles} tile and "
              f"{max_headers} header nodes, {state['created']} tile and {state['headersCreated']} header nodes created")
    finally:
        driver.quit()
