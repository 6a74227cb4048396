"""Right-to-left sites (`language: ar`) in a real browser: at several widths, with scripts on
and off, the waterfall, justified rows and sections are the English site's mirrored (the first
photo at the right, hit where it shows: elementFromPoint), the page does not scroll sideways,
and the lightbox's arrows and keys are swapped (ArrowLeft is "next"); the viewer speaks the
page's language."""
import json
import os
import subprocess

import pytest
from selenium.webdriver.common.keys import Keys

from conftest import REPO, serve
from photo_factory import album
from test_lightbox import counter, keys, start
from test_viewer import LIGHTBOX_OPEN as OPEN, viewer_started, wait_until

WIDTHS = [360, 800, 1280, 1920]
TOLERANCE = 0.5  # px
ALBUMS = ["columns", "rows", "grouped"]

MEASURE = """
const wall = document.querySelector('div.wall');
const w = wall.getBoundingClientRect();
const tiles = [...wall.querySelectorAll('a.tile')].map(t => {
  const r = t.getBoundingClientRect();
  return {index: +t.dataset.index, l: r.left - w.left, t: r.top - w.top, r: r.right - w.left, b: r.bottom - w.top};
});
const first = wall.querySelector('a.tile[data-index="0"]').getBoundingClientRect();
const hit = document.elementFromPoint(first.left + first.width / 2, first.top + Math.min(first.height / 2, 5));
const heads = [...wall.querySelectorAll('.section-head')].map(h => getComputedStyle(h).direction);
return {width: w.width, tiles: tiles, hit: hit && hit.closest('a.tile') ? +hit.closest('a.tile').dataset.index : null,
        heads: heads, scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth};
"""


def build(photos, out, *arguments):
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    result = subprocess.run([binary, "build", str(photos), "--output", str(out), "--quiet", *arguments],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """The same photos built in English and in Arabic (`--language ar`): an album in columns,
    one in rows, one grouped by day (all undated: one section)."""
    root = tmp_path_factory.mktemp("languages")
    photos = root / "photos"
    album(photos / "Columns", 40, seed=3)
    album(photos / "Rows", 30, seed=4)
    (photos / "Rows" / "index.md").write_text("---\nlayout: rows\n---\n")
    album(photos / "Grouped", 25, seed=5)
    (photos / "Grouped" / "index.md").write_text("---\ngroup: day\n---\n")
    build(photos, root / "en")
    build(photos, root / "ar", "--language", "ar")
    with serve(root / "en") as english, serve(root / "ar") as arabic:
        yield english, arabic


@pytest.mark.parametrize("javascript", [True, False], ids=["scripts-on", "scripts-off"])
def test_walls_are_mirrored_at_every_width(request, sites, javascript):
    english, arabic = sites
    driver = request.getfixturevalue("driver" if javascript else "driver_nojs")
    failures = []
    for width in WIDTHS:
        driver.set_window_size(width, 900)
        for name in ALBUMS:
            measured = {}
            for language, base in [("en", english), ("ar", arabic)]:
                driver.get(base + name + "/index.html")
                driver.execute_script("window.scrollTo(0, 0)")
                if javascript and not viewer_started(driver, tries=100):
                    failures.append(f"{name} at {width} px ({language}): the viewer did not start")
                measured[language] = driver.execute_script(MEASURE)
            where = f"{name} at {width} px"
            ltr, rtl = measured["en"], measured["ar"]
            if abs(ltr["width"] - rtl["width"]) > TOLERANCE:
                failures.append(f"{where}: walls of {ltr['width']} and {rtl['width']} px")
            wall = rtl["width"]
            before = {t["index"]: t for t in ltr["tiles"]}
            for t in rtl["tiles"]:
                e = before.get(t["index"])
                if e is None:
                    continue
                if max(abs(t["l"] - (wall - e["r"])), abs(t["r"] - (wall - e["l"])), abs(t["t"] - e["t"]), abs(t["b"] - e["b"])) > TOLERANCE:
                    failures.append(f"{where}: tile {t['index']} at ({t['l']:.1f}, {t['t']:.1f}, {t['r']:.1f}, {t['b']:.1f}), "
                                    f"not the mirror of ({e['l']:.1f}, {e['t']:.1f}, {e['r']:.1f}, {e['b']:.1f})")
            first = next(t for t in rtl["tiles"] if t["index"] == 0)
            if abs(first["r"] - wall) > TOLERANCE:
                failures.append(f"{where}: the first photo ends at {first['r']:.1f}, not at the wall's right edge {wall:.1f}")
            if rtl["hit"] != 0:
                failures.append(f"{where}: the first photo's place hits tile {rtl['hit']}")
            if name == "grouped" and (not rtl["heads"] or set(rtl["heads"]) != {"rtl"}):
                failures.append(f"{where}: section headers {rtl['heads']}")
            if rtl["scrollWidth"] > rtl["clientWidth"]:
                failures.append(f"{where}: the page scrolls sideways")
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures[:40])


def test_the_lightbox_is_mirrored_and_speaks_arabic(sites, driver):
    _, arabic = sites
    start(driver, arabic + "columns/index.html")
    assert driver.execute_script("return document.documentElement.dir") == "rtl"
    driver.execute_script("document.querySelector('.wall .tile[data-index=\"0\"]').click()")
    wait_until(driver, OPEN)
    keys(driver, Keys.ARROW_LEFT)
    wait_until(driver, "document.querySelector('.lb-counter').textContent.startsWith('2 /')")
    keys(driver, Keys.ARROW_LEFT)
    wait_until(driver, "document.querySelector('.lb-counter').textContent.startsWith('3 /')")
    keys(driver, Keys.ARROW_RIGHT)
    wait_until(driver, "document.querySelector('.lb-counter').textContent.startsWith('2 /')")
    assert counter(driver).startswith("2 /")
    box = driver.execute_script(
        "const p = document.querySelector('.lb-prev').getBoundingClientRect(), n = document.querySelector('.lb-next').getBoundingClientRect();"
        "return {prev: p.left, next: n.left, width: innerWidth,"
        " close: document.querySelector('.lb-close').getAttribute('aria-label'),"
        " next_label: document.querySelector('.lb-next').getAttribute('aria-label'),"
        " status: document.querySelector('.lb-status').textContent}")
    assert box["next"] < box["prev"], "the next photo's arrow is at the left"
    assert box["close"] == "إغلاق" and box["next_label"] == "الصورة التالية"
    assert box["status"].startswith("الصورة 2 من 40")


@pytest.fixture(scope="module")
def arabic_strip(tmp_path_factory):
    """An Arabic album of 60 photos with the thumbnail strip, built with the worktree's theme."""
    root = tmp_path_factory.mktemp("languages-strip")
    album(root / "photos" / "Strip", 60, seed=6, small=True)
    (root / "photos" / "cascade.yml").write_text("title: Strip\nlanguage: ar\nlightbox_thumbnails: true\n")
    build(root / "photos", root / "site", "--sort", "name", "--templates", str(REPO / "templates"))
    with serve(root / "site") as base:
        yield base + "strip/"


# The strip's first cell against the strip's right edge, the current cell shown, their names.
STRIP_RTL = """
const strip = document.querySelector('.lb-strip'), s = strip.getBoundingClientRect();
const cell = i => document.querySelector(`.lb-thumb[data-index="${i}"]`);
const current = document.querySelector('.lb-thumb[aria-current="true"]'), c = current && current.getBoundingClientRect();
const first = cell(0) && cell(0).getBoundingClientRect();
return {strip: strip.getAttribute('aria-label'), label: current && current.getAttribute('aria-label'),
        current: current ? +current.dataset.index : null, shown: !!c && c.left >= s.left - 0.5 && c.right <= s.right + 0.5,
        firstRight: first ? s.right - first.right : null, nodes: strip.querySelectorAll('.lb-thumb').length};
"""


def test_right_to_left_a_flick_to_the_right_is_next_and_the_strip_starts_at_the_right(arabic_strip, driver):
    import time
    from test_lightbox_stage import COUNT_POINTER_ENDS, PHONE, timed_drag
    from test_viewer import LIGHTBOX_SETTLED as SETTLED
    start(driver, arabic_strip + "index.html", PHONE)
    driver.execute_script("document.querySelector('.wall .tile[data-index=\"0\"]').click()")
    wait_until(driver, OPEN)
    wait_until(driver, SETTLED)
    state = driver.execute_script("return (() => {" + STRIP_RTL + "})()")
    assert state["strip"] == "الصور" and state["label"].startswith("الصورة 1"), state
    assert state["current"] == 0 and state["shown"], state
    # The first cell sits at the strip's start, its right edge (within the cell's margin).
    assert state["firstRight"] is not None and 0 <= state["firstRight"] < 8, state
    # A flick to the right, 40 px in 40 ms (the page sees these times): the next photo.
    driver.execute_script(COUNT_POINTER_ENDS)
    image = driver.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().toJSON()")
    x, y = image["left"] + image["width"] / 2, image["top"] + image["height"] / 2
    now = time.time()
    timed_drag(driver, [(x, y), (x + 10, y), (x + 20, y), (x + 30, y), (x + 40, y)],
               [now, now + 0.01, now + 0.02, now + 0.03, now + 0.04, now + 0.045])
    wait_until(driver, "window.pointerEnds === 1")
    wait_until(driver, "document.querySelector('.lb-counter').textContent.startsWith('2 /')")
    wait_until(driver, SETTLED)
    # The far end: the strip follows it (scrolled to the left), still about a screen of cells.
    keys(driver, Keys.END)
    wait_until(driver, "document.querySelector('.lb-counter').textContent.startsWith('60 /')")
    wait_until(driver, SETTLED)
    wait_until(driver, "document.querySelector('.lb-thumb[data-index=\"59\"][aria-label^=\"الصورة 60\"]')")
    state = driver.execute_script("return (() => {" + STRIP_RTL + "})()")
    assert state["current"] == 59 and state["shown"], state
    assert state["nodes"] < 60, state


@pytest.fixture(scope="module")
def searchable_sites(tmp_path_factory):
    """test_search's photos (with the search index), one of them with a person, its creator and
    a place, built in French and in Arabic with the worktree's theme; yields their base URLs."""
    from test_search import make_photos
    root = tmp_path_factory.mktemp("languages-search")
    photos = root / "photos"
    make_photos(photos)
    region = ("-XMP-mwg-rs:RegionInfo={AppliedToDimensions={W=300,H=200,Unit=pixel},RegionList=["
              "{Area={W=0.1,H=0.2,X=0.3,Y=0.4,Unit=normalized},Name=Maëlle Ruz,Type=Face}]}")
    subprocess.run(["exiftool", "-q", "-overwrite_original", region, "-EXIF:Artist=Jq Vx",
                    "-XMP-photoshop:City=Plévenon", str(photos / "Bretagne" / "plage.jpg")], check=True)
    for language in ["fr", "ar"]:
        build(photos, root / language, "--language", language, "--templates", str(REPO / "templates"))
        assert (root / language / "search" / "index.gz").is_file(), "the build wrote no search index"
    with serve(root / "fr") as french, serve(root / "ar") as arabic:
        yield {"fr": french, "ar": arabic}


# (language, "1 found", "none found", the filters' button, filter labels, "any", the lightbox's credit line)
SEARCH_WORDS = [
    ("fr", "1 photo trouvée.", "Aucune photo trouvée.", "Filtres", ["Année", "Album", "Appareil", "Personne", "Lieu"],
     "Indifférent", "Par Jq Vx · Avec Maëlle Ruz · Plévenon"),
    ("ar", "عُثر على صورة واحدة.", "لم يُعثر على أي صورة.", "عوامل التصفية", ["السنة", "الألبوم", "الكاميرا", "الشخص", "المكان"],
     "الكل", "تصوير: \u2068Jq Vx\u2069 · مع \u2068Maëlle Ruz\u2069 · \u2068Plévenon\u2069"),
]

# Where the filters' button and the first filter sit in the results panel: their distances from
# the panel's left and right edges (inside its padding), and the first filter's side of the last.
TOGGLE_PLACE = """const panel = document.querySelector('.search-panel').getBoundingClientRect();
    const pad = parseFloat(getComputedStyle(document.querySelector('.search-panel')).paddingLeft);
    const toggle = document.querySelector('.search-filter-toggle').getBoundingClientRect();
    const filters = document.querySelectorAll('.search-filters label');
    const first = filters[0].getBoundingClientRect(), last = filters[filters.length - 1].getBoundingClientRect();
    return {left: toggle.left - panel.left - pad, right: panel.right - pad - toggle.right,
            firstLeftOfLast: first.left < last.left};"""


@pytest.mark.parametrize("language,one,none,toggle_text,labels,any_value,credit", SEARCH_WORDS, ids=["fr", "ar"])
def test_search_box_and_lightbox_credits_speak_the_language(searchable_sites, driver, language, one, none, toggle_text,
                                                           labels, any_value, credit):
    base = searchable_sites[language]
    driver.set_window_size(1440, 900)
    driver.get(base + "bretagne/index.html")
    wait_until(driver, "!document.querySelector('form.site-search').hidden")
    box = driver.find_element("css selector", "#site-search-input")
    box.click()
    box.send_keys("sandcastle")
    wait_until(driver, f"document.querySelector('.search-status').textContent === {json.dumps(one)}"
                       " && document.querySelectorAll('.search-grid a').length === 1", 30)
    # The filters are behind their button, named in the page's language, at the panel's start
    # (its right in Arabic); the filters it opens run from that side too.
    toggle = driver.find_element("css selector", ".search-filter-toggle")
    assert toggle.is_displayed() and toggle.text == toggle_text
    toggle.click()
    wait_until(driver, f"document.querySelectorAll('.search-filters select').length === {len(labels)}", 30)
    place = driver.execute_script(TOGGLE_PLACE)
    if language == "ar":
        assert abs(place["right"]) < 2 and place["left"] > 100 and not place["firstLeftOfLast"], place
    else:
        assert abs(place["left"]) < 2 and place["right"] > 100 and place["firstLeftOfLast"], place
    shown = driver.execute_script("""return {
        labels: Array.from(document.querySelectorAll('.search-filters label > span')).map(s => s.textContent),
        any: Array.from(document.querySelectorAll('.search-filters select')).map(s => s.options[0].text),
        placeholder: document.querySelector('#site-search-input').placeholder}""")
    assert shown["labels"] == labels, shown
    assert set(shown["any"]) == {any_value}, shown
    box.clear()
    box.send_keys("zzzqqq")
    wait_until(driver, f"document.querySelector('.search-status').textContent === {json.dumps(none)}", 30)
    # The photo with a creator, a person and a place: its credit line in the lightbox.
    driver.get(base + "bretagne/index.html#photo=plage")
    wait_until(driver, "window.cascadeViewer && " + OPEN)
    wait_until(driver, f"document.querySelector('.lb-credit').textContent === {json.dumps(credit)}", 30)


@pytest.mark.parametrize("language", ["fr", "ar"])
def test_search_results_arrow_keys_and_details_follow_the_direction(searchable_sites, driver, language):
    """Right to left the second result is at the left of the first: ArrowLeft goes to it (it went
    back to the box); and each of a result's album and date is isolated, so that a Latin album
    name beside an Arabic date does not run into it."""
    base = searchable_sites[language]
    driver.set_window_size(1440, 900)
    driver.get(base + "bretagne/index.html")
    wait_until(driver, "!document.querySelector('form.site-search').hidden")
    box = driver.find_element("css selector", "#site-search-input")
    box.click()
    box.send_keys("x-t4")
    wait_until(driver, "document.querySelectorAll('.search-grid a').length === 2", 30)
    box.send_keys(Keys.ARROW_DOWN)
    wait_until(driver, "document.activeElement === document.querySelector('.search-grid a')")
    driver.switch_to.active_element.send_keys(Keys.ARROW_LEFT if language == "ar" else Keys.ARROW_RIGHT)
    wait_until(driver, "document.activeElement === document.querySelectorAll('.search-grid a')[1]")
    place = driver.execute_script("""const [a, b] = document.querySelectorAll('.search-grid a');
        return {secondAtLeft: b.getBoundingClientRect().left < a.getBoundingClientRect().left,
                details: document.querySelector('.search-meta').textContent};""")
    assert place["secondAtLeft"] == (language == "ar"), place
    isolated = "\u2068" in place["details"] and "\u2069" in place["details"]
    assert isolated == (language == "ar"), place
