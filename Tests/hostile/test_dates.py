"""Dates as photo tools write them (issue 31, dates and videos): partial dates of slide scans,
time zones from EXIF, XMP and QuickTime keys, a video's UTC `creation_time` shown in the zone of
the photos beside it, `feed.xml` in true UTC, and videos' XMP sidecars. The fixtures are written
with exiftool and ffmpeg as Lightroom, Bridge, iPhones and Android phones write them.
"""
import re
import shutil
import subprocess

import pytest
from PIL import Image

from conftest import cascade

pytestmark = pytest.mark.skipif(not (shutil.which("exiftool") and shutil.which("ffmpeg")),
                                reason="exiftool and ffmpeg write the fixtures")


def exiftool(path, *arguments):
    subprocess.run(["exiftool", "-q", "-overwrite_original", *arguments, str(path)], check=True, timeout=60)


def photo(path, color, *exif):
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.new("RGB", (400, 300), color).save(path, quality=80)
    if exif:
        exiftool(path, *exif)


def video(path, *metadata, color="red"):
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", f"color=c={color}:size=320x240:rate=25",
                    "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", *metadata, str(path)], check=True, timeout=120)


def sidecar(path, *tags):
    """An XMP sidecar as exiftool writes one (`exiftool -o clip.mp4.xmp -XMP-dc:Title=…`)."""
    subprocess.run(["exiftool", "-q", "-o", str(path), *tags], check=True, timeout=60)


def build(source, output, config):
    (source / "cascade.yml").write_text("title: Dates\nbase_url: https://example.com/\n" + config)
    run = cascade("build", source, "-o", output, "--catalog", str(output) + ".sqlite")
    run.assert_clean_exit()
    return run


def time_element(page):
    """(datetime, text) of the photo page's `<time>`."""
    found = re.search(r'<time datetime="([^"]*)">([^<]*)</time>', page.read_text())
    return (found.group(1), found.group(2)) if found else None


def sections(album_page):
    return re.findall(r'<h2 class="section-head">([^<]*)<', album_page.read_text())


def order(album_page):
    """The photo pages an album page links to, in its order."""
    return [name for name in re.findall(r'href="([^"/]+)\.html"', album_page.read_text()) if name != "index"]


def feed_updated(output):
    """{album URL: <updated>} of feed.xml's entries."""
    xml = (output / "feed.xml").read_text()
    return dict(re.findall(r"<entry>.*?<id>([^<]*)</id>.*?<updated>([^<]*)</updated>", xml, re.S))


def test_partial_dates_of_slide_scans(tmp_path):
    source, output = tmp_path / "photos", tmp_path / "site"
    scans = source / "scans"
    # Lightroom and Bridge write a year-month, or a year, for a slide whose day is not known.
    photo(scans / "slide-july.jpg", (200, 0, 0), "-XMP-photoshop:DateCreated=1987-07")
    photo(scans / "slide-year.jpg", (0, 200, 0), "-XMP-photoshop:DateCreated=1987")
    photo(scans / "slide-march.jpg", (0, 0, 200), "-EXIF:DateTimeOriginal=1988:03:04 10:00:00")
    # An unreadable value in the sidecar leaves the date to the next source, the EXIF date.
    (scans / "slide-march.xmp").write_text(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
        '<rdf:Description rdf:about="" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" '
        'photoshop:DateCreated="circa spring 1988"/></rdf:RDF></x:xmpmeta>')
    run = build(source, output, "group: month\n")
    assert time_element(output / "scans" / "slide-july.html") == ("1987-07", "July 1987")
    assert time_element(output / "scans" / "slide-year.html") == ("1987", "1987")
    assert time_element(output / "scans" / "slide-march.html") == ("1988-03-04T10:00:00", "4 March 1988, 10:00")
    assert "circa spring 1988" in run.stderr  # said, not silently dropped
    # Each at the start of its period, in a section of its own: no "Undated".
    assert sections(output / "scans" / "index.html") == ["1987", "July 1987", "March 1988"]
    assert order(output / "scans" / "index.html") == ["slide-year", "slide-july", "slide-march"]
    # The album is dated by its oldest photo, so it is in the feed.
    assert feed_updated(output) == {"https://example.com/scans/": "1987-01-01T00:00:00Z"}


def test_time_zones_end_to_end(tmp_path):
    source, output = tmp_path / "photos", tmp_path / "site"
    nyc = source / "new-york"
    # An evening in New York (-04:00): two iPhone photos with EXIF OffsetTimeOriginal, an iPhone
    # clip (UTC creation_time and the local QuickTime creation date), and an Android clip with
    # only its UTC creation_time.
    photo(nyc / "IMG_0001.jpg", (200, 0, 0), "-EXIF:DateTimeOriginal=2024:07:31 20:30:00", "-EXIF:OffsetTimeOriginal=-04:00")
    photo(nyc / "IMG_0003.jpg", (0, 200, 0), "-EXIF:DateTimeOriginal=2024:07:31 21:40:00", "-EXIF:OffsetTimeOriginal=-04:00")
    video(nyc / "IMG_0002.MOV", "-movflags", "use_metadata_tags", "-metadata", "creation_time=2024-08-01T01:15:00Z",
          "-metadata", "com.apple.quicktime.creationdate=2024-07-31T21:15:00-0400")
    video(nyc / "VID_20240731.mp4", "-metadata", "creation_time=2024-08-01T01:00:00.000000Z", color="blue")
    # Paris, with the zone in the XMP date (as Lightroom writes it).
    photo(source / "paris" / "DSC_1.jpg", (0, 0, 200), "-XMP-photoshop:DateCreated=2024:08:01 08:15:42+02:00")
    build(source, output, "group: month\n")
    album = output / "new-york"
    # Sorted by the instant, shown in local wall time, one section: the clips are not "August".
    assert order(album / "index.html") == ["img_0001", "vid_20240731", "img_0002", "img_0003"]
    assert sections(album / "index.html") == ["July 2024"]
    assert time_element(album / "img_0001.html") == ("2024-07-31T20:30:00-04:00", "31 July 2024, 20:30")
    assert time_element(album / "img_0002.html") == ("2024-07-31T21:15:00-04:00", "31 July 2024, 21:15")
    # The Android clip's UTC time, in the zone of the photos beside it.
    assert time_element(album / "vid_20240731.html") == ("2024-07-31T21:00:00-04:00", "31 July 2024, 21:00")
    assert time_element(output / "paris" / "dsc_1.html") == ("2024-08-01T08:15:42+02:00", "1 August 2024, 08:15")
    # feed.xml in true UTC: 20:30-04:00 is 00:30Z, 08:15:42+02:00 is 06:15:42Z.
    assert feed_updated(output) == {"https://example.com/new-york/": "2024-08-01T00:30:00Z",
                                    "https://example.com/paris/": "2024-08-01T06:15:42Z"}


def test_android_clips_of_other_phones_are_shown_in_the_local_time_of_the_photos_beside_them(tmp_path):
    source, output = tmp_path / "photos", tmp_path / "site"
    trip = source / "trip"
    # A Samsung Galaxy's evening in New York: its photos carry EXIF OffsetTimeOriginal; its clip
    # only mvhd's creation_time (UTC, with no zone of its own: ffprobe adds the Z), an ISO 6709
    # `location` and `location-eng` and `com.android.version`, under the `mp42` brand: the keys
    # ffprobe shows of Galaxy clips.
    photo(trip / "20240731_203000.jpg", (200, 0, 0), "-EXIF:DateTimeOriginal=2024:07:31 20:30:00",
          "-EXIF:OffsetTimeOriginal=-04:00", "-EXIF:Make=samsung", "-EXIF:Model=SM-S911B")
    video(trip / "20240731_210000.mp4", "-brand", "mp42", "-movflags", "use_metadata_tags",
          "-metadata", "creation_time=2024-08-01T01:00:00.000000Z", "-metadata", "location=+40.7580-073.9855/",
          "-metadata", "location-eng=+40.7580-073.9855/", "-metadata", "com.android.version=14", color="blue")
    # A Pixel's clip: `com.android.capture.fps` beside creation_time (isom brand), no zone either.
    video(trip / "PXL_20240801_012000000.mp4", "-movflags", "use_metadata_tags",
          "-metadata", "creation_time=2024-08-01T01:20:00.000000Z", "-metadata", "com.android.capture.fps=30.000000",
          "-metadata", "com.android.version=14", color="green")
    photo(trip / "20240731_214000.jpg", (0, 200, 0), "-EXIF:DateTimeOriginal=2024:07:31 21:40:00",
          "-EXIF:OffsetTimeOriginal=-04:00", "-EXIF:Make=samsung", "-EXIF:Model=SM-S911B")
    build(source, output, "group: month\n")
    album = output / "trip"
    # In the photos' zone (-04:00), between them, in their month: not "1 August 2024, 01:00".
    assert time_element(album / "20240731_210000.html") == ("2024-07-31T21:00:00-04:00", "31 July 2024, 21:00")
    assert time_element(album / "pxl_20240801_012000000.html") == ("2024-07-31T21:20:00-04:00", "31 July 2024, 21:20")
    assert order(album / "index.html") == ["20240731_203000", "20240731_210000", "pxl_20240801_012000000", "20240731_214000"]
    assert sections(album / "index.html") == ["July 2024"]


def test_a_video_without_zoned_neighbours_stays_in_utc(tmp_path):
    source, output = tmp_path / "photos", tmp_path / "site"
    video(source / "clips" / "VID_1.mp4", "-metadata", "creation_time=2024-08-01T01:00:00.000000Z")
    photo(source / "clips" / "camera.jpg", (9, 9, 9), "-EXIF:DateTimeOriginal=2024:07:31 21:00:00")
    build(source, output, "")
    # No photo with a zone beside it: its instant, in UTC, said so in the datetime.
    assert time_element(output / "clips" / "vid_1.html") == ("2024-08-01T01:00:00Z", "1 August 2024, 01:00")
    # A floating photo (no zone) compares by wall time.
    assert order(output / "clips" / "index.html") == ["camera", "vid_1"]


def test_videos_take_sidecars_and_min_rating(tmp_path):
    source, output = tmp_path / "photos", tmp_path / "site"
    clips = source / "clips"
    for name in ["clip.mp4", "other.mp4", "plain.mp4"]:
        video(clips / name, "-metadata", "creation_time=2024-08-01T01:00:00.000000Z")
    sidecar(clips / "clip.mp4.xmp", "-XMP-dc:Title=Fireworks over the river", "-XMP-dc:Description=From the bridge",
            "-XMP-dc:Subject=fireworks", "-XMP-xmp:Rating=5", "-XMP-photoshop:DateCreated=2024:07:04 21:30:00-04:00")
    sidecar(clips / "other.xmp", "-XMP-xmp:Rating=1")
    photo(clips / "rejected.jpg", (9, 9, 9))
    sidecar(clips / "rejected.xmp", "-XMP-xmp:Rating=-1")
    run = build(source, output, "min_rating: 2\n")
    assert sorted(path.stem for path in (output / "clips").glob("*.html")) == ["clip", "index"]
    page = (output / "clips" / "clip.html").read_text()
    assert "<h1 class=\"photo-title\">Fireworks over the river<" in page and "From the bridge" in page
    assert time_element(output / "clips" / "clip.html") == ("2024-07-04T21:30:00-04:00", "4 July 2024, 21:30")
    assert "clip.html" in (output / "tags" / "fireworks" / "index.html").read_text()
    lines = [line for line in run.stderr.splitlines() if "left out by rating" in line]
    assert lines == ["warning: 3 items were left out by rating: 1 rejected, 2 below min_rating 2"], run.stderr


def test_a_live_photo_goes_by_its_photos_rating(tmp_path):
    source, output = tmp_path / "photos", tmp_path / "site"
    live = source / "live"
    # A Live Photo rated 5 in its sidecar, its clip without one: kept whole with min_rating 2
    # (its clip is not left out as an unrated video first).
    photo(live / "IMG_6.jpg", (200, 0, 0))
    sidecar(live / "IMG_6.jpg.xmp", "-XMP-xmp:Rating=5")
    video(live / "IMG_6.MOV", "-metadata", "creation_time=2024-08-01T01:00:00.000000Z")
    # A rejected Live Photo: neither its photo nor its clip is published, and it counts once.
    photo(live / "IMG_7.jpg", (0, 200, 0))
    sidecar(live / "IMG_7.xmp", "-XMP-xmp:Rating=-1")
    video(live / "IMG_7.MOV", "-metadata", "creation_time=2024-08-01T01:05:00.000000Z", color="green")
    run = build(source, output, "min_rating: 2\n")
    assert sorted(path.stem for path in (output / "live").glob("*.html")) == ["img_6", "index"]
    frames = (output / "live" / "frames" / "0.json").read_text()
    assert '"live":{"url":' in frames, frames
    lines = [line for line in run.stderr.splitlines() if "left out by rating" in line]
    assert lines == ["warning: 1 item was left out by rating: 1 rejected"], run.stderr
