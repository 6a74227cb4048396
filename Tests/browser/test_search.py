"""Static search (Pagefind) in a real browser: a site whose photos carry captions, keywords,
cameras and dates, over two albums and a hidden one. Queries typed into the header's search box
on the home page and on an album page, at 1440 and 390 px, find the right photos (a caption
word, a keyword, a camera model, names typed without their accents) and never the hidden
album's; a result opens the photo in its album's lightbox; the filters narrow the results;
axe-core finds nothing with the results open. With scripts off the box is not shown. Without
Pagefind the build warns once and the site is the one `search: false` makes, with no box; a
rebuild with nothing changed does not run the indexer, a changed caption does.

Needs Pagefind (pip install pagefind-bin, scripts/setup --tests installs it)."""
import os
import pathlib
import shutil
import subprocess
import time

import pytest

from conftest import REPO, make_driver, serve
from test_lightbox import AXE_RUN, axe_source
from test_viewer import LIGHTBOX_OPEN, wait_until

BINARY = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
PHONE, DESKTOP = (390, 844), (1440, 900)

# name: (album, title, caption, keywords, make, model, date)
PHOTOS = {
    "cap": ("Bretagne", "Phare du Cap Fréhel", "The lighthouse above the cliffs", ["coast", "lighthouse"],
            "Canon", "Canon EOS R5", "2021:07:14 10:00:00"),
    "plage": ("Bretagne", "Maëlle à la plage", "Maëlle builds a sandcastle", ["family", "beach"],
              "NIKON CORPORATION", "NIKON D850", "2022:08:01 16:30:00"),
    "port": ("Bretagne", "Harbour at dusk", "Boats waiting for the tide", ["boats"],
             "FUJIFILM", "X-T4", "2022:08:02 20:00:00"),
    "tour": ("Paris", "Night tower", "The Eiffel tower sparkles", ["monument", "night"],
             "FUJIFILM", "X-T4", "2023:12:31 23:59:00"),
    "secret": ("Secret", "Hidden Fréhel", "A lighthouse nobody may find", ["lighthouse"],
               "Canon", "Canon EOS R5", "2021:07:15 10:00:00"),
}
QUERIES = [  # what is typed, the titles it must find
    ("sandcastle", {"Maëlle à la plage"}),        # a caption word
    ("lighthouse", {"Phare du Cap Fréhel"}),      # a keyword (and caption word): not the hidden album's
    ("monument", {"Night tower"}),                # a keyword only
    ("D850", {"Maëlle à la plage"}),              # a camera model
    ("frehel", {"Phare du Cap Fréhel"}),          # no accent typed
    ("MAELLE", {"Maëlle à la plage"}),            # no accent, other case
]


def make_photos(folder):
    from PIL import Image
    for index, (name, (album, title, caption, keywords, make, model, date)) in enumerate(PHOTOS.items()):
        (folder / album).mkdir(parents=True, exist_ok=True)
        path = folder / album / f"{name}.jpg"
        Image.new("RGB", (300 + 40 * index, 200), (40 + 30 * index, 120, 200)).save(path, quality=80)
        subprocess.run(["exiftool", "-q", "-overwrite_original", f"-Make={make}", f"-Model={model}",
                        f"-DateTimeOriginal={date}", f"-XMP-dc:Title={title}", f"-XMP-dc:Description={caption}"]
                       + [f"-XMP-dc:Subject={keyword}" for keyword in keywords] + [str(path)], check=True)
    (folder / "Secret" / "index.md").write_text("---\nhidden: true\n---\n")


def build(photos, out, env=None, extra=()):
    result = subprocess.run([BINARY, "build", str(photos), "--output", str(out), *extra],
                            capture_output=True, text=True, timeout=900, env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout + result.stderr


@pytest.fixture(scope="module")
def searchable(tmp_path_factory):
    """The site built with Pagefind; yields (base URL, output folder, photo folder)."""
    root = tmp_path_factory.mktemp("search")
    photos = root / "photos"
    make_photos(photos)
    out = root / "site"
    said = build(photos, out)
    assert "Pagefind" not in said, said
    assert (out / "pagefind" / "pagefind.js").is_file() and (out / "pagefind" / "pagefind-entry.json").is_file()
    with serve(out) as base:
        yield base, out, photos


@pytest.fixture(scope="module")
def driver():
    d = make_driver()
    d.set_script_timeout(30)
    yield d
    d.quit()


def titles(driver):
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('.search-grid .search-title')).map(t => t.textContent)")


def type_query(driver, text):
    """Types `text` into the search box (cleared first) and waits for its results."""
    box = driver.find_element("css selector", "#site-search-input")
    box.clear()
    box.click()
    box.send_keys(text)
    wait_until(driver, "document.querySelector('.search-status').textContent.includes('found')"
                       " && !document.querySelector('.search-panel').hidden")


def search_for(driver, text, expected):
    type_query(driver, text)
    # Wait for this query's results (an earlier query's may still be shown a moment).
    deadline = time.monotonic() + 10
    while set(titles(driver)) != expected and time.monotonic() < deadline:
        time.sleep(0.05)
    assert set(titles(driver)) == expected, f"{text!r} found {titles(driver)}"


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
@pytest.mark.parametrize("page", ["index.html", "bretagne/index.html"], ids=["home", "album"])
def test_queries_find_the_right_photos_and_a_result_opens_in_the_lightbox(searchable, driver, size, page):
    base, _, _ = searchable
    driver.set_window_size(*size)
    driver.get(base + page)
    wait_until(driver, "!document.querySelector('form.site-search').hidden")
    for text, expected in QUERIES:
        search_for(driver, text, expected)
    # Every result shows its tile image, its album and its date.
    search_for(driver, "frehel", {"Phare du Cap Fréhel"})
    shown = driver.execute_script("""const a = document.querySelector('.search-grid a');
        const img = a.querySelector('img');
        return [a.querySelector('.search-meta').textContent, img.getAttribute('src'), img.complete && img.naturalWidth > 0,
                a.getBoundingClientRect().width > 0]""")
    assert shown[0].startswith("Bretagne · ") and "2021" in shown[0], shown
    assert "/bretagne/thumbs/cap-" in shown[1] and shown[3], shown
    wait_until(driver, "document.querySelector('.search-grid img').complete"
                       " && document.querySelector('.search-grid img').naturalWidth > 0")
    # Opened by the keyboard: arrow down to the result, Enter.
    from selenium.webdriver.common.keys import Keys
    driver.find_element("css selector", "#site-search-input").send_keys(Keys.ARROW_DOWN)
    assert driver.execute_script("return document.activeElement === document.querySelector('.search-grid a')")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(driver, "window.cascadeViewer && " + LIGHTBOX_OPEN)
    wait_until(driver, "location.pathname.endsWith('/bretagne/cap.html')")
    assert driver.execute_script("return document.querySelector('.lb-title').textContent") == "Phare du Cap Fréhel"


def test_filters_narrow_the_results(searchable, driver):
    base, _, _ = searchable
    driver.set_window_size(*DESKTOP)
    driver.get(base + "paris/index.html")
    wait_until(driver, "!document.querySelector('form.site-search').hidden")
    search_for(driver, "boats", {"Harbour at dusk"})
    # The filters are fetched only when opened (at 100,000 photos their files are hundreds of KB).
    toggle = driver.find_element("css selector", ".search-filter-toggle")
    assert toggle.is_displayed() and toggle.get_attribute("aria-expanded") == "false"
    assert not driver.execute_script("return document.querySelector('.search-filters select')")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    wait_until(driver, "document.querySelector('.search-filters select')")
    options = driver.execute_script("""const r = {};
        for (const s of document.querySelectorAll('.search-filters select'))
          r[s.name] = Array.from(s.options).slice(1).map(o => o.value);
        return r;""")
    # The hidden album's photo is in no filter either.
    assert options == {"year": ["2023", "2022", "2021"], "album": ["Bretagne", "Paris"],
                       "camera": ["Canon EOS R5", "FUJIFILM X-T4", "NIKON D850"]}, options
    driver.find_element("css selector", "#site-search-input").clear()
    for name, value, expected in [("camera", "FUJIFILM X-T4", {"Harbour at dusk", "Night tower"}),
                                  ("year", "2022", {"Harbour at dusk"})]:
        driver.execute_script("const s = document.querySelector(`.search-filters select[name=${arguments[0]}]`);"
                              "s.value = arguments[1]; s.dispatchEvent(new Event('change'));", name, value)
        deadline = time.monotonic() + 10
        while set(titles(driver)) != expected and time.monotonic() < deadline:
            time.sleep(0.05)
        assert set(titles(driver)) == expected


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
def test_axe_finds_nothing_with_results_open(searchable, driver, size, scheme):
    base, _, _ = searchable
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        failures = []
        for page in ["index.html", "bretagne/index.html", "bretagne/cap.html"]:
            driver.set_window_size(*size)
            driver.get(base + page)
            wait_until(driver, "!document.querySelector('form.site-search').hidden")
            search_for(driver, "x-t4", {"Harbour at dusk", "Night tower"})
            driver.find_element("css selector", ".search-filter-toggle").click()
            wait_until(driver, "document.querySelector('.search-filters select')")
            wait_until(driver, "Array.from(document.querySelectorAll('.search-grid img')).every(i => i.complete)")
            driver.execute_script(axe_source())
            failures += [f"{page}: {v}" for v in driver.execute_async_script(AXE_RUN)]
        assert not failures, "\n".join(failures)
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_scripts_off_show_no_search_box(searchable, driver_nojs):
    base, _, _ = searchable
    for page in ["index.html", "bretagne/index.html", "bretagne/cap.html"]:
        driver_nojs.get(base + page)
        form = driver_nojs.find_element("css selector", "form.site-search")
        assert not form.is_displayed()
        assert not driver_nojs.find_element("css selector", "#site-search-input").is_displayed()


def site_files(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_without_pagefind_one_warning_and_the_site_search_false_makes(searchable, tmp_path):
    _, _, photos = searchable
    # A PATH with no pagefind and a python3 without pagefind_bin.
    tools = tmp_path / "bin"
    tools.mkdir()
    (tools / "python3").write_text("#!/bin/sh\nexit 1\n")
    (tools / "python3").chmod(0o755)
    env = dict(os.environ, PATH=str(tools))
    without = tmp_path / "without"
    said = build(photos, without, env=env)
    lines = [line for line in said.splitlines() if "Pagefind" in line]
    assert len(lines) == 1 and "no search box" in lines[0], said
    assert not (without / "pagefind").exists()
    pages = [p for p in without.rglob("*.html")]
    assert pages and not any("site-search" in p.read_text() or "data-pagefind" in p.read_text() for p in pages)
    # The same site as with search turned off, byte for byte, and that says nothing of Pagefind.
    configured = tmp_path / "photos"
    shutil.copytree(photos, configured)
    (configured / "cascade.yml").write_text("search: false\n")
    off = tmp_path / "off"
    said = build(configured, off, extra=["--title", photos.name])
    assert "Pagefind" not in said and "search" not in said.lower(), said
    assert site_files(off) == site_files(without)


def test_search_false_with_pagefind_installed_removes_the_index(searchable, tmp_path):
    _, _, photos = searchable
    configured = tmp_path / "photos"
    shutil.copytree(photos, configured)
    out = tmp_path / "site"
    build(configured, out)
    assert (out / "pagefind" / "pagefind-entry.json").is_file()
    (out / "pagefind" / "mine.txt").write_text("the user's own file")  # not the tool's: stays
    (configured / "cascade.yml").write_text("search: false\n")
    build(configured, out)
    assert not any("site-search" in p.read_text() for p in out.rglob("*.html"))
    assert sorted(p.name for p in (out / "pagefind").rglob("*") if p.is_file()) == ["mine.txt"]


def test_rebuilds_index_only_when_the_pages_change(searchable, tmp_path):
    _, _, photos = searchable
    source = tmp_path / "photos"
    shutil.copytree(photos, source)
    out = tmp_path / "site"
    build(source, out)
    entry = out / "pagefind" / "pagefind-entry.json"

    def bundle():
        return {str(p.relative_to(out)): (p.stat().st_mtime_ns, p.stat().st_ino) for p in (out / "pagefind").rglob("*")}

    before = bundle()
    said = build(source, out, extra=["-v"])
    assert "up to date" in said and bundle() == before
    # A photo touched: a full rebuild, but no page changed, so the index is not made again.
    os.utime(source / "Paris" / "tour.jpg")
    said = build(source, out, extra=["-v"])
    assert "up to date" not in said and bundle() == before, said
    # A changed caption: the index is made again and finds the new word.
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-XMP-dc:Description=Fireworks over the river",
                    str(source / "Paris" / "tour.jpg")], check=True)
    build(source, out)
    assert bundle() != before and entry.is_file()
    with serve(out) as base:
        d = make_driver()
        try:
            d.set_window_size(*DESKTOP)
            d.get(base + "index.html")
            wait_until(d, "!document.querySelector('form.site-search').hidden")
            search_for(d, "fireworks", {"Night tower"})
            search_for(d, "sparkles", set())
        finally:
            d.quit()
    # Every file of the bundle is the catalog's: the files the earlier index had and this one
    # lacks were removed, none is left over.
    fragments = list((out / "pagefind" / "fragment").glob("*.pf_fragment"))
    assert len(fragments) == len(PHOTOS) - 1
