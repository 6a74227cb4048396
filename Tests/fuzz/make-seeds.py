#!/usr/bin/env python3
"""Makes the seed corpora in Tests/fuzz/<target>/: small real inputs of each parser, made with
Pillow, exiftool and heif-enc (run again only to change the seeds; the files are committed).

    python3 Tests/fuzz/make-seeds.py
"""
import io
import pathlib
import shutil
import struct
import subprocess
import tempfile

from PIL import Image

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]


def write(target, name, data):
    path = HERE / target / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def segments(jpeg):
    """(marker, payload) of a JPEG's segments before the image data."""
    position = 2
    while position + 4 <= len(jpeg) and jpeg[position] == 0xFF:
        marker = jpeg[position + 1]
        if marker == 0xDA:
            break
        size = struct.unpack(">H", jpeg[position + 2:position + 4])[0]
        yield marker, jpeg[position + 4:position + 2 + size]
        position += 2 + size


def exiftool(path, *arguments):
    subprocess.run(["exiftool", "-q", "-overwrite_original", *arguments, str(path)], check=True)


def main():
    work = pathlib.Path(tempfile.mkdtemp())
    try:
        # request: heads as browsers and tools send them.
        write("request", "get", "GET / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nAccept: text/html\r\n\r\n")
        write("request", "range", "GET /trip/images/a%20b-1024.jpg?v=2 HTTP/1.1\r\nHost: x\r\nRange: bytes=100-199\r\n"
                                  "Connection: keep-alive\r\n\r\n")
        write("request", "suffix-range", "GET /a.mp4 HTTP/1.0\nRange: bytes=-500\nConnection: close\n\n")
        write("request", "reload", "GET /__cascade/reload?since=12 HTTP/1.1\r\nHost: x\r\n\r\n")
        write("request", "dots", "HEAD /a/%2e%2e/b/..%2fc/%C3%A9t%C3%A9/ HTTP/1.1\r\nHost: x\r\n\r\n")

        # xmp: the example gallery's sidecars and a packet with every field read.
        for number, sidecar in enumerate(sorted((REPO / "examples" / "photos").rglob("*.xmp"))[:4]):
            write("xmp", f"example-{number}.xmp", sidecar.read_bytes())
        write("xmp", "fields.xmp", """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/"
 xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmp:Rating="4" photoshop:DateCreated="2024-07-14T10:20:30+02:00"
 exif:GPSLatitude="48,51.5N" exif:GPSLongitude="2,21.1E">
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Title &amp; more</rdf:li></rdf:Alt></dc:title>
<dc:description><rdf:Alt><rdf:li xml:lang="x-default">A caption</rdf:li></rdf:Alt></dc:description>
<dc:subject><rdf:Bag><rdf:li>sea</rdf:li><rdf:li>sun</rdf:li></rdf:Bag></dc:subject>
<lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|France|Brittany</rdf:li></rdf:Bag></lr:hierarchicalSubject>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>""")

        # exif and iptc: the APP1 and APP13 payloads of JPEGs written by exiftool.
        jpeg = work / "a.jpg"
        Image.new("RGB", (16, 12), (200, 30, 30)).save(jpeg, quality=50)
        exiftool(jpeg, "-Orientation#=6", "-ImageDescription=A caption", "-Artist=Ann", "-Make=Canon",
                 "-Model=EOS", "-DateTimeOriginal=2024:07:14 10:20:30", "-OffsetTimeOriginal=+02:00",
                 "-FNumber=2.8", "-ExposureTime=1/250", "-ISO=200", "-FocalLength=35", "-Rating=4",
                 "-GPSLatitude=48.85", "-GPSLatitudeRef=N", "-GPSLongitude=2.35", "-GPSLongitudeRef=E",
                 "-IPTC:Caption-Abstract=IPTC caption", "-IPTC:ObjectName=IPTC title",
                 "-IPTC:Keywords=sea", "-IPTC:Keywords=sun", "-IPTC:CodedCharacterSet=UTF8")
        data = jpeg.read_bytes()
        photoshop = b"Photoshop 3.0\0"
        for marker, payload in segments(data):
            if marker == 0xE1 and payload.startswith(b"Exif\0\0"):
                write("exif", "exiftool", payload)
                write("exif", "bare-tiff", payload[6:])
            if marker == 0xED and payload.startswith(photoshop):
                write("iptc", "exiftool", payload[len(photoshop):])
        big_endian = work / "b.jpg"
        Image.new("RGB", (8, 8)).save(big_endian)
        exiftool(big_endian, "-ExifByteOrder=Big-endian", "-Orientation#=3", "-UserComment=comment",
                 "-XPTitle=windows title", "-IPTC:Caption-Abstract=caf\xe9", "-charset", "iptc=Latin")
        for marker, payload in segments(big_endian.read_bytes()):
            if marker == 0xE1 and payload.startswith(b"Exif\0\0"):
                write("exif", "big-endian", payload)
            if marker == 0xED and payload.startswith(photoshop):
                write("iptc", "latin1", payload[len(photoshop):])

        # tiff: small files in the layouts Pillow writes, with tags exiftool adds.
        for name, mode, options in [("rgb", "RGB", {}), ("grey-lzw", "L", {"compression": "tiff_lzw"}),
                                    ("rgba-deflate", "RGBA", {"compression": "tiff_adobe_deflate"})]:
            path = work / f"{name}.tif"
            Image.new(mode, (6, 4)).save(path, **options)
            exiftool(path, "-Orientation#=8", "-ImageDescription=tiff", "-XMP:Title=xmp in tiff")
            write("tiff", name, path.read_bytes())

        # iso-media: HEIF from heif-enc (a grid-less single image) and its rotated twin.
        png = work / "a.png"
        Image.new("RGB", (16, 16), (20, 120, 200)).save(png)
        heic = work / "a.heic"
        subprocess.run(["heif-enc", "-q", "10", "-o", str(heic), str(png)], check=True, capture_output=True)
        write("iso-media", "heif", heic.read_bytes())
        exiftool(heic, "-Orientation#=6", "-XMP:Title=heif title")
        write("iso-media", "heif-exif-xmp", heic.read_bytes())
        avif = work / "a.avif"
        if subprocess.run(["heif-enc", "-A", "-q", "10", "-o", str(avif), str(png)], capture_output=True).returncode == 0:
            write("iso-media", "avif", avif.read_bytes())

        # front-matter: the example's index.md and the keys the docs list.
        for number, index in enumerate(sorted((REPO / "examples").rglob("index.md"))[:3]):
            write("front-matter", f"example-{number}.md", index.read_bytes())
        write("front-matter", "every-key.md", "---\ntitle: Summer \"in\" Brittany\ndate: 2024-07-14\ncover: IMG_2.jpg\n"
                                              "hidden: false\nsort: name-desc\nlayout: rows\ngroup: none\norder:\n"
                                              "  - IMG_3.jpg\n  - IMG_1.jpg\n---\nTwo weeks on the *coast*.\n")
        write("front-matter", "anchors.md", "---\ntitle: &a x\ncover: *a\n---\n")

        # markdown: captions as people write them, and GFM's extensions.
        write("markdown", "caption.md", "A *lovely* <b>day</b> at [the beach](https://example.org/beach?x=1&y=2).\n")
        write("markdown", "gfm.md", "| a | b |\n|:--|--:|\n| `1` | ~~2~~ |\n\nwww.example.com and https://e.org/x\n\n"
                                    "- [x] done\n- item\n\n> quote\n\n```swift\nlet x = 1\n```\n")
        write("markdown", "references.md", "![a][r] [link][] <https://e.org>\n\n[r]: /img.png \"Title\"\n[link]: ../x.html\n\n"
                                           "Setext\n===\n\n1. one\n2. two\n\nhard  \nbreak &amp; &#x41; \\*\n")
        write("markdown", "html.md", "<div>\nblock\n</div>\n\ninline <span class=\"x\">html</span> <br/> <!-- c -->\n")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
