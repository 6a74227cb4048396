"""The lightbox of issue 30 in a real browser: the whole photo is shown beside a long caption
(never cut off or covered), one state machine that late network answers cannot reopen or
move, history and titles that follow the photo, keys that leave the browser's own
combinations alone, zoom and pointer gestures, the Live Photo badge and tile names, motion
out of and back into the tile (none under reduced motion), tiny photos enlarged, and strips
and panoramas in clamped tiles.

Geometry is read with getBoundingClientRect and elementFromPoint; slow networks come from CDP
Network.emulateNetworkConditions, touch from CDP Input.dispatchTouchEvent."""
import os
import shutil
import subprocess
import time

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.keys import Keys

from conftest import REPO, make_driver, serve
from photo_factory import album, png
from test_viewer import LIGHTBOX_OPEN as OPEN, LIGHTBOX_SETTLED as SETTLED, wait_until

PHONE, DESKTOP = (390, 844), (1440, 900)

# Four lines under a 1440 px wide photo, many more on a phone.
LONG = ("A long caption that goes on about the light, the weather, the road that led there and the people "
        "met on the way, so that it wraps over several lines on a wide screen and many more on a phone. ") * 4


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """"Long": large photos (landscape, portrait, landscape) with long captions (the last one's
    short); "Many": 1,200
    small photos (two chunks of details, two static pages)."""
    root = tmp_path_factory.mktemp("stage")
    photos = root / "photos"
    long = photos / "Long"
    long.mkdir(parents=True)
    for number, (width, height, color) in enumerate([(2000, 1300, (200, 120, 60)), (1200, 1800, (40, 90, 160)),
                                                     (1800, 1200, (60, 160, 90))]):
        (long / f"long-{number}.png").write_bytes(png(width, height, color))
        # The last caption is short: moving back from it, the photo must not keep its stage.
        (long / f"long-{number}.png.txt").write_text(LONG if number < 2 else "A short caption.\n")
    album(photos / "Many", 1200, small=True)
    shapes = photos / "Shapes"
    shapes.mkdir()
    (shapes / "a-strip.png").write_bytes(png(300, 9000, (90, 140, 60)))
    (shapes / "b-panorama.png").write_bytes(png(12000, 400, (60, 90, 140)))
    (shapes / "c-plain.png").write_bytes(png(800, 600, (140, 60, 90)))
    tiny = photos / "Tiny"
    tiny.mkdir()
    (tiny / "a-dot.png").write_bytes(png(1, 1, (220, 40, 40)))
    (tiny / "b-speck.png").write_bytes(png(2, 3, (40, 40, 220)))
    if shutil.which("ffmpeg"):
        # "Clips": a video, a photo and a Live Photo (a photo and its short clip).
        clips = photos / "Clips"
        clips.mkdir()
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=320x180:rate=15", "-t", "4", "-c:v", "libx264", "-pix_fmt", "yuv420p",
               str(clips / "a-clip.mp4"))
        (clips / "b-photo.png").write_bytes(png(800, 600, (120, 120, 200)))
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x480", "-frames:v", "1", str(clips / "c-live.jpg"))
        ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x480:rate=15", "-t", "2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
               str(clips / "c-live.mov"))
    (photos / "cascade.yml").write_text("title: Stage\n")
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    # The worktree's theme, not the copy embedded in the binary at its last build.
    result = subprocess.run([binary, "build", str(photos), "--output", str(out), "--quiet", "--sort", "name",
                             "--templates", str(REPO / "templates")],
                            capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stderr
    with serve(out) as base:
        yield base, out


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *arguments], check=True, timeout=300)


needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed (scripts/setup installs it)")


@pytest.fixture()
def browser():
    driver = make_driver()
    yield driver
    driver.quit()


def start(driver, url, size=DESKTOP):
    driver.set_window_size(*size)
    driver.get(url)
    wait_until(driver, "window.cascadeViewer")


def ready_to_open_at_once(driver):
    """The first photo's details and the lightbox's script (lightbox.js, loaded on the first
    opening) are in: a click then opens the lightbox in the same task."""
    driver.execute_script("window.cascadeViewer.loadLightbox()")
    wait_until(driver, "window.cascadeViewer.details.has(0) && !!window.CascadeViewer.fitSize")


def settle(driver):
    wait_until(driver, SETTLED)


def open_tile(driver, index):
    """Opens tile `index`'s photo and waits until it has flown out of its tile and is at rest."""
    driver.execute_script(f"document.querySelector('.wall .tile[data-index=\"{index}\"]').click()")
    wait_until(driver, OPEN)
    settle(driver)


# Counts the pointerup and pointercancel events the page has handled (installed before a
# gesture): a gesture's end is waited for by its count, not by a time.
COUNT_POINTER_ENDS = """
window.pointerEnds = 0;
for (const type of ['pointerup', 'pointercancel']) addEventListener(type, () => { window.pointerEnds += 1; }, true);
"""


def keys(driver, *sequence):
    chain = ActionChains(driver)
    for key in sequence:
        chain.send_keys(key)
    chain.perform()


def counter(driver):
    return driver.execute_script("return document.querySelector('.lb-counter').textContent")


# Where the photo is against the stage and the caption, and what is hit at its corners (2 px in).
GEOMETRY = """
const r = e => e.getBoundingClientRect().toJSON();
const img = document.querySelector('.lightbox-image');
const image = r(img), stage = r(document.querySelector('.lb-stage')), caption = r(document.querySelector('.lb-caption'));
const corners = [[image.left + 2, image.top + 2], [image.right - 2, image.top + 2],
                 [image.left + 2, image.bottom - 2], [image.right - 2, image.bottom - 2]];
const hits = corners.map(([x, y]) => { const e = document.elementFromPoint(x, y); return !!e && !!e.closest('.lb-zoom'); });
return {image, stage, caption, hits, natural: img.naturalWidth,
        text: document.querySelector('.lb-text').textContent.length};
"""


def assert_whole_photo(driver, where):
    g = driver.execute_script(GEOMETRY)
    image, stage, caption = g["image"], g["stage"], g["caption"]
    assert image["top"] >= stage["top"] - 0.5 and image["bottom"] <= stage["bottom"] + 0.5, f"{where}: {image} not within {stage}"
    assert image["left"] >= stage["left"] - 0.5 and image["right"] <= stage["right"] + 0.5, f"{where}: {image} not within {stage}"
    assert image["bottom"] <= caption["top"] + 0.5, f"{where}: the photo ({image}) runs under the caption ({caption})"
    assert all(g["hits"]), f"{where}: a corner of the photo is covered: {g['hits']}"
    # As large as the stage allows: it touches two opposite sides of the stage (or is at its own size).
    fills = (abs(image["height"] - stage["height"]) < 2 or abs(image["width"] - stage["width"]) < 2)
    assert fills, f"{where}: the photo ({image}) could be larger in {stage}"
    return g


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_whole_photo_shows_beside_a_long_caption_on_open_move_and_resize(site, browser, size):
    base, _ = site
    start(browser, base + "long/index.html", size)
    open_tile(browser, 0)
    assert assert_whole_photo(browser, "open")["text"] > 300, "the long caption is not shown"
    for key, where in [(Keys.ARROW_RIGHT, "2 /"), (Keys.ARROW_RIGHT, "3 /"), (Keys.ARROW_LEFT, "2 /")]:
        keys(browser, key)
        wait_until(browser, f"document.querySelector('.lb-counter').textContent.startsWith({where!r})")
        settle(browser)
        assert_whole_photo(browser, f"at {where}")
    # A shorter window: the stage shrinks and the photo with it (once it is refitted to the new stage).
    stage = browser.execute_script("return window.cascadeViewer.fitFor")
    browser.set_window_size(size[0], size[1] - 200)
    wait_until(browser, f"window.cascadeViewer.fitFor !== {stage!r}")
    settle(browser)
    assert_whole_photo(browser, "after a resize")


def test_the_opening_glide_lasts_until_the_photo_has_landed(site, browser):
    """The glide (is-gliding) ended on a timer or on any transitionend bubbling up, the image's
    fade-in's too: on a loaded machine the photo was measured mid-flight, smaller and off-centre.
    Animations run ten times slower here, and the image's fade-in "ends" at once."""
    base, _ = site
    start(browser, base + "long/index.html", PHONE)
    ready_to_open_at_once(browser)
    browser.execute_cdp_cmd("Animation.enable", {})
    browser.execute_cdp_cmd("Animation.setPlaybackRate", {"playbackRate": 0.1})
    # When the lightbox stops gliding, whether the photo's transform was still on its way.
    browser.execute_script("""
      window.landed = null;
      new MutationObserver(records => records.forEach(r => {
        const box = r.target, z = box.querySelector('.lb-zoom');
        if (box.classList.contains('lightbox') && (r.oldValue || '').includes('is-gliding') && !box.classList.contains('is-gliding')
            && window.landed === null) {
          window.landed = {running: z.getAnimations().length, transform: getComputedStyle(z).transform};
        }
      })).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['class'], attributeOldValue: true});
      document.querySelector('.wall .tile[data-index="0"]').click();
      document.querySelector('.lightbox-image').dispatchEvent(
        new TransitionEvent('transitionend', {bubbles: true, propertyName: 'opacity'}));""")
    wait_until(browser, "window.landed !== null", seconds=30)
    landed = browser.execute_script("return window.landed")
    assert landed == {"running": 0, "transform": "none"}, f"the glide ended mid-flight: {landed}"
    settle(browser)
    assert_whole_photo(browser, "landed")


def test_a_late_chunk_never_reopens_or_moves_a_closed_lightbox(site, browser):
    base, _ = site
    start(browser, base + "many/index.html")
    album_url, album_title = browser.current_url, browser.title
    open_tile(browser, 0)
    length = browser.execute_script("return history.length")
    assert not browser.execute_script("return window.cascadeViewer.details.has(1)"), "the last chunk is loaded already"
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": False, "latency": 2500, "downloadThroughput": -1, "uploadThroughput": -1})
    try:
        # End asks for photo 1,200 (its details are in the slow chunk); Escape at once.
        keys(browser, Keys.END, Keys.ESCAPE)
        wait_until(browser, f"!({OPEN})")
        # Once the late chunk has arrived (its handlers have run by the next script), still closed.
        wait_until(browser, "window.cascadeViewer.details.has(1)", seconds=30)
    finally:
        browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
    assert not browser.execute_script(f"return {OPEN}"), f"reopened at {counter(browser)}"
    assert browser.current_url == album_url
    assert browser.execute_script("return history.state") is None, "the album's history entry was replaced"
    assert browser.execute_script("return history.length") == length
    assert browser.title == album_title
    # Another Escape does not go Back out of the album: the key is handled (synchronously, in
    # this script) without asking history to go anywhere.
    moves = browser.execute_script("""
      const asked = [];
      for (const name of ['back', 'go', 'forward']) history[name] = (...a) => asked.push(name + '(' + a + ')');
      document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {key: 'Escape', bubbles: true, cancelable: true}));
      return asked;""")
    assert moves == [], f"a second Escape asked history for {moves}"
    assert browser.current_url == album_url


def test_back_after_reloading_a_photos_address_shows_the_album(site, browser):
    base, _ = site
    start(browser, base + "long/index.html")
    open_tile(browser, 0)
    photo_url = browser.current_url
    assert photo_url != base + "long/index.html"
    browser.refresh()
    wait_until(browser, "document.body.classList.contains('photo-page')")
    browser.back()
    wait_until(browser, "document.body.classList.contains('album-page') && !!document.querySelector('.wall')")
    assert browser.current_url == base + "long/index.html"


def test_the_title_follows_the_photo(site, browser):
    base, _ = site
    start(browser, base + "long/index.html")
    album_title = browser.title
    open_tile(browser, 1)
    label = browser.execute_script("return document.querySelector('.lightbox').getAttribute('aria-label')")
    assert browser.title == f"{label} · Stage"
    keys(browser, Keys.ARROW_RIGHT)
    wait_until(browser, "document.querySelector('.lb-counter').textContent.startsWith('3 /')")
    label = browser.execute_script("return document.querySelector('.lightbox').getAttribute('aria-label')")
    assert browser.title == f"{label} · Stage"
    keys(browser, Keys.ESCAPE)
    wait_until(browser, f"!({OPEN})")
    assert browser.title == album_title


def test_a_photo_pages_album_link_returns_to_the_photos_place(site, browser):
    base, _ = site
    start(browser, base + "many/index.html")
    page = browser.execute_script("return new URL(document.querySelector('.wall').getAttribute('data-frames'), location.href).href")
    browser.get(page)
    frames = browser.execute_script("return JSON.parse(document.body.textContent)")
    index = frames["staticCount"] + 10
    browser.get(base + "many/" + browser.execute_script(
        "return arguments[0].replace('{id}', arguments[1])", frames["pageURL"], frames["ids"][index]))
    link = browser.execute_script("return document.querySelector('.photo-nav .back').href")
    assert link.endswith(f"pages/2.html#p{index}"), link
    browser.get(link)
    wait_until(browser, f"!!document.getElementById('p{index}')")
    # On the screen, and not under the page's sticky header: its centre is the tile's.
    visible = browser.execute_script(
        f"const t = document.getElementById('p{index}'), r = t.getBoundingClientRect();"
        " return r.top >= -1 && r.bottom <= innerHeight + 1"
        " && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2).closest('.tile') === t")
    assert visible, "the photo's tile is not on the screen"


# Dispatches keydown events (key, modifiers) on the focused element; returns which were taken.
PRESS = """
const target = document.activeElement;
return arguments[0].map(([key, mods]) => {
  const e = new KeyboardEvent('keydown', Object.assign({key, bubbles: true, cancelable: true}, mods));
  target.dispatchEvent(e);
  return key + (mods.altKey ? '+Alt' : '') + (mods.ctrlKey ? '+Ctrl' : '') + (mods.metaKey ? '+Meta' : '') + ': ' + e.defaultPrevented;
});
"""


def test_key_combinations_with_alt_ctrl_or_meta_reach_the_browser(site, browser):
    base, _ = site
    start(browser, base + "long/index.html")
    open_tile(browser, 1)
    combos = [["ArrowLeft", {"altKey": True}], ["ArrowRight", {"altKey": True}], ["0", {"ctrlKey": True}],
              ["+", {"ctrlKey": True}], ["=", {"ctrlKey": True}], ["-", {"ctrlKey": True}],
              ["ArrowRight", {"metaKey": True}], ["Home", {"ctrlKey": True}], ["End", {"metaKey": True}]]
    taken = [line for line in browser.execute_script(PRESS, combos) if line.endswith("true")]
    assert not taken, f"the lightbox took the browser's keys: {taken}"
    assert counter(browser).startswith("2 /")
    assert browser.execute_script("return window.cascadeViewer.zoom.scale") == 1
    # The plain keys still work.
    assert browser.execute_script(PRESS, [["ArrowRight", {}]]) == ["ArrowRight: true"]
    assert counter(browser).startswith("3 /")


@needs_ffmpeg
def test_a_focused_video_gets_its_arrow_keys(site, browser):
    base, _ = site
    start(browser, base + "clips/index.html")
    open_tile(browser, 0)
    wait_until(browser, "document.querySelector('.lb-video') && !document.querySelector('.lb-video').hidden")
    browser.execute_script("document.querySelector('.lb-video').focus()")
    taken = browser.execute_script(PRESS, [["ArrowRight", {}], ["ArrowLeft", {}], ["End", {}], ["Home", {}]])
    assert all(line.endswith("false") for line in taken), taken
    assert counter(browser).startswith("1 /"), "the arrow keys on the video changed the item"
    browser.execute_script("document.querySelector('.lb-close').focus()")
    browser.execute_script(PRESS, [["ArrowRight", {}]])
    assert counter(browser).startswith("2 /")


def test_on_a_further_static_page_focus_returns_to_the_tile_after_moving_and_closing(site, browser):
    base, _ = site
    start(browser, base + "many/pages/2.html")
    first = browser.execute_script("return +document.querySelector('.wall .tile').dataset.index")
    open_tile(browser, first + 3)
    keys(browser, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait_until(browser, f"document.querySelector('.lb-counter').textContent.startsWith('{first + 6} /')")
    keys(browser, Keys.ESCAPE)
    wait_until(browser, f"!({OPEN})")
    wait_until(browser, f"document.activeElement.dataset.index === '{first + 5}'")
    # Moved off this page (before its first photo): focus is on the page's nearest tile, not <body>.
    open_tile(browser, first)
    keys(browser, Keys.ARROW_LEFT)
    wait_until(browser, f"document.querySelector('.lb-counter').textContent.startsWith('{first} /')")
    keys(browser, Keys.ESCAPE)
    wait_until(browser, f"!({OPEN})")
    wait_until(browser, f"document.activeElement.dataset.index === '{first}'")


def zoom_state(driver):
    return driver.execute_script(
        "const v = window.cascadeViewer; return {scale: v.zoom.scale, x: v.zoom.x, y: v.zoom.y, state: v.state,"
        " zoomed: document.querySelector('.lightbox').classList.contains('is-zoomed'), counter: document.querySelector('.lb-counter').textContent}")


def test_a_mouse_drag_released_off_the_photo_moves_and_does_not_close(site, browser):
    base, _ = site
    start(browser, base + "long/index.html")
    open_tile(browser, 0)
    image = browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().toJSON()")
    assert image["left"] > 200, "the photo leaves no backdrop beside it to release the drag on"
    # From the photo's centre to the backdrop left of it (clear of the Previous button).
    x, y = image["left"] + image["width"] / 2, image["top"] + image["height"] * 0.75
    target = 120
    assert browser.execute_script(f"return document.elementFromPoint({target}, {y}).className") == "lb-stage"
    ActionChains(browser).move_by_offset(0, 0).perform()
    ActionChains(browser).move_to_element_with_offset(browser.find_element("css selector", ".lightbox-image"), 0, 0) \
        .move_by_offset(0, int(y - (image["top"] + image["height"] / 2))).click_and_hold() \
        .move_by_offset(-200, 0).move_by_offset(int(target - x + 200), 0).release().perform()
    wait_until(browser, "document.querySelector('.lb-counter').textContent.startsWith('2 /')")
    assert browser.execute_script(f"return {OPEN}"), "the drag moved on, then closed the lightbox"


def needed_image(driver, scale):
    """The URL of the first of the photo's images at least `scale` times the fitted width wide."""
    return driver.execute_script(
        "const v = window.cascadeViewer, need = v.shown.width * arguments[0];"
        " return (v.item.images.find(i => i.width >= need) || v.item.images[v.item.images.length - 1]).url", scale)


def test_double_click_zooms_to_twice_the_fitted_size_with_the_image_it_needs(site, browser):
    base, _ = site
    start(browser, base + "long/index.html")
    open_tile(browser, 0)
    wait_until(browser, "document.querySelector('.lightbox-image').complete")
    fitted = browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().width")
    ActionChains(browser).double_click(browser.find_element("css selector", ".lightbox-image")).perform()
    wait_until(browser, "window.cascadeViewer.zoom.scale === 2")
    width = browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().width")
    assert abs(width - 2 * fitted) < 2, (width, fitted)
    wanted = needed_image(browser, 2)
    wait_until(browser, f"document.querySelector('.lightbox-image').currentSrc === {wanted!r}")
    ActionChains(browser).double_click(browser.find_element("css selector", ".lightbox-image")).perform()
    wait_until(browser, "window.cascadeViewer.zoom.scale === 1")


def tap(driver, x, y, at):
    for kind, points, t in [("touchStart", [{"x": x, "y": y, "id": 0}], at), ("touchEnd", [], at + 0.04)]:
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points, "timestamp": t})


def test_a_double_tap_zooms_on_touch(site, browser):
    base, _ = site
    start(browser, base + "long/index.html", PHONE)
    open_tile(browser, 0)
    image = browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().toJSON()")
    x, y = image["left"] + image["width"] / 2, image["top"] + image["height"] / 2
    # The taps carry their own times (0.2 s apart), whatever the machine's speed.
    now = time.time()
    tap(browser, x, y, now)
    tap(browser, x, y, now + 0.2)
    wait_until(browser, "window.cascadeViewer.zoom.scale > 1")
    # A dblclick that may follow the taps does not zoom back out.
    browser.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    state = zoom_state(browser)
    assert state["scale"] == 2 and state["zoomed"] and state["state"] == "zoomed", state


def test_zoom_buttons_levels_and_arrow_keys_pan_while_zoomed(site, browser):
    base, _ = site
    start(browser, base + "long/index.html")
    open_tile(browser, 0)
    zoom_in = browser.find_element("css selector", ".lb-in")
    zoom_out = browser.find_element("css selector", ".lb-out")
    assert zoom_in.get_attribute("aria-label") == "Zoom in" and zoom_out.get_attribute("aria-label") == "Zoom out"
    levels = []
    for button in [zoom_in, zoom_in, zoom_in]:
        button.click()
        levels.append(zoom_state(browser)["scale"])
    assert levels == [2, 4, 4], levels
    assert zoom_in.get_attribute("aria-disabled") == "true"
    wanted = needed_image(browser, 4)
    wait_until(browser, f"document.querySelector('.lightbox-image').currentSrc === {wanted!r}")
    # Zoomed in, the arrow keys pan the photo and stay on it.
    before = zoom_state(browser)
    browser.execute_script("document.querySelector('.lb-close').focus()")
    keys(browser, Keys.ARROW_RIGHT, Keys.ARROW_DOWN)
    after = zoom_state(browser)
    assert after["counter"] == before["counter"], "an arrow key moved to another photo while zoomed"
    assert after["x"] < before["x"] and after["y"] < before["y"], (before, after)
    zoom_out.click()
    zoom_out.click()
    assert zoom_state(browser)["scale"] == 1
    assert zoom_out.get_attribute("aria-disabled") == "true"
    keys(browser, Keys.ARROW_RIGHT)
    assert zoom_state(browser)["counter"].startswith("2 /")
    # Ctrl+wheel zooms around the cursor (and is not left to the browser's page zoom).
    prevented = browser.execute_script(
        "const s = document.querySelector('.lb-stage'), r = s.getBoundingClientRect();"
        "const e = new WheelEvent('wheel', {deltaY: -300, ctrlKey: true, clientX: r.left + r.width / 2,"
        " clientY: r.top + r.height / 2, bubbles: true, cancelable: true}); s.dispatchEvent(e); return e.defaultPrevented")
    assert prevented and 1 < zoom_state(browser)["scale"] <= 4


def contrast(fg, bg):
    """WCAG contrast of two [r, g, b] colours."""
    def luminance(rgb):
        def channel(c):
            c /= 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
        r, g, b = (channel(c) for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    high, low = sorted([luminance(fg), luminance(bg)], reverse=True)
    return (high + 0.05) / (low + 0.05)


# The LIVE badge: its button, the visible badge, the photo, and the badge's colours.
BADGE = """
const button = document.querySelector('.lb-live'), badge = button.firstElementChild;
const r = e => e.getBoundingClientRect().toJSON();
const rgba = s => s.match(/[\\d.]+/g).map(Number);
const style = getComputedStyle(badge);
return {button: r(button), badge: r(badge), image: r(document.querySelector('.lightbox-image')),
        name: button.getAttribute('aria-label'), pressed: button.getAttribute('aria-pressed'),
        color: rgba(style.color), background: rgba(style.backgroundColor), hidden: button.hidden};
"""


def badge_contrasts(state):
    """The badge text's contrast over its background composited on white and on black photos."""
    r, g, b, *alpha = state["background"]
    a = alpha[0] if alpha else 1
    results = []
    for under in (255, 0):
        bg = [c * a + under * (1 - a) for c in (r, g, b)]
        results.append(contrast(state["color"][:3], bg))
    return results


@needs_ffmpeg
def test_the_live_badge_sits_on_the_photos_corner_is_named_and_readable_in_every_state(site, browser):
    base, _ = site
    start(browser, base + "clips/index.html")
    open_tile(browser, 2)
    wait_until(browser, "!document.querySelector('.lb-live').hidden")
    state = browser.execute_script(BADGE)
    assert state["name"] == "Live Photo"
    button, badge, image = state["button"], state["badge"], state["image"]
    assert button["width"] >= 44 and button["height"] >= 44, button
    for side in ("left", "top"):
        assert badge[side] >= button[side] and badge[side] >= image[side], (side, badge, button, image)
    for side in ("right", "bottom"):
        assert badge[side] <= button[side], (side, badge, button)
    # On the photo's top-left corner (not the stage's).
    assert badge["left"] - image["left"] < 24 and badge["top"] - image["top"] < 24, (badge, image)
    assert button["left"] >= image["left"] - 0.5 and button["top"] >= image["top"] - 0.5, (button, image)
    assert min(badge_contrasts(state)) >= 4.5, state
    browser.execute_script("document.querySelector('.lb-live').click()")
    wait_until(browser, "document.querySelector('.lb-live').getAttribute('aria-pressed') === 'true'")
    pressed = browser.execute_script(BADGE)
    assert min(badge_contrasts(pressed)) >= 4.5, pressed


def test_a_title_made_from_the_captions_first_line_is_not_shown_twice(site, browser):
    base, _ = site
    start(browser, base + "long/index.html")
    open_tile(browser, 0)
    title = browser.execute_script("return document.querySelector('.lb-title').textContent")
    assert title == "", f"the caption's first line is shown twice: {title!r}"


@needs_ffmpeg
def test_video_and_live_photo_tiles_are_named_and_marked(site, browser):
    base, _ = site
    start(browser, base + "clips/index.html")
    tiles = browser.execute_script(
        "return [...document.querySelectorAll('.wall .tile')].map(t => ({label: t.getAttribute('aria-label'),"
        " live: getComputedStyle(t, '::after').content, hidden: [...t.querySelectorAll('.tile-duration')]"
        ".every(b => b.getAttribute('aria-hidden') === 'true')}))")
    assert tiles[0]["label"] == "Video, 0:04, a-clip", tiles[0]
    assert tiles[0]["hidden"], "the duration badge is read besides the tile's label"
    assert tiles[1]["label"] is None, tiles[1]
    assert tiles[2]["label"] == "Live Photo, c-live", tiles[2]
    assert tiles[2]["live"] == '"LIVE"', tiles[2]
    assert tiles[1]["live"] in ("none", "normal"), tiles[1]
    # Tiles the viewer makes say the same (from frames.json).
    made = browser.execute_script(
        "const v = window.cascadeViewer, node = v.createTile(); v.bindTile(node, 0); const a = node.getAttribute('aria-label');"
        " v.bindTile(node, 2); return [a, node.getAttribute('aria-label'), node.classList.contains('is-live')]")
    assert made == ["Video, 0:04, a-clip", "Live Photo, c-live", True], made


@needs_ffmpeg
@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_axe_finds_nothing_with_the_lightbox_zoomed_on_a_video_and_on_a_playing_live_photo(site, browser, size):
    from test_lightbox import AXE_RUN, axe_source
    base, _ = site
    source = axe_source()
    browser.set_script_timeout(30)
    failures = []
    for scheme in ("light", "dark"):
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        for index, action in [(0, ""), (1, "window.cascadeViewer.zoomStep(1)"),
                              (2, "document.querySelector('.lb-live').click()")]:
            start(browser, base + "clips/index.html", size)
            open_tile(browser, index)
            if action:
                browser.execute_script(action)
            wait_until(browser, "!document.querySelector('.lightbox').classList.contains('is-gliding')")
            browser.execute_script(source)
            failures += [f"{scheme} item {index} {action}: {v}" for v in browser.execute_async_script(AXE_RUN)]
    assert not failures, "\n".join(failures)


# Clicks tile `index` and returns, in the same task (before any frame), the photo's box and the
# tile's rectangles, the photo's computed transform and what its transition animates.
CLICK_AND_MEASURE = """
const tile = document.querySelector(`.wall .tile[data-index="${arguments[0]}"]`);
tile.click();
const z = document.querySelector('.lb-zoom'), style = getComputedStyle(z);
return {photo: z.getBoundingClientRect().toJSON(), tile: tile.getBoundingClientRect().toJSON(),
        transform: style.transform, property: style.transitionProperty,
        backdrop: getComputedStyle(document.querySelector('.lightbox')).backgroundColor};
"""

# Finishes the running transitions at once (Web Animations) and measures the photo's box.
FINISH = """
document.getAnimations().forEach(a => a.finish());
const i = arguments[0], tile = document.querySelector(`.wall .tile[data-index="${i}"]`);
return {photo: document.querySelector('.lb-zoom').getBoundingClientRect().toJSON(), tile: tile.getBoundingClientRect().toJSON(),
        transform: getComputedStyle(document.querySelector('.lb-zoom')).transform};
"""


def alpha(color):
    """The alpha of a computed colour ("rgb(...)" is 1; a transparent one may read rgba(0, 0, 0, 0))."""
    parts = color[color.index("(") + 1:-1].split(",")
    return float(parts[3]) if len(parts) == 4 else 1.0


def near(a, b, tolerance=3):
    return all(abs(a[k] - b[k]) <= tolerance for k in ("left", "top", "width"))


def test_the_photo_zooms_out_of_its_tile_and_back_into_it(site, browser):
    base, _ = site
    start(browser, base + "long/index.html")
    ready_to_open_at_once(browser)  # the click opens in the same task
    opened = browser.execute_script(CLICK_AND_MEASURE, 1)
    # At the start of the transition the photo covers its tile, and only its transform moves.
    assert near(opened["photo"], opened["tile"]), opened
    assert opened["property"] == "transform", opened
    assert alpha(opened["backdrop"]) < 0.05, opened
    settled = browser.execute_script(FINISH, 1)
    shown = browser.execute_script("return window.cascadeViewer.shown.width")
    assert settled["transform"] == "none" and abs(settled["photo"]["width"] - shown) < 1, (settled, shown)
    wait_until(browser, "!document.querySelector('.lightbox').classList.contains('is-gliding')")
    # Closed and measured in one task (Escape's way through history.back() would race the flight).
    closing = browser.execute_script("window.cascadeViewer.close(false);" + FINISH, 1)
    assert near(closing["photo"], closing["tile"]), closing
    wait_until(browser, f"!({OPEN})")
    assert browser.execute_script("return document.activeElement.dataset.index") == "1"


def touch_path(driver, points):
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": points[0][0], "y": points[0][1]}]})
    for x, y in points[1:]:
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]})


def test_a_drag_moves_the_photo_with_the_finger_and_snaps(site, browser):
    base, _ = site
    start(browser, base + "long/index.html", PHONE)
    open_tile(browser, 0)
    wait_until(browser, "!document.querySelector('.lightbox').classList.contains('is-gliding')")
    image = browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().toJSON()")
    x, y = image["left"] + image["width"] / 2, image["top"] + image["height"] / 2
    browser.execute_script(COUNT_POINTER_ENDS)
    browser.execute_script("window.lastMove = Infinity; addEventListener('pointermove', e => { window.lastMove = e.timeStamp; }, true);")
    touch_path(browser, [(x, y), (x - 20, y), (x - 40, y)])
    # Moves are delivered with the next frame: wait for the last one.
    wait_until(browser, f"Math.abs(document.querySelector('.lightbox-image').getBoundingClientRect().left - {image['left'] - 40}) < 2")
    # Held still for more than the 100 ms a release's speed is measured over, by the page's
    # clock: a slow drag, not a flick, however fast the moves were sent (40 px within 100 ms is one).
    wait_until(browser, "performance.now() - window.lastMove > 150")
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    # Released (the page has seen it), the photo snaps back and comes to rest.
    wait_until(browser, "window.pointerEnds === 1")
    settle(browser)
    settled = browser.execute_script(FINISH, 0)
    assert settled["transform"] == "none" and counter(browser).startswith("1 /"), settled
    # Down: the photo follows and the backdrop fades; released, it closes.
    touch_path(browser, [(x, y), (x, y + 30), (x, y + 200)])
    wait_until(browser, f"Math.abs(document.querySelector('.lightbox-image').getBoundingClientRect().top - {image['top'] + 200}) < 2")
    state = browser.execute_script(
        "return [document.querySelector('.lightbox-image').getBoundingClientRect().top,"
        " getComputedStyle(document.querySelector('.lightbox')).backgroundColor]")
    assert abs(state[0] - (image["top"] + 200)) < 2, state
    assert 0 < alpha(state[1]) < 1, state
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    wait_until(browser, f"!({OPEN})")


def timed_drag(driver, points, times):
    """A one-finger drag through `points` at `times` (seconds since the epoch, as CDP takes
    them: the page sees these times, whatever the machine's speed), released at the last."""
    (x, y), t = points[0], times[0]
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}], "timestamp": t})
    for (x, y), t in zip(points[1:], times[1:-1]):
        driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}], "timestamp": t})
    driver.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": [], "timestamp": times[-1]})


def test_a_flick_moves_on_however_short_and_a_slow_short_drag_snaps_back(site, browser):
    base, _ = site
    start(browser, base + "long/index.html", PHONE)
    open_tile(browser, 0)
    browser.execute_script(COUNT_POINTER_ENDS)
    image = browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().toJSON()")
    x, y = image["left"] + image["width"] / 2, image["top"] + image["height"] / 2
    path = [(x, y), (x - 10, y), (x - 20, y), (x - 30, y), (x - 40, y)]
    # Slow: 40 px in a second (0.04 px/ms), a tenth of the stage: it snaps back.
    now = time.time()
    timed_drag(browser, path, [now, now + 0.25, now + 0.5, now + 0.75, now + 1.0, now + 1.02])
    wait_until(browser, "window.pointerEnds === 1")
    settle(browser)
    assert counter(browser).startswith("1 /")
    assert browser.execute_script("return getComputedStyle(document.querySelector('.lb-zoom')).transform") == "none"
    # A flick: the same 40 px in 40 ms (1 px/ms): on to the next photo, which glides in.
    now = time.time() + 2
    timed_drag(browser, path, [now, now + 0.01, now + 0.02, now + 0.03, now + 0.04, now + 0.045])
    wait_until(browser, "window.pointerEnds === 2")
    wait_until(browser, "document.querySelector('.lb-counter').textContent.startsWith('2 /')")
    settle(browser)
    assert_whole_photo(browser, "after a flick")


def test_nothing_moves_under_reduced_motion(site, browser):
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
    base, _ = site
    start(browser, base + "long/index.html", PHONE)
    ready_to_open_at_once(browser)
    opened = browser.execute_script(CLICK_AND_MEASURE, 0)
    assert opened["transform"] == "none" and opened["backdrop"] == "rgb(11, 11, 11)", opened
    image = browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().toJSON()")
    x, y = image["left"] + image["width"] / 2, image["top"] + image["height"] / 2
    browser.execute_script("window.dragX = null; document.querySelector('.lb-stage')"
                           ".addEventListener('pointermove', e => { window.dragX = e.clientX; })")
    touch_path(browser, [(x, y), (x - 20, y), (x - 40, y)])
    # The last move has reached the page: still nothing has moved.
    wait_until(browser, f"window.dragX !== null && Math.abs(window.dragX - {x - 40}) < 1")
    assert browser.execute_script("return getComputedStyle(document.querySelector('.lb-zoom')).transform") == "none"
    browser.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    keys(browser, Keys.ESCAPE)
    # Closed at once: no flight back into the tile.
    wait_until(browser, f"!({OPEN})")
    assert browser.execute_script("return document.getAnimations().length") == 0


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_tiny_photos_are_shown_at_a_readable_size(site, browser, size):
    base, _ = site
    start(browser, base + "tiny/index.html", size)
    for index, (width, height) in enumerate([(1, 1), (2, 3)]):
        open_tile(browser, index)
        g = browser.execute_script(GEOMETRY)
        image, stage = g["image"], g["stage"]
        assert max(image["width"], image["height"]) >= 240 - 1, f"{width}x{height} shown at {image}"
        assert abs(image["width"] / image["height"] - width / height) < 0.02, image
        assert image["bottom"] <= stage["bottom"] + 0.5 and image["right"] <= stage["right"] + 0.5, (image, stage)
        browser.execute_script("window.cascadeViewer.close(false)")
        wait_until(browser, f"!({OPEN})")


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_strips_and_panoramas_get_clamped_tiles_and_show_whole_in_the_lightbox(site, browser, size):
    base, out = site
    start(browser, base + "shapes/index.html", size)
    tiles = browser.execute_script(
        "return [...document.querySelectorAll('.wall .tile')].map(t => { const r = t.getBoundingClientRect();"
        " return {ratio: r.height / r.width, fit: getComputedStyle(t.querySelector('img')).objectFit}; })")
    assert abs(tiles[0]["ratio"] - 3) < 0.02, tiles        # 300x9000 is 30:1, shown 3:1
    assert abs(tiles[1]["ratio"] - 1 / 3) < 0.01, tiles    # 12000x400 is 1:30, shown 1:3
    assert abs(tiles[2]["ratio"] - 0.75) < 0.01, tiles     # in range: its own
    assert all(t["fit"] == "cover" for t in tiles), tiles
    frames = browser.execute_script("return window.cascadeViewer.model.ratios.slice(0, 3)")
    assert [round(r, 4) for r in frames] == [3, 0.3333, 0.75], frames
    for index, ratio in [(0, 30), (1, 400 / 12000)]:
        open_tile(browser, index)
        image = browser.execute_script("return document.querySelector('.lightbox-image').getBoundingClientRect().toJSON()")
        assert abs(image["height"] / image["width"] - ratio) / ratio < 0.05, (index, image)
        browser.execute_script("window.cascadeViewer.close(false)")
        wait_until(browser, f"!({OPEN})")


# The script budget (docs/layout.md): every script a page loads before the first click,
# gzipped (gzip -9), at most 14 KB. The lightbox's own script is loaded on the first opening.
SCRIPT_BUDGET = 14_000

# The scripts a page has loaded: its <script> elements' files and inline text, and any script
# fetched since (the resource timing entries).
LOADED_SCRIPTS = """
const files = new Set([...document.scripts].map(s => s.src).filter(Boolean));
performance.getEntriesByType('resource').filter(e => e.initiatorType === 'script' || /\\.m?js(\\?|$)/.test(e.name))
  .forEach(e => files.add(e.name));
return {files: [...files], inline: [...document.scripts].filter(s => !s.src).map(s => s.textContent)};
"""


def test_the_scripts_a_page_loads_before_the_first_click_fit_the_budget(site, browser):
    import gzip
    from urllib.parse import urlsplit
    base, out = site
    start(browser, base + "long/index.html")
    photo_page = browser.execute_script("return document.querySelector('.wall .tile').getAttribute('href')")
    report = []
    for page in ["index.html", "long/index.html", "many/index.html", "many/pages/2.html", "long/" + photo_page]:
        browser.get(base + page)
        wait_until(browser, "document.readyState === 'complete'")
        if browser.execute_script("return !!document.querySelector('.wall[data-frames]')"):
            # The wall is up and has fetched the details of the tiles on the screen: all it
            # loads before anyone clicks. The lightbox's code is not among it.
            wait_until(browser, "window.cascadeViewer && window.cascadeViewer.loading.size === 0")
            assert browser.execute_script("return !window.CascadeViewer.fitSize"), f"{page}: the lightbox's code is loaded before a click"
        loaded = browser.execute_script(LOADED_SCRIPTS)
        assert not [f for f in loaded["files"] if f.endswith("/lightbox.js")], f"{page}: {loaded['files']}"
        sizes = {}
        for url in loaded["files"]:
            assert url.startswith(base), f"{page} loads a script from elsewhere: {url}"
            sizes[urlsplit(url).path] = len(gzip.compress((out / urlsplit(url).path.lstrip("/")).read_bytes(), 9))
        for number, text in enumerate(loaded["inline"]):
            sizes[f"inline script {number}"] = len(gzip.compress(text.encode(), 9))
        total = sum(sizes.values())
        report.append(f"{page}: {total} bytes {sizes}")
        assert total <= SCRIPT_BUDGET, f"{page} loads {total} bytes of script gzipped before a click (budget {SCRIPT_BUDGET}): {sizes}"
    print("\n".join(report))
