"""Tag pages and photo metadata in a real browser: a site whose photos carry keywords (XMP
sidecars, flat and hierarchical) across albums, one of them hidden. Each tag page is a waterfall
like an album's: tiles never overlap at any width, scripts on or off, and every tile (static or
bound by the viewer) links to and shows exactly the photos that carry the tag; the lightbox
opens them from the tag page. The list of tags counts them. The lightbox of a photo with EXIF
camera settings and an XMP title shows both."""
import json
import os
import pathlib
import random
import subprocess
import urllib.parse

import pytest

import framedata
from conftest import REPO, make_driver, serve
from photo_factory import png
from test_layout import layout_problems, measure
from test_viewer import LIGHTBOX_OPEN, wait_until

ALBUMS = {"Trip": 30, "Home": 25, "Secret": 6}
WIDTHS = [360, 768, 1280, 2560]

SIDECAR = """<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:lr="http://ns.adobe.com/lightroom/1.0/">
<dc:subject><rdf:Bag>{subject}</rdf:Bag></dc:subject>
<lr:hierarchicalSubject><rdf:Bag>{hierarchical}</rdf:Bag></lr:hierarchicalSubject>
</rdf:Description></rdf:RDF></x:xmpmeta>"""


def li(values):
    return "".join(f"<rdf:li>{v}</rdf:li>" for v in values)


@pytest.fixture(scope="module")
def tagged(tmp_path_factory):
    """Builds the site; yields (base URL, output folder, {tag slug: set of photo page paths})."""
    root = tmp_path_factory.mktemp("tags")
    photos = root / "photos"
    rng = random.Random(15)
    expected = {"beach": set(), "paris": set()}
    for album, count in ALBUMS.items():
        folder = photos / album
        folder.mkdir(parents=True)
        for i in range(count):
            width = rng.randint(40, 160)
            height = int(width * rng.choice([0.5, 0.75, 1.0, 1.5, 2.5]))
            color = (rng.randint(30, 230), rng.randint(30, 230), rng.randint(30, 230))
            name = f"p{i:03d}"
            (folder / f"{name}.png").write_bytes(png(width, height, color))
            subject, hierarchical = [], []
            if i % 2 == 0:
                subject.append("beach" if i % 4 == 0 else "Beach")
            if i % 3 == 0:
                hierarchical.append("Places|France|Paris")
                subject += ["Places", "France", "Paris"]
            if subject or hierarchical:
                (folder / f"{name}.xmp").write_text(SIDECAR.format(subject=li(subject), hierarchical=li(hierarchical)))
            if album != "Secret":
                page = f"{album.lower()}/{name}.html"
                if i % 2 == 0:
                    expected["beach"].add(page)
                if i % 3 == 0:
                    expected["paris"].add(page)
    (photos / "Secret" / "index.md").write_text("---\nhidden: true\n---\n")
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(photos), "--output", str(out), "--quiet"],
                            capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stderr
    with serve(out) as base:
        yield base, out, expected


def page_path(base, url):
    """The site-relative path of an absolute URL of the site."""
    return urllib.parse.unquote(url[len(base):])


@pytest.mark.parametrize("javascript", [True, False], ids=["scripts-on", "scripts-off"])
def test_tag_pages_never_overlap(tagged, javascript):
    base, out, expected = tagged
    driver = make_driver(javascript=javascript)
    try:
        failures = []
        for slug, pages in expected.items():
            for width in WIDTHS:
                m = measure(driver, f"{base}tags/{slug}/index.html", width, javascript)
                failures += [f"tags/{slug} at {width} px: {p}" for p in layout_problems(m, width, len(pages))]
        assert not failures, "\n".join(failures[:40])
    finally:
        driver.quit()


TILES = """
return [...document.querySelectorAll('.wall a.tile')].map(t => ({
  index: +t.dataset.index, href: t.href, img: t.querySelector('img').currentSrc || t.querySelector('img').src}));
"""


@pytest.mark.parametrize("javascript", [True, False], ids=["scripts-on", "scripts-off"])
def test_tiles_link_to_and_show_the_right_photos(tagged, javascript):
    base, out, expected = tagged
    driver = make_driver(javascript=javascript)
    try:
        driver.set_window_size(1280, 4000)  # every tile on screen: the viewer keeps them all
        for slug, pages in expected.items():
            frames = framedata.load(out / "tags" / slug / "frames.json")
            assert frames["count"] == len(pages)
            assert {page_path(base, urllib.parse.urljoin(f"{base}tags/{slug}/", item["page"])) for item in frames["items"]} == pages
            driver.get(f"{base}tags/{slug}/index.html")
            if javascript:
                wait_until(driver, "window.cascadeViewer")
            tiles = driver.execute_script(TILES)
            assert len(tiles) == len(pages), f"{slug}: {len(tiles)} tiles for {len(pages)} photos"
            linked = set()
            for tile in tiles:
                page = page_path(base, tile["href"])
                linked.add(page)
                # The tile's image is one of that photo's own thumbnails, in its album's folder.
                album, name = page.rsplit("/", 1)
                assert page_path(base, tile["img"]).startswith(f"{album}/thumbs/{name[:-5]}-"), (slug, page, tile["img"])
            assert linked == pages, f"{slug}: tiles link to {sorted(linked ^ pages)} wrongly"
    finally:
        driver.quit()


def test_lightbox_opens_photos_from_a_tag_page(tagged):
    base, out, expected = tagged
    driver = make_driver()
    try:
        driver.set_window_size(1280, 900)
        driver.get(f"{base}tags/paris/index.html")
        wait_until(driver, "window.cascadeViewer")
        frames = framedata.load(out / "tags" / "paris" / "frames.json")
        for index in (0, len(frames["items"]) - 1):
            driver.execute_script(f"document.querySelector('.wall .tile[data-index=\"{index}\"]').click()")
            wait_until(driver, LIGHTBOX_OPEN)
            wait_until(driver, "document.querySelector('.lightbox-image').classList.contains('is-loaded')")
            page = page_path(base, driver.current_url)
            assert page in expected["paris"], page
            src = page_path(base, driver.execute_script("return document.querySelector('.lightbox-image').currentSrc"))
            album, name = page.rsplit("/", 1)
            assert src.startswith(f"{album}/thumbs/{name[:-5]}-"), (page, src)
            driver.back()
            wait_until(driver, "document.querySelector('.lightbox').hidden")
    finally:
        driver.quit()


def test_tag_list_counts_and_hidden_albums(tagged):
    base, out, expected = tagged
    text = (out / "tags" / "index.html").read_text()
    for slug, pages in expected.items():
        assert f'href="{slug}/index.html" rel="tag"' in text
        assert f'href="{slug}/index.html" rel="tag">' in text and f'<span class="tag-count">{len(pages)}</span>' in text
    assert "Places" not in text and "France" not in text
    beach = (out / "tags" / "beach" / "index.html").read_text()
    assert "secret/" not in beach


@pytest.fixture(scope="module")
def camera_site(tmp_path_factory):
    from PIL import Image
    root = tmp_path_factory.mktemp("camera")
    photos = root / "photos"
    photos.mkdir()
    for name in ("a", "b"):
        Image.new("RGB", (300, 200), (40, 120, 200)).save(photos / f"{name}.jpg", quality=80)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-Make=NIKON CORPORATION", "-Model=NIKON D850",
                    "-FNumber=4", "-ExposureTime=1/1000", "-ISO=200", "-FocalLength=35",
                    "-XMP-dc:Title=Harbour <at> dawn", "-XMP-dc:Description=Boats & gulls", str(photos / "a.jpg")], check=True)
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(photos), "--output", str(out), "--quiet", "--sort", "name"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    with serve(out) as base:
        yield base


def test_lightbox_shows_title_and_camera_settings(camera_site):
    driver = make_driver()
    try:
        driver.set_window_size(1280, 900)
        driver.get(camera_site + "index.html")
        wait_until(driver, "window.cascadeViewer")
        driver.execute_script("document.querySelector('.wall .tile[data-index=\"0\"]').click()")
        wait_until(driver, LIGHTBOX_OPEN)
        shown = driver.execute_script("""const box = document.querySelector('.lightbox');
            return [box.querySelector('.lb-title').textContent, box.querySelector('.lb-text').textContent,
                    box.querySelector('.lb-camera').textContent, box.getAttribute('aria-label')];""")
        assert shown == ["Harbour <at> dawn", "Boats & gulls", "NIKON D850 · 35 mm · f/4 · 1/1000 s · ISO 200",
                         "Harbour <at> dawn"]
        driver.execute_script("document.querySelector('.lb-next').click()")
        wait_until(driver, "document.querySelector('.lb-counter').textContent.startsWith('2')")
        assert driver.execute_script("return document.querySelector('.lb-camera').textContent") == ""
        assert driver.execute_script("return document.querySelector('.lb-title').textContent") == ""
    finally:
        driver.quit()


REGION = ("-XMP-mwg-rs:RegionInfo={{AppliedToDimensions={{W=300,H=200,Unit=pixel}},RegionList=["
          "{{Area={{W=0.1,H=0.1,X=0.4,Y=0.4,Unit=normalized}},Name={name},Type=Face}}]}}")


@pytest.fixture(scope="module")
def people_site(tmp_path_factory):
    """A site whose photos name people (MWG regions) and places (IPTC/XMP) and carry credits."""
    from PIL import Image
    root = tmp_path_factory.mktemp("people")
    photos = root / "photos"
    (photos / "Trip").mkdir(parents=True)
    for i, (person, city) in enumerate([("Ana Lima", "Porto"), ("Bo Chen", "Porto"), ("Ana Lima", "Lisboa")]):
        path = photos / "Trip" / f"p{i}.jpg"
        Image.new("RGB", (300, 200), (40 + 60 * i, 120, 200)).save(path, quality=80)
        subprocess.run(["exiftool", "-q", "-overwrite_original", REGION.format(name=person),
                        f"-XMP-photoshop:City={city}", "-XMP-photoshop:Country=Portugal",
                        "-EXIF:Artist=Jürgen Müller", "-EXIF:Copyright=© 2024 Jürgen Müller",
                        f"-EXIF:DateTimeOriginal=2024:07:0{i + 1} 10:00:00", str(path)], check=True)
    binary = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "debug" / "cascade"))
    out = root / "site"
    result = subprocess.run([binary, "build", str(photos), "--output", str(out), "--quiet"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    with serve(out) as base:
        yield base, out


def test_people_and_place_pages_link_their_photos(people_site):
    base, out = people_site
    people = (out / "people" / "index.html").read_text()
    assert 'href="ana-lima/index.html" rel="tag">Ana Lima</a> <span class="tag-count">2</span>' in people
    def ids(folder):
        framedata.load(folder / "frames.json")  # a well-formed wall
        return sorted(json.loads((folder / "frames.json").read_text())["ids"])
    assert ids(out / "people" / "ana-lima") == ["../../trip/p0", "../../trip/p2"]
    assert ids(out / "places" / "porto") == ["../../trip/p0", "../../trip/p1"]
    assert len(ids(out / "places" / "portugal")) == 3


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_on_people_and_place_pages(people_site, scheme):
    from test_lightbox import AXE_RUN, axe_source
    base, out = people_site
    source = axe_source()
    driver = make_driver()
    failures = []
    try:
        driver.set_script_timeout(30)
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        driver.set_window_size(1280, 900)
        for page, lightbox in [("people/index.html", False), ("people/ana-lima/index.html", False),
                               ("places/index.html", False), ("places/porto/index.html", False),
                               ("trip/p0.html", False), ("people/ana-lima/index.html", True)]:
            driver.get(base + page)
            if lightbox:
                wait_until(driver, "window.cascadeViewer")
                driver.execute_script("document.querySelector('.wall .tile[data-index=\"0\"]').click()")
                wait_until(driver, LIGHTBOX_OPEN)
                wait_until(driver, "!document.querySelector('.lightbox').classList.contains('is-gliding')")
                credit = driver.execute_script("return document.querySelector('.lb-credit').textContent")
                assert credit == "By Jürgen Müller · © 2024 Jürgen Müller · With Ana Lima · Porto, Portugal"
            driver.execute_script(source)
            for violation in driver.execute_async_script(AXE_RUN):
                failures.append(f"{page}{' (lightbox)' if lightbox else ''}: {violation}")
    finally:
        driver.quit()
    assert not failures, "\n".join(failures)
