"""The lightbox and keyboard use in a real browser, as a new user meets them: a focus-trapped
dialog over an inert page that names the photo, Next pressed twice moves two photos, the
address bar holds the photo's own page (Back closes, the address opens the photo for anyone),
tiles in reading order at any scroll position of a 5,000-photo album, zoom to twice the fitted
size with the largest image, the lightbox on every static page, a download link for published
originals, and axe-core finding nothing on any kind of page, light and dark, phone and desktop.

axe-core comes from the axe-playwright-python wheel (PyPI), which carries axe.min.js."""
import importlib.util
import os
import pathlib
import re
import subprocess

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

import framedata
import sitecheck
from conftest import REPO, make_driver, serve
from photo_factory import album, png
from test_viewer import LIGHTBOX_OPEN as OPEN, LIGHTBOX_SETTLED as SETTLED, wait_until

PHONE, DESKTOP = (390, 844), (1440, 900)


def start(driver, url, size=DESKTOP):
    driver.set_window_size(*size)
    driver.get(url)
    wait_until(driver, "window.cascadeViewer")


def keys(driver, *sequence):
    chain = ActionChains(driver)
    for key in sequence:
        chain.send_keys(key)
    chain.perform()


def shift_tab(driver):
    ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()


def active(driver):
    return driver.execute_script(
        "const a = document.activeElement; return {cls: a.className || a.tagName, index: a.dataset.index,"
        " inBox: !!a.closest('.lightbox'), label: a.getAttribute('aria-label')}")


def counter(driver):
    return driver.execute_script("return document.querySelector('.lb-counter').textContent")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A site of 5,000 small photos ("Many") and three large ones ("Large", with a Markdown
    caption, published originals, a date format and a one-second slideshow)."""
    root = tmp_path_factory.mktemp("lightbox")
    photos = root / "photos"
    album(photos / "Many", 5000, small=True)
    large = photos / "Large"
    large.mkdir(parents=True)
    for number, (width, height, color) in enumerate([(2000, 1300, (200, 120, 60)), (1200, 1800, (40, 90, 160)),
                                                     (300, 200, (60, 160, 90))]):
        (large / f"big-{number}.png").write_bytes(png(width, height, color))
    (large / "big-0.png.md").write_text("A *large* photo, see [the source](https://example.com/source).\n")
    (photos / "cascade.yml").write_text("title: Lightbox\ndownload_originals: true\nslideshow_interval: 1\n"
                                        "date_format: \"D MMMM YYYY\"\n")
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(photos), "--output", str(out), "--quiet"],
                            capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr
    with serve(out) as base:
        yield base, out


@pytest.fixture()
def browser():
    driver = make_driver()
    yield driver
    driver.quit()


def test_next_twice_moves_two_photos_and_focus_stays_on_next(server, browser):
    start(browser, server + "nature/index.html")
    browser.execute_script("document.querySelector('.wall .tile[data-index=\"0\"]').focus()")
    keys(browser, Keys.ENTER)
    wait_until(browser, OPEN)
    assert counter(browser) == "1 / 5"
    browser.execute_script("document.querySelector('.lb-next').focus()")
    keys(browser, Keys.ENTER, Keys.ENTER)
    wait_until(browser, "document.querySelector('.lb-counter').textContent === '3 / 5'")
    assert browser.execute_script(f"return {OPEN}"), "the lightbox closed"
    assert active(browser)["label"] == "Next photo", active(browser)
    # The dialog is named after the photo and the live region says which it is.
    label = browser.execute_script("return document.querySelector('.lightbox').getAttribute('aria-label')")
    status = browser.execute_script("return document.querySelector('.lightbox [aria-live=polite]').textContent")
    assert label and label != "Photo"
    assert status == f"Photo 3 of 5: {label}"
    # Arrow keys, Home and End.
    keys(browser, Keys.END)
    assert counter(browser) == "5 / 5"
    keys(browser, Keys.HOME)
    assert counter(browser) == "1 / 5"
    keys(browser, Keys.ARROW_RIGHT)
    assert counter(browser) == "2 / 5"
    # Its date as the photo's page shows it (date_format's default), not EXIF's raw form.
    page_date = sitecheck_date(server, browser.current_url)
    assert page_date, "the example's second Nature photo has a date"
    assert browser.execute_script("return document.querySelector('.lb-date').textContent") == page_date
    assert re.fullmatch(r"\d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2}", page_date), page_date


def sitecheck_date(server, url):
    """The <time> text of the photo page at `url`, fetched over HTTP."""
    status, body = sitecheck.fetch(url)
    assert status == 200, url
    match = re.search(r"<time[^>]*>([^<]*)</time>", body.decode("utf-8"))
    return match.group(1) if match else None


def test_focus_never_leaves_the_open_lightbox_and_the_page_is_inert(server, browser):
    start(browser, server + "nature/index.html")
    browser.execute_script("document.querySelector('.wall .tile[data-index=\"1\"]').click()")
    wait_until(browser, OPEN)
    assert browser.execute_script(
        "return [...document.body.children].filter(e => !e.classList.contains('lightbox')).every(e => e.inert)")
    seen = set()
    for _ in range(20):
        keys(browser, Keys.TAB)
        state = active(browser)
        assert state["inBox"], f"Tab left the lightbox for {state}"
        seen.add(state["cls"])
    assert len(seen) >= 3, seen
    for _ in range(20):
        shift_tab(browser)
        assert active(browser)["inBox"], "Shift+Tab left the lightbox"
    keys(browser, Keys.ESCAPE)
    # The photo flies back into its tile first: wait for the lightbox to be hidden.
    wait_until(browser, f"!({OPEN})")
    assert not browser.execute_script("return document.querySelector('main').inert")
    assert active(browser)["index"] == "1"


def test_the_address_is_the_photos_page_back_closes_and_the_address_opens_that_photo(server, browser):
    start(browser, server + "nature/index.html")
    album_url = browser.current_url
    browser.execute_script("document.querySelector('.wall .tile[data-index=\"2\"]').click()")
    wait_until(browser, OPEN)
    href = browser.execute_script("return document.querySelector('.wall .tile[data-index=\"2\"]').href")
    assert browser.current_url == href, "the address bar does not hold the photo's page"
    keys(browser, Keys.ARROW_RIGHT)
    next_href = browser.execute_script("return document.querySelector('.wall .tile[data-index=\"3\"]').href")
    wait_until(browser, f"location.href === {next_href!r}")
    shown = browser.execute_script("return document.querySelector('.lightbox-image').getAttribute('src')")
    # Someone given the address sees the same photo, with its Open Graph image.
    browser.switch_to.new_window("window")
    browser.get(next_href)
    page_src = browser.execute_script("return document.querySelector('.photo-image').currentSrc")
    assert pathlib.PurePosixPath(page_src).name.split("-")[0] == pathlib.PurePosixPath(shown).name.split("-")[0]
    assert browser.execute_script("return document.querySelector('h1').textContent.trim().length > 0")
    browser.close()
    browser.switch_to.window(browser.window_handles[0])
    browser.back()
    wait_until(browser, f"!({OPEN})")
    assert browser.current_url == album_url
    assert active(browser)["index"] == "3"
    # Forward opens it again; #photo= links still work, and Back from them closes.
    browser.forward()
    wait_until(browser, OPEN)
    first_id = browser.execute_script("return window.cascadeViewer.model.ids[0]")
    browser.get(server + "nature/index.html#photo=" + first_id)
    wait_until(browser, OPEN)
    assert browser.current_url.endswith(f"nature/{first_id}.html")
    browser.back()
    wait_until(browser, f"!({OPEN})")
    assert browser.current_url.endswith("nature/index.html")


# The wall has laid out the tiles for where the page is scrolled now (its update has run).
WALL_UPDATED = "!window.cascadeViewer.scheduled && window.cascadeViewer.lastScroll === window.scrollY"


def test_tiles_stay_in_reading_order_and_shift_tab_walks_back_in_a_5000_photo_album(built, browser):
    base, _ = built
    start(browser, base + "many/index.html", (1280, 900))
    browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight * 0.4)")
    wait_until(browser, WALL_UPDATED)
    browser.execute_script("window.scrollBy(0, -300)")
    wait_until(browser, WALL_UPDATED)
    order = browser.execute_script("return [...document.querySelectorAll('.wall .tile')].map(t => +t.dataset.index)")
    assert order == sorted(order), "tiles are not in the DOM in item order"
    middle = order[len(order) // 2]
    browser.execute_script(f"document.querySelector('.wall .tile[data-index=\"{middle}\"]').focus()")
    for step in range(1, 41):
        shift_tab(browser)
        wait_until(browser, WALL_UPDATED)
        assert active(browser)["index"] == str(middle - step), f"Shift+Tab {step} from tile {middle}: {active(browser)}"
    for step in range(1, 41):
        keys(browser, Keys.TAB)
        wait_until(browser, WALL_UPDATED)
        assert active(browser)["index"] == str(middle - 40 + step), f"Tab {step}: {active(browser)}"
    # A focused tile stays while the page scrolls far away from it.
    browser.execute_script("window.scrollTo(0, document.documentElement.scrollHeight * 0.9)")
    wait_until(browser, WALL_UPDATED)
    assert active(browser)["index"] == str(middle)


def test_double_click_zooms_to_twice_the_fitted_size_with_the_largest_image(built, browser):
    base, out = built
    frames = framedata.load(out / "large" / "frames.json")
    index = next(i for i, item in enumerate(frames["items"]) if item["width"] == 2000)
    largest = frames["items"][index]["images"][-1]
    start(browser, base + "large/index.html", DESKTOP)
    browser.execute_script(f"document.querySelector('.wall .tile[data-index=\"{index}\"]').click()")
    wait_until(browser, OPEN)
    # Measured once the photo has flown out of its tile and is at rest.
    wait_until(browser, SETTLED)
    fitted = browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().width")
    assert fitted < largest["width"]
    # Zoom levels are the fitted size's 2x and 4x; 2x loads the first image at least that wide
    # (or the largest): never blurry while a larger image exists.
    images = frames["items"][index]["images"]
    wanted = next((image for image in images if image["width"] >= 2 * fitted), largest)
    ActionChains(browser).double_click(browser.find_element("css selector", ".lightbox-image")).perform()
    wait_until(browser, "document.querySelector('.lightbox-image').currentSrc.includes(" + repr(wanted["url"]) + ")"
               " && document.querySelector('.lightbox-image').complete")
    # (The zoom glides: its size is read once the glide has ended, a state, not after a time.)
    width_is = "Math.abs(document.querySelector('.lightbox-image').getBoundingClientRect().width - {}) <= 2"
    wait_until(browser, SETTLED + " && " + width_is.format(2 * fitted))
    # Escape from zoom: double-click again fits it; a small photo is never enlarged.
    ActionChains(browser).double_click(browser.find_element("css selector", ".lightbox-image")).perform()
    wait_until(browser, SETTLED + " && " + width_is.format(fitted))
    small = next(i for i, item in enumerate(frames["items"]) if item["width"] == 300)
    keys(browser, Keys.HOME)
    for _ in range(small):
        keys(browser, Keys.ARROW_RIGHT)
    wait_until(browser, f"document.querySelector('.lb-counter').textContent.startsWith('{small + 1} /')")
    assert browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().width") <= 301


def open_large_photo(browser, base, out):
    """Opens, on a phone, the lightbox on the large album's photo that is 2000 px wide."""
    frames = framedata.load(out / "large" / "frames.json")
    index = next(i for i, item in enumerate(frames["items"]) if item["width"] == 2000)
    start(browser, base + "large/index.html", PHONE)
    browser.execute_script(f"document.querySelector('.wall .tile[data-index=\"{index}\"]').click()")
    wait_until(browser, OPEN)
    wait_until(browser, SETTLED)


def test_download_caption_date_and_slideshow(built, browser):
    base, out = built
    open_large_photo(browser, base, out)
    link = browser.execute_script("const a = document.querySelector('.lb-download'); return !a.hidden && a.href")
    assert link and link.endswith(".png"), link
    assert browser.execute_script("return document.querySelector('.lb-text a').href") == "https://example.com/source"
    assert browser.execute_script("return document.querySelector('.lb-text em').textContent") == "large"
    # The slideshow moves on by itself every slideshow_interval (1 s here).
    browser.execute_script("document.querySelector('.lb-close').focus()")
    keys(browser, Keys.HOME)
    browser.execute_script("document.querySelector('.lb-play').click()")
    wait_until(browser, "document.querySelector('.lb-counter').textContent.startsWith('2 /')", seconds=4)
    browser.execute_script("document.querySelector('.lb-play').click()")
    # Paused: no step is pending any more, so it stays on the second photo.
    assert browser.execute_script("return !window.cascadeViewer.timer && !window.cascadeViewer.playing()"
                                  " && document.querySelector('.lb-play').getAttribute('aria-pressed') === 'false'")
    assert counter(browser).startswith("2 /")


def test_every_static_page_of_a_large_album_has_the_lightbox(built, browser):
    base, out = built
    frames = framedata.load(out / "many" / "frames.json")
    start(browser, base + "many/pages/3.html", DESKTOP)
    first = frames["staticCount"] * 2
    browser.execute_script(f"document.querySelector('.wall .tile[data-index=\"{first + 1}\"]').click()")
    wait_until(browser, OPEN)
    item = frames["items"][first + 1]
    wait_until(browser, "document.querySelector('.lightbox-image').complete")
    src = browser.execute_script("return document.querySelector('.lightbox-image').src")
    assert src == base + "many/" + item["images"][-1]["url"]
    assert browser.current_url == base + "many/" + item["page"]
    assert counter(browser) == f"{first + 2} / {frames['count']}"
    browser.back()
    wait_until(browser, f"!({OPEN})")
    assert browser.current_url.endswith("many/pages/3.html")


def axe_source():
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None:
        pytest.fail("pip install axe-playwright-python (its wheel carries axe.min.js)", pytrace=False)
    return (pathlib.Path(spec.origin).parent / "axe.min.js").read_text(encoding="utf-8")


AXE_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v =>
  v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').replace(/\\s+/g, ' ')).join(' | '))));
"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_axe_finds_no_violations(server, browser, size, scheme):
    source = axe_source()
    browser.set_script_timeout(30)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    failures = []
    for page, lightbox in [("index.html", False), ("nature/index.html", False), ("nature/dune.html", False),
                           ("nature/index.html", True)]:
        browser.set_window_size(*size)
        browser.get(server + page)
        if lightbox:
            wait_until(browser, "window.cascadeViewer")
            browser.execute_script("document.querySelector('.wall .tile[data-index=\"0\"]').click()")
            wait_until(browser, OPEN)
            wait_until(browser, "document.querySelector('.lightbox-image').complete")
            # Once the opening's fade is over (its colours are the ones to check).
            wait_until(browser, SETTLED)
        browser.execute_script(source)
        for violation in browser.execute_async_script(AXE_RUN):
            failures.append(f"{page}{' (lightbox)' if lightbox else ''}: {violation}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080), PHONE], ids=["1366x768", "1920x1080", "phone"])
def test_a_photo_page_fits_one_screen_with_its_title_caption_and_links(site, server, browser, size):
    browser.set_window_size(*size)
    problems = []
    for page in sorted((site / "nature").glob("*.html")):
        if page.name == "index.html":
            continue
        browser.get(server + "nature/" + page.name)
        wait_until(browser, "document.querySelector('.photo-image').complete")
        state = browser.execute_script(
            "const r = s => document.querySelector(s).getBoundingClientRect();"
            "return {h1: r('h1').top, image: r('.photo-image'), nav: r('.photo-nav').bottom, height: innerHeight,"
            " natural: document.querySelector('.photo-image').naturalWidth}")
        if state["nav"] > state["height"] or state["h1"] < 0:
            problems.append(f"{page.name} at {size}: navigation ends at {state['nav']:.0f} of {state['height']} px")
        if state["image"]["height"] < min(200, state["height"] / 4):
            problems.append(f"{page.name} at {size}: the image is only {state['image']['height']:.0f} px tall")
    assert not problems, "\n".join(problems)


def touch(driver, kind, points):
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {
        "type": kind, "touchPoints": [{"x": x, "y": y, "id": n} for n, (x, y) in enumerate(points)]})


def test_touch_swipes_move_and_close_and_a_pinch_zooms(built, browser):
    base, out = built
    open_large_photo(browser, base, out)
    before = counter(browser)
    browser.execute_script("window.pointerEnds = 0; for (const t of ['pointerup', 'pointercancel'])"
                           " addEventListener(t, () => { window.pointerEnds += 1; }, true)")
    # Two fingers moving apart zoom in; the photo can then be panned, not swiped away.
    touch(browser, "touchStart", [(180, 400), (210, 400)])
    for step in range(1, 11):
        touch(browser, "touchMove", [(180 - 8 * step, 400), (210 + 8 * step, 400)])
    touch(browser, "touchEnd", [])
    wait_until(browser, "window.pointerEnds === 2")
    wait_until(browser, "document.querySelector('.lightbox').classList.contains('is-zoomed')")
    assert browser.execute_script("return window.cascadeViewer.zoom.scale") > 1.5
    touch(browser, "touchStart", [(300, 400)])
    touch(browser, "touchMove", [(150, 400)])
    touch(browser, "touchEnd", [])
    # Once the page has seen the finger lifted.
    wait_until(browser, "window.pointerEnds === 3")
    assert counter(browser) == before, "a drag on a zoomed photo changed the photo"
    browser.execute_script("window.cascadeViewer.zoomTo(1)")
    # Not zoomed: a swipe to the left goes on, a swipe down closes.
    touch(browser, "touchStart", [(300, 400)])
    for x in range(280, 100, -30):
        touch(browser, "touchMove", [(x, 405)])
    touch(browser, "touchEnd", [])
    wait_until(browser, f"document.querySelector('.lb-counter').textContent !== {before!r}")
    touch(browser, "touchStart", [(200, 300)])
    for y in range(320, 500, 30):
        touch(browser, "touchMove", [(202, y)])
    touch(browser, "touchEnd", [])
    wait_until(browser, f"!({OPEN})")


def test_no_slideshow_button_under_reduced_motion(server, browser):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    start(browser, server + "nature/index.html")
    browser.execute_script("document.querySelector('.wall .tile[data-index=\"0\"]').click()")
    wait_until(browser, OPEN)
    assert browser.execute_script("return document.querySelector('.lb-play').hidden")
