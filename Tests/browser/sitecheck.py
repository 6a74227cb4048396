"""Helpers for the browser tests that need no browser: reading the built site's pages by the
site contract (album pages, tiles, album cards, photo pages), fetching URLs from the test server,
and reading an image's pixel size from its header."""
import html.parser
import pathlib
import struct
import urllib.error
import urllib.parse
import urllib.request

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class Page(html.parser.HTMLParser):
    """What the tests need from one HTML page, read with the standard library's parser."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.lang = None
        self.title = None
        self.viewport = False
        self.images = []        # every <img>: its attributes, plus "_in" = "tile" | "album-card" | None
        self.tiles = []         # a.tile inside div.wall: {"href", "images": [attrs...]}
        self.walls = 0
        self.album_cards = []   # ul.albums > li.album-card > a: {"href", "images": [attrs...]}
        self.rel = {}           # rel (prev/next/up) -> href of the first such <a>
        self.photo_images = []  # img.photo-image
        self._stack = []        # open elements: (tag, classes)
        self._title_parts = None
        self._tile = None
        self._card = None
        self.feed(text)
        self.close()

    def _inside(self, tag, cls):
        return any(t == tag and cls in c for t, c in self._stack)

    def handle_starttag(self, tag, attrs):
        a = {k: (v if v is not None else "") for k, v in attrs}
        classes = a.get("class", "").split()
        if tag == "html":
            self.lang = a.get("lang")
        elif tag == "meta" and a.get("name", "").lower() == "viewport":
            self.viewport = True
        elif tag == "title":
            self._title_parts = []
        elif tag == "div" and "wall" in classes:
            self.walls += 1
        elif tag == "a":
            if "tile" in classes and self._inside("div", "wall"):
                self._tile = {"href": a.get("href"), "images": []}
                self.tiles.append(self._tile)
            elif (self._stack and self._stack[-1][0] == "li" and "album-card" in self._stack[-1][1]
                  and self._inside("ul", "albums")):
                self._card = {"href": a.get("href"), "images": []}
                self.album_cards.append(self._card)
            for rel in a.get("rel", "").split():
                self.rel.setdefault(rel, a.get("href"))
        elif tag == "img":
            where = "tile" if self._tile is not None else "album-card" if self._card is not None else None
            self.images.append(dict(a, _in=where))
            if self._tile is not None:
                self._tile["images"].append(a)
            if self._card is not None:
                self._card["images"].append(a)
            if "photo-image" in classes:
                self.photo_images.append(a)
        if tag not in VOID:
            self._stack.append((tag, classes))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self._stack and self._stack[-1][0] == tag:
            self._stack.pop()

    def handle_endtag(self, tag):
        if tag == "title" and self._title_parts is not None:
            self.title = "".join(self._title_parts).strip()
            self._title_parts = None
        if tag == "a":
            self._tile = None
            self._card = None
        # Close up to the matching open element (tolerates implied end tags).
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                break

    def handle_data(self, data):
        if self._title_parts is not None:
            self._title_parts.append(data)


def read_page(path):
    return Page(pathlib.Path(path).read_text(encoding="utf-8"))


def html_files(site):
    """Site-relative paths (POSIX, not encoded) of every HTML file of the site."""
    return sorted(p.relative_to(site).as_posix() for p in pathlib.Path(site).rglob("*.html"))


def album_pages(site):
    """Site-relative paths of every album page: the site's index.html files, found by walking."""
    return [p for p in html_files(site) if p == "index.html" or p.endswith("/index.html")]


def url_of(base, relative_path):
    """The server URL of a site-relative file path."""
    return urllib.parse.urljoin(base, urllib.parse.quote(relative_path))


def srcset_urls(srcset):
    """The URLs of a srcset attribute ("a.jpg 400w, b.jpg 800w")."""
    return [candidate.split()[0] for candidate in (srcset or "").split(",") if candidate.strip()]


def srcset_candidates(srcset):
    """(url, descriptor) pairs of a srcset attribute."""
    pairs = []
    for candidate in (srcset or "").split(","):
        parts = candidate.split()
        if parts:
            pairs.append((parts[0], parts[1] if len(parts) > 1 else ""))
    return pairs


def fetch(url):
    """(status, body) of a GET; HTTP errors give their status instead of raising."""
    try:
        with urllib.request.urlopen(url, timeout=15) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def image_size(data):
    """(width, height) of a JPEG, PNG, WebP or GIF from its header, or None if unknown."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
        return struct.unpack(">II", data[16:24])
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return struct.unpack("<HH", data[6:10])
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        chunk = data[12:16]
        if chunk == b"VP8 ":
            w, h = struct.unpack("<HH", data[26:30])
            return w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L":
            b = data[21:25]
            w = 1 + (((b[1] & 0x3F) << 8) | b[0])
            h = 1 + (((b[3] & 0x0F) << 10) | (b[2] << 2) | ((b[1] & 0xC0) >> 6))
            return w, h
        if chunk == b"VP8X":
            w = 1 + int.from_bytes(data[24:27], "little")
            h = 1 + int.from_bytes(data[27:30], "little")
            return w, h
        return None
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 4 <= len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker == 0xFF:
                i += 1
                continue
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            length = struct.unpack(">H", data[i + 2:i + 4])[0]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                h, w = struct.unpack(">HH", data[i + 5:i + 9])
                return w, h
            i += 2 + length
    return None


def overlaps(a, b, tolerance):
    """Whether two (left, top, right, bottom) boxes share interior, beyond the tolerance."""
    return (a[0] < b[2] - tolerance and b[0] < a[2] - tolerance
            and a[1] < b[3] - tolerance and b[1] < a[3] - tolerance)
