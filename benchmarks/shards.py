#!/usr/bin/env python3
"""Sharded builds: the same corpus as one build and as 1, 2 and 4 shards plus the final build.

Usage: python3 benchmarks/shards.py [--photos N] [--jobs N] [--cascade PATH] [--library DIR]

1. Corpus: the camera-sized JPEGs of benchmarks/thumbnails.py (about 4000x3000, 3.5 MB each,
   cached in .bench/corpus-v1/), N of them (default 120) in albums of 100.
2. Runs, each into new folders with a catalog of its own, one after the other:
   - one build:      cascade build SRC -o OUT --jobs J --quiet
   - K shards (K = 1, 2, 4 by content, and 4 by path): cascade build SRC --shard k/K
     --shard-by content|path --store STORE --jobs J --quiet for every k, one after the other,
     then the final build
     cascade build SRC -o OUT --store STORE --jobs J --quiet
   and checks that every sharded site equals the one build's, byte for byte.
3. Prints, per run, wall and CPU seconds (user + system of the process, from wait4) and CPU
   seconds per photo, and the ratio of each sharded run's CPU per photo to the one build's,
   measured in the same run (the issue's bound: at most 1.05).
4. With --library DIR (a folder of many small photos, e.g. the 100,000 of
   benchmarks/library.py), also the final build's cost from a store the shards filled, per
   100,000 photos: 4 shards by path, then the final build, timed.

The corpus is read once before timing, so every run reads it from the page cache.
Not a test: scripts/test does not run it.
"""
import argparse
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import thumbnails  # noqa: E402  (the corpus)

REPO = thumbnails.REPO
BENCH = thumbnails.BENCH / "shards"


def tree(root):
    root = pathlib.Path(root)
    return {str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*")) if path.is_file()}


def measured(command, env):
    started = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        print(output[-3000:], file=sys.stderr)
        thumbnails.fail(f"failed: {' '.join(map(str, command))}")
    return seconds, usage.ru_utime + usage.ru_stime


def sharded(binary, source, shards, jobs, work, env, by="content"):
    """K shards one after the other, then the final build; returns the per-step figures."""
    store = work / f"store-{shards}-{by}"
    site = work / f"site-{shards}-{by}"
    steps = []
    for index in range(shards):
        steps.append((f"shard {index}/{shards}",) + measured(
            [binary, "build", str(source), "--shard", f"{index}/{shards}", "--shard-by", by, "--store", str(store),
             "--jobs", str(jobs), "--quiet"], env))
    steps.append(("final build",) + measured(
        [binary, "build", str(source), "-o", str(site), "--store", str(store), "--jobs", str(jobs), "--quiet"], env))
    return site, steps


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--photos", type=int, default=120)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cascade", default=os.environ.get("CASCADE_BIN", str(REPO / ".build/release/cascade")))
    parser.add_argument("--library", help="a folder of many small photos, for the final build's cost per 100,000")
    arguments = parser.parse_args()
    binary = arguments.cascade
    if not os.access(binary, os.X_OK):
        thumbnails.fail(f"no cascade binary at {binary}: swift build -c release --product cascade")

    thumbnails.build_corpus(arguments.photos, arguments.jobs)
    source = thumbnails.source_tree(arguments.photos)
    files = thumbnails.photo_files(source)
    thumbnails.warm_cache(files)
    photos = len(files)
    print(f"commit {thumbnails.git_description()}, binary {binary}, {photos} photos, --jobs {arguments.jobs}", flush=True)

    if BENCH.exists():
        shutil.rmtree(BENCH)
    BENCH.mkdir(parents=True)
    env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(prefix="cascade-bench-cache-"))

    load = thumbnails.load()
    one = measured([binary, "build", str(source), "-o", str(BENCH / "one"), "--jobs", str(arguments.jobs), "--quiet"], env)
    print(f"\n| run | step | wall s | CPU s | CPU s per photo | ÷ one build | load |\n| --- | --- | ---: | ---: | ---: | ---: | --- |")
    print(f"| one build | | {one[0]:.1f} | {one[1]:.1f} | {one[1] / photos:.3f} | 1.000 | {load} |", flush=True)
    expected = tree(BENCH / "one")
    worst = 0.0
    for shards, by in ((1, "content"), (2, "content"), (4, "content"), (4, "path")):
        load = thumbnails.load()
        site, steps = sharded(binary, source, shards, arguments.jobs, BENCH, env, by)
        if tree(site) != expected:
            thumbnails.fail(f"the site of {shards} shards by {by} differs from the one build's")
        run = f"{shards} shard{'s' if shards > 1 else ''}" + (" by path" if by == "path" else "")
        for name, wall, cpu in steps:
            print(f"| {run} | {name} | {wall:.1f} | {cpu:.1f} | {cpu / photos:.3f} | | |")
        wall = sum(step[1] for step in steps)
        cpu = sum(step[2] for step in steps)
        ratio = (cpu / photos) / (one[1] / photos)
        worst = max(worst, ratio)
        print(f"| **{run}, all steps** | | {wall:.1f} | {cpu:.1f} | {cpu / photos:.3f} | {ratio:.3f} | {load} |", flush=True)
    print(f"\nevery sharded site equals the one build's byte for byte; worst CPU ratio {worst:.3f} (bound 1.05)")

    if arguments.library:
        library = pathlib.Path(arguments.library)
        count = sum(1 for _ in library.rglob("*.png"))
        load = thumbnails.load()
        (BENCH / "library").mkdir()
        site, steps = sharded(binary, library, 4, arguments.jobs, BENCH / "library", env, "path")
        print(f"\nlibrary {library}: {count} photos, load {load}")
        for name, wall, cpu in steps:
            print(f"| {name} | {wall:.1f} s | {cpu:.1f} CPU s | per 100,000 photos: {wall * 100_000 / count:.1f} s, {cpu * 100_000 / count:.1f} CPU s |")
        shutil.rmtree(BENCH / "library", ignore_errors=True)


if __name__ == "__main__":
    main()
