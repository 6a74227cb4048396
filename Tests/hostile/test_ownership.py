"""What is the user's is never lost, and a lost catalog is never wrong (issue 37, items 2-4).

The catalog's path (`--catalog`) at something that is not a catalog, inside the photo folder or
the output folder; damage at any page of a catalog; files of the user's where the site puts its
theme's assets, its pages and its album folders; and builds after the catalog was deleted, which
must go by the site itself (a removed photo's files are deleted, every name stays). Each runs the
real `cascade build`.
"""
import os
import pathlib
import re
import shutil
import sqlite3
import subprocess

import pytest

import corpus
from conftest import cascade, site_entries, site_files

MARK = '<meta name="generator" content="Cascade">'


def digest(path):
    """What a file or folder holds (names and bytes), to compare before and after."""
    path = pathlib.Path(path)
    if path.is_symlink():
        return ("link", os.readlink(path))
    if path.is_dir():
        return ("dir", {p.relative_to(path).as_posix(): digest(p) for p in sorted(path.rglob("*")) if not p.is_dir()})
    if path.exists():
        return ("file", path.read_bytes())
    return None


def photos(source, names):
    for index, name in enumerate(names):
        corpus.save(source, name, corpus.jpeg_bytes(120 + 10 * index, 90))


def site(tmp_path, names=("a.jpg", "b.jpg", "nature/c.jpg")):
    source = tmp_path / "source"
    photos(source, names)
    return source, tmp_path / "out"


def damaged_lines(run):
    return [line for line in run.stderr.splitlines() if "damaged" in line]


# --- the catalog's path -------------------------------------------------------------------------

@pytest.mark.parametrize("what", ["folder", "text-file", "other-sqlite", "photo-in-source", "inside-output",
                                  "inside-output-through-link"])
def test_catalog_path_that_is_not_a_catalog_is_refused_and_left_alone(tmp_path, what):
    """Today a folder `P` is renamed to `P.damaged` (an existing `P.damaged` deleted first), a
    regular file the same, a photo of the source folder is renamed and SQLite written into the
    photo folder, and a catalog inside the output folder is published."""
    source, out = site(tmp_path)
    guarded = []
    if what == "folder":
        catalog = tmp_path / "P"
        (catalog / "deep").mkdir(parents=True)
        (catalog / "deep" / "mine.txt").write_text("my notes")
        (tmp_path / "P.damaged").mkdir()
        (tmp_path / "P.damaged" / "older.txt").write_text("older notes")
        guarded = [catalog, tmp_path / "P.damaged"]
        reason = r"folder"
    elif what == "text-file":
        catalog = tmp_path / "notes.txt"
        catalog.write_text("my notes, not a database\n" * 10)
        guarded = [catalog]
        reason = r"not a SQLite database"
    elif what == "other-sqlite":
        catalog = tmp_path / "places.sqlite"
        with sqlite3.connect(catalog) as db:
            db.execute("CREATE TABLE place (name TEXT)")
            db.execute("INSERT INTO place VALUES ('home')")
        db.close()
        guarded = [catalog]
        reason = r"Cascade"
    elif what == "photo-in-source":
        catalog = source / "nature" / "c.jpg"
        guarded = [source]
        reason = r"inside the photo folder"
    elif what == "inside-output":
        out.mkdir()
        catalog = out / "c.sqlite"
        guarded = [out]
        reason = r"inside the output folder"
    else:
        out.mkdir()
        os.symlink(out, tmp_path / "alias")
        catalog = tmp_path / "alias" / "c.sqlite"
        guarded = [out]
        reason = r"inside the output folder"
    before = {str(p): digest(p) for p in guarded}
    siblings = sorted(p.name for p in catalog.parent.iterdir())
    run = cascade("build", source, "-o", out, "--catalog", catalog)
    assert run.returncode != 0, run.describe()
    assert str(catalog) in run.stderr and re.search(reason, run.stderr), run.describe()
    assert "Fatal error" not in run.stderr, run.describe()
    assert {str(p): digest(p) for p in guarded} == before, "what the catalog's path named was changed"
    assert sorted(p.name for p in catalog.parent.iterdir()) == siblings, "files were added beside it"
    if out.exists():
        assert not any(p.suffix in (".sqlite", ".damaged") or "journal" in p.name for p in out.rglob("*")), site_files(out)


def page_size(path):
    header = pathlib.Path(path).read_bytes()[:100]
    size = int.from_bytes(header[16:18], "big")
    return 65536 if size == 1 else size


@pytest.mark.parametrize("page", ["last", "second", "middle"])
def test_damage_at_any_page_of_the_catalog_sets_it_aside_and_the_build_goes_on(tmp_path, page):
    """Today a catalog whose last page is damaged stops every build with "malformed". The
    damaged catalog is set aside under a new name (an existing `.damaged` of the user's is not
    replaced), the message says where, and the site ends as a clean build's."""
    source, out = site(tmp_path, [f"p{i:02}.jpg" for i in range(40)] + [f"album/q{i:02}.jpg" for i in range(40)])
    catalog = tmp_path / "state" / "catalog.sqlite"
    cascade("build", source, "-o", out, "--catalog", catalog).assert_clean_exit()
    clean = set(site_entries(out))
    (source / "p00.jpg").unlink()  # so that the rebuild has something to do
    size = page_size(catalog)
    pages = catalog.stat().st_size // size
    assert pages >= 4, pages
    number = {"last": pages, "second": 2, "middle": pages // 2 + 1}[page]
    data = bytearray(catalog.read_bytes())
    data[(number - 1) * size:number * size] = bytes([0xA5]) * size
    catalog.write_bytes(bytes(data))
    (tmp_path / "state" / "catalog.sqlite.damaged").write_text("the user's, not to be replaced")
    run = cascade("build", source, "-o", out, "--catalog", catalog)
    run.assert_clean_exit()
    aside = tmp_path / "state" / "catalog.sqlite.damaged-2"
    # (The build may have committed to it before it met the damage: it is whole but for that.)
    kept = aside.read_bytes()
    assert kept.startswith(b"SQLite format 3\0") and bytes([0xA5]) * size in kept, "the damaged catalog was not set aside"
    assert (tmp_path / "state" / "catalog.sqlite.damaged").read_text() == "the user's, not to be replaced"
    lines = damaged_lines(run)
    assert len(lines) == 1 and str(aside) in lines[0], run.describe()
    # The site is a clean build's: the removed photo's files gone, every other name kept.
    assert set(site_entries(out)) == {p for p in clean if not re.match(r"(p00\.html|thumbs/p00-\d+\.\w+)$", p)}
    again = cascade("build", source, "-o", out, "--catalog", catalog)
    again.assert_clean_exit()
    assert not damaged_lines(again), again.describe()


# --- ownership ----------------------------------------------------------------------------------

def test_users_theme_asset_files_are_kept_and_the_theme_uses_the_next_folder(tmp_path):
    """Today the user's `assets/cascade.css`, `viewer.js` and, with a theme that has one,
    `assets/logo.png` are overwritten without a word."""
    source, out = site(tmp_path)
    theme = tmp_path / "theme"
    (theme / "assets").mkdir(parents=True)
    (theme / "assets" / "logo.png").write_bytes(corpus.png16_bytes(8, 8, (10, 20, 30)))
    mine = {"assets/cascade.css": b"body { color: hotpink }", "assets/viewer.js": b"alert('mine')",
            "assets/logo.png": b"my logo"}
    for name, data in mine.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    for attempt in range(2):
        run = cascade("build", source, "-o", out, "--templates", theme)
        run.assert_clean_exit()
        for name, data in mine.items():
            assert (out / name).read_bytes() == data, f"{name} was written over"
        warnings = [line for line in run.stderr.splitlines() if "assets-2" in line]
        assert len(warnings) == 1 and "assets/" in warnings[0], run.describe()
    index = (out / "index.html").read_text()
    assert 'href="assets-2/cascade.css"' in index, index[:2000]
    assert (out / "assets-2" / "cascade.css").read_bytes() != mine["assets/cascade.css"]
    assert (out / "assets-2" / "logo.png").exists() and (out / "nature" / "index.html").read_text().count("../assets-2/") >= 1


def test_users_feed_and_sitemap_are_kept_and_the_site_uses_the_next_names(tmp_path):
    """Today the user's `feed.xml` and `sitemap.xml` are left out of the site (kept, but the
    site has no feed); the site's go to `feed-2.xml` and `sitemap-2.xml`, and the pages link
    the feed there."""
    source, out = site(tmp_path)
    (source / "cascade.yml").write_text("base_url: https://example.org/\n")
    out.mkdir()
    mine = {"feed.xml": "<feed>my own</feed>", "sitemap.xml": "<urlset>my own</urlset>"}
    for name, text in mine.items():
        (out / name).write_text(text)
    for attempt in range(2):
        run = cascade("build", source, "-o", out)
        run.assert_clean_exit()
        for name, text in mine.items():
            assert (out / name).read_text() == text
        assert "feed-2.xml" in run.stderr and "sitemap-2.xml" in run.stderr, run.describe()
    assert "<entry>" in (out / "feed-2.xml").read_text() or "<feed" in (out / "feed-2.xml").read_text()
    assert "<loc>https://example.org/a.html</loc>" in (out / "sitemap-2.xml").read_text()
    assert 'href="https://example.org/feed-2.xml"' in (out / "index.html").read_text()


def test_users_page_at_a_removed_photos_address_is_kept(tmp_path):
    """Today a page of the user's written where a removed photo's page was is deleted as stale."""
    source, out = site(tmp_path)
    cascade("build", source, "-o", out).assert_clean_exit()
    assert MARK in (out / "a.html").read_text()
    (source / "a.jpg").unlink()
    (out / "a.html").write_text("<p>my page about a</p>")
    run = cascade("build", source, "-o", out)
    run.assert_clean_exit()
    assert (out / "a.html").read_text() == "<p>my page about a</p>", run.describe()
    assert "a.html" in run.stderr, run.describe()
    assert not list((out / "thumbs").glob("a-*")), "the removed photo's images stay"
    # Once kept, it is the user's: later builds leave it alone without a word.
    again = cascade("build", source, "-o", out)
    again.assert_clean_exit()
    assert (out / "a.html").read_text() == "<p>my page about a</p>" and "a.html" not in again.stderr


@pytest.mark.parametrize("what", ["file", "link", "file-as-thumbs"])
def test_users_file_named_like_an_album_folder_moves_the_album(tmp_path, what):
    """Today a file of the user's at `OUT/nature` fails every build ("NSCocoaErrorDomain error
    512") with part of the site written."""
    source, out = site(tmp_path)
    out.mkdir()
    if what == "file":
        (out / "nature").write_text("my nature notes")
        blocker = out / "nature"
    elif what == "link":
        (tmp_path / "elsewhere").mkdir()
        os.symlink(tmp_path / "elsewhere", out / "nature")
        blocker = out / "nature"
    else:
        (out / "nature").mkdir()
        (out / "nature" / "thumbs").write_text("not a folder")
        blocker = out / "nature" / "thumbs"
    before = digest(blocker)
    for attempt in range(2):
        run = cascade("build", source, "-o", out)
        run.assert_clean_exit()
        assert digest(blocker) == before
        assert "nature-2/" in run.stderr and "nature" in run.stderr, run.describe()
    assert MARK in (out / "nature-2" / "index.html").read_text()
    assert (out / "nature-2" / "c.html").exists() and list((out / "nature-2" / "thumbs").glob("c-*"))
    assert 'href="nature-2/index.html"' in (out / "index.html").read_text()
    if what == "link":
        assert not any((tmp_path / "elsewhere").iterdir()), "the build wrote through the user's link"


# --- without a catalog --------------------------------------------------------------------------

USER_FILES = {"CNAME": "photos.example.org\n", "about.html": "<p>about me</p>", "thumbs/my-own.txt": "mine",
              "nature/notes.html": "<p>notes</p>", "nature/thumbs/c-9999.jpg": "mine, named like an image"}


def test_without_its_catalog_a_removed_photo_is_removed_and_names_stay(tmp_path):
    """Today, once the catalog is deleted, a removed photo's page and images stay published for
    good. The rebuild goes by the site itself, and leaves the user's files alone."""
    source, out = site(tmp_path, ["a.jpg", "b.jpg", "nature/c.jpg", "nature/d.jpg"])
    catalog = tmp_path / "catalog.sqlite"
    # Every kind of file: a feed and a sitemap, originals, two formats, tag pages (one tag only
    # on a photo that goes).
    (source / "cascade.yml").write_text("base_url: https://example.org/\ndownload_originals: true\nformats: [jpeg, webp]\n")
    for name, tags in [("b", ["kept"]), ("nature/c", ["kept"]), ("nature/d", ["kept", "gone"])]:
        (source / f"{name}.xmp").write_text(corpus.XMP_HEAD + "<dc:subject><rdf:Bag>" + "".join(f"<rdf:li>{t}</rdf:li>" for t in tags)
                                            + "</rdf:Bag></dc:subject>" + corpus.XMP_TAIL)
    cascade("build", source, "-o", out, "--catalog", catalog).assert_clean_exit()
    kinds = set(site_entries(out))
    assert {"sitemap.xml", "feed.xml", "originals/a.jpg", "thumbs/a-120.webp"} <= kinds, sorted(kinds)
    assert any(p.startswith("tags/gone") for p in kinds) and any(p.startswith("tags/kept") for p in kinds), sorted(kinds)
    for name, text in USER_FILES.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(text)
    built = set(site_entries(out))
    catalog.unlink()
    (source / "a.jpg").unlink()
    (source / "nature" / "d.jpg").unlink()
    (source / "nature" / "d.xmp").unlink()
    run = cascade("build", source, "-o", out, "--catalog", catalog)
    run.assert_clean_exit()
    gone = {p for p in built if re.match(r"(a\.html|(thumbs|originals)/a[-.][\w.]+|nature/d\.html|nature/(thumbs|originals)/d[-.][\w.]+"
                                         r"|tags/gone.*)$", p)}
    assert len(gone) >= 10, sorted(built)
    assert set(site_entries(out)) == built - gone, run.describe()
    assert "not Cascade's" not in run.stderr, run.describe()
    for name, text in USER_FILES.items():
        assert (out / name).read_text() == text, f"{name} was changed or removed"
    assert "-2" not in "".join(site_entries(out)), "a photo changed its name"


needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None or shutil.which("ffprobe") is None,
                                  reason="needs ffmpeg and ffprobe (scripts/setup installs them)")


@needs_ffmpeg
def test_without_its_catalog_videos_keep_their_names(tmp_path):
    """Today every video is renamed `v1-2` once the catalog is gone, its old files orphaned."""
    source, out = site(tmp_path, ["a.jpg"])
    for name, colour in [("v1.mp4", "red"), ("trips/v2.mp4", "blue")]:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", f"color=c={colour}:size=160x120:rate=10",
                        "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", str(source / name)], check=True, timeout=120)
    catalog = tmp_path / "catalog.sqlite"
    cascade("build", source, "-o", out, "--catalog", catalog, timeout=600).assert_clean_exit()
    built = set(site_entries(out))
    assert {"videos/v1.mp4", "trips/videos/v2.mp4"} <= built, sorted(built)
    catalog.unlink()
    run = cascade("build", source, "-o", out, "--catalog", catalog, timeout=600)
    run.assert_clean_exit()
    assert set(site_entries(out)) == built, run.describe()
    assert "not Cascade's" not in run.stderr, run.describe()
