#!/usr/bin/env python3
"""One photo changed, alternated between two builds of cascade on the same library (the
corpus of benchmarks/library.py): each binary keeps its own output folder and catalog in the
work folder, is brought up to date once (not timed), and then, round after round and binary
after binary, the middle album's middle photo is replaced by another and put back, a timed
build after each. Alternating spreads a shared machine's slow minutes over both binaries; the
medians compare.

    swift build -c release --product cascade
    python3 benchmarks/library.py            # makes the corpus once
    python3 benchmarks/one_change_ab.py --new .build/release/cascade --base /tmp/cascade-base [--rounds 4]
"""
import argparse
import os
import pathlib
import statistics
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import library  # noqa: E402  (its run() and the photo factory)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--new", required=True)
    parser.add_argument("--base", required=True)
    parser.add_argument("--albums", type=int, default=100)
    parser.add_argument("--photos", type=int, default=1000)
    parser.add_argument("--work", default="/tmp/cascade-library")
    parser.add_argument("--rounds", type=int, default=4)
    arguments = parser.parse_args()
    work = pathlib.Path(arguments.work)
    source = work / f"source-{arguments.albums}x{arguments.photos}"
    if not source.exists():
        sys.exit(f"{source} is not there: make it with benchmarks/library.py first")
    binaries = {"new": arguments.new, "base": arguments.base}
    builds = {}
    for name, binary in binaries.items():
        folder = work / f"ab-{name}"
        folder.mkdir(exist_ok=True)
        builds[name] = [binary, "build", str(source), "-o", str(folder / "site"), "--catalog", str(folder / "catalog.sqlite"), "-q"]
        library.run(builds[name])  # (up to date, untimed: a first build the first time)
    print(f"{arguments.rounds} rounds, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    changed = source / f"album-{arguments.albums // 2:03d}" / f"photo-{arguments.photos // 2:06d}.png"
    original = changed.read_bytes()
    times = {name: [] for name in binaries}
    processor = {name: [] for name in binaries}
    try:
        for _ in range(arguments.rounds):
            for name in binaries:
                for content in (library.photo_factory.png(30, 20, (200, 10, 10)), original):
                    changed.write_bytes(content)
                    seconds, _ = library.run(builds[name])
                    times[name].append(seconds)
                    processor[name].append(library.CPU[seconds])
    finally:
        changed.write_bytes(original)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    print("| binary | builds, wall s | median | processor s |")
    print("| --- | --- | ---: | ---: |")
    for name in binaries:
        walls = ", ".join(f"{t:.2f}" for t in times[name])
        print(f"| {name} | {walls} | {statistics.median(times[name]):.2f} | {min(processor[name]):.1f}–{max(processor[name]):.1f} |")
    print(f"new / base (medians): {statistics.median(times['new']) / statistics.median(times['base']):.2f}")


if __name__ == "__main__":
    main()
