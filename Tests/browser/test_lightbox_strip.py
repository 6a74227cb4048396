"""The lightbox's optional thumbnail strip (`lightbox_thumbnails: true`, issue 30, 3) in a real
browser: under the photo, the current photo's thumbnail marked (aria-current), a click on
another moves there, reachable from the keyboard (the current one is the strip's Tab stop and
the focus follows the arrow keys), axe-core finding nothing, and virtualized like the wall:
the strip of an album of 2,000 (and 100,000, unless CASCADE_SKIP_100K=1) photos holds about a
screen of nodes wherever it is. Off by default."""
import os
import subprocess

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import REPO, make_driver, serve
from photo_factory import album
from test_viewer import LIGHTBOX_OPEN as OPEN, LIGHTBOX_SETTLED as SETTLED, wait_until

PHONE, DESKTOP = (390, 844), (1440, 900)


def sizes():
    skip = pytest.mark.skipif(os.environ.get("CASCADE_SKIP_100K") == "1", reason="CASCADE_SKIP_100K=1")
    return [pytest.param(2_000), pytest.param(100_000, marks=[skip])]


@pytest.fixture(scope="module", params=sizes(), ids=lambda n: f"{n}-photos")
def strip_site(request, tmp_path_factory):
    count = request.param
    root = tmp_path_factory.mktemp(f"strip{count}")
    album(root / "photos" / "Many", count, small=True)
    # (No search index: at 100,000 photos it is benchmarks/search.py's, not this test's.)
    (root / "photos" / "cascade.yml").write_text("title: Strip\nlightbox_thumbnails: true\nsearch: false\n")
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    # The worktree's theme, not the copy embedded in the binary at its last build.
    result = subprocess.run([binary, "build", str(root / "photos"), "--output", str(out), "--quiet", "--sort", "name",
                             "--templates", str(REPO / "templates")], capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stderr
    with serve(out) as base:
        yield base + "many/", count


@pytest.fixture()
def browser():
    driver = make_driver()
    yield driver
    driver.quit()


def open_first(driver, url, size):
    driver.set_window_size(*size)
    driver.get(url)
    wait_until(driver, "window.cascadeViewer")
    driver.execute_script("document.querySelector('.wall .tile[data-index=\"0\"]').click()")
    wait_until(driver, OPEN)
    wait_until(driver, SETTLED)


# The strip's state: its cells in the page, the marked one, the focused one, and where the
# strip is against the photo and the caption.
STRIP = """
const strip = document.querySelector('.lb-strip'), cells = [...strip.querySelectorAll('.lb-thumb')];
const r = e => e.getBoundingClientRect().toJSON();
const current = cells.filter(c => c.getAttribute('aria-current') === 'true');
const a = document.activeElement;
return {nodes: cells.length, created: window.cascadeViewer.thumbs.created, width: strip.clientWidth,
        current: current.map(c => +c.dataset.index), tabStops: cells.filter(c => c.tabIndex >= 0).map(c => +c.dataset.index),
        focused: a.classList.contains('lb-thumb') ? +a.dataset.index : null,
        counter: document.querySelector('.lb-counter').textContent,
        strip: r(strip), stage: r(document.querySelector('.lb-stage')),
        shown: current.length ? (() => { const c = r(current[0]), s = r(strip); return c.left >= s.left && c.right <= s.right; })() : false,
        labels: cells.slice(0, 3).map(c => c.getAttribute('aria-label'))};
"""


def strip_state(driver):
    return driver.execute_script(STRIP)


def bounded(state):
    """About a screen of cells: the strip's width and a quarter either side, 64 px each."""
    return state["nodes"] <= 1.5 * state["width"] / 64 + 3


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_strip_marks_the_photo_moves_on_a_click_and_holds_a_screen_of_nodes(strip_site, browser, size):
    url, count = strip_site
    open_first(browser, url + "index.html", size)
    state = strip_state(browser)
    assert state["current"] == [0] and state["shown"], state
    assert state["strip"]["top"] >= state["stage"]["bottom"] - 0.5, f"the strip is not under the photo: {state}"
    assert state["labels"][0].startswith("Photo 1"), state
    assert bounded(state), state
    # A click on another cell moves there.
    browser.execute_script("document.querySelector('.lb-thumb[data-index=\"3\"]').click()")
    wait_until(browser, "document.querySelector('.lb-counter').textContent.startsWith('4 /')")
    assert strip_state(browser)["current"] == [3]
    # The far end of the album: its details arrive, the strip follows, still a screen of nodes.
    ActionChains(browser).send_keys(Keys.END).perform()
    wait_until(browser, f"document.querySelector('.lb-counter').textContent.startsWith('{count} /')", seconds=30)
    wait_until(browser, SETTLED)
    wait_until(browser, f"document.querySelector('.lb-thumb[data-index=\"{count - 1}\"][aria-label^=\"Photo {count}:\"]')", seconds=30)
    state = strip_state(browser)
    assert state["current"] == [count - 1] and state["shown"], state
    assert bounded(state), state
    # Scrolled through by hand, the strip reuses its nodes.
    browser.execute_script("const s = document.querySelector('.lb-strip'); s.scrollLeft = s.scrollWidth / 2")
    wait_until(browser, "(() => { const s = document.querySelector('.lb-strip'), mid = Math.floor((s.scrollLeft + s.clientWidth / 2) / 64);"
                        " return !!document.querySelector(`.lb-thumb[data-index=\"${mid}\"]`); })()")
    state = strip_state(browser)
    assert bounded(state) and state["created"] <= 2 * (1.5 * state["width"] / 64 + 3), state


def test_the_strip_is_reached_from_the_keyboard_and_the_focus_follows_the_photo(strip_site, browser):
    url, count = strip_site
    open_first(browser, url + "index.html", DESKTOP)
    ActionChains(browser).send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT).perform()
    wait_until(browser, "document.querySelector('.lb-counter').textContent.startsWith('3 /')")
    # Tab goes round the controls to the strip's one stop: the current photo's cell.
    for _ in range(20):
        ActionChains(browser).send_keys(Keys.TAB).perform()
        if strip_state(browser)["focused"] is not None:
            break
    state = strip_state(browser)
    assert state["focused"] == 2 and state["tabStops"] == [2], state
    ActionChains(browser).send_keys(Keys.ARROW_LEFT).perform()
    wait_until(browser, "document.querySelector('.lb-counter').textContent.startsWith('2 /')")
    state = strip_state(browser)
    assert state["focused"] == 1 and state["current"] == [1] and state["tabStops"] == [1], state


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_axe_finds_nothing_with_the_strip(strip_site, browser, size, scheme):
    from test_lightbox import AXE_RUN, axe_source
    url, count = strip_site
    if count > 10_000:
        pytest.skip("the strip is the same on the smaller album")
    browser.set_script_timeout(30)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
    open_first(browser, url + "index.html", size)
    wait_until(browser, "[...document.querySelectorAll('.lb-thumb img')].every(i => i.complete)")
    browser.execute_script(axe_source())
    violations = browser.execute_async_script(AXE_RUN)
    assert not violations, "\n".join(violations)


def test_the_strip_is_off_by_default(server, browser):
    open_first(browser, server + "nature/index.html", DESKTOP)
    assert browser.execute_script("return !document.querySelector('.lb-strip') && !document.querySelector('.wall[data-thumbnails]')")
