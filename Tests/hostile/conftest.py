"""Fixtures and helpers for the hostile-input tests: running the real `cascade build` (with
resource limits, measuring the child's peak RSS), serving a built site over HTTP, and reading a
built site (frames.json items, every URL of every page).

Environment:
  CASCADE_BIN              the cascade binary (default: <repo>/.build/debug/cascade)
  CASCADE_SKIP_LOAD_TEST   set to 1 to skip the 5,000-photo load test
"""
import atexit
import dataclasses
import html.parser
import json
import os
import pathlib
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

# The builds these tests run keep their catalogs in a cache folder of their own, removed at the
# end, not in the user's (~/.cache/cascade).
_CACHE = tempfile.mkdtemp(prefix="cascade-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "browser"))
import framedata  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
sys.path.insert(0, str(REPO / "Tests" / "browser"))

import sitecheck  # noqa: E402  (Tests/browser: image_size, fetch)


def binary():
    path = os.environ.get("CASCADE_BIN") or str(REPO / ".build" / "debug" / "cascade")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        pytest.fail(f"the cascade binary {path} is missing: run `swift build --product cascade` "
                    "or set CASCADE_BIN", pytrace=False)
    return path


@dataclasses.dataclass
class Run:
    command: list
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    max_rss_kib: int       # cascade's own peak resident set size (VmHWM, see cascade())

    def describe(self):
        return (f"`{' '.join(map(str, self.command))}` exited with {self.returncode} "
                f"after {self.seconds:.1f} s\n--- stdout\n{self.stdout[-4000:]}\n--- stderr\n{self.stderr[-4000:]}")

    def skipped(self):
        """{relative path: reason} from the `skipped PATH: REASON` lines on stderr."""
        found = {}
        for line in self.stderr.splitlines():
            m = re.match(r"^skipped (.+?): (.+)$", line)
            if m:
                found[m.group(1)] = m.group(2)
        return found

    def assert_clean_exit(self):
        """Exit status 0, no signal, no Swift runtime trap."""
        assert self.returncode == 0, self.describe()
        for marker in ["Fatal error", "Segmentation fault", "Illegal instruction", "Current stack trace",
                       "💣", "Abort"]:
            assert marker not in self.stderr, f"runtime failure ({marker!r}):\n" + self.describe()


def vm_hwm_kib(pid):
    """The peak RSS (VmHWM) of the process's current program, or 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def cascade(*arguments, address_space=None, timeout=300):
    """Runs `cascade ARGUMENTS...` and returns a Run with cascade's own peak RSS.
    `address_space` (bytes) caps the child's virtual memory (RLIMIT_AS, as `prlimit --as` does).

    The peak is the largest VmHWM read from /proc while it runs (every 20 ms). wait4's
    ru_maxrss would not do: Linux folds the forked pytest process's RSS (50-60 MiB, from
    before exec) into it."""
    command = [binary(), *map(str, arguments)]

    def limit():
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, open(os.devnull, "rb") as stdin:
        started = time.monotonic()
        process = subprocess.Popen(command, stdin=stdin, stdout=out, stderr=err, cwd=REPO, preexec_fn=limit)
        peak = 0
        while True:
            peak = max(peak, vm_hwm_kib(process.pid))
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > started + timeout:
                process.kill()
                os.wait4(process.pid, 0)
                pytest.fail(f"`{' '.join(command)}` did not finish in {timeout} s", pytrace=False)
            time.sleep(0.02)
        process.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        return Run(command, process.returncode, out.read().decode(errors="replace"),
                   err.read().decode(errors="replace"), seconds, peak)


class Serve:
    """`python3 -m http.server` on 127.0.0.1 serving `folder`, for the lifetime of a with-block."""

    def __init__(self, folder):
        self.folder = folder

    def __enter__(self):
        with __import__("socket").socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.process = subprocess.Popen(
            [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "-d", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 15
        while True:
            if self.process.poll() is not None:
                pytest.fail(f"the HTTP server exited with status {self.process.returncode}")
            try:
                urllib.request.urlopen(self.base, timeout=1).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    self.process.kill()
                    pytest.fail(f"the HTTP server on port {port} did not answer")
                time.sleep(0.05)

    def __exit__(self, *exc):
        self.process.kill()
        self.process.wait(timeout=10)


# --- reading a built site -----------------------------------------------------------------------

class Links(html.parser.HTMLParser):
    """Every URL a page refers to (href, src, srcset, poster, inline style url()), every element
    with its attributes, and the page's text."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.urls = []
        self.elements = []      # (tag, {attr: value})
        self.text = []
        self._in = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        a = {k: (v or "") for k, v in attrs}
        self.elements.append((tag, a))
        for name in ("href", "src", "poster", "data-src"):
            if name in a:
                self.urls.append(a[name])
        for name in ("srcset", "data-srcset"):
            if name in a:
                self.urls.extend(sitecheck.srcset_urls(a[name]))
        if "style" in a:
            self.urls.extend(re.findall(r"url\(\s*['\"]?([^'\")]+)", a["style"]))

    def handle_data(self, data):
        self.text.append(data)


def external(url):
    scheme = urllib.parse.urlsplit(url).scheme
    return scheme in ("data", "mailto", "javascript", "tel") or (scheme in ("http", "https") and "127.0.0.1" not in url)


def site_files(out):
    """Site-relative POSIX paths of every file in the built site."""
    out = pathlib.Path(out)
    return sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())


def site_entries(out):
    """``site_files``, but for the search index (`search/`, or `search-N/`), which counts as one
    entry, its folder's name: its term shards and record chunks follow from every photo's words
    (a removed photo may take a shard with it), and what it holds is tested in SearchIndexTests,
    SearchTests and Tests/browser/test_search.py. For comparing the files of two builds."""
    out = pathlib.Path(out)
    found = set()
    for name in site_files(out):
        top = name.split("/", 1)[0]
        if "/" in name and re.fullmatch(r"search(-\d+)?", top) and (out / top / "index.gz").is_file():
            found.add(top + "/")
        else:
            found.add(name)
    return sorted(found)


def frames_items(out):
    """[(album folder relative to the site, item dict, item index, frames document)] for every
    frames.json in the site."""
    out = pathlib.Path(out)
    found = []
    for path in sorted(out.rglob("frames.json")):
        for part in [path, *sorted((path.parent / "frames").glob("*.json"))]:
            json.loads(part.read_text(encoding="utf-8"),
                       parse_constant=lambda c: pytest.fail(f"{part}: non-finite number {c}"))
        document = framedata.load(path)  # frame data v2 expanded: items with URLs, frames per breakpoint
        folder = path.parent.relative_to(out).as_posix()
        folder = "" if folder == "." else folder + "/"
        for index, item in enumerate(document["items"]):
            found.append((folder, item, index, document))
    return found


def local_file(out, folder, url):
    """The site file a relative URL (from the site folder `folder`) names."""
    path = urllib.parse.unquote(urllib.parse.urlsplit(url).path)
    return (pathlib.Path(out) / folder / path).resolve()


NON_FINITE = re.compile(r"(?<![\w-])(-?nan|-?inf|NaN|-?Infinity)(?![\w-])")
