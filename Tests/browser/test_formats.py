"""Several image formats in a real browser: a site built with `--format avif,jpeg` offers AVIF
through <picture>, and Chromium (which supports AVIF) shows the AVIF images everywhere: the
server-rendered tiles, tiles the viewer binds while scrolling, the lightbox, the photo page, and
the static page with scripts off. JPEG stays the <img> every browser can show."""
import os
import subprocess
import urllib.parse

import pytest

import framedata
from conftest import REPO, make_driver, serve
from photo_factory import album
from test_viewer import SETTLE, LIGHTBOX_OPEN, wait_for_viewer, wait_until

COUNT = 400

# Each tile on screen: its index, the <source> elements (type, srcset) and the <img>'s state.
ON_SCREEN = """
return [...document.querySelectorAll('.wall .tile')].filter(t => {
  const r = t.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight;
}).map(t => {
  const img = t.querySelector('img');
  return {index: +t.dataset.index, pending: t.hasAttribute('data-pending'),
          sources: [...t.querySelectorAll('picture > source')].map(s => [s.getAttribute('type'), s.getAttribute('srcset')]),
          imgSrcset: img.getAttribute('srcset'), loaded: img.complete && img.naturalWidth > 0, current: img.currentSrc};
});
"""

ALL_LOADED = """
return [...document.querySelectorAll('.wall .tile img')].filter(i => {
  const r = i.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight;
}).every(i => i.complete && i.naturalWidth > 0)
"""


@pytest.fixture(scope="module")
def formats_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("formats")
    album(root / "photos" / "Many", COUNT, seed=7)
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(root / "photos"), "--output", str(out), "--quiet",
                             "--format", "avif,jpeg"], capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr
    frames = framedata.load(out / "many" / "frames.json")
    with serve(out) as base:
        yield base + "many/", frames


def check_tiles(tiles, items, base, where):
    """Problems with the tiles on screen: a <source> that does not list the item's AVIF tile
    images, or a loaded image that is not one of them."""
    problems = []
    for t in tiles:
        if t["pending"]:
            continue
        item = items[t["index"]]
        avif = [s for s in item["sources"] if s["type"] == "image/avif"]
        if len(avif) != 1:
            problems.append(f"{where}: item {t['index']} has no AVIF source in the frame data")
            continue
        expected = ", ".join(f"{x['url']} {x['width']}w" for x in avif[0]["thumbnails"])
        if t["sources"] != [["image/avif", expected]]:
            problems.append(f"{where}: tile {t['index']} offers {t['sources']}, expected {expected}")
        jpeg = ", ".join(f"{x['url']} {x['width']}w" for x in item["thumbnails"])
        if t["imgSrcset"] != jpeg:
            problems.append(f"{where}: tile {t['index']}'s <img> srcset is {t['imgSrcset']}")
        urls = {urllib.parse.urljoin(base, x["url"]) for x in avif[0]["thumbnails"]}
        if t["loaded"] and t["current"] not in urls:
            problems.append(f"{where}: tile {t['index']} shows {t['current']}, not its AVIF image")
    return problems


def test_avif_is_shown_on_tiles_while_scrolling_in_the_lightbox_and_on_the_photo_page(formats_site):
    base, frames = formats_site
    items = frames["items"]
    assert [s["type"] for s in frames["raw"]["sources"]] == ["image/avif"]
    assert frames["raw"]["imageURL"].endswith(".jpg"), "JPEG must stay the <img> fallback"
    driver = make_driver()
    driver.set_script_timeout(10)
    try:
        driver.set_window_size(1280, 900)
        driver.get(base + "index.html")
        wait_for_viewer(driver)
        wait_until(driver, ALL_LOADED.replace("return ", "", 1))
        problems = check_tiles(driver.execute_script(ON_SCREEN), items, base, "top")
        loaded = 0
        scroll, scroll_max = 0, driver.execute_script("return document.documentElement.scrollHeight - innerHeight")
        while scroll < scroll_max:
            scroll = min(scroll + 700, scroll_max)
            driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
            driver.execute_async_script(SETTLE)
            wait_until(driver, ALL_LOADED.replace("return ", "", 1))
            tiles = driver.execute_script(ON_SCREEN)
            loaded += sum(1 for t in tiles if t["loaded"])
            problems += check_tiles(tiles, items, base, f"at {scroll}px")
        assert not problems, "\n".join(problems[:20])
        assert loaded > 50
        assert driver.execute_script("return window.cascadeViewer.recycler.reused") > 0, "no tile was recycled"

        index = driver.execute_script("return +document.querySelector('.wall .tile').dataset.index")
        driver.execute_script("document.querySelector('.wall .tile').click()")
        wait_until(driver, LIGHTBOX_OPEN)
        wait_until(driver, "document.querySelector('.lightbox-image').complete && document.querySelector('.lightbox-image').naturalWidth > 0")
        current = driver.execute_script("return document.querySelector('.lightbox-image').currentSrc")
        avif = next(s for s in items[index]["sources"] if s["type"] == "image/avif")
        assert current in {urllib.parse.urljoin(base, x["url"]) for x in avif["images"]}, current

        driver.get(base + items[index]["page"])
        wait_until(driver, "document.querySelector('.photo-image').complete && document.querySelector('.photo-image').naturalWidth > 0")
        assert driver.execute_script("return document.querySelector('.photo-image').currentSrc").endswith(".avif")
    finally:
        driver.quit()


def test_avif_is_shown_with_scripts_off(formats_site):
    base, frames = formats_site
    driver = make_driver(javascript=False)
    try:
        driver.set_window_size(1280, 900)
        driver.get(base + "index.html")
        wait_until(driver, ALL_LOADED.replace("return ", "", 1))
        tiles = driver.execute_script(ON_SCREEN)
        assert len(tiles) > 5
        problems = check_tiles(tiles, frames["items"], base, "scripts off")
        assert not problems, "\n".join(problems[:20])
        assert all(t["loaded"] for t in tiles)
    finally:
        driver.quit()
