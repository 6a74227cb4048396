#!/usr/bin/env python3
"""How long `cascade serve` takes to serve a changed photo's new image, in the library of
benchmarks/library.py (100,000 photos by default): from the moment a photo is replaced to the
moment its page's image, fetched over HTTP, has the new bytes. Each round replaces the same
photo, alternately with another photo of the library and with its own original bytes.

    swift build -c release --product cascade
    python3 benchmarks/library.py                # makes the library and its site once
    python3 benchmarks/serve_latency.py [--rounds 4] [--binary PATH] [--work /tmp/cascade-library]

The site and catalog of library.py are used (serve's first build finds them up to date).
"""
import argparse
import hashlib
import pathlib
import re
import shutil
import subprocess
import sys
import time
import urllib.request

REPO = pathlib.Path(__file__).resolve().parents[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "cascade"))
    parser.add_argument("--work", default="/tmp/cascade-library")
    parser.add_argument("--port", type=int, default=8791)
    args = parser.parse_args()
    work = pathlib.Path(args.work)
    source = work / "source-100x1000"
    photo = source / "album-050" / "photo-000500.png"
    other = source / "album-051" / "photo-000501.png"
    if not photo.exists() or not other.exists():
        sys.exit(f"no library in {work}: run benchmarks/library.py first")
    original = photo.read_bytes()
    server = subprocess.Popen(
        [args.binary, "serve", str(source), "-o", str(work / "site"), "--catalog", str(work / "catalog.sqlite"),
         "--port", str(args.port), "-q"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def get(path):
        try:
            return urllib.request.urlopen(f"http://127.0.0.1:{args.port}/{path}", timeout=5).read()
        except OSError:
            return None

    def image():
        """The bytes of the photo's largest image named on its page."""
        page = get("album-050/photo-000500.html") or b""
        names = re.findall(rb"thumbs/photo-000500-\d+\.\w+", page)
        return get("album-050/" + names[-1].decode()) if names else None

    results = []
    try:
        started = time.monotonic()
        while get("index.html") is None:
            if time.monotonic() - started > 300:
                sys.exit("the server did not start")
            time.sleep(0.1)
        time.sleep(2)
        for round in range(args.rounds):
            before = hashlib.sha1(image() or b"").hexdigest()
            time.sleep(1)
            started = time.monotonic()
            if round % 2 == 0:
                shutil.copyfile(other, photo)
            else:
                photo.write_bytes(original)
            while True:
                now = image()
                if now and hashlib.sha1(now).hexdigest() != before:
                    break
                if time.monotonic() - started > 60:
                    sys.exit("the new image was not served within 60 s")
                time.sleep(0.05)
            results.append(time.monotonic() - started)
            print(f"round {round + 1}: {results[-1]:.2f} s", flush=True)
            time.sleep(2)
    finally:
        photo.write_bytes(original)
        server.terminate()
        server.wait()
    print("changed photo's new image served after (s, sorted):", " ".join(f"{x:.2f}" for x in sorted(results)))


if __name__ == "__main__":
    main()
