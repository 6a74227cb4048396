#!/usr/bin/env python3
"""What XMP sidecars cost a rebuild: two copies of one library of small PNGs, one without
sidecars and one where every photo has a Lightroom-style sidecar (title, description, five
keywords, a hierarchical keyword, a rating, about 2 KB; so every photo is also on tag pages).
The catalog keeps each sidecar's fields by the file's identity (a rebuild reads only sidecars
that changed), and every photo is on the same few tags, so a one-photo change (the middle
album's middle photo replaced by a PNG of another size, then put back) is the case to watch:
the ratios printed are the same run's builds with sidecars over those without.

    swift build -c release --product cascade
    python3 benchmarks/sidecars.py [--albums 10] [--photos 1000] [--work /tmp/cascade-sidecars]
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import struct
import time
import zlib

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "browser"))
import photo_factory  # noqa: E402

SIDECAR = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000, 0000/00/00-00:00:00">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
    xmlns:lr="http://ns.adobe.com/lightroom/1.0/"
    xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"
   xmp:Rating="{rating}" xmp:CreatorTool="Adobe Photoshop Lightroom Classic 13.0"
   photoshop:DateCreated="2024-07-{day:02d}T18:30:00.00+02:00"
   crs:Version="16.0" crs:WhiteBalance="As Shot" crs:Exposure2012="+0.35" crs:Contrast2012="+12"
   crs:Highlights2012="-40" crs:Shadows2012="+25" crs:Clarity2012="+8" crs:Vibrance="+10">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Photo {index} at the coast</rdf:li></rdf:Alt></dc:title>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Low tide in the evening, the boats back in the harbour.</rdf:li></rdf:Alt></dc:description>
   <dc:creator><rdf:Seq><rdf:li>Ana Lima</rdf:li></rdf:Seq></dc:creator>
   <dc:subject><rdf:Bag><rdf:li>beach</rdf:li><rdf:li>holiday</rdf:li><rdf:li>sea</rdf:li><rdf:li>boat {group}</rdf:li><rdf:li>evening</rdf:li><rdf:li>Places</rdf:li><rdf:li>France</rdf:li><rdf:li>Brittany</rdf:li></rdf:Bag></dc:subject>
   <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|France|Brittany</rdf:li></rdf:Bag></lr:hierarchicalSubject>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>
"""


def png(width, height):
    """A PNG of one colour, `width` × `height`."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes([200, 50, 50] * width) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def replace(path, data):
    """Writes `data` to `path` as a new file (a new inode), as a photo tool's export does."""
    temporary = path.with_name(path.name + ".new")
    temporary.write_bytes(data)
    os.replace(temporary, path)


def run(command):
    """Runs `command`; returns (seconds, peak RSS in MiB) of the child, from wait4."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - started
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(map(str, command))} failed:\n{process.stderr.read().decode(errors='replace')[-3000:]}")
    return seconds, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--albums", type=int, default=10)
    parser.add_argument("--photos", type=int, default=1000)
    parser.add_argument("--work", default="/tmp/cascade-sidecars")
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "cascade"))
    arguments = parser.parse_args()
    work = pathlib.Path(arguments.work)
    plain = work / f"plain-{arguments.albums}x{arguments.photos}"
    tagged = work / f"sidecars-{arguments.albums}x{arguments.photos}"
    if not tagged.exists():
        print(f"making {arguments.albums * arguments.photos} photos twice in {work} ...", flush=True)
        for folder in (plain, tagged):
            shutil.rmtree(folder, ignore_errors=True)
            for album in range(arguments.albums):
                photo_factory.album(folder / f"album-{album:03d}", arguments.photos, seed=album, small=True)
        for index, photo in enumerate(sorted(tagged.rglob("*.png"))):
            photo.with_suffix(".xmp").write_text(
                SIDECAR.format(rating=index % 5 + 1, day=index % 28 + 1, index=index, group=index % 50), encoding="utf-8")
    count = arguments.albums * arguments.photos
    print(f"cascade {arguments.binary}, {count} photos, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    results = {}
    for name, source in (("without sidecars", plain), ("with sidecars", tagged)):
        site = work / f"site-{source.name}"
        catalog = work / f"catalog-{source.name}.sqlite"
        shutil.rmtree(site, ignore_errors=True)
        for leftover in work.glob(f"catalog-{source.name}.sqlite*"):
            leftover.unlink()
        build = [arguments.binary, "build", str(source), "-o", str(site), "--catalog", str(catalog), "-q"]
        first, first_rss = run(build)
        noop = min(run(build)[0], run(build)[0])
        pages = sum(1 for _ in site.rglob("*.html"))
        # One photo changed, then put back (each followed by a build).
        photo = source / f"album-{arguments.albums // 2:03d}" / f"photo-{arguments.photos // 2:06d}.png"
        original = photo.read_bytes()
        replace(photo, png(30, 20))
        change, change_rss = run(build)
        replace(photo, original)
        run(build)
        results[name] = (first, first_rss, noop, change, change_rss, pages)
    print()
    print("| library | first build s | peak MiB | no-op rebuild s | one photo changed s | peak MiB | pages |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, (first, rss, noop, change, change_rss, pages) in results.items():
        print(f"| {name} | {first:.1f} | {rss:.0f} | {noop:.2f} | {change:.2f} | {change_rss:.0f} | {pages} |")
    print()
    base, with_sidecars = results["without sidecars"], results["with sidecars"]
    print(f"with / without sidecars: first build {with_sidecars[0] / base[0]:.2f}x, no-op rebuild {with_sidecars[2] / base[2]:.2f}x, "
          f"one photo changed {with_sidecars[3] / base[3]:.2f}x")


if __name__ == "__main__":
    main()
