"""The viewer in a real browser over generated albums of 1,000 and 100,000 photos: only tiles
near the screen exist, nodes are recycled and their number does not depend on the album's
size, every tile sits at its frame and shows its own photo, the lightbox and the back button
work, albums taller than one element can be still scroll to their end, and with scripts off
the static pages show every tile.

The 100,000-photo album takes a few minutes to generate and build; CASCADE_SKIP_100K=1 skips it."""
import bisect
import html
import os
import re
import subprocess
import time

import pytest

import framedata
from conftest import REPO, make_driver, serve
from photo_factory import album

SIZES = [1000, 100_000]
MAX_NODES = {}  # album size -> the most tile nodes seen at once while scrolling


def sizes():
    skip = pytest.mark.skipif(os.environ.get("CASCADE_SKIP_100K") == "1", reason="CASCADE_SKIP_100K=1")
    return [pytest.param(n, marks=[skip] if n > 10_000 else []) for n in SIZES]


@pytest.fixture(scope="module", params=sizes(), ids=lambda n: f"{n}-photos")
def big_album(request, tmp_path_factory):
    count = request.param
    root = tmp_path_factory.mktemp(f"album{count}")
    # Small photos keep a 100,000-photo build to a few minutes; their shapes vary as real ones do.
    album(root / "photos" / "Many", count, small=count > 10_000)
    # The search index at this size is benchmarks/search.py's to measure, not this test's.
    (root / "photos" / "cascade.yml").write_text("search: false\n")
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(root / "photos"), "--output", str(out), "--quiet"],
                            capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stderr
    frames = framedata.load(out / "many" / "frames.json")
    assert frames["count"] == count
    with serve(out) as base:
        yield base + "many/", frames, out / "many"


class Wall:
    """Every item's frame at one wall width, from the frame data and the CSS formulas, with a
    per-column index to find the items in a band without a scan."""

    def __init__(self, frames, width):
        bp = [b for b in frames["breakpoints"] if width >= b["minWidth"]][-1]
        gap, n = frames["gap"], bp["columns"]
        colw = (width - (n - 1) * gap) / n
        self.rects, self.columns = [], [[] for _ in range(n)]
        sums, counts = [0.0] * n, [0] * n
        for index, char in enumerate(bp["column"]):
            c = int(char, 36)
            top = sums[c] * colw + counts[c] * gap
            bottom = top + frames["items"][index]["ratio"] * colw
            self.rects.append((c * (colw + gap), top, bottom))
            self.columns[c].append(index)
            sums[c] += frames["items"][index]["ratio"]
            counts[c] += 1
        self.bottoms = [[self.rects[i][2] for i in column] for column in self.columns]
        self.height = max((b[-1] for b in self.bottoms if b), default=0)

    def in_band(self, top, bottom):
        """Indices of the items that reach into [top, bottom)."""
        found = []
        for column, bottoms in zip(self.columns, self.bottoms):
            p = bisect.bisect_right(bottoms, top)
            while p < len(column) and self.rects[column[p]][1] < bottom:
                found.append(column[p])
                p += 1
        return found


STATE = """
const wall = document.querySelector('.wall'), outer = wall.parentElement, w = wall.getBoundingClientRect();
const tiles = [...wall.querySelectorAll('.tile')].map(t => {
  const r = t.getBoundingClientRect(), img = t.querySelector('img');
  return {index: +t.dataset.index, l: r.left - w.left, t: r.top - w.top, r: r.right - w.left, b: r.bottom - w.top,
          src: img.getAttribute('src'), srcset: img.getAttribute('srcset'), href: t.getAttribute('href'),
          pending: t.hasAttribute('data-pending'), bg: t.style.getPropertyValue('--bg').trim()};
});
const v = window.cascadeViewer;
return {tiles, wallTop: w.top, width: outer.getBoundingClientRect().width, shift: v.shift || 0,
        scaled: v.mapping.scaled, wallHeight: w.height,
        created: v.recycler.created, reused: v.recycler.reused, height: innerHeight,
        scrollMax: document.documentElement.scrollHeight - innerHeight};
"""

SETTLE = """
const done = arguments[arguments.length - 1], v = window.cascadeViewer, started = performance.now();
(function wait() {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    if (v.loading.size === 0 || performance.now() - started > 3000) done(); else wait();
  }));
})();
"""


def wait_until(driver, script, seconds=10):
    """Waits until `script` (a JS expression) is true."""
    deadline = time.monotonic() + seconds
    while not driver.execute_script(f"return !!({script})"):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {script}")
        time.sleep(0.05)


LIGHTBOX_OPEN = "document.querySelector('.lightbox') && !document.querySelector('.lightbox').hidden"

# The lightbox at rest: open (or zoomed), no glide and no transition of the photo running, and
# the photo sized for the stage as it is now. Geometry is read only then, never after a time.
LIGHTBOX_SETTLED = """(() => {
  const v = window.cascadeViewer, box = document.querySelector('.lightbox');
  if (!v || !box || box.hidden || !['open', 'zoomed'].includes(box.dataset.state)) return false;
  if (box.classList.contains('is-gliding') || v.zoomer.getAnimations().length) return false;
  return v.fitFor === v.stage.clientWidth + 'x' + v.stage.clientHeight;
})()"""


def viewer_started(driver, tries=200):
    """Whether the viewer script starts on the page, asked every 50 ms, `tries` times."""
    for _ in range(tries):
        if driver.execute_script("return !!window.cascadeViewer"):
            return True
        time.sleep(0.05)
    return False


def wait_for_viewer(driver):
    if not viewer_started(driver):
        pytest.fail("the viewer did not start")


@pytest.mark.parametrize("wall_limit", [None, 30_000], ids=["real-limit", "scaled"])
def test_scrolling_the_whole_album_keeps_nodes_bounded_and_correct(big_album, wall_limit):
    """With `wall_limit` the viewer is told to make no wall taller than that, so the 1,000-photo
    album (about 100,000 px tall) is scrolled the way a 100,000-photo one is on real browsers."""
    base, frames, _ = big_album
    items, count = frames["items"], frames["count"]
    if wall_limit and count > 10_000:
        pytest.skip("the 100,000-photo album is taller than the real limit already")
    limit = wall_limit or 8_000_000
    driver = make_driver()
    driver.set_script_timeout(10)
    try:
        if wall_limit:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument",
                                   {"source": f"window.cascadeMaxWallHeight = {wall_limit};"})
        driver.set_window_size(1920, 1080)
        driver.get(base + "index.html")
        wait_for_viewer(driver)
        # The server-rendered first tiles were adopted, not replaced: no node was created for
        # the first screens, and tile 0 is still the server's (it has the server's loading="eager").
        assert driver.execute_script("return window.cascadeViewer.recycler.created") == 0
        assert driver.execute_script("return document.querySelector('.tile[data-index=\"0\"] img').getAttribute('loading')") == "eager"
        max_nodes, created_at_half, problems, steps = 0, None, [], 0
        scroll = 0
        # The 1,000-photo album is scrolled from top to bottom in small steps. The 100,000-photo
        # one (about 9,000 screens) is scrolled a screen at a time through 40 stretches of 25
        # screens spread evenly from its top to its bottom, jumping from one stretch to the next.
        step = 400 if count <= 10_000 else 1000
        stretch, stretches = 25, 40
        wall = None
        while True:
            driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
            driver.execute_async_script(SETTLE)
            state = driver.execute_script(STATE)
            steps += 1
            if wall is None:
                wall = Wall(frames, state["width"])
                # An album taller than the wall limit is scrolled through a shorter wall.
                assert state["scaled"] == (wall.height > limit), (state["scaled"], wall.height)
                if state["scaled"]:
                    assert state["wallHeight"] <= limit + 1
            tiles = state["tiles"]
            max_nodes = max(max_nodes, len(tiles))
            present = {t["index"] for t in tiles}
            assert len(present) == len(tiles), "two nodes show the same photo"
            # Every tile that intersects the viewport exists, where its frame says.
            view_top = -state["wallTop"] + state["shift"]
            for index in wall.in_band(view_top, view_top + state["height"]):
                if index not in present:
                    problems.append(f"at {scroll}px tile {index} is on screen but missing")
            for t in tiles:
                x, top, bottom = wall.rects[t["index"]]
                if abs(t["l"] - x) > 1 or abs(t["t"] - (top - state["shift"])) > 1 or abs(t["b"] - (bottom - state["shift"])) > 1:
                    problems.append(f"at {scroll}px tile {t['index']} is at {t['l']:.1f},{t['t']:.1f}, "
                                    f"its frame at {x:.1f},{top - state['shift']:.1f}")
                item = items[t["index"]]
                if t["href"] != item["page"]:
                    problems.append(f"at {scroll}px tile {t['index']} links to {t['href']}")
                if t["bg"] != item["color"]:
                    problems.append(f"at {scroll}px tile {t['index']} has the placeholder colour {t['bg']!r}, not {item['color']}")
                if t["pending"]:
                    if t["src"]:
                        problems.append(f"at {scroll}px tile {t['index']} waits for its details but shows {t['src']}")
                    continue
                expected = ", ".join(f"{x['url']} {x['width']}w" for x in item["thumbnails"])
                if t["srcset"] != expected or t["src"] not in {x["url"] for x in item["thumbnails"]}:
                    problems.append(f"at {scroll}px tile {t['index']} shows {t['src']}")
            ordered = sorted(tiles, key=lambda t: t["l"])
            for i, a in enumerate(ordered):
                for b in ordered[i + 1:]:
                    if b["l"] >= a["r"] - 0.5:
                        break
                    if a["t"] < b["b"] - 0.5 and b["t"] < a["b"] - 0.5:
                        problems.append(f"at {scroll}px tiles {a['index']} and {b['index']} overlap")
            if created_at_half is None and scroll > state["scrollMax"] / 2:
                created_at_half = state["created"]
            if scroll >= state["scrollMax"] or len(problems) > 50:
                break
            scroll = min(scroll + step, state["scrollMax"])
            if count > 10_000 and steps % stretch == 0:
                # Jump to the next stretch (the last one ends at the very bottom).
                number = steps // stretch
                scroll = max(scroll, min(state["scrollMax"], round(state["scrollMax"] * number / (stretches - 1))))
        assert not problems, "\n".join(problems[:30])
        if not wall_limit:
            MAX_NODES[count] = max_nodes
        assert max_nodes < 100, f"{max_nodes} tile nodes at once"
        # Once warm, steady scrolling creates (almost) no node; a jump may need a few more.
        allowed = 4 if count <= 10_000 else 4 + 2 * stretches
        assert state["created"] - created_at_half <= allowed, "nodes were created while scrolling steadily"
        assert state["reused"] > min(count, steps * 5) / 2
        # The last tiles were reached, and the page ends where the wall does.
        assert max(t["index"] for t in state["tiles"]) >= count - 10
        print(f"\n{count} photos: {steps} scroll steps, at most {max_nodes} tile nodes, "
              f"{state['created']} created, {state['reused']} reuses")
    finally:
        driver.quit()


def test_node_count_does_not_depend_on_album_size():
    """Run after the scroll test at both sizes: the most tile nodes at once is about the same."""
    if len(MAX_NODES) < 2:
        pytest.skip("needs the scroll test at both album sizes")
    small, large = MAX_NODES[min(MAX_NODES)], MAX_NODES[max(MAX_NODES)]
    assert abs(small - large) <= max(6, 0.15 * small), MAX_NODES


def test_lightbox_keys_back_button_and_deep_link(big_album):
    base, frames, _ = big_album
    items, count = frames["items"], frames["count"]
    driver = make_driver()
    try:
        driver.set_window_size(1280, 900)
        driver.get(base + "index.html")
        wait_for_viewer(driver)
        driver.execute_script("document.querySelector('.wall .tile[data-index=\"3\"]').click()")
        wait_until(driver, LIGHTBOX_OPEN)
        # The address bar holds the photo's own page while the lightbox shows it.
        assert driver.current_url == base + items[3]["page"]
        src = driver.execute_script("return document.querySelector('.lightbox-image').getAttribute('src')")
        # Absolute: the lightbox's address (the photo's page) is the document's base meanwhile.
        assert src == base + items[3]["images"][-1]["url"]
        driver.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
        wait_until(driver, f"location.href === '{base + items[4]['page']}'")
        driver.back()
        wait_until(driver, "document.querySelector('.lightbox').hidden")
        assert driver.current_url == base + "index.html"
        assert driver.execute_script("return document.activeElement.dataset.index") == "4"
        # A link to a photo far down the album opens it directly (its details are loaded first);
        # Escape closes it and focus goes to its tile, scrolled into view.
        far = count * 9 // 10
        driver.get(base + "index.html#photo=" + items[far]["id"])
        wait_for_viewer(driver)
        wait_until(driver, LIGHTBOX_OPEN)
        assert driver.execute_script("return document.querySelector('.lightbox-image').getAttribute('src')") == base + items[far]["images"][-1]["url"]
        driver.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowLeft'}))")
        wait_until(driver, f"location.href === '{base + items[far - 1]['page']}'")
        driver.execute_script("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape'}))")
        wait_until(driver, "document.querySelector('.lightbox').hidden")
        assert driver.current_url == base + "index.html"
        assert driver.execute_script("return document.activeElement.dataset.index") == str(far - 1)
        on_screen = driver.execute_script(
            "const r = document.activeElement.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight")
        assert on_screen, "the focused tile is not on screen"
    finally:
        driver.quit()


def test_scripts_off_static_pages_show_every_tile(big_album):
    base, frames, folder = big_album
    count, per_page = frames["count"], frames["staticCount"]
    pages = (count + per_page - 1) // per_page
    # Every photo has a tile on exactly one static page, in order.
    links = []
    for number in range(1, pages + 1):
        page = folder / ("index.html" if number == 1 else f"pages/{number}.html")
        text = page.read_text(encoding="utf-8")
        prefix = "" if number == 1 else "../"
        links += [html.unescape(h).removeprefix(prefix) for h in re.findall(r'class="tile" href="([^"]*)"', text)]
    assert links == [item["page"] for item in frames["items"]]
    driver = make_driver(javascript=False)
    try:
        driver.set_window_size(1280, 900)
        driver.get(base + "index.html")
        assert driver.execute_script("return document.querySelectorAll('.wall .tile').length") == min(count, per_page)
        assert driver.execute_script("return !window.cascadeViewer")
        if pages > 1:
            # The wall is only as tall as its tiles, and the page links go on to the rest.
            last_bottom = driver.execute_script(
                "return Math.max(...[...document.querySelectorAll('.wall .tile')].map(t => t.getBoundingClientRect().bottom))"
                " - document.querySelector('.wall').getBoundingClientRect().top")
            wall_height = driver.execute_script("return document.querySelector('.wall').getBoundingClientRect().height")
            assert abs(wall_height - last_bottom) < 1
            assert driver.execute_script("return getComputedStyle(document.querySelector('.wall-pages')).display") != "none"
            driver.find_element("css selector", ".wall-pages ol li:last-child a").click()
            assert driver.current_url.endswith(f"pages/{pages}.html")
            assert driver.execute_script("return document.querySelectorAll('.wall .tile').length") == count - (pages - 1) * per_page
            driver.find_element("css selector", "a[rel=prev]").click()
            assert driver.current_url.endswith(f"pages/{pages - 1}.html" if pages > 2 else "many/index.html")
    finally:
        driver.quit()


def test_with_scripts_the_page_links_are_hidden_and_the_wall_is_whole(big_album):
    base, frames, _ = big_album
    if frames["count"] <= frames["staticCount"]:
        pytest.skip("the album fits one page")
    driver = make_driver()
    try:
        driver.set_window_size(1280, 900)
        driver.get(base + "index.html")
        wait_for_viewer(driver)
        assert driver.execute_script("return getComputedStyle(document.querySelector('.wall-pages')).display") == "none"
        wall = Wall(frames, driver.execute_script("return document.querySelector('.wall-outer').getBoundingClientRect().width"))
        height = driver.execute_script("return document.querySelector('.wall').getBoundingClientRect().height")
        expected = min(wall.height, 8_000_000)
        assert abs(height - expected) < 2, (height, wall.height)
    finally:
        driver.quit()
