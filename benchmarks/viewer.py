#!/usr/bin/env python3
"""Viewer benchmark: builds albums of generated photos, then measures in headless Chromium
(1920x1080) the tile nodes in the page, the viewer's script time per scroll step and the frame
data per photo, against the same page with scripts off (every tile in the page) as the peer.

Usage: python3 benchmarks/viewer.py [COUNT ...]   (default: 1000 10000 100000)
Needs: a release build (swift build -c release --product cascade), chromium, selenium."""
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "browser"))
from conftest import free_port, make_driver  # noqa: E402
from photo_factory import album  # noqa: E402

BINARY = os.environ.get("CASCADE_BIN", str(REPO / ".build" / "release" / "cascade"))

INSTRUMENT = """
const v = window.cascadeViewer, original = v.update.bind(v);
window.__steps = [];
v.update = function () { const t = performance.now(); original(); window.__steps.push(performance.now() - t); };
"""


def measure(count, workdir):
    album(workdir / "photos" / "Album", count, small=count > 10_000)
    site = workdir / "site"
    started = time.time()
    subprocess.run([BINARY, "build", str(workdir / "photos"), "--output", str(site), "--quiet"], check=True)
    build_seconds = time.time() - started
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1", str(port), "-d", str(site)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)
    url = f"http://127.0.0.1:{port}/album/index.html"
    results = {"photos": count, "build_s": build_seconds,
               "frames_bytes_per_photo": (site / "album" / "frames.json").stat().st_size / count,
               "chunk_bytes_per_photo": sum(p.stat().st_size for p in (site / "album" / "frames").glob("*.json")) / count,
               "html_bytes_per_photo": (site / "album" / "index.html").stat().st_size / count}
    try:
        for javascript in (False, True):
            driver = make_driver(javascript=javascript)
            driver.set_window_size(1920, 1080)
            started = time.time()
            driver.get(url)
            if javascript:
                while not driver.execute_script("return !!window.cascadeViewer"):
                    time.sleep(0.01)
                driver.execute_script(INSTRUMENT)
            load_ms = (time.time() - started) * 1000
            height = driver.execute_script("return document.documentElement.scrollHeight - innerHeight")
            nodes = []
            positions = list(range(0, int(height), 300))
            if len(positions) > 3000:
                # A very tall album: 30 stretches of 100 steps, spread from the top to the bottom.
                starts = [round((len(positions) - 100) * k / 29) for k in range(30)]
                positions = [positions[i] for start in starts for i in range(start, start + 100)]
            for scroll in positions:
                driver.execute_script("window.scrollTo(0, arguments[0])", scroll)
                if javascript:
                    driver.execute_script("return new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                nodes.append(driver.execute_script("return document.querySelectorAll('.wall .tile').length"))
            key = "viewer" if javascript else "static"
            results[f"{key}_load_ms"] = load_ms
            results[f"{key}_max_tile_nodes"] = max(nodes)
            results[f"{key}_dom_elements"] = driver.execute_script("return document.getElementsByTagName('*').length")
            if javascript:
                steps = driver.execute_script("return window.__steps")
                results["viewer_steps"] = len(steps)
                results["viewer_ms_per_step_median"] = statistics.median(steps)
                results["viewer_ms_per_step_p95"] = sorted(steps)[int(len(steps) * 0.95) - 1]
                results["viewer_nodes_created"] = driver.execute_script("return window.cascadeViewer.recycler.created")
            driver.quit()
    finally:
        server.terminate()
    return results


def main():
    counts = [int(a) for a in sys.argv[1:]] or [1000, 10000, 100000]
    for count in counts:
        with tempfile.TemporaryDirectory() as folder:
            r = measure(count, pathlib.Path(folder))
        print(f"\n{count} photos (build {r['build_s']:.1f} s)")
        print(f"  tile nodes at most:  viewer {r['viewer_max_tile_nodes']}, static {r['static_max_tile_nodes']}"
              f"  (ratio {r['static_max_tile_nodes'] / r['viewer_max_tile_nodes']:.1f}x fewer)")
        print(f"  DOM elements at end: viewer {r['viewer_dom_elements']}, static {r['static_dom_elements']}")
        print(f"  nodes created by the viewer over the whole scroll: {r['viewer_nodes_created']}")
        print(f"  script time per scroll step: median {r['viewer_ms_per_step_median']:.3f} ms, "
              f"p95 {r['viewer_ms_per_step_p95']:.3f} ms over {r['viewer_steps']} steps")
        print(f"  page load to ready: viewer {r['viewer_load_ms']:.0f} ms, static {r['static_load_ms']:.0f} ms")
        print(f"  bytes per photo: frames.json {r['frames_bytes_per_photo']:.1f} (loaded at once), chunks "
              f"{r['chunk_bytes_per_photo']:.1f} (loaded as tiles come near), album HTML {r['html_bytes_per_photo']:.1f}")
        print(json.dumps(r))


if __name__ == "__main__":
    main()
