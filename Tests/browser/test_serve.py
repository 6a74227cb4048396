"""`cascade serve` in a real browser: the open page reloads by itself after the photos change,
and the reload script is only in what the server sends, never in the written site."""
import os
import pathlib
import shutil
import subprocess
import time
import urllib.request

import pytest
from selenium.webdriver.support.ui import WebDriverWait

from conftest import REPO, free_port


def serving_log(photos):
    """Where the `serving` fixture writes what `cascade serve` prints."""
    return photos.parent / "serve.log"


@pytest.fixture
def serving(tmp_path):
    """`cascade serve` of a copy of the example photos; yields (photo folder, site folder, base URL)."""
    binary = os.environ.get("CASCADE_BIN") or str(REPO / ".build" / "debug" / "cascade")
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        pytest.fail(f"the cascade binary {binary} is missing: run `swift build --product cascade`", pytrace=False)
    photos = tmp_path / "photos"
    shutil.copytree(REPO / "examples" / "photos", photos)  # never write into examples/photos
    out = tmp_path / "site"
    port = free_port()
    log = open(serving_log(photos), "w+")
    process = subprocess.Popen([binary, "serve", str(photos), "--output", str(out), "--port", str(port)],
                               stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 300
        while True:
            if process.poll() is not None:
                log.seek(0)
                pytest.fail(f"cascade serve exited with status {process.returncode}:\n{log.read()}")
            try:
                urllib.request.urlopen(base, timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"cascade serve did not answer on port {port}")
                time.sleep(0.1)
        yield photos, out, base
    finally:
        process.kill()
        process.wait(timeout=10)
        log.close()


def test_the_page_reloads_after_a_photo_is_added(serving, driver):
    photos, out, base = serving
    driver.get(base)
    scripts = driver.execute_script(
        "return [...document.scripts].map(s => s.getAttribute('src') || '')")
    assert "/.cascade/live-reload.js" in scripts
    assert "live-reload.js" not in (out / "index.html").read_text(encoding="utf-8"), \
        "the reload script must never be written into the site"
    assert "lady-bird-again.html" not in driver.page_source

    # A marker that only this load of the page has.
    driver.execute_script("window.__beforeRebuild = true")
    shutil.copyfile(photos / "Lady bird.jpg", photos / "Lady bird again.jpg")

    WebDriverWait(driver, 120, poll_frequency=0.2).until(
        lambda d: d.execute_script(
            "return window.__beforeRebuild === undefined && document.readyState === 'complete'"),
        "the page did not reload after the rebuild")
    assert "lady-bird-again.html" in driver.page_source
    assert (out / "lady-bird-again.html").is_file()


def test_a_changed_cascade_yml_applies_to_the_rebuild_and_a_broken_one_keeps_the_site(serving, driver):
    photos, out, base = serving
    config = photos / "cascade.yml"
    original = config.read_text(encoding="utf-8")
    assert "title: Cascade examples" in original
    driver.get(base)
    assert driver.title == "Cascade examples"

    # A mistake: reported, and the last good site stays served.
    driver.execute_script("window.__beforeRebuild = true")
    config.write_text(original + "colums: 3\n", encoding="utf-8")
    log = serving_log(photos)
    deadline = time.monotonic() + 120
    while "still serving the last good site" not in log.read_text(encoding="utf-8"):
        assert time.monotonic() < deadline, "the broken cascade.yml was not reported:\n" + log.read_text(encoding="utf-8")
        time.sleep(0.2)
    assert "colums" in log.read_text(encoding="utf-8")
    assert urllib.request.urlopen(base, timeout=5).status == 200
    assert driver.execute_script("return window.__beforeRebuild") is True, "the page reloaded without a rebuild"

    # Mended, with a new title: the rebuild uses it and the page reloads with it.
    config.write_text(original.replace("title: Cascade examples", "title: Renamed gallery"), encoding="utf-8")
    WebDriverWait(driver, 120, poll_frequency=0.2).until(
        lambda d: d.execute_script("return window.__beforeRebuild === undefined && document.readyState === 'complete'")
        and d.title == "Renamed gallery",
        "the page did not reload with the new title")
    assert "<title>Renamed gallery</title>" in (out / "index.html").read_text(encoding="utf-8")
