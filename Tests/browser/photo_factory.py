"""Writes small but real PNG photos (pure Python: zlib and struct), for albums of any size."""
import pathlib
import random
import struct
import zlib


def png(width, height, color):
    """A PNG of one colour with a darker top band, so orientation mistakes would show."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    dark = bytes(max(0, c - 80) for c in color)
    rows = []
    for y in range(height):
        pixel = dark if y < height // 5 else bytes(color)
        rows.append(b"\x00" + pixel * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"".join(rows), 6)) + chunk(b"IEND", b""))


def album(folder, count, seed=1, small=False):
    """`count` photos of random shapes (panoramas to strips) in `folder`; `small` makes them a
    few dozen pixels wide, which keeps very large albums quick to build."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    for i in range(count):
        width = rng.randint(12, 40) if small else rng.randint(40, 160)
        height = int(width * rng.choice([0.5, 0.66, 0.75, 1.0, 1.33, 1.5, 2.0, 2.5]))
        color = (rng.randint(30, 230), rng.randint(30, 230), rng.randint(30, 230))
        (folder / f"photo-{i:06d}.png").write_bytes(png(width, height, color))
    return folder


def exif_date(date):
    """An APP1 EXIF segment (big-endian TIFF) holding DateTimeOriginal `date` ("2024:07:14 10:00:00")."""
    value = date.encode("ascii") + b"\x00"                      # 20 bytes
    # IFD0 at 8: one entry, the EXIF IFD pointer; the EXIF IFD at 26: one entry, DateTimeOriginal.
    ifd0 = struct.pack(">H", 1) + struct.pack(">HHII", 34665, 4, 1, 26) + struct.pack(">I", 0)
    exif_ifd = struct.pack(">H", 1) + struct.pack(">HHII", 36867, 2, len(value), 44) + struct.pack(">I", 0)
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + ifd0 + exif_ifd + value
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def dated_album(folder, days, seed=1, small=False, undated=0):
    """JPEG photos of random shapes with capture dates: `days` is a list of photo counts, one a
    day from 1 July 2024 on; then `undated` photos without a date. Returns the days' labels as
    the site shows them ("1 July 2024", ...)."""
    import datetime
    import io
    from PIL import Image
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    cache = {}

    def jpeg(width, height, color):
        key = (width, height, color)
        if key not in cache:
            out = io.BytesIO()
            Image.new("RGB", (width, height), color).save(out, "JPEG", quality=70)
            cache[key] = out.getvalue()
        return cache[key]

    shapes = [0.5, 0.66, 0.75, 1.0, 1.33, 1.5, 2.0, 2.5]
    colors = [(rng.randint(30, 230), rng.randint(30, 230), rng.randint(30, 230)) for _ in range(12)]
    labels, number = [], 0
    start = datetime.date(2024, 7, 1)
    for day, count in enumerate(days):
        date = start + datetime.timedelta(days=day)
        labels.append(f"{date.day} {date.strftime('%B')} {date.year}")
        for i in range(count):
            width = rng.randint(12, 40) if small else rng.randint(40, 160)
            data = jpeg(width, int(width * rng.choice(shapes)), rng.choice(colors))
            stamp = f"{date.year:04d}:{date.month:02d}:{date.day:02d} {8 + i % 12:02d}:{i % 60:02d}:00"
            (folder / f"photo-{number:06d}.jpg").write_bytes(data[:2] + exif_date(stamp) + data[2:])
            number += 1
    for i in range(undated):
        width = rng.randint(40, 160)
        (folder / f"photo-{number:06d}.jpg").write_bytes(jpeg(width, int(width * rng.choice(shapes)), rng.choice(colors)))
        number += 1
    return labels
