"""Generates the hostile-input corpus: folders of photos that are damaged, disguised, huge, oddly
shaped, oddly named, carry hostile metadata, or sit in hostile folder trees.

Each `make_*` function writes one group of cases into a folder and returns what a correct build
must do with each file, as a list of `Case`:

  Case(path, "publish", size=(w, h), color=(r, g, b))   published at that display size, and the
                                                          centre of its images has that colour
  Case(path, "skip", reason=REGEX)                        skipped, with a message on stderr
                                                          `skipped PATH: REASON` matching REGEX
  Case(path, "ignore")                                    neither published nor mentioned

Run it by hand to look at the corpus:  python3 Tests/hostile/corpus.py /tmp/hostile-corpus

Needs Pillow (with AVIF) and Debian's `heif-enc` (libheif-examples); scripts/setup --tests
installs both.
"""
import dataclasses
import io
import os
import pathlib
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

from PIL import Image


@dataclasses.dataclass
class Case:
    path: str                    # relative to the source folder, POSIX
    outcome: str                 # "publish" | "skip" | "ignore"
    size: tuple = None           # display (width, height) when published
    color: tuple = None          # expected colour at the centre of every image, or None
    reason: str = None           # regular expression for the skip reason

    @property
    def stem(self):
        name = self.path.rsplit("/", 1)[-1]
        return name.rsplit(".", 1)[0] if "." in name.lstrip(".") else name


RED = (220, 30, 40)
GREEN = (40, 180, 60)
BLUE = (30, 60, 210)
GREY = (128, 128, 128)
WHITE = (255, 255, 255)


# --- encoders -----------------------------------------------------------------------------------

def jpeg_bytes(width, height, color=RED, **save):
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, "JPEG", quality=90, **save)
    return out.getvalue()


def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def png16_bytes(width, height, color):
    """A 16-bit-per-channel RGB PNG (Pillow cannot write 16-bit colour), written by hand."""
    pixel = b"".join(struct.pack(">H", c * 257) for c in color)
    raw = b"".join(b"\x00" + pixel * width for _ in range(height))
    header = struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
            + png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b""))


def png_bomb_bytes(width, height):
    """A tiny PNG whose header claims `width` x `height` (8-bit RGB), with a token IDAT."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 65536, 9)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", header)
            + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b""))


def jpeg_bomb_bytes(width, height):
    """A real small JPEG whose start-of-frame is patched to claim `width` x `height`."""
    data = bytearray(jpeg_bytes(64, 64, GREY))
    i = 2
    while i < len(data):
        assert data[i] == 0xFF
        marker = data[i + 1]
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2):
            data[i + 5:i + 9] = struct.pack(">HH", height, width)
            return bytes(data)
        i += 2 + length
    raise AssertionError("no SOF marker in Pillow's JPEG")


def heic_bytes(width, height, color):
    heif_enc = shutil.which("heif-enc")
    if not heif_enc:
        raise RuntimeError("heif-enc is missing: run scripts/setup --tests (apt-get install libheif-examples)")
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "in.png")
        target = os.path.join(folder, "out.heic")
        Image.new("RGB", (width, height), color).save(source)
        subprocess.run([heif_enc, "-q", "80", source, "-o", target], check=True, capture_output=True)
        return pathlib.Path(target).read_bytes()


def save(folder, name, data):
    path = pathlib.Path(folder) / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def pil_bytes(image, fmt, **options):
    out = io.BytesIO()
    image.save(out, fmt, **options)
    return out.getvalue()


# --- groups -------------------------------------------------------------------------------------

def make_files(folder):
    """Damaged, disguised and unusual files: every format the README lists."""
    cases = []
    f = pathlib.Path(folder)

    save(f, "empty.jpg", b"")
    cases.append(Case("empty.jpg", "skip", reason=r"empty"))

    whole = jpeg_bytes(400, 300, RED)
    save(f, "truncated.jpg", whole[: len(whole) // 2])
    cases.append(Case("truncated.jpg", "skip", reason=r"truncated"))

    save(f, "notes-not-a-photo.jpg", b"These are my holiday notes, not a picture.\n" * 20)
    cases.append(Case("notes-not-a-photo.jpg", "skip", reason=r"not an image"))

    save(f, "jpeg-named-png.png", jpeg_bytes(320, 240, GREEN))
    cases.append(Case("jpeg-named-png.png", "publish", size=(320, 240), color=GREEN))

    # CMYK pure red: C=0 M=255 Y=255 K=0 (Pillow writes Adobe inverted CMYK, as Photoshop does).
    save(f, "cmyk.jpg", pil_bytes(Image.new("CMYK", (300, 200), (0, 255, 255, 0)), "JPEG", quality=95))
    cases.append(Case("cmyk.jpg", "publish", size=(300, 200), color=(237, 28, 36)))

    save(f, "greyscale.jpg", pil_bytes(Image.new("L", (240, 180), 128), "JPEG", quality=95))
    cases.append(Case("greyscale.jpg", "publish", size=(240, 180), color=GREY))

    save(f, "progressive.jpg", jpeg_bytes(500, 375, BLUE, progressive=True))
    cases.append(Case("progressive.jpg", "publish", size=(500, 375), color=BLUE))

    save(f, "sixteen-bit.png", png16_bytes(200, 160, GREEN))
    cases.append(Case("sixteen-bit.png", "publish", size=(200, 160), color=GREEN))

    # Transparent border, opaque red centre.
    rgba = Image.new("RGBA", (220, 200), (0, 0, 0, 0))
    rgba.paste((220, 30, 40, 255), (40, 40, 180, 160))
    save(f, "transparent.png", pil_bytes(rgba, "PNG"))
    cases.append(Case("transparent.png", "publish", size=(220, 200), color=RED))

    frames = [Image.new("RGB", (200, 100), RED), Image.new("RGB", (200, 100), BLUE)]
    save(f, "animated.gif", pil_bytes(frames[0], "GIF", save_all=True, append_images=frames[1:],
                                      duration=200, loop=0))
    cases.append(Case("animated.gif", "publish", size=(200, 100), color=RED))

    save(f, "photo.heic", heic_bytes(256, 192, BLUE))
    cases.append(Case("photo.heic", "publish", size=(256, 192), color=BLUE))

    save(f, "photo.avif", pil_bytes(Image.new("RGB", (240, 160), GREEN), "AVIF", quality=90))
    cases.append(Case("photo.avif", "publish", size=(240, 160), color=GREEN))

    save(f, "photo.tiff", pil_bytes(Image.new("RGB", (200, 150), RED), "TIFF"))
    cases.append(Case("photo.tiff", "publish", size=(200, 150), color=RED))

    save(f, "photo.bmp", pil_bytes(Image.new("RGB", (180, 120), BLUE), "BMP"))
    cases.append(Case("photo.bmp", "publish", size=(180, 120), color=BLUE))

    save(f, "photo.webp", pil_bytes(Image.new("RGB", (210, 140), GREEN), "WEBP", quality=90))
    cases.append(Case("photo.webp", "publish", size=(210, 140), color=GREEN))

    # EXIF orientation 6 (rotate 90° clockwise to show): stored 300x200, shown 200x300.
    exif = Image.Exif()
    exif[0x0112] = 6
    save(f, "rotated.jpg", pil_bytes(Image.new("RGB", (300, 200), RED), "JPEG", quality=90, exif=exif.tobytes()))
    cases.append(Case("rotated.jpg", "publish", size=(200, 300), color=RED))

    # Variants of each format's encoding (depth, palette, alpha, compression, pages, frames).
    red_palette = Image.new("P", (120, 100), 0)
    red_palette.putpalette([*RED, 0, 0, 0] + [0] * 762)
    frames2 = [Image.new("RGB", (130, 90), GREEN), Image.new("RGB", (130, 90), RED)]
    variants = [
        ("grey-alpha.png", pil_bytes(Image.new("LA", (120, 100), (128, 255)), "PNG"), (120, 100), GREY),
        ("palette-transparency.png", pil_bytes(red_palette, "PNG", transparency=1), (120, 100), RED),
        ("one-bit.png", pil_bytes(Image.new("1", (120, 100), 1), "PNG"), (120, 100), WHITE),
        ("grey-sixteen-bit.png", pil_bytes(Image.new("I;16", (120, 100), 32896), "PNG"), (120, 100), GREY),
        ("animated-png.png", pil_bytes(frames2[0], "PNG", save_all=True, append_images=frames2[1:]), (130, 90), GREEN),
        ("lzw.tiff", pil_bytes(Image.new("RGB", (130, 90), RED), "TIFF", compression="tiff_lzw"), (130, 90), RED),
        ("deflate.tiff", pil_bytes(Image.new("RGB", (130, 90), BLUE), "TIFF", compression="tiff_adobe_deflate"), (130, 90), BLUE),
        ("jpeg-compressed.tiff", pil_bytes(Image.new("RGB", (128, 96), GREEN), "TIFF", compression="jpeg"), (128, 96), GREEN),
        ("cmyk.tiff", pil_bytes(Image.new("CMYK", (130, 90), (0, 255, 255, 0)), "TIFF"), (130, 90), (255, 0, 0)),
        ("grey-sixteen-bit.tiff", pil_bytes(Image.new("I;16", (130, 90), 32896), "TIFF"), (130, 90), GREY),
        ("multipage.tiff", pil_bytes(frames2[1], "TIFF", save_all=True, append_images=frames2[:1]), (130, 90), RED),
        ("rgba.bmp", pil_bytes(Image.new("RGBA", (110, 70), (*BLUE, 255)), "BMP"), (110, 70), BLUE),
        ("one-bit.bmp", pil_bytes(Image.new("1", (110, 70), 1), "BMP"), (110, 70), WHITE),
        ("eight-bit.bmp", pil_bytes(Image.new("L", (110, 70), 128), "BMP"), (110, 70), GREY),
        ("lossless.webp", pil_bytes(Image.new("RGB", (110, 70), RED), "WEBP", lossless=True), (110, 70), RED),
        # Half-transparent blue shows over white.
        ("alpha.webp", pil_bytes(Image.new("RGBA", (110, 70), (*BLUE, 128)), "WEBP"), (110, 70), (142, 157, 232)),
        ("alpha.avif", pil_bytes(Image.new("RGBA", (110, 70), (*GREEN, 255)), "AVIF", quality=90), (110, 70), GREEN),
        ("interlaced.gif", pil_bytes(frames2[0], "GIF", interlace=True), (130, 90), GREEN),
        ("transparent.gif", pil_bytes(Image.new("P", (130, 90), 0), "GIF", transparency=0), (130, 90), WHITE),
    ]
    for name, data, size, color in variants:
        save(f, name, data)
        cases.append(Case(name, "publish", size=size, color=color))

    # A JPEG whose EXIF has an IFD pointing at itself and a value count past the data.
    tiff = (b"II*\x00" + struct.pack("<I", 8) + struct.pack("<H", 2)
            + struct.pack("<HHII", 0x010E, 2, 0xFFFFFFF0, 8) + struct.pack("<HHII", 0x8769, 4, 1, 8)
            + struct.pack("<I", 8))
    app1 = b"Exif\x00\x00" + tiff
    plain = jpeg_bytes(150, 100, GREEN)
    save(f, "exif-loop.jpg", plain[:2] + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1 + plain[2:])
    cases.append(Case("exif-loop.jpg", "publish", size=(150, 100), color=GREEN))
    # An APP1 segment whose length runs past the end of the file.
    save(f, "app1-overrun.jpg", plain[:2] + b"\xff\xe1\xff\xf0Exif\x00\x00II*\x00" + plain[2:40])
    cases.append(Case("app1-overrun.jpg", "skip", reason=r"truncated|damaged"))
    # 12-bit samples claimed (libjpeg here decodes 8-bit only).
    twelve = bytearray(plain)
    sof = twelve.index(b"\xff\xc0")
    twelve[sof + 4] = 12
    save(f, "twelve-bit.jpg", bytes(twelve))
    cases.append(Case("twelve-bit.jpg", "skip", reason=r"JPEG.*(precision|decoded)"))
    # Animated WebP: not supported; the reason must say so (not blame memory).
    save(f, "animated.webp", pil_bytes(frames2[0], "WEBP", save_all=True, append_images=frames2[1:], duration=100))
    cases.append(Case("animated.webp", "skip", reason=r"animat"))

    # Garbage after a valid PNG signature and a JPEG that is only its SOI marker.
    save(f, "png-signature-only.png", b"\x89PNG\r\n\x1a\n" + os.urandom(64))
    cases.append(Case("png-signature-only.png", "skip", reason=r"PNG|damaged|truncated|decoded"))
    save(f, "soi-only.jpg", b"\xff\xd8")
    cases.append(Case("soi-only.jpg", "skip", reason=r"not an image|JPEG|damaged|truncated"))
    if shutil.which("ffmpeg"):
        cases += make_videos(f)
    return cases


def ffmpeg(*arguments):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", *arguments], check=True, timeout=120)


def make_videos(f):
    """Videos (with ffmpeg): recognised by content, not by name; damaged ones skipped."""
    cases = []
    ffmpeg("-f", "lavfi", "-i", "color=c=0xDC1E28:size=320x240:rate=25", "-t", "1", "-c:v", "libx264",
           "-pix_fmt", "yuv420p", "-f", "mp4", str(f / "video-named-jpg.jpg"))
    cases.append(Case("video-named-jpg.jpg", "publish", size=(320, 240), color=RED))
    save(f, "jpeg-named-mp4.mp4", jpeg_bytes(240, 160, GREEN))
    cases.append(Case("jpeg-named-mp4.mp4", "publish", size=(240, 160), color=GREEN))
    ffmpeg("-f", "lavfi", "-i", "color=c=blue:size=320x240:rate=25", "-t", "2", "-c:v", "libx264", str(f / "whole.mp4"))
    data = (f / "whole.mp4").read_bytes()
    (f / "whole.mp4").unlink()
    save(f, "truncated-video.mp4", data[: len(data) // 3])
    cases.append(Case("truncated-video.mp4", "skip", reason=r"video cannot be read"))
    ffmpeg("-f", "lavfi", "-i", "sine", "-t", "1", "-c:a", "aac", str(f / "sound-only.mp4"))
    cases.append(Case("sound-only.mp4", "skip", reason=r"no video stream"))
    save(f, "garbage.mov", os.urandom(4096))
    cases.append(Case("garbage.mov", "skip", reason=r"not a video container"))
    save(f, "empty.mkv", b"")
    cases.append(Case("empty.mkv", "skip", reason=r"empty"))
    return cases


# Pillow's transpose that turns stored pixels upright for each EXIF orientation, and its inverse
# (which makes the stored pixels from an upright picture).
UPRIGHT = {1: None, 2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
           4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE, 6: Image.Transpose.ROTATE_270,
           7: Image.Transpose.TRANSVERSE, 8: Image.Transpose.ROTATE_90}
STORE = {**UPRIGHT, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}


def quadrants(width, height):
    """Red top-left, green top-right, blue bottom-left, grey bottom-right: any wrong turn shows."""
    image = Image.new("RGB", (width, height), GREY)
    image.paste(RED, (0, 0, width // 2, height // 2))
    image.paste(GREEN, (width // 2, 0, width, height // 2))
    image.paste(BLUE, (0, height // 2, width // 2, height))
    return image


def make_orientations(folder):
    """One JPEG per EXIF orientation 1-8 whose upright picture is quadrants(300, 200), plus
    nonsense orientation values (0, 9, 65535) that must count as upright."""
    f = pathlib.Path(folder)
    cases = []
    for orientation, method in STORE.items():
        upright = quadrants(300, 200)
        stored = upright.transpose(method) if method is not None else upright
        exif = Image.Exif()
        exif[0x0112] = orientation
        save(f, f"orientation-{orientation}.jpg", pil_bytes(stored, "JPEG", quality=95, exif=exif.tobytes()))
        cases.append(Case(f"orientation-{orientation}.jpg", "publish", size=(300, 200)))
    for value in (0, 9, 65535):
        exif = Image.Exif()
        exif[0x0112] = value
        save(f, f"orientation-bad-{value}.jpg", pil_bytes(quadrants(300, 200), "JPEG", quality=95, exif=exif.tobytes()))
        cases.append(Case(f"orientation-bad-{value}.jpg", "publish", size=(300, 200)))
    return cases


BOMB_SIDE = 60000


def make_bombs(folder):
    """Files whose headers claim 60000 x 60000 pixels (3.6 gigapixels, 14 GB as RGBA)."""
    f = pathlib.Path(folder)
    save(f, "bomb.png", png_bomb_bytes(BOMB_SIDE, BOMB_SIDE))
    save(f, "bomb.jpg", jpeg_bomb_bytes(BOMB_SIDE, BOMB_SIDE))
    save(f, "fine.jpg", jpeg_bytes(120, 90, GREEN))
    pixel_limit = r"60000.60000.*(limit|megapixels)"
    return [Case("bomb.png", "skip", reason=pixel_limit),
            Case("bomb.jpg", "skip", reason=pixel_limit),
            Case("fine.jpg", "publish", size=(120, 90), color=GREEN)]


def make_six_megapixels(folder):
    """One real 3000 x 2000 photo (6 MP), to move the pixel limit around."""
    f = pathlib.Path(folder)
    save(f, "six-mp.png", pil_bytes(Image.new("RGB", (3000, 2000), BLUE), "PNG"))
    return [Case("six-mp.png", "publish", size=(3000, 2000), color=BLUE)]


def make_shapes(folder):
    f = pathlib.Path(folder)
    save(f, "dot.png", pil_bytes(Image.new("RGB", (1, 1), RED), "PNG"))
    save(f, "panorama.jpg", jpeg_bytes(12000, 400, GREEN))
    save(f, "strip.jpg", jpeg_bytes(300, 9000, BLUE))
    save(f, "square.jpg", jpeg_bytes(500, 500, RED))
    return [Case("dot.png", "publish", size=(1, 1), color=RED),
            Case("panorama.jpg", "publish", size=(12000, 400), color=GREEN),
            Case("strip.jpg", "publish", size=(300, 9000), color=BLUE),
            Case("square.jpg", "publish", size=(500, 500), color=RED)]


HOSTILE_NAMES = [
    'quote"double.jpg',
    "quote'single.jpg",
    "<script>alert(1)<script>.jpg",
    "<img src=x onerror=alert(2)>.jpg",
    "fish & chips.jpg",
    "100%.jpg",
    "%41%2F%2e%2e.jpg",
    "#hash.jpg",
    "what?.jpg",
    "with  two  spaces .jpg",
    "日本の写真.jpg",
    "😀 emoji 🎉.jpg",
    "IMG_1.JPG",
    "img_1.jpg",
    "a.jpg",
    "a.png",
    "index.jpg",
    "frames.jpg",
    "thumbs.jpg",
    "-.jpg",
]
HOSTILE_ALBUM = 'album <b>&"x"#?%'


def make_names(folder):
    f = pathlib.Path(folder)
    cases = []
    colors = [RED, GREEN, BLUE]
    for i, name in enumerate(HOSTILE_NAMES):
        color = colors[i % 3]
        data = (pil_bytes(Image.new("RGB", (160, 120), color), "PNG") if name.endswith(".png")
                else jpeg_bytes(160, 120, color))
        save(f, name, data)
        cases.append(Case(name, "publish", size=(160, 120), color=color))
    for name in ["<script>alert(3)<script>.jpg", "a.jpg", "thumbs.jpg"]:
        save(f, f"{HOSTILE_ALBUM}/{name}", jpeg_bytes(120, 160, GREEN))
        cases.append(Case(f"{HOSTILE_ALBUM}/{name}", "publish", size=(120, 160), color=GREEN))
    # A name starting with a dot is hidden, whatever follows.
    save(f, "..jpg.jpg", jpeg_bytes(160, 120, RED))
    cases.append(Case("..jpg.jpg", "ignore"))
    # An album named like the site's own folders.
    save(f, "assets/inside-assets.jpg", jpeg_bytes(100, 100, BLUE))
    cases.append(Case("assets/inside-assets.jpg", "publish", size=(100, 100), color=BLUE))
    save(f, "thumbs/inside-thumbs.jpg", jpeg_bytes(100, 100, RED))
    cases.append(Case("thumbs/inside-thumbs.jpg", "publish", size=(100, 100), color=RED))
    return cases


HOSTILE_DESCRIPTION = '<script>alert("description")</script> Fish & "chips" <b>bold</b>'
HOSTILE_ARTIST = "<img src=x onerror=alert('artist')> & Co"
GPS = {1: "N", 2: (52.0, 30.0, 15.5), 3: "E", 4: (13.0, 24.0, 7.25), 5: 0, 6: 34.5}


def exif_with_gps(description=HOSTILE_DESCRIPTION, artist=HOSTILE_ARTIST):
    exif = Image.Exif()
    exif[0x010E] = description  # ImageDescription
    exif[0x013B] = artist       # Artist
    exif[0x010F] = "Hostile Camera Co"
    exif.get_ifd(0x8825).update(GPS)
    return exif


def make_undecodable_name(folder):
    """A Latin-1 file name (not UTF-8, common in old archives): published, or at least reported."""
    f = pathlib.Path(folder)
    f.mkdir(parents=True, exist_ok=True)
    save(f, "plain.jpg", jpeg_bytes(120, 90, GREEN))
    with open(os.path.join(os.fsencode(f), b"caf\xe9-latin1.jpg"), "wb") as out:
        out.write(jpeg_bytes(100, 80, RED))
    return "caf\udce9-latin1.jpg"


# 62 letters of four UTF-8 bytes each and ".jpg": a 252-byte name, which Linux accepts (255 max).
LONG_STEM = "\U0001D49C" * 62  # MATHEMATICAL SCRIPT CAPITAL A, a letter outside the BMP


def make_long_name(folder):
    """A name near the file system's 255-byte limit, made of letters the slug keeps: its page and
    thumbnails need names that fit too."""
    f = pathlib.Path(folder)
    save(f, LONG_STEM + ".jpg", jpeg_bytes(160, 120, BLUE))
    save(f, "plain.jpg", jpeg_bytes(120, 90, GREEN))
    save(f, "日" * 80 + ".jpg", jpeg_bytes(90, 120, RED))   # 244 bytes
    return [Case(LONG_STEM + ".jpg", "publish", size=(160, 120), color=BLUE),
            Case("plain.jpg", "publish", size=(120, 90), color=GREEN),
            Case("日" * 80 + ".jpg", "publish", size=(90, 120), color=RED)]


CONTROL_NAME = "evil\x1b[2J\x1b[31mred\rskipped fake.jpg: forged\nline.jpg"


def make_control_name(folder):
    """A non-image whose name holds terminal escapes, a carriage return and a newline."""
    f = pathlib.Path(folder)
    save(f, CONTROL_NAME, b"not an image at all")
    save(f, "plain.jpg", jpeg_bytes(120, 90, GREEN))
    return CONTROL_NAME


def make_fifo(folder):
    """A named pipe called .jpg (reading it would block forever) next to a photo."""
    f = pathlib.Path(folder)
    save(f, "plain.jpg", jpeg_bytes(120, 90, GREEN))
    os.mkfifo(f / "pipe.jpg")
    os.symlink("pipe.jpg", f / "link-to-pipe.jpg")
    return [Case("plain.jpg", "publish", size=(120, 90), color=GREEN)]


def make_metadata(folder):
    f = pathlib.Path(folder)
    exif = exif_with_gps()
    # Large enough for several renditions (400, 800, 1600, 2400 px wide).
    save(f, "tagged.jpg", pil_bytes(Image.new("RGB", (2600, 1700), RED), "JPEG", quality=85, exif=exif.tobytes()))
    save(f, "tagged-small.jpg", pil_bytes(Image.new("RGB", (300, 200), GREEN), "JPEG", quality=85, exif=exif.tobytes()))
    return [Case("tagged.jpg", "publish", size=(2600, 1700), color=RED),
            Case("tagged-small.jpg", "publish", size=(300, 200), color=GREEN)]


XMP_HEAD = ('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
            '<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/">')
XMP_TAIL = '</rdf:Description></rdf:RDF></x:xmpmeta>'
HOSTILE_TITLE = '<script>alert(1)</script> Harbour'
HOSTILE_KEYWORD = '<img src=x onerror=alert(2)>'


def xml_text(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def xmp_bomb():
    """The "billion laughs": ten levels of entities, each ten of the one below."""
    entities = '<!ENTITY l0 "lol">' + "".join(
        f'<!ENTITY l{n} "{("&l%d;" % (n - 1)) * 10}">' for n in range(1, 10))
    return (f'<?xml version="1.0"?><!DOCTYPE x:xmpmeta [{entities}]>' + XMP_HEAD
            + '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">&l9;</rdf:li></rdf:Alt></dc:title>' + XMP_TAIL).encode()


# Bad sidecars: each photo is published without its sidecar, with a warning naming it.
BAD_SIDECARS = {
    "malformed": (XMP_HEAD + "<dc:title><rdf:Alt><rdf:li>unclosed").encode(),
    "bomb": xmp_bomb(),
    "not-utf8": XMP_HEAD.encode() + b"<dc:title>\xff\xfe\xc3(</dc:title>" + XMP_TAIL.encode(),
    "deep": b"<a>" * 200_000 + b"</a>" * 200_000,
    "huge": None,  # 100 MB, sparse
}


def make_xmp(folder):
    """Photos with hostile XMP: bad sidecars (malformed, an entity bomb, invalid UTF-8, nesting
    200,000 deep, 100 MB), an entity bomb embedded in a JPEG, a sidecar whose title and keyword
    hold HTML, and a camera RAW file beside its JPEG."""
    f = pathlib.Path(folder)
    cases = []
    for name, data in BAD_SIDECARS.items():
        save(f, f"{name}.jpg", jpeg_bytes(120, 90, GREEN))
        if data is None:
            with open(f / f"{name}.xmp", "wb") as sidecar:
                sidecar.truncate(100 << 20)
        else:
            save(f, f"{name}.xmp", data)
        cases += [Case(f"{name}.jpg", "publish", size=(120, 90), color=GREEN), Case(f"{name}.xmp", "warn")]
    packet = b"http://ns.adobe.com/xap/1.0/\x00" + xmp_bomb()
    plain = jpeg_bytes(120, 90, BLUE)
    segment = b"\xff\xe1" + (len(packet) + 2).to_bytes(2, "big") + packet
    save(f, "embedded-bomb.jpg", plain[:2] + segment + plain[2:])
    cases += [Case("embedded-bomb.jpg", "publish", size=(120, 90), color=BLUE), Case("embedded-bomb.jpg", "warn")]
    save(f, "escaped.jpg", jpeg_bytes(120, 90, RED))
    save(f, "escaped.xmp", (XMP_HEAD + f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{xml_text(HOSTILE_TITLE)}</rdf:li></rdf:Alt></dc:title>'
                            f'<dc:subject><rdf:Bag><rdf:li>{xml_text(HOSTILE_KEYWORD)}</rdf:li></rdf:Bag></dc:subject>' + XMP_TAIL).encode())
    cases.append(Case("escaped.jpg", "publish", size=(120, 90), color=RED))
    save(f, "IMG_1.jpg", jpeg_bytes(120, 90, RED))
    save(f, "IMG_1.CR2", b"II*\x00" + bytes(100))
    cases += [Case("IMG_1.jpg", "publish", size=(120, 90), color=RED), Case("IMG_1.CR2", "ignore")]
    return cases


def make_trees(folder, outside):
    """Link cycles, links leaving the source, empty folders, hidden files and system clutter.
    `outside` is a folder next to (not inside) the source, holding what the outward links
    point to."""
    f = pathlib.Path(folder)
    o = pathlib.Path(outside)
    cases = []
    save(f, "album/photo.jpg", jpeg_bytes(200, 150, RED))
    cases.append(Case("album/photo.jpg", "publish", size=(200, 150), color=RED))
    os.symlink("..", f / "album" / "loop-to-parent")          # album/loop-to-parent -> source
    os.symlink(".", f / "album" / "loop-to-self")             # album/loop-to-self -> album
    save(f, "album/deeper/deep.jpg", jpeg_bytes(150, 200, BLUE))
    cases.append(Case("album/deeper/deep.jpg", "publish", size=(150, 200), color=BLUE))
    os.symlink("../../album", f / "album" / "deeper" / "loop-up")
    # A link inside the source to a photo inside it is followed.
    save(f, "linked/original.jpg", jpeg_bytes(120, 80, GREEN))
    cases.append(Case("linked/original.jpg", "publish", size=(120, 80), color=GREEN))
    os.symlink("original.jpg", f / "linked" / "inside-link.jpg")
    cases.append(Case("linked/inside-link.jpg", "publish", size=(120, 80), color=GREEN))

    # Links leaving the source.
    save(o, "secret.jpg", jpeg_bytes(111, 77, BLUE))
    save(o, "secret-folder/private.jpg", jpeg_bytes(99, 66, BLUE))
    os.symlink(str(o / "secret.jpg"), f / "outside-file.jpg")
    cases.append(Case("outside-file.jpg", "skip", reason=r"outside"))
    os.symlink(str(o / "secret-folder"), f / "outside-folder")
    cases.append(Case("outside-folder", "skip", reason=r"outside"))
    os.symlink("../" + o.name + "/secret.jpg", f / "relative-escape.jpg")
    cases.append(Case("relative-escape.jpg", "skip", reason=r"outside"))
    os.symlink("/etc/passwd", f / "passwd.jpg")
    cases.append(Case("passwd.jpg", "skip", reason=r"outside"))

    # Empty folders and folders with nothing publishable.
    (f / "empty").mkdir()
    (f / "empty-nested" / "a" / "b").mkdir(parents=True)
    save(f, "only-clutter/.DS_Store", os.urandom(64))
    save(f, "only-clutter/Thumbs.db", os.urandom(64))
    save(f, "only-clutter/notes.txt", b"notes")
    save(f, "only-clutter/.hidden.jpg", jpeg_bytes(50, 50, RED))

    # Hidden files, system clutter: ignored without a word.
    for name in [".DS_Store", "Thumbs.db", "desktop.ini", ".hidden.jpg", ".hidden-folder/inside.jpg",
                 "album/.DS_Store", "album/Thumbs.db", "album/._photo.jpg", "__MACOSX/x.jpg",
                 "@eaDir/thumb.jpg", "sidecar.xmp", "album/photo.json"]:
        data = jpeg_bytes(40, 40, RED) if name.endswith(".jpg") else os.urandom(128)
        save(f, name, data)
        cases.append(Case(name, "ignore"))
    return cases


def make_broken_link(folder):
    """A dangling symbolic link next to a good photo: reported (the README promises a message
    for every file not published), the photo published."""
    f = pathlib.Path(folder)
    save(f, "good.jpg", jpeg_bytes(120, 90, GREEN))
    os.symlink("does-not-exist.jpg", f / "broken-link.jpg")
    return [Case("good.jpg", "publish", size=(120, 90), color=GREEN),
            Case("broken-link.jpg", "skip", reason=r"broken|not exist|cannot|missing")]


EMPTY_FOLDERS = ["empty", "empty-nested", "empty-nested/a", "empty-nested/a/b", "only-clutter"]


def make_load(folder, count=5000):
    """`count` small JPEGs of a few shapes, 100 per folder."""
    f = pathlib.Path(folder)
    shapes = [(64, 48), (48, 64), (80, 40), (50, 50), (40, 90)]
    blobs = [jpeg_bytes(w, h, (40 + 30 * i, 200 - 25 * i, 90)) for i, (w, h) in enumerate(shapes)]
    for i in range(count):
        save(f, f"folder-{i // 100:03d}/photo-{i:05d}.jpg", blobs[i % len(blobs)])
    return count


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    root = pathlib.Path(argv[1])
    if root.exists():
        print(f"{root} exists; give a new folder", file=sys.stderr)
        return 1
    groups = {
        "files": make_files, "bombs": make_bombs, "shapes": make_shapes, "names": make_names,
        "metadata": make_metadata, "orientations": make_orientations, "six-megapixels": make_six_megapixels,
        "long-name": make_long_name, "broken-link": make_broken_link, "fifo": make_fifo, "xmp": make_xmp,
    }
    for name, make in groups.items():
        cases = make(root / name / "source")
        print(f"{name}: {len(cases)} cases")
    cases = make_trees(root / "trees" / "source", root / "trees" / "outside")
    print(f"trees: {len(cases)} cases")
    make_undecodable_name(root / "latin1-name" / "source")
    make_control_name(root / "control-name" / "source")
    print("latin1-name, control-name: 1 case each")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
