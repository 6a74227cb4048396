"""Fixtures for the real-browser tests: the example site, built once by the cascade binary under
test and served on loopback, and headless Chromium with and without JavaScript.

Environment:
  CASCADE_BIN          the cascade binary (default: <repo>/.build/debug/cascade)
  CASCADE_SITE         an already built site to test instead (skips the build)
  CASCADE_SCREENSHOTS  a folder to save screenshots of album pages into
"""
import atexit
import contextlib
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

# The builds these tests run keep their catalogs in a cache folder of their own, removed at the
# end, not in the user's (~/.cache/cascade).
_CACHE = tempfile.mkdtemp(prefix="cascade-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

# Keep Selenium Manager offline and quiet: the driver is given explicitly below.
os.environ["SE_AVOID_STATS"] = "true"
os.environ["SE_OFFLINE"] = "true"

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

import sitecheck  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
CHROMEDRIVER = "/usr/bin/chromedriver"


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The folder of the site under test: CASCADE_SITE, or the example gallery built now."""
    given = os.environ.get("CASCADE_SITE")
    if given:
        folder = pathlib.Path(given).resolve()
        if not (folder / "index.html").is_file():
            pytest.fail(f"CASCADE_SITE={given} has no index.html", pytrace=False)
        return folder
    binary = os.environ.get("CASCADE_BIN") or str(REPO / ".build" / "debug" / "cascade")
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        pytest.fail(f"the cascade binary {binary} is missing: run `swift build --product cascade` "
                    "or set CASCADE_BIN (or CASCADE_SITE to test an already built site)", pytrace=False)
    out = tmp_path_factory.mktemp("cascade") / "site"
    command = [binary, "build", str(REPO / "examples" / "photos"), "--output", str(out)]
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=REPO)
    if result.returncode != 0 or not (out / "index.html").is_file():
        pytest.fail(f"`{' '.join(command)}` failed (exit status {result.returncode}):\n"
                    f"{result.stdout}\n{result.stderr}", pytrace=False)
    print(f"\nbuilt the example site in {time.monotonic() - started:.1f} s: {out}")
    return out


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve(folder):
    """`python3 -m http.server` serving `folder` on 127.0.0.1; yields its base URL (ends in /)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "-d", str(folder)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 15
        while True:
            if process.poll() is not None:
                pytest.fail(f"the HTTP server exited with status {process.returncode}")
            try:
                urllib.request.urlopen(base, timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"the HTTP server on port {port} did not answer")
                time.sleep(0.05)
        yield base
    finally:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def server(site):
    """The site under test served on loopback; yields its base URL (ends in /)."""
    with serve(site) as base:
        yield base


def make_driver(javascript=True):
    if not os.path.exists(CHROMEDRIVER):
        pytest.fail(f"{CHROMEDRIVER} is missing: run scripts/setup --tests "
                    "(apt-get install chromium chromium-driver)", pytrace=False)
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"]:
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture(scope="session")
def driver():
    d = make_driver(javascript=True)
    yield d
    d.quit()


@pytest.fixture(scope="session")
def driver_nojs():
    d = make_driver(javascript=False)
    # Make sure scripts really are off, or the scripts-off tests would prove nothing.
    d.get("data:text/html,<title>off</title><script>document.title='on'</script>")
    assert d.title == "off", "JavaScript is still enabled in the scripts-off browser"
    yield d
    d.quit()


@pytest.fixture(scope="session")
def album_pages(site):
    """Site-relative paths of every album page that has tiles (from walking the site)."""
    pages = [p for p in sitecheck.album_pages(site) if sitecheck.read_page(site / p).tiles]
    assert pages, "the site has no album page with tiles (a.tile inside div.wall)"
    return pages


@pytest.fixture(scope="session")
def screenshots():
    """The folder for screenshots (CASCADE_SCREENSHOTS), or None."""
    folder = os.environ.get("CASCADE_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
    return folder


def pytest_report_header(config):
    lines = [f"chromedriver: {CHROMEDRIVER}" + ("" if os.path.exists(CHROMEDRIVER) else " (missing)")]
    if os.environ.get("CASCADE_SITE"):
        lines.append(f"site under test: CASCADE_SITE={os.environ['CASCADE_SITE']}")
    else:
        lines.append(f"cascade binary: {os.environ.get('CASCADE_BIN') or REPO / '.build/debug/cascade'}")
    chromium = shutil.which("chromium")
    if chromium:
        lines.append(f"chromium: {chromium}")
    return lines
