#!/usr/bin/env python3
"""Colour-management benchmark: what converting Display P3 photos to sRGB costs cascade.

Usage: python3 benchmarks/colour.py [--photos N] [--rounds N] [--jobs N] [--cascade PATH] [--baseline PATH]
                                   [--baseline-p3] [--corpus gradients|camera] [--perf]

1. Corpus (cached in .bench/colour-v1/): N camera-like JPEGs of 4000x3000, quality 90 (smooth
   gradients and shapes with sensor-like grain, seeded by index), each in two copies with the
   same pixels: `plain/` without a colour profile, `p3/` with a compact Display P3 ICC profile
   (P3 primaries, D65, the sRGB curve, written out here from its definition) in APP2.
2. `cascade build SRC -o OUT --jobs J --quiet` into an empty folder (tiles 400/800/1600, photos
   800/1600/2400 wide), on each copy, alternating, `--rounds` times; with `--baseline`, another
   cascade binary (say, one built before colour management) also builds the plain copy in each
   round, so "no profile costs nothing" is measured in the same run, and with
   `--baseline-p3` its P3 copy too, so both binaries' p3/plain come from the same rounds.
3. Prints CPU seconds per photo (user + system of the build, median over the rounds) and the
   ratios p3/plain and plain/baseline-plain (1.00 = the same cost); then, for each binary, the
   p3/plain of each round (its two builds back to back) and their median and range, which a
   slow phase of a loaded machine moves less than the medians' ratio.

`--corpus camera` takes the first N photos of benchmarks/thumbnails.py's corpus instead (camera-
like 12-13.5 MP JPEGs with sensor grain, one in five a portrait through EXIF orientation 6; made
in .bench/corpus-v2/ if missing), copied to .bench/colour-camera-v1/ with and without the P3
profile, built with sigal's two sizes (400 and 2400 px) as that benchmark does.

`--perf` measures with `perf record` instead of the clock, which these machines' noise moves far
less: each round builds each copy with one worker under `perf record -F 1999`, and prints the
share of the samples in the conversion kernel (`apply_opaque_bmi`) in the P3 build, and the
share of `Renditions.make` in each build (the plain build's is larger by the pass that clears
TurboJPEG's filler byte, which the P3 build does in the conversion). Then, per binary, the
medians and P3 / plain = (1 - clear pass's share of the plain build) / (1 - conversion's share
of the P3 build).
"""
import argparse
import os
import pathlib
import re
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import time

import thumbnails  # (benchmarks/, the script's own folder)

REPO = pathlib.Path(__file__).resolve().parents[1]
CORPUS = REPO / ".bench" / "colour-v1"
CAMERA = REPO / ".bench" / "colour-camera-v1"
# The camera corpus is built as benchmarks/thumbnails.py builds it: its cascade.yml, quality and format.
CAMERA_FLAGS = ["--quality", str(thumbnails.QUALITY), "--format", "jpeg"]


def s15(v):
    return struct.pack(">i", round(v * 65536))


def p3_profile():
    """A version 2 display profile for Display P3 (colorants adapted to D50 with Bradford)."""
    def xyz(p):
        return [p[0] / p[1], 1.0, (1 - p[0] - p[1]) / p[1]]
    prim = [xyz((0.680, 0.320)), xyz((0.265, 0.690)), xyz((0.150, 0.060))]
    white = xyz((0.3127, 0.3290))
    m = [[prim[c][r] for c in range(3)] for r in range(3)]
    det = (m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
           + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]))
    inv = [[(m[(j + 1) % 3][(i + 1) % 3] * m[(j + 2) % 3][(i + 2) % 3] - m[(j + 1) % 3][(i + 2) % 3] * m[(j + 2) % 3][(i + 1) % 3]) / det
            for j in range(3)] for i in range(3)]
    s = [sum(inv[r][k] * white[k] for k in range(3)) for r in range(3)]
    to_xyz = [[m[r][c] * s[c] for c in range(3)] for r in range(3)]
    bradford = [[1.0478112, 0.0228866, -0.0501270], [0.0295424, 0.9904844, -0.0170491], [-0.0092345, 0.0150436, 0.7521316]]
    adapted = [[sum(bradford[r][k] * to_xyz[k][c] for k in range(3)) for c in range(3)] for r in range(3)]
    d50 = [0.9642, 1.0, 0.8249]
    def xyz_tag(v):
        return b"XYZ " + bytes(4) + b"".join(s15(x) for x in v)
    curve = b"para" + bytes(4) + struct.pack(">HH", 3, 0) + b"".join(
        s15(x) for x in [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
    tags = [(b"wtpt", xyz_tag(d50))] + [(name, xyz_tag([adapted[r][i] for r in range(3)]))
                                        for i, name in enumerate([b"rXYZ", b"gXYZ", b"bXYZ"])]
    table_size = 4 + 12 * (len(tags) + 3)
    data, entries = b"", b""
    for name, tag in tags:
        entries += name + struct.pack(">II", 128 + table_size + len(data), len(tag))
        data += tag
    for name in [b"rTRC", b"gTRC", b"bTRC"]:
        entries += name + struct.pack(">II", 128 + table_size + len(data), len(curve))
    data += curve
    total = 128 + table_size + len(data)
    header = (struct.pack(">I", total) + bytes(4) + bytes([2, 0x10, 0, 0]) + b"mntrRGB XYZ " + bytes(12) + b"acsp"
              + bytes(28) + b"".join(s15(x) for x in d50) + bytes(48))
    assert len(header) == 128
    return header + struct.pack(">I", len(tags) + 3) + entries + data


def with_profile(jpeg, profile):
    body = b"ICC_PROFILE\0" + bytes([1, 1]) + profile
    segment = b"\xff\xe2" + struct.pack(">H", len(body) + 2) + body
    at = 2
    if jpeg[2:4] == b"\xff\xe0":
        at = 4 + struct.unpack(">H", jpeg[4:6])[0]
    return jpeg[:at] + segment + jpeg[at:]


def make_corpus(count):
    import io
    import numpy
    from PIL import Image
    profile = p3_profile()
    for folder in ("plain", "p3"):
        (CORPUS / folder / "album").mkdir(parents=True, exist_ok=True)
    for index in range(count):
        name = f"photo-{index:04d}.jpg"
        if (CORPUS / "p3" / "album" / name).exists():
            continue
        rng = numpy.random.default_rng(index)
        h, w = 3000, 4000
        y, x = numpy.mgrid[0:h, 0:w].astype(numpy.float32)
        channels = []
        for c in range(3):
            fx, fy, phase = rng.uniform(0.0005, 0.003, 2).tolist() + [rng.uniform(0, 6.28)]
            channels.append(128 + 90 * numpy.sin(x * fx + y * fy + phase))
        pixels = numpy.stack(channels, axis=-1) + rng.normal(0, 6, (h, w, 3))
        image = Image.fromarray(numpy.clip(pixels, 0, 255).astype(numpy.uint8))
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=90)
        jpeg = buffer.getvalue()
        (CORPUS / "plain" / "album" / name).write_bytes(jpeg)
        (CORPUS / "p3" / "album" / name).write_bytes(with_profile(jpeg, profile))


def make_camera_corpus(count, jobs):
    """The first `count` photos of benchmarks/thumbnails.py's corpus, plain and with the P3 profile."""
    missing = [name for name in thumbnails.SOURCES if not name.exists()]
    if missing and any(not (thumbnails.CORPUS / thumbnails.corpus_name(i)).exists() for i in range(count)):
        sys.exit(f"the camera corpus is made from {missing[0]} and others: run python3 benchmarks/thumbnails.py "
                 f"--photos {count} first (it installs them)")
    thumbnails.build_corpus(count, jobs)
    profile = p3_profile()
    for folder in ("plain", "p3"):
        (CAMERA / folder / "album").mkdir(parents=True, exist_ok=True)
        (CAMERA / folder / "cascade.yml").write_text(thumbnails.TWO_SIZES_CONFIG)
    for index in range(count):
        name = thumbnails.corpus_name(index)
        source = thumbnails.CORPUS / name
        if not (CAMERA / "plain" / "album" / name).exists():
            os.link(source, CAMERA / "plain" / "album" / name)
        if not (CAMERA / "p3" / "album" / name).exists():
            partial = CAMERA / "p3" / "album" / (name + ".part")
            partial.write_bytes(with_profile(source.read_bytes(), profile))
            partial.rename(CAMERA / "p3" / "album" / name)


def build_command(binary, source, output, jobs, flags):
    return [binary, "build", str(source), "-o", str(output), "--catalog", str(output.with_name("out-catalog")),
            "--jobs", str(jobs), "--quiet"] + flags


def clean(output):
    shutil.rmtree(output, ignore_errors=True)
    shutil.rmtree(output.with_name("out-catalog"), ignore_errors=True)


def build(binary, source, jobs, flags):
    output = source.parent / "out"
    clean(output)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    subprocess.run(build_command(binary, source, output, jobs, flags), check=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def perf_shares(binary, source, flags):
    """Shares (%) of a one-worker build's samples: the conversion kernel's and Renditions.make's."""
    output = source.parent / "out"
    clean(output)
    data = source.parent / "perf.data"
    subprocess.run(["perf", "record", "-q", "-F", "1999", "-o", str(data)] + build_command(binary, source, output, 1, flags),
                   check=True, stderr=subprocess.DEVNULL)
    report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--sort", "symbol"],
                            capture_output=True, text=True, check=True).stdout
    conversion = make = 0.0
    for line in report.splitlines():
        match = re.match(r"\s+([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if match and match.group(2) == "apply_opaque_bmi":
            conversion += float(match.group(1))
        elif match and "RenditionsO4make" in match.group(2):
            make += float(match.group(1))
    return conversion, make


def perf_main(args, root, flags, binaries):
    if shutil.which("perf") is None:
        sys.exit("--perf needs perf (apt-get install linux-perf)")
    shares = {binary: {"conversion": [], "make p3": [], "make plain": []} for binary in binaries}
    for round_index in range(args.rounds):
        for binary in (binaries if round_index % 2 == 0 else list(reversed(binaries))):
            conversion, make_p3 = perf_shares(binary, root / "p3", flags)
            _, make_plain = perf_shares(binary, root / "plain", flags)
            shares[binary]["conversion"].append(conversion)
            shares[binary]["make p3"].append(make_p3)
            shares[binary]["make plain"].append(make_plain)
            print(f"round {round_index + 1} {binary}: conversion {conversion:.2f}% of the P3 build; "
                  f"Renditions.make {make_p3:.2f}% (P3), {make_plain:.2f}% (plain)", flush=True)
    print(f"\n{args.photos} photos ({args.corpus}), one worker, median of {args.rounds} rounds:")
    for binary, values in shares.items():
        conversion = statistics.median(values["conversion"])
        clear = max(0.0, statistics.median(values["make plain"]) - statistics.median(values["make p3"]))
        print(f"  {binary}: conversion {conversion:.2f}% (range {min(values['conversion']):.2f}-{max(values['conversion']):.2f}), "
              f"clear pass {clear:.2f}%, P3 / plain {(1 - clear / 100) / (1 - conversion / 100):.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cascade", default=os.environ.get("CASCADE_BIN", str(REPO / ".build/release/cascade")))
    parser.add_argument("--baseline", help="another cascade binary to build the plain copy with")
    parser.add_argument("--baseline-p3", action="store_true", help="the baseline builds the P3 copy too")
    parser.add_argument("--corpus", choices=["gradients", "camera"], default="gradients",
                        help="gradients with grain, 4000x3000 (default), or thumbnails.py's camera-like photos")
    parser.add_argument("--perf", action="store_true", help="measure perf sample shares instead of CPU time")
    args = parser.parse_args()
    if args.corpus == "camera":
        make_camera_corpus(args.photos, args.jobs)
        root, flags = CAMERA, CAMERA_FLAGS
    else:
        make_corpus(args.photos)
        root, flags = CORPUS, []
    for folder in ("plain", "p3"):
        files = sorted((root / folder / "album").glob("*.jpg"))
        if len(files) < args.photos:
            sys.exit("corpus incomplete")
        if len(files) > args.photos:
            sys.exit(f"{root / folder} holds more than {args.photos} photos: use the same --photos, or delete it")
        for f in files:
            f.read_bytes()  # into the page cache
    if args.perf:
        perf_main(args, root, flags, [args.cascade] + ([args.baseline] if args.baseline else []))
        return
    runs = [("plain", args.cascade, "plain"), ("p3", args.cascade, "p3")]
    if args.baseline:
        runs.append(("baseline plain", args.baseline, "plain"))
        if args.baseline_p3:
            runs.append(("baseline p3", args.baseline, "p3"))
    times = {name: [] for name, _, _ in runs}
    for round_index in range(args.rounds):
        for name, binary, folder in (runs if round_index % 2 == 0 else list(reversed(runs))):
            cpu, wall = build(binary, root / folder, args.jobs, flags)
            times[name].append(cpu / args.photos)
            print(f"round {round_index + 1} {name:15} {cpu / args.photos:.3f} s CPU/photo ({wall:.1f} s wall)", flush=True)
    median = {name: statistics.median(values) for name, values in times.items()}
    print(f"\n{args.photos} photos ({args.corpus}), --jobs {args.jobs}, median of {args.rounds} rounds (CPU s/photo):")
    for name, value in median.items():
        print(f"  {name:15} {value:.3f}")
    print(f"  p3 / plain: {median['p3'] / median['plain']:.3f}")
    if args.baseline:
        print(f"  plain / baseline plain: {median['plain'] / median['baseline plain']:.3f}")
    pairs = [("", "p3", "plain")] + ([("baseline ", "baseline p3", "baseline plain")] if "baseline p3" in times else [])
    for label, p3, plain in pairs:
        ratios = sorted(a / b for a, b in zip(times[p3], times[plain]))
        print(f"  {label}p3 / plain by round: median {statistics.median(ratios):.3f}, range {ratios[0]:.3f}-{ratios[-1]:.3f}")


if __name__ == "__main__":
    main()
