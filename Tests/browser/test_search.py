"""Static search (Cascade's own index, `search/`) in a real browser: a site whose photos carry
captions, keywords, cameras and dates, over two albums and a hidden one. Queries typed into the
header's search box on the home page and on an album page, at 1440 and 390 px, find the right
photos (a caption word, a keyword, a camera model, a word being typed, names typed without their
accents or in upper case, a plural whose singular is indexed, two words) and never the hidden
album's, and text in Greek, Japanese, Korean and Turkish folded and split as the build does;
the results are seen (on screen, not covered) and one opens the photo in its album's
lightbox; the filters narrow the results and their file is fetched only when they are opened;
"More" shows the results after the first screen's; a query fetches only its shard and its
records; one search runs at a time and only the latest query's results are shown; axe-core
finds nothing with the results open.
The index's files work gzipped as they are and from a host that sends them with
`Content-Encoding: gzip`; from a file, or with a broken index, the box says so. With scripts off
the box is not shown; `search: false` makes no box and no search folder. A rebuild with nothing
changed leaves the index's files untouched, a changed caption changes what is found, and a photo
edited with its words as they were updates the index in place (as a clean build makes it), its
result showing the new tile."""
import functools
import gzip
import http.server
import json
import os
import shutil
import subprocess
import threading
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
    ("sandc", {"Maëlle à la plage"}),             # a word being typed
    ("sandcastles", {"Maëlle à la plage"}),       # a plural: its stem is the singular's
    ("lighthouses", {"Phare du Cap Fréhel"}),
    ("july", {"Phare du Cap Fréhel"}),            # the date as shown
    ("boats dusk", {"Harbour at dusk"}),          # two words: both
    ("lighthouse tower", set()),                  # two words in two photos: none
    ("x-t4", {"Harbour at dusk", "Night tower"}),
    ("hidden", set()),                            # the hidden album's photo: never
    ("secret", set()),
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


def read_index(out, name="index.gz"):
    return json.loads(gzip.decompress((out / "search" / name).read_bytes()))


@pytest.fixture(scope="module")
def searchable(tmp_path_factory):
    """The site built with search; yields (base URL, output folder, photo folder)."""
    root = tmp_path_factory.mktemp("search")
    photos = root / "photos"
    make_photos(photos)
    out = root / "site"
    build(photos, out)
    assert read_index(out)["format"] == 1
    assert not (out / "pagefind").exists()
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


def open_page(driver, url, size=DESKTOP):
    driver.set_window_size(*size)
    driver.get(url)
    wait_until(driver, "!document.querySelector('form.site-search').hidden")


def search_for(driver, text, expected):
    """Types the last key of `text` into the box that holds the rest, so that only `text` is
    searched; waits for its results (the status, emptied first, written again) and checks them."""
    box = driver.find_element("css selector", "#site-search-input")
    box.click()
    # The box's script is in once it has fetched the index (on the box's focus): a query typed
    # before then is run when it comes, with the letters typed by then.
    wait_until(driver, "performance.getEntriesByType('resource').some(e => /\\/search\\/index\\.gz$/.test(e.name))", 30)
    driver.execute_script("""const input = document.querySelector('#site-search-input');
        input.value = arguments[0];
        document.querySelector('.search-status').textContent = '';""", text[:-1])
    box.send_keys(text[-1])
    wait_until(driver, "document.querySelector('.search-status').textContent"
                       " && !document.querySelector('.search-panel').hidden", 30)
    status = driver.execute_script("return document.querySelector('.search-status').textContent")
    assert set(titles(driver)) == expected, f"{text!r} found {titles(driver)} ({status})"
    assert status == (f"{len(expected)} photo{'s' if len(expected) != 1 else ''} found." if expected else "No photo found.")


def type_like_a_person(driver, text, expected):
    """Types `text` key by key into the emptied box; waits until the results are `expected`
    (what the letters typed so far found may be shown meanwhile: only the last query stays)."""
    box = driver.find_element("css selector", "#site-search-input")
    box.clear()
    box.click()
    box.send_keys(text)
    wait_until(driver, f"""(() => {{
        const found = Array.from(document.querySelectorAll('.search-grid .search-title')).map(t => t.textContent);
        const want = {json.dumps(sorted(expected))};
        return /found/.test(document.querySelector('.search-status').textContent)
            && found.length === want.length && found.every(t => want.includes(t)); }})()""", 30)


def search_files(driver):
    """The index's files the page fetched, as paths in the search folder (with their query)."""
    return driver.execute_script("""return performance.getEntriesByType('resource').map(e => e.name)
        .filter(n => n.includes('/search/')).map(n => n.split('/search/')[1]);""")


# What a person sees of the first result: it is on screen and not covered (the point at its
# middle is inside it), its tile image loaded.
FIRST_RESULT_SEEN = """const a = document.querySelector('.search-grid a');
    const r = a.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const img = a.querySelector('img');
    return {meta: a.querySelector('.search-meta').textContent, src: img.getAttribute('src'),
            loaded: img.complete && img.naturalWidth > 0, width: r.width, height: r.height,
            inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
            hit: !!hit && a.contains(hit)};"""


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
@pytest.mark.parametrize("page", ["index.html", "bretagne/index.html"], ids=["home", "album"])
def test_queries_find_the_right_photos_and_a_result_opens_in_the_lightbox(searchable, driver, size, page):
    base, out, _ = searchable
    open_page(driver, base + page, size)
    for text, expected in QUERIES:
        search_for(driver, text, expected)
    type_like_a_person(driver, "frehel", {"Phare du Cap Fréhel"})
    wait_until(driver, "document.querySelector('.search-grid img').complete"
                       " && document.querySelector('.search-grid img').naturalWidth > 0")
    seen = driver.execute_script(FIRST_RESULT_SEEN)
    assert seen["meta"].startswith("Bretagne · ") and "2021" in seen["meta"], seen
    assert "/bretagne/thumbs/cap-" in seen["src"] and seen["loaded"], seen
    assert seen["width"] > 40 and seen["height"] > 40 and seen["inside"] and seen["hit"], seen
    # Every file after index.gz carries the index's version (a host's cache never mixes builds).
    version = read_index(out)["version"]
    fetched = search_files(driver)
    assert "index.gz" in fetched and all(f == "index.gz" or f.endswith(".gz?v=" + version) for f in fetched), fetched
    # Opened by the keyboard: arrow down to the result, Enter.
    from selenium.webdriver.common.keys import Keys
    driver.find_element("css selector", "#site-search-input").send_keys(Keys.ARROW_DOWN)
    assert driver.execute_script("return document.activeElement === document.querySelector('.search-grid a')")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait_until(driver, "window.cascadeViewer && " + LIGHTBOX_OPEN)
    wait_until(driver, "location.pathname.endsWith('/bretagne/cap.html')")
    assert driver.execute_script("return document.querySelector('.lb-title').textContent") == "Phare du Cap Fréhel"


def test_nothing_is_fetched_before_the_box_is_used_and_a_query_only_its_shard_and_records(searchable, driver):
    base, out, _ = searchable
    open_page(driver, base + "paris/index.html")
    # Nothing of search but its small loader before the box is used.
    assert not driver.execute_script("""return performance.getEntriesByType('resource').map(e => e.name)
        .filter(n => n.includes('/search/') || n.includes('search-box.js'))""")
    search_for(driver, "lighthouse", {"Phare du Cap Fréhel"})
    names = sorted({f.split("?")[0] for f in search_files(driver)})
    # "li" is 6c69; the records of ids 0 to 31 are p/0.gz; nothing else, no filters.
    assert names == ["index.gz", "p/0.gz", "t/6c69.gz"], names


def test_one_search_at_a_time_and_only_the_latest_query_is_shown(searchable, driver):
    base, _, _ = searchable
    open_page(driver, base + "paris/index.html")
    search_for(driver, "tower", {"Night tower"})
    # The shard of "lighthouse" ("li") is held back until released; the shards asked for and
    # every title shown are logged.
    driver.execute_script("""const fetch = window.fetch;
        let release;
        const held = new Promise(resolve => { release = resolve; });
        window.fetchLog = [];
        window.releaseShard = () => { window.fetchLog.push('release'); release(); };
        window.fetch = function (url, options) {
          const shard = (String(url).match(/\\/t\\/(\\w+)\\.gz/) || [])[1];
          if (shard) window.fetchLog.push(shard);
          return shard === '6c69' ? held.then(() => fetch(url, options)) : fetch(url, options);
        };
        window.shownTitles = [];
        new MutationObserver(() => {
          for (const t of document.querySelectorAll('.search-grid .search-title')) window.shownTitles.push(t.textContent);
        }).observe(document.querySelector('.search-grid'), {childList: true, subtree: true});
        document.querySelector('.search-status').textContent = '';
        const input = document.querySelector('#site-search-input');
        const form = document.querySelector('form.site-search');
        // Enter on "lighthouse": it runs at once, and waits for its shard. Then Enter on
        // "monument": it waits for the search under way before it asks for its own shard.
        input.value = 'lighthouse';
        form.requestSubmit();
        setTimeout(() => { input.value = 'monument'; form.requestSubmit(); });""")
    wait_until(driver, "window.fetchLog.includes('6c69')", 30)
    driver.execute_script("window.releaseShard()")
    wait_until(driver, "document.querySelector('.search-status').textContent", 30)
    assert set(titles(driver)) == {"Night tower"}
    log = driver.execute_script("return window.fetchLog")
    assert log.index("release") < log.index("6d6f"), log
    assert "Phare du Cap Fréhel" not in driver.execute_script("return window.shownTitles")


def test_a_page_two_folders_deep_finds_and_links_from_the_site_root(searchable, driver):
    base, _, _ = searchable
    open_page(driver, base + "tags/coast/index.html")
    search_for(driver, "monument", {"Night tower"})
    link = driver.execute_script("return document.querySelector('.search-grid a').href")
    assert link == base + "paris/index.html#photo=tour", link


def test_more_shows_the_rest_of_the_results_and_escape_closes_them(searchable, driver):
    base, _, _ = searchable
    # A window too low for more than a row of results: the first screen's are shown, "More" the rest.
    open_page(driver, base + "paris/index.html", (390, 300))
    box = driver.find_element("css selector", "#site-search-input")
    box.click()
    box.send_keys("bretagne")
    wait_until(driver, "document.querySelector('.search-status').textContent === '3 photos found.'", 30)
    shown = driver.execute_script("return document.querySelectorAll('.search-grid li').length")
    more = driver.find_element("css selector", ".search-more")
    assert 0 < shown < 3 and more.is_displayed(), shown
    more.click()
    wait_until(driver, "document.querySelectorAll('.search-grid li').length === 3", 30)
    assert not more.is_displayed()
    assert set(titles(driver)) == {"Phare du Cap Fréhel", "Maëlle à la plage", "Harbour at dusk"}
    # Escape from a result closes the results and returns to the box, the query kept.
    from selenium.webdriver.common.keys import Keys
    driver.execute_script("document.querySelectorAll('.search-grid a')[2].focus()")
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait_until(driver, "document.querySelector('.search-panel').hidden")
    assert driver.execute_script("return document.activeElement.id") == "site-search-input"
    assert box.get_attribute("value") == "bretagne"


def test_filters_narrow_the_results(searchable, driver):
    base, _, _ = searchable
    open_page(driver, base + "paris/index.html")
    search_for(driver, "boats", {"Harbour at dusk"})
    # The filters' file is fetched only when they are opened (at 100,000 photos it is hundreds of KB).
    toggle = driver.find_element("css selector", ".search-filter-toggle")
    assert toggle.is_displayed() and toggle.get_attribute("aria-expanded") == "false"
    assert not driver.execute_script("return document.querySelector('.search-filters select')")
    assert not any(f.startswith("f.gz") for f in search_files(driver))
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    wait_until(driver, "document.querySelector('.search-filters select')")
    assert any(f.startswith("f.gz") for f in search_files(driver))
    options = driver.execute_script("""const r = {};
        for (const s of document.querySelectorAll('.search-filters select'))
          r[s.name] = Array.from(s.options).slice(1).map(o => o.textContent);
        return r;""")
    # The hidden album's photo is in no filter either; each value says how many photos it has.
    assert options == {"year": ["2023 (1)", "2022 (2)", "2021 (1)"], "album": ["Bretagne (3)", "Paris (1)"],
                       "camera": ["Canon EOS R5 (1)", "FUJIFILM X-T4 (2)", "NIKON D850 (1)"]}, options
    seen = driver.execute_script("""const s = document.querySelector('.search-filters select');
        const r = s.getBoundingClientRect();
        return r.width > 0 && s.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));""")
    assert seen
    driver.find_element("css selector", "#site-search-input").clear()
    # The filters alone are a query; with words they narrow them.
    for name, value, text, expected in [("camera", "FUJIFILM X-T4", "", {"Harbour at dusk", "Night tower"}),
                                        ("year", "2022", "", {"Harbour at dusk"}),
                                        ("year", "2023", "x-t4", {"Night tower"}),
                                        ("year", "2023", "boats", set())]:
        driver.execute_script("""document.querySelector('#site-search-input').value = arguments[2];
            document.querySelector('.search-status').textContent = '';
            const s = document.querySelector(`.search-filters select[name=${arguments[0]}]`);
            s.value = arguments[1]; s.dispatchEvent(new Event('change'));""", name, value, text)
        wait_until(driver, "document.querySelector('.search-status').textContent")
        assert set(titles(driver)) == expected, (name, value, text, titles(driver))


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1440", "390"])
def test_axe_finds_nothing_with_results_open(searchable, driver, size, scheme):
    base, _, _ = searchable
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    try:
        failures = []
        for page in ["index.html", "bretagne/index.html", "bretagne/cap.html"]:
            open_page(driver, base + page, size)
            search_for(driver, "x-t4", {"Harbour at dusk", "Night tower"})
            driver.find_element("css selector", ".search-filter-toggle").click()
            wait_until(driver, "document.querySelector('.search-filters select')")
            wait_until(driver, "Array.from(document.querySelectorAll('.search-grid img')).every(i => i.complete)")
            driver.execute_script(axe_source())
            failures += [f"{page}: {v}" for v in driver.execute_async_script(AXE_RUN)]
        assert not failures, "\n".join(failures)
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


@pytest.fixture
def gzip_host(searchable):
    """The site served as a host that compresses on the fly does: the index's `.gz` files sent
    decompressed with `Content-Encoding: gzip` (the browser decompresses them)."""
    _, out, _ = searchable

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            path = self.path.split("?")[0]
            if "/search/" in path and path.endswith(".gz"):
                data = (out / path.lstrip("/")).read_bytes()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            else:
                super().do_GET()

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


def test_a_host_that_sends_the_files_with_content_encoding_gzip(gzip_host, driver):
    open_page(driver, gzip_host + "index.html")
    search_for(driver, "frehel", {"Phare du Cap Fréhel"})
    driver.find_element("css selector", ".search-filter-toggle").click()
    wait_until(driver, "document.querySelector('.search-filters select')")


def test_the_box_says_when_search_cannot_work(searchable, driver, tmp_path):
    _, out, _ = searchable
    # From a file: search needs HTTP.
    driver.set_window_size(*DESKTOP)
    driver.get((out / "index.html").as_uri())
    wait_until(driver, "!document.querySelector('form.site-search').hidden")
    driver.find_element("css selector", "#site-search-input").send_keys("frehel")
    wait_until(driver, "document.querySelector('.search-status').textContent")
    assert driver.execute_script("return document.querySelector('.search-status').textContent") \
        == "Search needs the site to be served over HTTP; it does not work from a file."
    # A broken index: not available.
    broken = tmp_path / "site"
    shutil.copytree(out, broken)
    (broken / "search" / "index.gz").write_bytes(b"\x1f\x8b not gzip")
    with serve(broken) as base:
        open_page(driver, base + "index.html")
        driver.find_element("css selector", "#site-search-input").send_keys("frehel")
        wait_until(driver, "document.querySelector('.search-status').textContent")
        assert driver.execute_script("return document.querySelector('.search-status').textContent") \
            == "Search is not available: its index could not be loaded."


# name: (title, caption): text whose folding and splitting the box must do as the build does.
SCRIPTS = {
    "greek": ("Athens", "ΟΔΟΣ ΕΡΜΟΥ"),           # a final capital sigma: σ in the index, ς when typed
    "japan": ("Japan", "東京・大阪の夜"),          # no spaces: each ideograph and kana a word
    "korea": ("Korea", "서울의 밤"),              # Hangul: runs of jamo after NFD
    "turkey": ("Turkey", "İSTANBUL"),             # a capital with a dot: NFD, then the dot dropped
}


def test_the_box_folds_and_splits_words_as_the_build_does(tmp_path, driver):
    from PIL import Image
    photos = tmp_path / "photos"
    (photos / "World").mkdir(parents=True)
    for index, (name, (title, caption)) in enumerate(SCRIPTS.items()):
        path = photos / "World" / f"{name}.jpg"
        Image.new("RGB", (300, 200), (40 + 40 * index, 90, 160)).save(path, quality=80)
        subprocess.run(["exiftool", "-q", "-overwrite_original", f"-XMP-dc:Title={title}",
                        f"-XMP-dc:Description={caption}", str(path)], check=True)
    out = tmp_path / "site"
    build(photos, out)
    with serve(out) as base:
        open_page(driver, base + "world/index.html")
        for text, expected in [("οδος", {"Athens"}), ("ΟΔΟΣ", {"Athens"}), ("ερμου", {"Athens"}),
                               ("東京", {"Japan"}), ("大阪 夜", {"Japan"}), ("京都", set()),
                               ("서울", {"Korea"}), ("밤", {"Korea"}), ("istanbul", {"Turkey"})]:
            search_for(driver, text, expected)


def test_scripts_off_show_no_search_box(searchable, driver_nojs):
    base, _, _ = searchable
    for page in ["index.html", "bretagne/index.html", "bretagne/cap.html"]:
        driver_nojs.get(base + page)
        form = driver_nojs.find_element("css selector", "form.site-search")
        assert not form.is_displayed()
        assert not driver_nojs.find_element("css selector", "#site-search-input").is_displayed()


def test_search_false_makes_no_box_and_no_search_folder(searchable, tmp_path):
    _, _, photos = searchable
    configured = tmp_path / "photos"
    shutil.copytree(photos, configured)
    (configured / "cascade.yml").write_text("search: false\n")
    off = tmp_path / "off"
    said = build(configured, off)
    assert "search" not in said.replace(str(off), "").lower(), said
    assert not (off / "search").exists()
    pages = list(off.rglob("*.html"))
    assert pages and not any("site-search" in p.read_text() or "search.js" in p.read_text() for p in pages)
    # Turned off after a build with search: the index's files go, a file of the user's stays.
    switched = tmp_path / "switched"
    (configured / "cascade.yml").unlink()
    build(configured, switched)
    assert (switched / "search" / "index.gz").is_file()
    (switched / "search" / "mine.txt").write_text("the user's own file")
    (configured / "cascade.yml").write_text("search: false\n")
    build(configured, switched)
    assert not any("site-search" in p.read_text() for p in switched.rglob("*.html"))
    assert sorted(p.name for p in (switched / "search").rglob("*") if p.is_file()) == ["mine.txt"]


def built_copy(searchable, tmp_path):
    """A copy of the searchable photo folder in `tmp_path`, built with search; returns (photo
    folder, output folder)."""
    _, _, photos = searchable
    source = tmp_path / "photos"
    shutil.copytree(photos, source)
    out = tmp_path / "site"
    build(source, out)
    return source, out


def test_rebuilds_leave_the_index_alone_and_a_changed_caption_changes_it(searchable, tmp_path):
    source, out = built_copy(searchable, tmp_path)

    def files():
        return {str(p.relative_to(out / "search")): (p.stat().st_mtime_ns, p.stat().st_ino)
                for p in (out / "search").rglob("*") if p.is_file()}

    before = files()
    said = build(source, out, extra=["-v"])
    assert "up to date" in said and files() == before
    # A photo touched: a full rebuild, but the index's content is the same: no file written.
    os.utime(source / "Paris" / "tour.jpg")
    said = build(source, out, extra=["-v"])
    assert "up to date" not in said and files() == before, said
    # A changed caption: the index changes and finds the new word, not the old one.
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-XMP-dc:Description=Fireworks over the river",
                    str(source / "Paris" / "tour.jpg")], check=True)
    version = read_index(out)["version"]
    build(source, out)
    index = read_index(out)
    assert files() != before and index["version"] != version
    # Every file is the index's: the shards it names and the chunks of its photos, no leftover
    # ("sparkles", the only word of its shard, took "sp" with it).
    assert "7370" not in index["shards"]
    chunks = -(-index["photos"] // index["chunk"])
    assert sorted(files()) == sorted(["index.gz", "f.gz"] + [f"t/{k}.gz" for k in index["shards"]]
                                     + [f"p/{n}.gz" for n in range(chunks)])
    with serve(out) as base:
        d = make_driver()
        try:
            open_page(d, base + "index.html")
            search_for(d, "fireworks", {"Night tower"})
            search_for(d, "sparkles", set())
        finally:
            d.quit()


def test_a_photo_edited_updates_the_index_in_place_and_its_result_shows_the_new_tile(searchable, tmp_path):
    source, out = built_copy(searchable, tmp_path)
    # The photo edited in an image editor: wider, its metadata (so its words) as they were.
    from PIL import Image
    tour = source / "Paris" / "tour.jpg"
    edited = tmp_path / "edited.jpg"
    Image.new("RGB", (900, 200), (200, 60, 40)).save(edited, quality=80)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-tagsFromFile", str(tour), "-all:all", str(edited)], check=True)
    shutil.move(edited, tour)
    said = build(source, out, extra=["-v"])
    assert "search index: updated in place" in said, said
    # As a clean build of the same folder makes it, byte for byte.
    clean = tmp_path / "clean"
    build(source, clean)
    index_files = lambda site: {str(p.relative_to(site)): p.read_bytes() for p in (site / "search").rglob("*") if p.is_file()}
    assert index_files(out) == index_files(clean)
    with serve(out) as base:
        d = make_driver()
        try:
            open_page(d, base + "index.html")
            search_for(d, "monument", {"Night tower"})
            seen = d.execute_script(FIRST_RESULT_SEEN)
            # Its new tile: an image the site has (the old one is gone), at the new shape.
            assert seen["loaded"] and seen["inside"] and seen["hit"], seen
            image = d.execute_script("return document.querySelector('.search-grid a img').naturalWidth"
                                     " / document.querySelector('.search-grid a img').naturalHeight")
            assert abs(image - 4.5) < 0.2, image
        finally:
            d.quit()
