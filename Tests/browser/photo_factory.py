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
