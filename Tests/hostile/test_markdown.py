"""Hostile Markdown in captions (`NAME.md`) and albums' `index.md`: rendered in linear time, and
nothing in it runs script in a visitor's browser (checked in headless Chromium by whether the
payloads' script ran, on every page and in the lightbox)."""
import os
import pathlib

import pytest

import corpus
from conftest import Serve, cascade

CHROMEDRIVER = "/usr/bin/chromedriver"

# Ink (before cmark-gfm) took over 100 s for 30 `[` (the time doubled with each one) and
# overflowed the stack at 20,000: the limits below are generous for a build of two photos.
BRACKETS_TIMEOUT = 90


def photo(folder, name):
    corpus.save(folder, name, corpus.jpeg_bytes(120, 80))


@pytest.mark.parametrize("count", [30, 20_000])
def test_bracket_captions_render_quickly_without_crashing(tmp_path, count):
    source = tmp_path / "source"
    photo(source, "a.jpg")
    (source / "a.jpg.md").write_text("[" * count)
    photo(source, "Trip/b.jpg")
    (source / "Trip" / "index.md").write_text("---\ntitle: Trip\n---\n" + "![" * count + "\n")
    out = tmp_path / "out"
    run = cascade("build", source, "-o", out, timeout=BRACKETS_TIMEOUT)
    run.assert_clean_exit()
    assert "[" * 30 in (out / "a.html").read_text(), "the brackets are shown as text"
    assert "![" * 30 in (out / "trip" / "index.html").read_text()


def test_table_of_40000_columns_renders_quickly(tmp_path):
    """cmark-gfm 0.29.0.gfm.6's tables take time quadratic in their columns (40,000: over a
    minute); a line of more than 257 `|` (256 columns) turns the table extension off for that text."""
    source = tmp_path / "source"
    photo(source, "a.jpg")
    columns = 40_000
    (source / "a.jpg.md").write_text("|" + "a|" * columns + "\n|" + "-|" * columns + "\n")
    out = tmp_path / "out"
    run = cascade("build", source, "-o", out, timeout=BRACKETS_TIMEOUT)
    run.assert_clean_exit()
    assert "|a|a|a|" in (out / "a.html").read_text(), "shown as text, not as a table"


# Each payload sets window.__pwned if its script runs (on load, or on an image's failed load).
XSS_CAPTIONS = {
    # A reference-style image whose destination holds a quote (Ink: <img src="x"onerror="...">).
    "reference.jpg.md": '![a][r]\n\n[r]: x"onerror="window.__pwned=\'reference\'\n',
    # The outer link of a nested image link, and an inline image, with quotes in their URLs.
    "nested.jpg.md": '[![i](y.png)](x"onmouseover="window.__pwned=\'nested\')'
                     ' ![j](x"onerror="window.__pwned=\'inline\')\n',
    "script.jpg.md": 'a <script>window.__pwned="script"</script> b\n\n<script>\nwindow.__pwned="block"\n</script>\n',
    "events.jpg.md": 'x <img src=x onerror="window.__pwned=\'img\'"> <svg onload="window.__pwned=\'svg\'"></svg>'
                     ' <b onmouseover="window.__pwned=\'b\'">bold</b>\n',
    "iframe.jpg.md": '<iframe srcdoc="<script>parent.__pwned=\'srcdoc\'</script>"></iframe>\n\n'
                     'text <iframe src="javascript:parent.__pwned=\'iframe\'"></iframe>\n',
    "links.jpg.md": '[a](javascript:window.__pwned=1) [b](JaVaScRiPt:window.__pwned=1) [c](<java\tscript:alert(1)>)'
                    ' [d](vbscript:msgbox) [e](data:text/html,<script>alert(1)</script>) [f](file:///etc/passwd)'
                    ' <a href="javascript:window.__pwned=1">raw</a> [g][js]\n\n[js]: javascript:window.__pwned=1\n',
}
XSS_INDEX = ('---\ntitle: Hostile\n---\nAbout <details open ontoggle="window.__pwned=\'details\'">x</details>\n\n'
             '<img src=x onerror="window.__pwned=\'index\'">\n\n![a][r]\n\n[r]: x"onerror="window.__pwned=\'index-ref\'\n')


def make_driver():
    if not os.path.exists(CHROMEDRIVER):
        pytest.fail(f"{CHROMEDRIVER} is missing: run scripts/setup --tests", pytrace=False)
    os.environ.setdefault("SE_AVOID_STATS", "true")
    os.environ.setdefault("SE_OFFLINE", "true")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def wait_until(driver, script, seconds=30):
    """Waits for a state (a JS expression), not for a time: the machine may be loaded."""
    import time
    deadline = time.monotonic() + seconds
    while not driver.execute_script(f"return !!({script})"):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {script} (at {driver.current_url})")
        time.sleep(0.05)


# Every image has finished (loaded or failed, so any onerror has run) and the page has loaded
# (which waits for iframes, so a srcdoc script has run too).
SETTLED = "document.readyState === 'complete' && [...document.images].every(i => i.complete)"

# What must not be in the DOM: script or frames from a caption, an attribute that runs script,
# a link or image to a script URL.
FORBIDDEN_IN_DOM = """
const found = [];
for (const root of document.querySelectorAll('.caption, .album-description, .lb-text')) {
  for (const e of root.querySelectorAll('script, iframe, object, embed, svg, details')) found.push(e.outerHTML);
}
for (const e of document.querySelectorAll('*')) {
  for (const a of e.attributes) {
    const value = a.value.replace(/[\\u0000-\\u0020]/g, '').toLowerCase();
    if (a.name.toLowerCase().startsWith('on')) found.push(e.tagName + ' ' + a.name);
    if (['href', 'src', 'action', 'formaction', 'xlink:href'].includes(a.name.toLowerCase())
        && /^(javascript|vbscript|data:text|file):?/.test(value)) found.push(e.tagName + ' ' + a.name + '=' + a.value);
  }
}
return found;
"""


@pytest.fixture(scope="module")
def xss_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("xss")
    source = root / "source"
    for name, text in XSS_CAPTIONS.items():
        photo(source, "Hostile/" + name.removesuffix(".md"))
        (source / "Hostile" / name).write_text(text)
    (source / "Hostile" / "index.md").write_text(XSS_INDEX)
    out = root / "out"
    run = cascade("build", source, "-o", out, timeout=300)
    run.assert_clean_exit()
    return out


def test_xss_in_markdown_runs_no_script_in_chromium(xss_site):
    pages = sorted(p.relative_to(xss_site).as_posix() for p in pathlib.Path(xss_site).rglob("*.html"))
    assert "hostile/index.html" in pages and "hostile/reference.html" in pages, pages
    driver = make_driver()
    try:
        with Serve(xss_site) as server:
            problems = []
            for page in pages:
                driver.get(server.base + page)
                wait_until(driver, SETTLED)
                for found in driver.execute_script(FORBIDDEN_IN_DOM):
                    problems.append(f"{page}: {found}")
                pwned = driver.execute_script("return window.__pwned")
                if pwned is not None:
                    problems.append(f"{page}: script ran ({pwned})")
            # The lightbox puts each caption's HTML in with innerHTML: open it on every photo.
            driver.get(server.base + "hostile/index.html")
            wait_until(driver, "window.cascadeViewer")
            tiles = driver.execute_script("return document.querySelectorAll('.wall .tile').length")
            assert tiles == len(XSS_CAPTIONS)
            for index in range(tiles):
                driver.execute_script(f"document.querySelector('.wall .tile[data-index=\"{index}\"]').click()")
                wait_until(driver, "document.querySelector('.lightbox') && !document.querySelector('.lightbox').hidden"
                                   " && document.querySelector('.lb-text').innerHTML.length > 0")
                wait_until(driver, SETTLED)
                for found in driver.execute_script(FORBIDDEN_IN_DOM):
                    problems.append(f"lightbox {index}: {found}")
                driver.execute_script("history.back()")
                wait_until(driver, "document.querySelector('.lightbox').hidden")
            pwned = driver.execute_script("return window.__pwned")
            if pwned is not None:
                problems.append(f"lightbox: script ran ({pwned})")
            assert not problems, "\n".join(problems)
    finally:
        driver.quit()


def test_xss_captions_keep_their_text(xss_site):
    """What is dropped is the markup that runs script, not the caption."""
    page = (xss_site / "hostile" / "events.html").read_text()
    assert "<b>bold</b>" not in page and "bold" in page
    assert "a <script>" not in (xss_site / "hostile" / "script.html").read_text()
