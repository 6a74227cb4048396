"""Hostile files (issue 36): manifests named like videos, out-of-range numbers, originals named
like pages, a photo with a huge sparse tail, an XMP in another encoding.

Each case is built by the real `cascade build` (see conftest.py). Run with
`python3 -m pytest -q Tests/hostile/test_hostile_files.py`. The link swap between the scan and
the read is tested deterministically by the unit test SourceFileTests (Swift), not by a race, and
here by a stand-in ffprobe that swaps the album folder at a known point of the scan.
"""
import os
import pathlib
import re
import shutil

import pytest
from PIL import Image

import corpus
from conftest import cascade, frames_items, site_files

needs_ffmpeg = pytest.mark.skipif(shutil.which("ffmpeg") is None or shutil.which("ffprobe") is None,
                                  reason="needs ffmpeg and ffprobe")

def messages(run, kind):
    """[(path, reason)] of the `skipped PATH: REASON` or `warning: PATH: REASON` lines."""
    pattern = r"^skipped (.+?): (.+)$" if kind == "skipped" else r"^warning: (.+?): (.+)$"
    return [m.groups() for m in (re.match(pattern, line) for line in run.stderr.splitlines()) if m]


def reasons(run, kind, path):
    return [reason for p, reason in messages(run, kind) if p == path]


# --- videos: nothing but a known container reaches ffmpeg, and only with its demuxer pinned --------

def make_manifests(source, outside):
    """A DASH manifest and an ffconcat list named .mp4, both naming a video outside the source
    (the list through a link the scan refuses), and a real video beside them."""
    corpus.ffmpeg("-f", "lavfi", "-i", "color=c=green:size=176x144:rate=25", "-t", "1", "-c:v", "libx264",
                  "-pix_fmt", "yuv420p", str(outside / "private.mov"))
    corpus.save(source, "holiday.mp4", f"""<?xml version="1.0" encoding="utf-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT1S" minBufferTime="PT1S"
 profiles="urn:mpeg:dash:profile:isoff-on-demand:2011"><Period><AdaptationSet mimeType="video/mp4">
<Representation id="1" bandwidth="100000" width="176" height="144" codecs="avc1.42c00d">
<BaseURL>{outside / "private.mov"}</BaseURL><SegmentBase/></Representation></AdaptationSet></Period></MPD>
""".encode())
    os.symlink(outside / "private.mov", source / "secret-link.mov")
    corpus.save(source, "list.mp4", b"ffconcat version 1.0\nfile 'secret-link.mov'\n")
    corpus.ffmpeg("-f", "lavfi", "-i", "color=c=0xDC1E28:size=320x240:rate=25", "-t", "1", "-c:v", "libx264",
                  "-pix_fmt", "yuv420p", str(source / "real.mp4"))


@needs_ffmpeg
def test_manifests_named_mp4_publish_nothing_from_outside(tmp_path):
    source, outside, out = tmp_path / "source", tmp_path / "outside", tmp_path / "out"
    source.mkdir()
    outside.mkdir()
    make_manifests(source, outside)
    run = cascade("build", source, "--output", out)
    run.assert_clean_exit()
    for name in ("holiday.mp4", "list.mp4"):
        found = reasons(run, "skipped", name)
        assert found and re.search(r"not a video container", found[0]), f"{name}: {found}\n{run.describe()}"
    assert re.search("outside", reasons(run, "skipped", "secret-link.mov")[0])
    sizes = [(item["width"], item["height"]) for _, item, _, _ in frames_items(out)]
    assert sizes == [(320, 240)], f"only the real video is published: {sizes}"
    # Nothing of the outside video anywhere: no page, poster or web version of the manifests.
    made = [p for p in site_files(out) if re.search(r"holiday|list|secret|private", p)]
    assert not made, made
    videos = [p for p in site_files(out) if p.endswith(".mp4")]
    assert len(videos) == 1, videos


# --- numbers from files: checked, out of range is a warning, never a crash -------------------------

RDF_HEAD = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"')


def xmp_rating(value):
    return (RDF_HEAD + f' xmp:Rating="{value}">' + corpus.XMP_TAIL).encode()


def with_packet(jpeg, packet):
    payload = b"http://ns.adobe.com/xap/1.0/\x00" + packet
    segment = b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload
    return jpeg[:2] + segment + jpeg[2:]


def make_ratings(source):
    corpus.save(source, "sidecar-1e19.jpg", corpus.jpeg_bytes(120, 90, corpus.RED))
    corpus.save(source, "sidecar-1e19.xmp", xmp_rating("1e19"))
    corpus.save(source, "sidecar-minus.jpg", corpus.jpeg_bytes(120, 90, corpus.RED))
    corpus.save(source, "sidecar-minus.xmp", xmp_rating("-1e300"))
    corpus.save(source, "embedded-9.3e18.jpg", with_packet(corpus.jpeg_bytes(120, 90, corpus.GREEN), xmp_rating("9.3e18")))
    exif = Image.Exif()
    exif[0x4746] = 65535
    corpus.save(source, "exif-65535.jpg", corpus.jpeg_bytes(120, 90, corpus.BLUE, exif=exif.tobytes()))
    corpus.save(source, "sidecar-nan.jpg", corpus.jpeg_bytes(120, 90, corpus.RED))
    corpus.save(source, "sidecar-nan.xmp", xmp_rating("nan"))


def test_out_of_range_ratings_are_warnings_and_the_photos_published(tmp_path):
    source, out = tmp_path / "source", tmp_path / "out"
    source.mkdir()
    make_ratings(source)
    run = cascade("build", source, "--output", out)
    run.assert_clean_exit()
    assert not messages(run, "skipped"), run.describe()
    for path, value in [("sidecar-1e19.xmp", "1e19"), ("sidecar-minus.xmp", "-1e300"), ("sidecar-nan.xmp", "nan"),
                        ("embedded-9.3e18.jpg", "9.3e18"), ("exif-65535.jpg", "65535")]:
        found = reasons(run, "warning", path)
        assert any("Rating" in r and value in r and "published without it" in r for r in found), \
            f"{path}: {found}\n{run.describe()}"
    published = sorted(item["alt"] for _, item, _, _ in frames_items(out))
    assert published == ["embedded-9.3e18", "exif-65535", "sidecar-1e19", "sidecar-minus", "sidecar-nan"], published


def rotated_mkv(path, value):
    """A Matroska clip whose video track has the tag `rotate` = `value` (written upper-case by
    ffmpeg's muxer, then renamed in place: ffprobe reports tags as stored)."""
    corpus.ffmpeg("-f", "lavfi", "-i", "color=c=0xDC1E28:size=160x96:rate=25", "-t", "1", "-c:v", "libx264",
                  "-pix_fmt", "yuv420p", "-write_crc32", "0", "-metadata:s:v", f"ROTATE={value}", str(path))
    data = path.read_bytes()
    assert data.count(b"ROTATE") == 1
    path.write_bytes(data.replace(b"ROTATE", b"rotate"))


@needs_ffmpeg
def test_videos_with_non_finite_rotation_published_with_a_warning(tmp_path):
    source, out = tmp_path / "source", tmp_path / "out"
    source.mkdir()
    names = {"nan": "rotate-nan.mkv", "inf": "rotate-inf.mkv", "1e300": "rotate-huge.mkv"}
    for value, name in names.items():
        rotated_mkv(source / name, value)
    run = cascade("build", source, "--output", out)
    run.assert_clean_exit()
    assert not messages(run, "skipped"), run.describe()
    for value, name in names.items():
        found = reasons(run, "warning", name)
        assert any("rotate" in r and value in r for r in found), f"{name}: {found}\n{run.describe()}"
    sizes = sorted((item["alt"], item["width"], item["height"]) for _, item, _, _ in frames_items(out))
    assert sizes == sorted((name.rsplit(".", 1)[0], 160, 96) for name in names.values()), sizes


# --- originals keep their content's extension -----------------------------------------------------

def test_originals_published_under_their_contents_extension(tmp_path):
    source, out = tmp_path / "source", tmp_path / "out"
    source.mkdir()
    (source / "cascade.yml").write_text("download_originals: true\n")
    page = corpus.jpeg_bytes(120, 90, corpus.RED)
    comment = b"<script>alert(document.domain)</script>"
    page = page[:2] + b"\xff\xfe" + (len(comment) + 2).to_bytes(2, "big") + comment + page[2:]
    corpus.save(source, "holiday.html", page)
    corpus.save(source, "drawing.svg", corpus.pil_bytes(Image.new("RGB", (90, 60), corpus.GREEN), "PNG"))
    corpus.save(source, "script.js", corpus.jpeg_bytes(60, 40, corpus.BLUE))
    corpus.save(source, "plain.jpeg", corpus.jpeg_bytes(60, 40, corpus.BLUE))
    run = cascade("build", source, "--output", out)
    run.assert_clean_exit()
    originals = sorted(p for p in site_files(out) if "/originals/" in "/" + p)
    assert originals == ["originals/drawing.png", "originals/holiday.jpg", "originals/plain.jpeg",
                         "originals/script.jpg"], originals
    assert (out / "originals/holiday.jpg").read_bytes() == page
    for path in site_files(out):
        if path.endswith((".html", ".htm", ".svg", ".js", ".xhtml", ".shtml")):
            assert b"alert(document.domain)" not in (out / path).read_bytes(), path


# --- reading files: sizes checked before reading ----------------------------------------------------

def test_photo_with_a_huge_sparse_tail_is_refused_without_reading_it(tmp_path):
    source, out = tmp_path / "source", tmp_path / "out"
    source.mkdir()
    corpus.save(source, "small.jpg", corpus.jpeg_bytes(120, 90, corpus.RED))
    corpus.save(source, "sparse.jpg", corpus.jpeg_bytes(120, 90, corpus.GREEN))
    with open(source / "sparse.jpg", "r+b") as file:
        file.truncate(3 * (1 << 30))  # 3 GiB, nearly all of it a hole: costs no disk
    run = cascade("build", source, "--output", out)
    run.assert_clean_exit()
    found = reasons(run, "skipped", "sparse.jpg")
    assert found and "larger than" in found[0], run.describe()
    assert [item["alt"] for _, item, _, _ in frames_items(out)] == ["small"]
    # Read whole, the file alone would be 3 GiB of memory (6.3 GB was measured before).
    assert run.max_rss_kib < 512 * 1024, f"peak RSS {run.max_rss_kib} KiB"


# --- reading files: the album folder swapped for a link between the scan and the read ---------------

@needs_ffmpeg
def test_album_folder_swapped_for_a_link_after_the_scan_is_refused(tmp_path, monkeypatch):
    source, outside, tools, out = (tmp_path / name for name in ("source", "outside", "tools", "out"))
    for folder in (source / "album", outside, tools):
        folder.mkdir(parents=True)
    corpus.save(source / "album", "holiday.jpg", corpus.jpeg_bytes(120, 90, corpus.RED))
    (source / "album" / "holiday.txt").write_text("Public caption")
    (source / "album" / "index.md").write_text("Public description")
    # What the link leads to: a photo, caption and description of the same names.
    corpus.save(outside, "holiday.jpg", corpus.jpeg_bytes(300, 200, corpus.GREEN))
    (outside / "holiday.txt").write_text("SECRET caption")
    (outside / "index.md").write_text("SECRET description")
    corpus.ffmpeg("-f", "lavfi", "-i", "color=c=blue:size=320x240:rate=25", "-t", "1", "-c:v", "libx264",
                  "-pix_fmt", "yuv420p", str(source / "zz-clip.mp4"))
    # The swap, made at a known point, not by a race: a stand-in ffprobe swaps the album folder
    # for a link to `outside` the first time it runs. With one job the scan probes in walk order,
    # `album/holiday.jpg` before `zz-clip.mp4`, so the swap falls after the walk and the photo's
    # probe, and before its caption, the album's index.md and the photo's bytes are read.
    ffprobe = tools / "ffprobe"
    ffprobe.write_text(f"""#!/bin/sh
if [ ! -L '{source}/album' ]; then mv '{source}/album' '{tmp_path}/moved' && ln -s '{outside}' '{source}/album'; fi
exec '{shutil.which("ffprobe")}' "$@"
""")
    ffprobe.chmod(0o755)
    os.symlink(shutil.which("ffmpeg"), tools / "ffmpeg")
    monkeypatch.setenv("PATH", f"{tools}:{os.environ['PATH']}")
    run = cascade("build", source, "--output", out, "--jobs", "1")
    run.assert_clean_exit()
    assert (source / "album").is_symlink(), "the stand-in ffprobe made the swap"
    refused = [(path, reason) for path, reason in messages(run, "skipped") + messages(run, "warning")
               if "folder was replaced by a link" in reason]
    assert "album/holiday.jpg" in [path for path, _ in refused], run.describe()
    # Nothing from the folder the link leads to reached the site.
    for path in site_files(out):
        assert b"SECRET" not in (out / path).read_bytes(), path
    sizes = sorted((item["width"], item["height"]) for _, item, _, _ in frames_items(out))
    assert sizes == [(320, 240)], sizes


# --- reading files: a large video original copied a block at a time -------------------------------

@needs_ffmpeg
def test_large_video_original_is_copied_with_bounded_memory(tmp_path):
    source, out = tmp_path / "source", tmp_path / "out"
    source.mkdir()
    (source / "cascade.yml").write_text("download_originals: true\n")
    video = source / "big.mp4"
    corpus.ffmpeg("-f", "lavfi", "-i", "color=c=green:size=320x240:rate=25", "-t", "1", "-c:v", "libx264",
                  "-pix_fmt", "yuv420p", str(video))
    # A `free` box of 768 MiB at the end (a 64-bit size), nearly all of it a hole: still a valid
    # MP4, costing no disk, and far more than the memory allowed below.
    tail = 768 << 20
    with open(video, "r+b") as file:
        file.seek(0, os.SEEK_END)
        start = file.tell()
        file.write((1).to_bytes(4, "big") + b"free" + tail.to_bytes(8, "big"))
        file.truncate(start + tail)
    run = cascade("build", source, "--output", out)
    run.assert_clean_exit()
    copied = out / "originals" / "big.mp4"
    assert copied.stat().st_size == video.stat().st_size, run.describe()
    with open(video, "rb") as a, open(copied, "rb") as b:
        assert a.read(start + 16) == b.read(start + 16)
        a.seek(-4096, os.SEEK_END)
        b.seek(-4096, os.SEEK_END)
        assert a.read() == b.read()
    # Read whole, the original alone was 768 MiB of memory.
    assert run.max_rss_kib < 384 * 1024, f"peak RSS {run.max_rss_kib} KiB"


# --- XMP in another encoding than UTF-8 -------------------------------------------------------------

def test_xmp_declaring_utf7_is_refused(tmp_path):
    source, out = tmp_path / "source", tmp_path / "out"
    source.mkdir()
    corpus.save(source, "seven.jpg", corpus.jpeg_bytes(120, 90, corpus.RED))
    # `<!DOCTYPE` and `<!ENTITY` written in UTF-7 (`+ADw-` is `<`) pass a check of the bytes,
    # and libxml2 decodes them when the declaration says UTF-7.
    body = ('<!DOCTYPE x [<!ENTITY t "Entity title">]>' + corpus.XMP_HEAD
            + '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">&t;</rdf:li></rdf:Alt></dc:title>' + corpus.XMP_TAIL)
    encoded = body.encode("utf-7").replace(b"<", b"+ADw-").replace(b"!", b"+ACE-")
    corpus.save(source, "seven.xmp", b'<?xml version="1.0" encoding="UTF-7"?>' + encoded)
    corpus.save(source, "sixteen.jpg", corpus.jpeg_bytes(120, 90, corpus.RED))
    corpus.save(source, "sixteen.xmp", ('<?xml version="1.0"?>' + body).encode("utf-16-le"))
    run = cascade("build", source, "--output", out)
    run.assert_clean_exit()
    seven = reasons(run, "warning", "seven.xmp")
    assert seven and "UTF-7" in seven[0] and "published without it" in seven[0], run.describe()
    sixteen = reasons(run, "warning", "sixteen.xmp")
    assert sixteen and "published without it" in sixteen[0], run.describe()
    titles = {item.get("title") for _, item, _, _ in frames_items(out)}
    assert "Entity title" not in titles, titles
    assert sorted(item["alt"] for _, item, _, _ in frames_items(out)) == ["seven", "sixteen"]
