"""Videos in a real browser: clips made here with ffmpeg's lavfi sources (an H.264/AAC MP4 that is
remuxed, a rotated HEVC clip and a VP9 WebM that are transcoded) play on their own pages and in the
lightbox of headless Chromium (`currentTime` advances), their tiles show the duration, and with
scripts off a video's tile leads to its page, which plays it."""
import os
import shutil
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import CHROMEDRIVER, REPO, serve
from test_viewer import LIGHTBOX_OPEN, wait_for_viewer, wait_until

pytestmark = pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not installed (scripts/setup installs it)")


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *arguments], check=True, timeout=300)


@pytest.fixture(scope="module")
def video_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("video")
    photos = root / "photos" / "Trip"
    photos.mkdir(parents=True)
    source = ["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-f", "lavfi", "-i", "sine=frequency=440", "-t", "4"]
    ffmpeg(*source, "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", str(photos / "a-land.mp4"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=480x270:rate=30", "-t", "4", "-c:v", "libx265", "-pix_fmt", "yuv420p",
           str(root / "stored.mov"))
    ffmpeg("-i", str(root / "stored.mov"), "-c", "copy", "-metadata:s:v:0", "rotate=90", str(photos / "b-portrait.mov"))
    ffmpeg(*source, "-c:v", "libvpx-vp9", "-deadline", "realtime", "-c:a", "libopus", str(photos / "c-vp9.webm"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=800x600", "-frames:v", "1", str(photos / "d-photo.jpg"))
    # A Live Photo: the photo and its short clip (with sound, which the site leaves out).
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x480", "-frames:v", "1", str(photos / "e-live.jpg"))
    ffmpeg("-f", "lavfi", "-i", "testsrc2=size=640x480:rate=30", "-f", "lavfi", "-i", "sine", "-t", "2.5",
           "-c:v", "libx265", "-pix_fmt", "yuv420p", "-c:a", "aac", str(photos / "e-live.mov"))
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(root / "photos"), "--output", str(out), "--quiet", "--sort", "name"],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    with serve(out) as base:
        yield base + "trip/"


@pytest.fixture(scope="module")
def player():
    """Headless Chromium that lets a test call play() without a click."""
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--autoplay-policy=no-user-gesture-required", "--mute-audio"]:
        options.add_argument(argument)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    d.set_window_size(1200, 900)
    yield d
    d.quit()


PLAY = """
const done = arguments[arguments.length - 1], v = document.querySelector(arguments[0]);
v.muted = true;
v.play().then(() => {
  const start = performance.now();
  (function wait() {
    if (v.currentTime > 0.5) done({ok: true, time: v.currentTime, state: v.readyState, width: v.videoWidth, height: v.videoHeight});
    else if (performance.now() - start > 8000) done({ok: false, time: v.currentTime, state: v.readyState, error: v.error && v.error.code});
    else setTimeout(wait, 50);
  })();
}, e => done({ok: false, error: String(e)}));
"""


@pytest.mark.parametrize("name, width, height", [("a-land", 640, 360), ("b-portrait", 270, 480), ("c-vp9", 640, 360)])
def test_video_page_plays(video_site, player, name, width, height):
    player.get(video_site + name + ".html")
    video = player.find_element(By.CSS_SELECTOR, "video.photo-video")
    for attribute in ["controls", "playsinline"]:
        assert video.get_attribute(attribute) is not None
    assert video.get_attribute("preload") == "metadata"
    assert video.get_attribute("poster").endswith(".jpg")
    player.set_script_timeout(15)
    result = player.execute_async_script(PLAY, "video.photo-video")
    assert result["ok"], result
    # Shown upright at its display size (the portrait clip was stored as a turned landscape).
    assert (result["width"], result["height"]) == (width, height)


def test_lightbox_plays_video_and_stops_it_on_the_next_photo(video_site, player):
    player.get(video_site)
    wait_for_viewer(player)
    tiles = player.find_elements(By.CSS_SELECTOR, ".wall .tile")
    # The Live Photo's tile is marked (is-live: its LIVE mark and name).
    assert [t.get_attribute("class") for t in tiles] == ["tile is-video"] * 3 + ["tile", "tile is-live"]
    assert tiles[0].find_element(By.CSS_SELECTOR, ".tile-duration").text.endswith("0:04")
    tiles[0].click()
    wait_until(player, LIGHTBOX_OPEN)
    wait_until(player, "document.querySelector('.lb-video') && !document.querySelector('.lb-video').hidden")
    assert player.execute_script("return document.querySelector('.lb-video').src").endswith("/trip/videos/a-land.mp4")
    player.set_script_timeout(15)
    result = player.execute_async_script(PLAY, ".lb-video")
    assert result["ok"], result
    # The keyboard: Space pauses it, and the next item (the HEVC clip, transcoded) plays in turn.
    player.find_element(By.CSS_SELECTOR, ".lightbox").send_keys(" ")
    wait_until(player, "document.querySelector('.lb-video').paused")
    player.find_element(By.CSS_SELECTOR, ".lightbox").send_keys(Keys.ARROW_RIGHT)
    wait_until(player, "document.querySelector('.lb-video').src.endsWith('/trip/videos/b-portrait.mp4')")
    result = player.execute_async_script(PLAY, ".lb-video")
    assert result["ok"], result
    # A photo: the video is gone, nothing plays.
    player.find_element(By.CSS_SELECTOR, ".lightbox").send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT)
    wait_until(player, "document.querySelector('.lb-counter').textContent === '4 / 5'")
    wait_until(player, "document.querySelector('.lb-video').hidden")
    assert player.execute_script("const v = document.querySelector('.lb-video'); return v.paused && !v.getAttribute('src')")
    player.find_element(By.CSS_SELECTOR, ".lightbox").send_keys(Keys.ESCAPE)
    wait_until(player, "document.querySelector('.lightbox').hidden")


def test_without_scripts_the_tile_leads_to_the_page_that_plays_it(video_site, driver_nojs):
    driver_nojs.get(video_site)
    tile = driver_nojs.find_element(By.CSS_SELECTOR, ".wall .tile.is-video")
    assert tile.get_attribute("href").endswith("/trip/a-land.html")
    assert tile.find_element(By.CSS_SELECTOR, ".tile-duration").is_displayed()
    tile.click()
    video = driver_nojs.find_element(By.CSS_SELECTOR, "video.photo-video")
    assert video.get_attribute("src").endswith("/trip/videos/a-land.mp4")
    assert video.get_attribute("controls") is not None


def test_live_photo_is_one_tile_and_plays_its_motion_muted_from_the_live_mark(video_site, player):
    player.get(video_site)
    wait_for_viewer(player)
    hrefs = [t.get_attribute("href") for t in player.find_elements(By.CSS_SELECTOR, ".wall .tile")]
    assert [h for h in hrefs if "e-live" in h] == [video_site + "e-live.html"]
    player.find_elements(By.CSS_SELECTOR, ".wall .tile")[4].click()
    wait_until(player, LIGHTBOX_OPEN)
    wait_until(player, "!document.querySelector('.lb-live').hidden")
    assert player.execute_script("return document.querySelector('.lb-video') === null || document.querySelector('.lb-video').hidden")
    player.find_element(By.CSS_SELECTOR, ".lb-live").click()
    wait_until(player, "!document.querySelector('.lb-motion').hidden && document.querySelector('.lb-motion').currentTime > 0.5")
    state = player.execute_script(
        "const m = document.querySelector('.lb-motion'); return [m.muted, m.src, m.videoWidth, m.videoHeight]")
    assert state == [True, video_site + "videos/e-live.live.mp4", 640, 480]
    # It ends by itself, and the photo shows again; the previous item hides the mark.
    wait_until(player, "document.querySelector('.lb-motion').hidden", seconds=10)
    player.find_element(By.CSS_SELECTOR, ".lightbox").send_keys(Keys.ARROW_LEFT)
    wait_until(player, "document.querySelector('.lb-live').hidden")
