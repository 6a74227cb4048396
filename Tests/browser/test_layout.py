"""The CSS-only waterfall in a real browser: on every album page, at widths from 320 to 3840 px,
with JavaScript on and off, tiles never overlap, stay inside the wall, keep their photo's aspect
ratio, the wall is exactly as tall as its content and nothing scrolls sideways. With scripts
off every tile is there and every image loads."""
import json
import os
import time

import pytest

import framedata
import sitecheck

WIDTHS = [320, 360, 414, 600, 768, 1000, 1024, 1280, 1440, 1600, 1920, 2560, 3840]
HEIGHT = 900
TOLERANCE = 0.5        # px, for rounding of layout units
WALL_SLACK = 2.0       # px the wall may be taller than its lowest tile, besides its bottom padding
RATIO_TOLERANCE = 0.01  # relative

# Everything for one width in one round trip.
MEASURE = """
const walls = document.querySelectorAll('div.wall');
if (walls.length === 0) return null;
const wall = walls[0];
const w = wall.getBoundingClientRect();
const style = getComputedStyle(wall);
const tiles = [...wall.querySelectorAll('a.tile')].map(t => {
  const r = t.getBoundingClientRect();
  const imgs = t.querySelectorAll('img');
  const img = imgs[0];
  return {l: r.left, t: r.top, r: r.right, b: r.bottom, images: imgs.length,
          iw: img ? Number(img.getAttribute('width')) : 0,
          ih: img ? Number(img.getAttribute('height')) : 0};
});
return {walls: walls.length,
        wall: {l: w.left, t: w.top, r: w.right, b: w.bottom},
        padBottom: parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth),
        tiles: tiles,
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
        innerWidth: window.innerWidth};
"""

# Resolves after two animation frames, so that script-driven layout has happened.
TWO_FRAMES = """
const done = arguments[arguments.length - 1];
requestAnimationFrame(() => requestAnimationFrame(() => done(true)));
"""


def measure(driver, url, width, javascript):
    driver.set_window_size(width, HEIGHT)
    driver.get(url)
    m = driver.execute_script(MEASURE)
    if javascript:
        # The page's script may still be fetching frames.json and placing tiles: measure
        # until two measurements a couple of frames apart agree (at most about 2 s).
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            driver.execute_async_script(TWO_FRAMES)
            again = driver.execute_script(MEASURE)
            if again == m:
                break
            m = again
    return m


def layout_problems(m, width, expected_count):
    """Everything wrong with one measurement, as sentences."""
    if m is None:
        return ["no div.wall on the page"]
    problems = []
    if m["innerWidth"] != width:
        problems.append(f"the viewport is {m['innerWidth']} px wide, not {width}")
    if m["walls"] != 1:
        problems.append(f"{m['walls']} div.wall elements, expected 1")
    tiles, wall = m["tiles"], m["wall"]
    if not tiles:
        return problems + ["no a.tile in the wall"]
    boxes = [(t["l"], t["t"], t["r"], t["b"]) for t in tiles]
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            if sitecheck.overlaps(a, boxes[j], TOLERANCE):
                problems.append(f"tiles {i} and {j} overlap: {fmt(a)} and {fmt(boxes[j])}")
        if (a[0] < wall["l"] - TOLERANCE or a[2] > wall["r"] + TOLERANCE
                or a[1] < wall["t"] - TOLERANCE or a[3] > wall["b"] + TOLERANCE):
            problems.append(f"tile {i} {fmt(a)} is not inside the wall "
                            f"{fmt((wall['l'], wall['t'], wall['r'], wall['b']))}")
        t = tiles[i]
        if t["images"] != 1:
            problems.append(f"tile {i} has {t['images']} img elements, expected 1")
        tw, th = a[2] - a[0], a[3] - a[1]
        if tw <= 0 or th <= 0:
            problems.append(f"tile {i} is empty: {tw:.2f} x {th:.2f}")
            continue
        if t["iw"] <= 0 or t["ih"] <= 0:
            problems.append(f"tile {i}'s img has no width/height attributes")
            continue
        # A tile's shape is its photo's, clamped to 1:3 ... 3:1 (docs/layout.md): the photo fills
        # it (object-fit: cover) and is shown whole in the lightbox and on its page.
        expected = min(max(t["ih"] / t["iw"], 1 / 3), 3)
        ratio = th / tw
        # 1 %, plus what rounding the attributes to whole pixels can account for.
        if abs(ratio - expected) > RATIO_TOLERANCE * expected + 0.5 / t["iw"]:
            problems.append(f"tile {i} is {tw:.2f} x {th:.2f} (h/w {ratio:.4f}) but its img is "
                            f"{t['iw']} x {t['ih']} (h/w {expected:.4f})")
    lowest = max(b[3] for b in boxes)
    if wall["b"] < lowest - TOLERANCE:
        problems.append(f"the wall ends at {wall['b']:.2f}, above its lowest tile's bottom {lowest:.2f}")
    # A page script may keep only the tiles near the viewport: the lowest tile present is then
    # not the lowest tile, and the wall is rightly taller.
    if len(tiles) == expected_count and wall["b"] > lowest + WALL_SLACK + m["padBottom"]:
        problems.append(f"the wall ends at {wall['b']:.2f}, {wall['b'] - lowest:.2f} px below its "
                        f"lowest tile (bottom padding {m['padBottom']:.2f} px)")
    if m["scrollWidth"] > m["clientWidth"]:
        problems.append(f"the page scrolls sideways: scrollWidth {m['scrollWidth']} > clientWidth {m['clientWidth']}")
    return problems


def fmt(box):
    return "(" + ", ".join(f"{v:.2f}" for v in box) + ")"


def frames_json(site, page):
    return framedata.load((site / page).with_name("frames.json"))


@pytest.mark.parametrize("javascript", [True, False], ids=["scripts-on", "scripts-off"])
def test_waterfall_holds_at_every_width(request, site, server, album_pages, javascript):
    """No overlap, inside the wall, true aspect ratios, exact wall height, no sideways scroll."""
    driver = request.getfixturevalue("driver" if javascript else "driver_nojs")
    failures = []
    for page in album_pages:
        expected_count = len(frames_json(site, page)["items"])
        url = sitecheck.url_of(server, page)
        for width in WIDTHS:
            m = measure(driver, url, width, javascript)
            failures += [f"{page} at {width} px: {p}" for p in layout_problems(m, width, expected_count)]
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures[:60])


def test_scripts_off_every_tile_is_there_and_every_image_loads(site, server, album_pages, driver_nojs):
    failures = []
    for page in album_pages:
        items = frames_json(site, page)["items"]
        for width in (360, 1280):
            driver_nojs.set_window_size(width, HEIGHT)
            driver_nojs.get(sitecheck.url_of(server, page))
            count = driver_nojs.execute_script("return document.querySelectorAll('div.wall a.tile').length")
            if count != len(items):
                failures.append(f"{page} at {width} px: {count} tiles, frames.json has {len(items)} items")
            # Lazy images load when they come near the viewport: go to the bottom, then wait.
            driver_nojs.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
            deadline = time.monotonic() + 10
            while True:
                loaded = driver_nojs.execute_script(
                    "return [...document.querySelectorAll('div.wall a.tile img')]"
                    ".map(i => i.complete && i.naturalWidth > 0)")
                if all(loaded) or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
            missing = [i for i, ok in enumerate(loaded) if not ok]
            if missing:
                failures.append(f"{page} at {width} px: the images of tiles {missing} did not load")
            if not loaded:
                failures.append(f"{page} at {width} px: no tile image")
    assert not failures, "\n".join(failures)


def test_screenshots(site, server, album_pages, driver, screenshots):
    """Screenshots of the root album and a nested album at 390 and 1440 px, for people to look
    at, in CASCADE_SCREENSHOTS."""
    if not screenshots:
        pytest.skip("set CASCADE_SCREENSHOTS to a folder to get screenshots")
    albums = sitecheck.album_pages(site)
    nested = [p for p in albums if p.count("/") >= 2]
    chosen = ["index.html"] + (nested[:1] or [p for p in album_pages if p != "index.html"][:1])
    saved = []
    for page in chosen:
        for width in (390, 1440):
            driver.set_window_size(width, HEIGHT)
            driver.get(sitecheck.url_of(server, page))
            # Bring every image in, then back to the top.
            driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not driver.execute_script(
                    "return [...document.images].every(i => i.complete)"):
                time.sleep(0.1)
            driver.execute_script("window.scrollTo(0, 0)")
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.set_window_size(width, min(max(height, HEIGHT), 8000))
            driver.execute_async_script(TWO_FRAMES)
            name = (page[:-len("index.html")].strip("/").replace("/", "_") or "root") + f"-{width}.png"
            path = os.path.join(screenshots, name)
            assert driver.save_screenshot(path), f"could not save {path}"
            saved.append(path)
    print("\nscreenshots:\n" + "\n".join(saved))
