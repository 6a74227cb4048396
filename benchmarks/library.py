#!/usr/bin/env python3
"""A library of 100,000 photos (100 albums of 1,000 small PNGs, Tests/browser/photo_factory.py):
times and peak memory of a first build, a no-op rebuild (found up to date by its stamp), the
same rebuild in full (the stamp removed from the catalog) and a rebuild after one photo changed,
with a release build of cascade. The floor printed beside them is the same run's cost of merely
walking the photo folder and the site with `find` and reading every photo once (`cat`), so the
ratios say how much of a rebuild is Cascade's own work.

    swift build -c release --product cascade
    python3 benchmarks/library.py [--albums 100] [--photos 1000] [--work /tmp/cascade-library]

The corpus is made once in the work folder and reused by later runs (delete it to start over).
"""
import argparse
import os
import pathlib
import shutil
import sqlite3
import subprocess
import sys
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "Tests" / "browser"))
import photo_factory  # noqa: E402


CPU = {}


def run(command, **kwargs):
    """Runs `command`; returns (seconds, peak RSS in MiB) of the child, from wait4, and keeps
    its processor time (user + system) in CPU[seconds]: on a machine that other work shares,
    the processor time says more than the wall time."""
    started = time.monotonic()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.monotonic() - started
    error = process.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(map(str, command))} failed:\n{error[-3000:]}")
    CPU[seconds] = usage.ru_utime + usage.ru_stime
    return seconds, usage.ru_maxrss / 1024


def forget_stamp(catalog):
    """Removes the last build's stamp from the catalog, so that the next build runs in full."""
    with sqlite3.connect(catalog) as database:
        # (With the catalog's foreign keys on, as Cascade's own connections have them: the
        # summary's rows, its folders' input keys among them, go with it.)
        database.execute("PRAGMA foreign_keys = ON")
        database.execute("DELETE FROM last_build")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--albums", type=int, default=100)
    parser.add_argument("--photos", type=int, default=1000)
    parser.add_argument("--work", default="/tmp/cascade-library")
    parser.add_argument("--binary", default=str(REPO / ".build" / "release" / "cascade"))
    arguments = parser.parse_args()
    work = pathlib.Path(arguments.work)
    source = work / f"source-{arguments.albums}x{arguments.photos}"
    if not source.exists():
        print(f"making {arguments.albums * arguments.photos} photos in {source} ...", flush=True)
        partial = source.with_suffix(".partial")
        shutil.rmtree(partial, ignore_errors=True)
        for album in range(arguments.albums):
            photo_factory.album(partial / f"album-{album:03d}", arguments.photos, seed=album, small=True)
        partial.rename(source)
    site = work / "site"
    catalog = work / "catalog.sqlite"
    shutil.rmtree(site, ignore_errors=True)
    for leftover in work.glob("catalog.sqlite*"):
        leftover.unlink()
    build = [arguments.binary, "build", str(source), "-o", str(site), "--catalog", str(catalog), "-q"]
    count = arguments.albums * arguments.photos
    print(f"cascade {arguments.binary}, {count} photos, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")

    floor_walk, _ = run(["sh", "-c", f"find '{source}' -type f | wc -l"])
    floor_read, _ = run(["sh", "-c", f"find '{source}' -type f -exec cat {{}} + > /dev/null"])
    first, first_rss = run(build)
    walk_site, _ = run(["sh", "-c", f"find '{site}' -type f | wc -l"])
    noop, noop_rss = run(build)
    noop2, _ = run(build)
    # The same rebuild without the up-to-date stamp (as after any change): the whole pipeline
    # runs (scan, plan, images, pages, clean-up) and finds nothing to do.
    forget_stamp(catalog)
    full, full_rss = run(build)
    forget_stamp(catalog)
    full2, _ = run(build)
    # (The middle album's middle photo: the same change at every size of library.)
    changed = source / f"album-{arguments.albums // 2:03d}" / f"photo-{arguments.photos // 2:06d}.png"
    original = changed.read_bytes()
    try:
        changed.write_bytes(photo_factory.png(30, 20, (200, 10, 10)))
        one, one_rss = run(build)
    finally:
        changed.write_bytes(original)
    run(build)

    print()
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    print("| build | seconds | processor seconds | peak MiB | per photo |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| first build | {first:.1f} | {CPU[first]:.1f} | {first_rss:.0f} | {1000 * first / count:.2f} ms |")
    print(f"| no-op rebuild | {noop:.2f} / {noop2:.2f} | {CPU[noop]:.2f} / {CPU[noop2]:.2f} | {noop_rss:.0f} | {1e6 * min(noop, noop2) / count:.0f} µs |")
    print(f"| full no-op rebuild (stamp removed) | {full:.2f} / {full2:.2f} | {CPU[full]:.2f} / {CPU[full2]:.2f} | {full_rss:.0f} | |")
    print(f"| one photo changed | {one:.2f} | {CPU[one]:.2f} | {one_rss:.0f} | |")
    print()
    print(f"floor, same run: walking the photo folder {floor_walk:.2f} s, the site {walk_site:.2f} s; "
          f"reading every photo once {floor_read:.2f} s")
    print(f"no-op rebuild / (walk photos + walk site): {min(noop, noop2) / (floor_walk + walk_site):.1f}x")


if __name__ == "__main__":
    main()
