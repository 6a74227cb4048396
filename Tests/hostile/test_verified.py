"""Verified files (issue 37, item 5): what `cascade build` takes from a sharded build's store is
checked against the hashes and values the store recorded, `cascade store info` and
`cascade store gc --verify` find damage by hashing, and a file of the site changed in place is
made again by the next build, with or without another change.
"""
import json
import os
import pathlib
import re

import pytest
from PIL import Image

from conftest import cascade


def make_photos(folder, count=4, size=(700, 500)):
    """`count` JPEG photos of the same dimensions and different colours, in one album."""
    for index in range(count):
        image = Image.new("RGB", size, (40 * index, 120, 200 - 30 * index))
        for x in range(0, size[0], 50):
            image.paste((255, 255 - 40 * index, 0), (x, 0, x + 10, size[1]))
        (folder / "album").mkdir(parents=True, exist_ok=True)
        image.save(folder / "album" / f"photo-{index}.jpg", quality=88)


def site_bytes(root):
    """{relative path: bytes} of every file of the site."""
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


def entries(store):
    """The store's entry folders."""
    return sorted(path for path in (store / "objects").glob("*/*") if path.is_dir())


def build(source, output, *extra):
    run = cascade("build", source, "-o", output, "--catalog", str(output) + ".sqlite", *extra)
    run.assert_clean_exit()
    return run


@pytest.fixture
def sharded(tmp_path):
    source, store = tmp_path / "photos", tmp_path / "store"
    make_photos(source)
    build(source, tmp_path / "plain")
    for index in range(2):
        cascade("build", source, "--shard", f"{index}/2", "--store", store).assert_clean_exit()
    assert len(entries(store)) == 4
    return tmp_path, source, store


def store_info(store):
    run = cascade("store", "info", "--store", store)
    run.assert_clean_exit()
    found = re.search(r"; (\d+) damaged", run.stdout)
    return int(found.group(1)) if found else 0, run.stdout


def test_swapped_store_entries_are_damaged_and_each_photo_gets_its_own_images(sharded):
    tmp_path, source, store = sharded
    one, two = entries(store)[:2]
    one.rename(one.with_name("aside"))
    two.rename(one)
    one.with_name("aside").rename(two)
    damaged, said = store_info(store)
    assert damaged == 2, said
    run = build(source, tmp_path / "site", "--store", store)
    assert len(re.findall(r"are damaged", run.stderr)) == 2, run.describe()
    assert site_bytes(tmp_path / "site") == site_bytes(tmp_path / "plain")
    assert store_info(store)[0] == 0


def test_same_size_byte_flip_is_remade_and_reported(sharded):
    tmp_path, source, store = sharded
    image = sorted(entries(store)[0].glob("*.jpg"))[0]
    data = bytearray(image.read_bytes())
    data[len(data) // 2] ^= 0x40
    with open(image, "r+b") as file:  # in place: the same size, the same inode
        file.write(data)
    assert store_info(store)[0] == 1
    gc = cascade("store", "gc", "--store", store, "--keep", tmp_path / "plain", "--verify")
    # `plain` never used the store: gc refuses, and removes nothing.
    assert gc.returncode != 0 and store_info(store)[0] == 1
    run = build(source, tmp_path / "site", "--store", store)
    assert "are damaged" in run.stderr, run.describe()
    assert site_bytes(tmp_path / "site") == site_bytes(tmp_path / "plain")
    assert store_info(store)[0] == 0


@pytest.mark.parametrize("field,value", [
    ("width", 0), ("width", -5), ("width", 2 ** 63 - 1), ("height", 0),
    ("color", "url(https://example.com/track)"), ("color", "red;background:url(x)"),
])
def test_impossible_values_in_images_json_never_reach_the_site(sharded, field, value):
    tmp_path, source, store = sharded
    manifest = entries(store)[0] / "images.json"
    values = json.loads(manifest.read_text())
    values[field] = value
    manifest.write_text(json.dumps(values))
    assert store_info(store)[0] == 1
    run = build(source, tmp_path / "site", "--store", store)
    assert "are damaged" in run.stderr, run.describe()
    site = site_bytes(tmp_path / "site")
    assert site == site_bytes(tmp_path / "plain")
    assert not any(b"url(https://example.com" in data or b"background:url(x)" in data for data in site.values())


def test_gc_verify_removes_damaged_entries_of_a_kept_site(sharded):
    tmp_path, source, store = sharded
    build(source, tmp_path / "site", "--store", store)
    image = sorted(entries(store)[1].glob("*.jpg"))[0]
    data = bytearray(image.read_bytes())
    data[-3] ^= 0x01
    with open(image, "r+b") as file:
        file.write(data)
    plain = cascade("store", "gc", "--store", store, "--keep", tmp_path / "site")
    plain.assert_clean_exit()
    assert store_info(store)[0] == 1
    verified = cascade("store", "gc", "--store", store, "--keep", tmp_path / "site", "--verify")
    verified.assert_clean_exit()
    assert "1 damaged" in verified.stdout, verified.stdout
    assert store_info(store)[0] == 0 and len(entries(store)) == 3


@pytest.mark.parametrize("change", ["truncate a thumbnail", "edit a page", "both, and change a setting"])
def test_a_site_file_changed_in_place_is_made_again(tmp_path, change):
    source, site = tmp_path / "photos", tmp_path / "site"
    make_photos(source, count=3)
    build(source, site)
    again = build(source, site)
    assert "up to date" in again.stdout + again.stderr, again.describe()
    thumbnail = sorted(site.glob("album/thumbs/*.jpg"))[0]
    page = sorted(site.glob("album/photo-*.html"))[0]
    extra = []
    if change in ("truncate a thumbnail", "both, and change a setting"):
        os.truncate(thumbnail, 100)
    if change in ("edit a page", "both, and change a setting"):
        data = bytearray(page.read_bytes())
        # (A change in the same tick of the clock as the build that wrote it would keep its
        # times: wait until the clock has moved on from the page's last change.)
        before = os.stat(page).st_ctime_ns
        probe = tmp_path / "probe"
        while True:
            probe.write_bytes(b"")
            if os.stat(probe).st_ctime_ns > before:
                break
        data[:4] = b"XXXX"
        with open(page, "r+b") as file:
            file.write(data)
    if change == "both, and change a setting":
        extra = ["--title", "Another title"]
    run = build(source, site, *extra)
    assert "made again" in run.stderr, run.describe()
    clean = tmp_path / "clean"
    build(source, clean, *extra)
    assert site_bytes(site) == site_bytes(clean)


def test_a_shards_summary_says_how_many_sidecars_it_read(tmp_path):
    """Every shard takes every XMP sidecar; a shard run again reads only those that changed,
    and its summary line says so."""
    source, store = tmp_path / "photos", tmp_path / "store"
    make_photos(source, count=3)
    rating = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
              '<rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="{}"/></rdf:RDF></x:xmpmeta>')
    for index in range(2):
        (source / "album" / f"photo-{index}.xmp").write_text(rating.format(index + 3))

    def summary():
        run = cascade("build", source, "--shard", "0/1", "--store", store)
        run.assert_clean_exit()
        return next(line for line in run.stdout.splitlines() if line.startswith("Shard ") and " into " in line)

    assert "2 of 2 sidecars read" in summary()
    assert "0 of 2 sidecars read" in summary()
    (source / "album" / "photo-1.xmp").write_text(rating.format(1))
    assert "1 of 2 sidecars read" in summary()
