"""Fixtures for the real-browser tests: the example site, built once and served on loopback,
and headless Chromium with and without JavaScript."""
import os
import pathlib
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import pytest

os.environ.setdefault("SE_AVOID_STATS", "true")
os.environ.setdefault("SE_OFFLINE", "true")

from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
WIDTHS = [320, 360, 414, 600, 768, 1000, 1024, 1280, 1440, 1600, 1920, 2560, 3840]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The example gallery built by the cascade binary under test."""
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    if not os.path.exists(binary):
        pytest.fail(f"the cascade binary {binary} is missing: run `swift build` or set CASCADE_BIN")
    out = tmp_path_factory.mktemp("site") / "site"
    result = subprocess.run(
        [binary, "build", str(REPO / "examples" / "photos"), "--output", str(out), "--title", "Cascade examples"],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="session")
def server(site):
    """A static file server for the site on 127.0.0.1; yields its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "-d", str(site)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            urllib.request.urlopen(base, timeout=1)
            break
        except OSError:
            time.sleep(0.05)
    yield base
    process.terminate()
    process.wait(timeout=5)


def make_driver(javascript=True):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--hide-scrollbars"]:
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


@pytest.fixture(scope="session")
def driver():
    d = make_driver(javascript=True)
    yield d
    d.quit()


@pytest.fixture(scope="session")
def driver_nojs():
    d = make_driver(javascript=False)
    yield d
    d.quit()


@pytest.fixture(scope="session")
def album_pages(site):
    """Site-relative, percent-encoded URLs of every album page that has tiles."""
    pages = []
    for path in sorted(site.rglob("index.html")):
        if 'class="tile"' in path.read_text(encoding="utf-8"):
            pages.append(urllib.parse.quote(path.relative_to(site).as_posix()))
    assert pages, "the example site has no album with photos"
    return pages
