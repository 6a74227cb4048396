#!/usr/bin/env python3
"""Search at scale: a library of ALBUMS x PHOTOS small photos (Tests/browser/photo_factory.py),
each with a caption of a few words drawn from a vocabulary of 5,000 (a `.txt` beside it), built
by cascade with its own search index (`search/`); prints

- the build (wall, processor seconds, peak RSS) and its search-index stage (cascade -v's
  "search index" line: wall and processor seconds);
- the index's files and bytes: `index.gz`, the term shards `t/`, the record chunks `p/`, `f.gz`;
- in headless Chromium on loopback (Python's http.server; the index's files are gzip as written):
  what opening the search box downloads (`assets/search-box.js`, `search/index.gz`), then for each
  of a few queries typed into the box what the query downloads (its shards and the record chunks
  of the results shown) and how long from the last key typed to the results shown.

    swift build --product cascade          # (or -c release, and --binary .build/release/cascade)
    python3 benchmarks/search.py [--albums 100] [--photos 1000] [--work /tmp/cascade-search] [--binary PATH]

The corpus and the site are made once in the work folder and reused by later runs (delete it
to start over); --rebuild builds the site again.
"""
import argparse
import os
import pathlib
import random
import re
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "browser"))
import photo_factory  # noqa: E402


def words(count, rng):
    """A vocabulary of `count` made-up words of 4 to 10 letters."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    found = set()
    while len(found) < count:
        found.add("".join(rng.choice(letters) for _ in range(rng.randint(4, 10))))
    return sorted(found)


def make_corpus(photos, albums, per_album):
    rng = random.Random(33)
    vocabulary = words(5000, rng)
    for album in range(albums):
        folder = photos / f"album-{album:03d}"
        if folder.is_dir() and len(list(folder.glob("*.png"))) == per_album:
            continue
        photo_factory.album(folder, per_album, seed=album, small=True)
        for index in range(per_album):
            caption = " ".join(rng.choice(vocabulary) for _ in range(rng.randint(3, 12)))
            (folder / f"photo-{index:06d}.png.txt").write_text(caption.capitalize() + "\n")
    return vocabulary


def run_measured(command, **kwargs):
    """Runs `command`; returns (wall s, user s, system s, peak RSS MiB, output)."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    if status != 0:
        sys.exit(f"{' '.join(map(str, command))} failed ({status}):\n{output[-3000:]}")
    return wall, usage.ru_utime, usage.ru_stime, usage.ru_maxrss / 1024, output


BROWSE = """
const [query, done] = [arguments[0], arguments[arguments.length - 1]];
const input = document.querySelector('#site-search-input');
const status = document.querySelector('.search-status');
let typedAt = 0, typed = false;
// The results of the whole query: the first change of the count after its last key (the
// script never shows an earlier query's results once a later one is typed).
const observer = new MutationObserver(() => {
  if (!typed) return;
  observer.disconnect();
  const ms = performance.now() - typedAt;
  setTimeout(() => done({ms: ms, results: status.textContent}), 500);
});
observer.observe(status, {childList: true, characterData: true, subtree: true});
input.value = '';
// Typed one key at a time, as a person types (the last key's time is what counts).
let at = 0;
(function next() {
  input.value = query.slice(0, ++at);
  if (at === query.length) { typedAt = performance.now(); typed = true; }
  input.dispatchEvent(new Event('input'));
  if (at < query.length) setTimeout(next, 120);
})();
"""

# (The box loads index.gz on focus; the filters' f.gz only when they are opened.)
OPEN = """
const done = arguments[arguments.length - 1];
document.querySelector('#site-search-input').focus();
done({});
"""

# What the server sent, (path, bytes) per request.
SENT = []


def counting_server(folder, script=None):
    """A loopback HTTP server of `folder` (as python3 -m http.server) that logs what it sends;
    with `script`, that file is served as `assets/search-box.js` (the box's code; `search.js`
    is only its loader since issue 34's split). A request for `/__results_shown` (a page's mark
    in the log) is logged too, though it finds no file."""
    import functools
    import http.server
    import threading

    class Handler(http.server.SimpleHTTPRequestHandler):
        def translate_path(self, path):
            if script and path.split("?")[0].endswith("/assets/search-box.js"):
                return str(script)
            return super().translate_path(path)

        def copyfile(self, source, outputfile):
            data = source.read()
            outputfile.write(data)
            SENT.append((self.path, len(data)))

        def send_error(self, code, message=None, explain=None):
            if self.path.startswith("/__results_shown"):
                SENT.append((self.path, 0))
            super().send_error(code, message, explain)

        def log_message(self, *arguments):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def searching(path):
    """Whether the server's `path` is one of search's: the box's script or a file of the index."""
    return "/search/" in path or path.split("?")[0].endswith("/assets/search-box.js")


def sent_since(mark):
    files = [(path.split("?")[0].split("/search/")[-1].split("/assets/")[-1], size)
             for path, size in SENT[mark:] if searching(path)]
    return files, sum(size for _, size in files)


def describe_index(site):
    """The index's files: how many and how large, by kind."""
    folder = site / "search"
    def group(paths):
        sizes = [p.stat().st_size for p in paths]
        return f"{len(sizes):,} files, {sum(sizes) / 1024:.0f} KB (largest {max(sizes, default=0) / 1024:.1f} KB)"
    every = [p for p in folder.rglob("*") if p.is_file()]
    filters = folder / "f.gz"
    return (f"search index: {len(every):,} files, {sum(p.stat().st_size for p in every) / 1e6:.2f} MB: "
            f"index.gz {(folder / 'index.gz').stat().st_size / 1024:.1f} KB, "
            f"shards t/ {group(list(folder.glob('t/*.gz')))}, records p/ {group(list(folder.glob('p/*.gz')))}, "
            + (f"f.gz {filters.stat().st_size / 1024:.1f} KB" if filters.is_file() else "no f.gz"))


def stage_line(output):
    """cascade -v's line of the search-index stage: (wall s, processor s), or None."""
    found = re.search(r"^search index: ([\d.]+) s(?: \(([\d.]+) processor s\))?", output, re.M)
    return (float(found.group(1)), float(found.group(2) or "nan")) if found else None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--albums", type=int, default=100)
    parser.add_argument("--photos", type=int, default=1000)
    parser.add_argument("--work", default="/tmp/cascade-search")
    parser.add_argument("--binary", default=str(REPO / ".build" / "debug" / "cascade"))
    parser.add_argument("--rebuild", action="store_true")
    arguments = parser.parse_args()
    work = pathlib.Path(arguments.work)
    photos, site = work / "photos", work / "site"
    total = arguments.albums * arguments.photos
    print(f"{total:,} photos ({arguments.albums} albums of {arguments.photos:,}), {os.cpu_count()} cores, "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    vocabulary = make_corpus(photos, arguments.albums, arguments.photos)
    env = dict(os.environ, XDG_CACHE_HOME=str(work / "cache"))
    if arguments.rebuild or not (site / "search" / "index.gz").is_file():
        wall, user, system, rss, output = run_measured([arguments.binary, "build", str(photos), "-o", str(site), "-v"], env=env)
        stage = stage_line(output)
        print(f"cascade build: {wall:.1f} s wall, {user + system:.1f} processor s, {rss:.0f} MiB peak; "
              + (f"its search index stage: {stage[0]:.2f} s wall, {stage[1]:.2f} processor s" if stage
                 else "no search index stage line"), flush=True)
    print(describe_index(site), flush=True)

    from conftest import make_driver  # noqa: E402 (sets the test cache folder too)
    rng = random.Random(7)
    queries = [rng.choice(vocabulary) for _ in range(4)] + [rng.choice(vocabulary)[:3], "zzzzzz"]
    server, base = counting_server(site)
    driver = make_driver()
    try:
        driver.set_script_timeout(60)
        driver.set_window_size(1440, 900)
        driver.get(base + "album-000/index.html")
        mark = len(SENT)
        driver.execute_async_script(OPEN)
        deadline = time.monotonic() + 30
        while not any(path.split("?")[0].endswith("/search/index.gz") for path, _ in SENT[mark:]):
            if time.monotonic() > deadline:
                sys.exit("the search box did not fetch search/index.gz within 30 s of its focus")
            time.sleep(0.02)
        files, size = sent_since(mark)
        print(f"opening the search box: {size / 1024:.0f} KB in {len(files)} files: "
              + ", ".join(f"{name} {length / 1024:.1f} KB" for name, length in files), flush=True)
        for query in queries:
            mark = len(SENT)
            result = driver.execute_async_script(BROWSE, query)
            files, size = sent_since(mark)
            print(f"query {query!r}: {result['results']} shown {result['ms']:.0f} ms after the last key; "
                  f"downloaded {size / 1024:.1f} KB in {len(files)} files", flush=True)
    finally:
        driver.quit()
        server.shutdown()


if __name__ == "__main__":
    main()
