#!/usr/bin/env python3
"""Image benchmark: cascade against sigal, vipsthumbnail and libjpeg-turbo's own tools (the floor)
on the same camera-like JPEGs, in one run, with the same number of workers for each.

Usage: python3 benchmarks/thumbnails.py [--photos N] [--jobs N] [--quick] [--cascade PATH] [--only TOOL]

1. Corpus: N JPEGs (default 50) of 12 to 13.5 megapixels (4000x3000 to 4240x3180), quality 90,
   with a small EXIF block, made from the photographs that Debian ships as desktop backgrounds
   (mate-backgrounds: /usr/share/backgrounds/mate/nature/*.jpg; lomiri-wallpapers-20.04: two
   more). Each photo is a different crop of a source, flipped or not, with its own brightness,
   contrast and colour, and sensor-like grain (luminance and colour noise), so no two files are
   alike. One photo in five is a portrait stored landscape with EXIF orientation 6, as cameras
   and phones write them. Cached in .bench/corpus-v2/ (photo i is the same file whatever N, so a
   larger N only adds photos).
2. Each tool makes the images of a gallery from that folder (albums of 100 photos), twice: the
   first build into an empty folder, then a no-op rebuild (the same command, nothing changed):
   - cascade build SRC -o OUT --jobs J --quiet   (tiles 400/800/1600, photos 800/1600/2400 wide:
     four distinct files per photo, JPEG q82, plus pages and frames.json)
   - floor: libjpeg-turbo alone, J workers (xargs -P J): `djpeg -scale M/8` decodes each photo at
     the DCT scale that covers 2400 px upright (the scale cascade decodes at), and `cjpeg -quality
     82` encodes a 2400 and a 400 px wide image (their pixels made by Pillow beforehand, untimed,
     cached in .bench/floor-v1/). The least any tool must do for sigal's two sizes; run once.
   - "cascade, 2 sizes": the same with a cascade.yml asking for sigal's two sizes, 400 and 2400
     px wide (thumbnail_widths: [400], photo_widths: [2400]): the same work as sigal's, except
     that portrait photos get 2400 px wide images where sigal's are 1800 px tall
   - sigal build, -n J: a 400x300 thumbnail (fit) and a 2400x1800 image (fit, so 2400 wide for
     landscape photos, 2400 tall for portrait ones), JPEG q82, no original copied, no EXIF kept,
     plus its pages. It skips images whose output already exists on a rebuild.
   - vipsthumbnail (libvips-tools), J processes with VIPS_CONCURRENCY=1: 400, 800, 1600 and
     2400 px wide, JPEG Q=82, metadata stripped: the same four files per photo and no pages.
     It has no notion of "up to date", so its second run redoes everything.
3. Prints photos per second, the ratios cascade/sigal and cascade/vipsthumbnail (above 1 means
   cascade is faster), each tool's CPU seconds per photo and their ratio to the floor's (the
   goal for "cascade, 2 sizes" is at most 1.3), the peak RSS of each (the sum over all of a
   tool's processes, sampled every 50 ms, and the largest single process from wait4), and the
   load average around each run.

The corpus is read once before timing so every tool reads it from the page cache.
Installs what it needs when missing (apt-get: mate-backgrounds, lomiri-wallpapers-20.04,
libvips-tools, libjpeg-turbo-progs; pip: sigal 2.6.1, which brings Pillow). Exits non-zero if
any tool fails or writes fewer images than expected. Not a test: scripts/test does not run it.
"""
import argparse
import os
import pathlib
import random
import resource
import shutil
import subprocess
import sys
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
BENCH = REPO / ".bench"
CORPUS = BENCH / "corpus-v2"
APT_PACKAGES = ["mate-backgrounds", "lomiri-wallpapers-20.04", "libvips-tools", "libjpeg-turbo-progs"]
SIGAL_VERSION = "2.6.1"
SOURCES = sorted(pathlib.Path("/usr/share/backgrounds/mate/nature").glob("*.jpg")) + [
    pathlib.Path("/usr/share/backgrounds/Infinite-Sea_by_Aury88.jpg"),
    pathlib.Path("/usr/share/backgrounds/Kleiber_by_Lukas_Baubkus.jpg"),
]
ALBUM_SIZE = 100
WIDTHS = [400, 800, 1600, 2400]  # the distinct widths cascade writes per photo
QUALITY = 82


def fail(message):
    print(f"thumbnails.py: {message}", file=sys.stderr)
    sys.exit(1)


# ---------------------------------------------------------------- set-up

def ensure_tools():
    missing = [p for p in APT_PACKAGES
               if subprocess.run(["dpkg-query", "-W", "-f=${Status}", p], capture_output=True,
                                 text=True).stdout != "install ok installed"]
    if missing:
        sudo = [] if os.geteuid() == 0 else ["sudo"]
        print(f"installing {' '.join(missing)} with apt-get", flush=True)
        subprocess.run(sudo + ["apt-get", "update", "-qq"], check=True)
        subprocess.run(sudo + ["apt-get", "install", "-y", "-qq", "--no-install-recommends"] + missing,
                       check=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
    if shutil.which("sigal") is None:
        print(f"installing sigal {SIGAL_VERSION} with pip", flush=True)
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", f"sigal=={SIGAL_VERSION}"], check=True)
    for source in SOURCES:
        if not source.is_file():
            fail(f"missing source photo {source} (from {APT_PACKAGES[:2]})")


# ---------------------------------------------------------------- corpus

def corpus_name(index):
    return f"photo-{index:05d}.jpg"


# Camera sizes of 12 to 13.5 megapixels (4:3), landscape as stored.
CAMERA_SIZES = [(4000, 3000), (4032, 3024), (4128, 3096), (4240, 3180)]


GRAIN_SIZE = 4400  # the noise fields are square: any photo fits, either way up
_grain = None


def grain_fields():
    """Luminance noise (sigma 7) and colour noise (sigma 3.5 per channel), made once per process:
    making them for every photo would take most of the corpus's making."""
    global _grain
    if _grain is None:
        from PIL import Image
        size = (GRAIN_SIZE, GRAIN_SIZE)
        _grain = (Image.effect_noise(size, 7), Image.merge("RGB", [Image.effect_noise(size, 3.5) for _ in range(3)]))
    return _grain


def is_portrait(index):
    """One photo in five is a portrait stored landscape with EXIF orientation 6, as phones and
    cameras write them."""
    return index % 5 == 2


def make_photo(index):
    """Photo `index`: always the same bytes for the same index (seeded by it)."""
    from PIL import Image, ImageChops, ImageEnhance, ImageOps
    target = CORPUS / corpus_name(index)
    if target.exists():
        return
    rng = random.Random(index)
    source = Image.open(SOURCES[index % len(SOURCES)]).convert("RGB")
    stored_width, stored_height = rng.choice(CAMERA_SIZES)
    portrait = is_portrait(index)
    # The upright picture: portrait ones are taller than wide.
    width, height = (stored_height, stored_width) if portrait else (stored_width, stored_height)
    # The largest crop of the source with the target's shape, then 55-100% of it, anywhere.
    sw, sh = source.size
    scale = min(sw / width, sh / height) * rng.uniform(0.55, 1.0)
    cw, ch = int(width * scale), int(height * scale)
    x, y = rng.randint(0, sw - cw), rng.randint(0, sh - ch)
    image = source.crop((x, y, x + cw, y + ch)).resize((width, height), Image.Resampling.BICUBIC)
    if rng.random() < 0.5:
        image = ImageOps.mirror(image)
    image = ImageEnhance.Brightness(image).enhance(rng.uniform(0.85, 1.15))
    image = ImageEnhance.Contrast(image).enhance(rng.uniform(0.85, 1.2))
    image = ImageEnhance.Color(image).enhance(rng.uniform(0.7, 1.3))
    # Sensor-like grain: gaussian noise (centred on 128) common to the three channels
    # (luminance noise) and in each channel on its own (colour noise), cut from this process's
    # noise fields at a place of its own.
    luminance, colour = grain_fields()
    x, y = rng.randint(0, GRAIN_SIZE - width), rng.randint(0, GRAIN_SIZE - height)
    box = (x, y, x + width, y + height)
    image = ImageChops.add(image, luminance.crop(box).convert("RGB"), scale=1.0, offset=-128)
    image = ImageChops.add(image, colour.crop(box), scale=1.0, offset=-128)
    exif = Image.Exif()
    exif[0x0110] = "Benchmark Camera"  # Model
    exif[0x0132] = f"2026:{1 + index % 12:02d}:{1 + index % 28:02d} 12:{index % 60:02d}:00"  # DateTime
    if portrait:
        # Stored turned a quarter counter-clockwise; orientation 6 asks viewers to turn it
        # a quarter clockwise to show it upright.
        image = image.transpose(Image.Transpose.ROTATE_90)
        exif[0x0112] = 6
    else:
        exif[0x0112] = 1
    partial = target.with_suffix(".part")
    image.save(partial, "JPEG", quality=90, exif=exif.tobytes())
    partial.rename(target)


def build_corpus(count, jobs):
    CORPUS.mkdir(parents=True, exist_ok=True)
    todo = [i for i in range(count) if not (CORPUS / corpus_name(i)).exists()]
    if todo:
        print(f"making {len(todo)} photos in {CORPUS.relative_to(REPO)} ...", flush=True)
        started = time.time()
        import multiprocessing
        with multiprocessing.Pool(jobs) as pool:
            pool.map(make_photo, todo, chunksize=4)
        print(f"  done in {time.time() - started:.0f} s", flush=True)


def source_tree(count):
    """A gallery folder of `count` corpus photos in albums of ALBUM_SIZE (hard links)."""
    root = BENCH / f"source-{count}"
    stamp = root / ".complete"
    if stamp.exists():
        return root
    if root.exists():
        shutil.rmtree(root)
    for index in range(count):
        album = root / f"album-{index // ALBUM_SIZE + 1:02d}"
        album.mkdir(parents=True, exist_ok=True)
        os.link(CORPUS / corpus_name(index), album / corpus_name(index))
    stamp.touch()
    return root


def photo_files(root):
    return sorted(p for p in root.rglob("*.jpg"))


def warm_cache(files):
    for path in files:
        with open(path, "rb") as handle:
            while handle.read(1 << 20):
                pass


# ---------------------------------------------------------------- measuring

def tree_rss(pid):
    """Sum of the RSS of `pid` and all its descendants, in KiB (0 once it is gone)."""
    total = 0
    stack = [pid]
    page_kib = os.sysconf("SC_PAGE_SIZE") // 1024
    while stack:
        current = stack.pop()
        try:
            with open(f"/proc/{current}/statm") as handle:
                total += int(handle.read().split()[1]) * page_kib
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children") as handle:
                    stack.extend(int(child) for child in handle.read().split())
        except (FileNotFoundError, ProcessLookupError, PermissionError):
            continue
    return total


def run_measured(command, env=None, cwd=None):
    """Runs `command`; returns (seconds, peak summed RSS KiB, largest process RSS KiB, CPU seconds).

    CPU seconds (user + system, of the command and every descendant it waited for) depend far
    less on what else the machine runs than the wall time does."""
    log = BENCH / "last-command.log"
    with open(log, "w") as output:
        started = time.perf_counter()
        process = subprocess.Popen(command, env=env, cwd=cwd, stdout=output, stderr=subprocess.STDOUT)
        peak = 0
        done = threading.Event()

        def sample():
            nonlocal peak
            while not done.is_set():
                peak = max(peak, tree_rss(process.pid))
                done.wait(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        done.set()
        sampler.join()
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        print(log.read_text()[-4000:], file=sys.stderr)
        fail(f"{command[0]} failed with exit status {process.returncode}: {' '.join(map(str, command))}")
    return seconds, max(peak, usage.ru_maxrss), usage.ru_maxrss, usage.ru_utime + usage.ru_stime


def load():
    return "/".join(f"{value:.1f}" for value in os.getloadavg())


def count_files(root, suffix=".jpg"):
    return sum(1 for path in root.rglob(f"*{suffix}"))


# ---------------------------------------------------------------- the tools

TWO_SIZES_CONFIG = """\
# Written by benchmarks/thumbnails.py: sigal's two sizes.
thumbnail_widths: [400]
photo_widths: [2400]
"""


def two_sizes_tree(source):
    """The gallery `source` again (hard links) with a cascade.yml asking for sigal's two sizes."""
    root = source.with_name(source.name + "-two-sizes")
    stamp = root / ".complete"
    if not stamp.exists():
        if root.exists():
            shutil.rmtree(root)
        for path in photo_files(source):
            target = root / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.link(path, target)
        (root / "cascade.yml").write_text(TWO_SIZES_CONFIG)
        stamp.touch()
    return root


def cascade_runner(binary, source, jobs, widths=WIDTHS, name="cascade"):
    output = BENCH / f"out-{name}"

    def run(first):
        if first and output.exists():
            shutil.rmtree(output)
        return run_measured([binary, "build", str(source), "--output", str(output), "--jobs", str(jobs),
                             "--quality", str(QUALITY), "--format", "jpeg", "--quiet"])

    def check(count):
        images = sum(1 for p in output.rglob("*.jpg") if p.parent.name == "thumbs")
        return images >= count * len(widths), f"{images} images for {count} photos"
    return run, check


SIGAL_CONFIG = """\
# Written by benchmarks/thumbnails.py: cascade's sizes and quality, as far as sigal allows.
source = {source!r}
destination = {destination!r}
img_processor = "ResizeToFit"
img_size = (2400, 1800)
thumb_size = (400, 300)
thumb_fit = False
make_thumbs = True
keep_orig = False
use_orig = False
copy_exif_data = False
autorotate_images = True
jpg_options = {{"quality": {quality}}}
write_html = True
video_converter = None
zip_gallery = False
"""


def sigal_runner(source, jobs):
    output = BENCH / "out-sigal"
    config = BENCH / "sigal.conf.py"

    def run(first):
        if first and output.exists():
            shutil.rmtree(output)
        config.write_text(SIGAL_CONFIG.format(source=str(source), destination=str(output), quality=QUALITY))
        return run_measured(["sigal", "build", "--config", str(config), "--ncpu", str(jobs), "--quiet",
                             str(source), str(output)])

    def check(count):
        thumbs = sum(1 for p in output.rglob("*.jpg") if p.parent.name == "thumbnails")
        images = sum(1 for p in output.rglob("*.jpg") if p.parent.name != "thumbnails")
        return thumbs >= count and images >= count, f"{images} images and {thumbs} thumbnails for {count} photos"
    return run, check


def vips_runner(source, jobs):
    output = BENCH / "out-vips"
    files = photo_files(source)
    listing = BENCH / "vips-files.txt"

    def run(first):
        if output.exists():
            shutil.rmtree(output)  # vipsthumbnail rewrites everything anyway
        output.mkdir(parents=True)
        listing.write_text("".join(f"{path}\n" for path in files))
        # J workers taking batches of photos (at most 25, at least 4 batches per worker) and
        # writing the four widths of each.
        batch = max(1, min(25, len(files) // (jobs * 4)))
        script = ("for w in " + " ".join(map(str, WIDTHS)) + "; do "
                  f"vipsthumbnail --size \"${{w}}x\" -o \"{output}/%s-${{w}}.jpg[Q={QUALITY},strip]\" \"$@\" "
                  "|| exit 255; done")
        env = {**os.environ, "VIPS_CONCURRENCY": "1"}
        return run_measured(["xargs", "-d", "\n", "-a", str(listing), "-n", str(batch), "-P", str(jobs),
                             "sh", "-c", script, "sh"], env=env)

    def check(count):
        images = count_files(output)
        return images >= count * len(WIDTHS), f"{images} images for {count} photos"
    return run, check


FLOOR = BENCH / "floor-v1"
FLOOR_WIDTHS = [2400, 400]  # sigal's two sizes, as cascade makes them: that many pixels wide


def dct_eighths(path):
    """The numerator M of the smallest DCT scale M/8 at which libjpeg-turbo's decoded picture
    still covers the largest image (2400 px wide, upright), as cascade chooses it."""
    from PIL import Image
    with Image.open(path) as image:
        stored_width, stored_height = image.size
        turned = image.getexif().get(0x0112, 1) in (5, 6, 7, 8)
    width, height = (stored_height, stored_width) if turned else (stored_width, stored_height)
    largest = FLOOR_WIDTHS[0]
    if largest >= width:
        return 8
    needed_height = -(-height * largest // width)
    minimum = (needed_height, largest) if turned else (largest, needed_height)
    for eighths in range(1, 9):
        if (-(-stored_width * eighths // 8) >= minimum[0]
                and -(-stored_height * eighths // 8) >= minimum[1]):
            return eighths
    return 8


def make_floor_input(path):
    """The two images cjpeg encodes for `path` (PPM, upright, 2400 and 400 px wide, made by
    Pillow outside the timing) and the DCT scale djpeg decodes it at; cached in FLOOR."""
    from PIL import Image, ImageOps
    eighths = dct_eighths(path)
    outputs = [FLOOR / f"{path.stem}-{width}.ppm" for width in FLOOR_WIDTHS]
    if not all(output.exists() for output in outputs):
        with Image.open(path) as image:
            upright = ImageOps.exif_transpose(image).convert("RGB")
        for width, output in zip(FLOOR_WIDTHS, outputs):
            height = max(1, round(upright.height * width / upright.width))
            partial = output.with_suffix(".part")
            upright.resize((width, height), Image.Resampling.BOX).save(partial, "PPM")
            partial.rename(output)
    return eighths, outputs


def floor_runner(source, jobs):
    """The floor: libjpeg-turbo alone doing the least any tool must do for sigal's two sizes,
    with the same workers: `djpeg -scale M/8` decoding each photo at the DCT scale that covers
    2400 px (M as cascade chooses it), and `cjpeg -quality 82` encoding the 2400 and 400 px
    wide images (their pixels made beforehand, untimed). No resizing, no pages."""
    output = BENCH / "out-floor"
    files = photo_files(source)
    listing = BENCH / "floor-files.txt"
    FLOOR.mkdir(parents=True, exist_ok=True)
    import multiprocessing
    with multiprocessing.Pool(jobs) as pool:
        inputs = pool.map(make_floor_input, files)

    def run(first):
        if output.exists():
            shutil.rmtree(output)
        output.mkdir(parents=True)
        # Five arguments per photo: M, the photo, the two PPMs, the output name.
        listing.write_text("".join(f"{eighths}\n{path}\n{big}\n{small}\n{output / path.stem}\n"
                                   for path, (eighths, (big, small)) in zip(files, inputs)))
        batch = max(1, min(25, len(files) // (jobs * 4)))
        script = ("while [ $# -gt 0 ]; do "
                  "djpeg -scale \"$1/8\" -outfile /dev/null \"$2\" || exit 255; "
                  f"cjpeg -quality {QUALITY} -outfile \"$5-{FLOOR_WIDTHS[0]}.jpg\" \"$3\" || exit 255; "
                  f"cjpeg -quality {QUALITY} -outfile \"$5-{FLOOR_WIDTHS[1]}.jpg\" \"$4\" || exit 255; "
                  "shift 5; done")
        return run_measured(["xargs", "-d", "\n", "-a", str(listing), "-n", str(batch * 5), "-P", str(jobs),
                             "sh", "-c", script, "sh"])

    def check(count):
        images = count_files(output)
        return images >= count * len(FLOOR_WIDTHS), f"{images} images for {count} photos"
    return run, check


# ---------------------------------------------------------------- main

def git_description():
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"],
                           capture_output=True, text=True).stdout.strip()
    return head + (" (with uncommitted changes)" if dirty else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--photos", type=int, default=50, help="photos in the corpus (default 50)")
    parser.add_argument("--jobs", type=int, default=2, help="workers for every tool (default 2)")
    parser.add_argument("--quick", action="store_true", help="smoke run: 12 photos")
    parser.add_argument("--cascade", default=os.environ.get("CASCADE_BIN", str(REPO / ".build/release/cascade")),
                        help="the cascade binary (default .build/release/cascade)")
    parser.add_argument("--only", choices=["cascade", "floor", "cascade-2", "sigal", "vips"], action="append",
                        help="run only these tools (repeatable)")
    args = parser.parse_args()
    count = 12 if args.quick else args.photos
    if count < 1 or args.jobs < 1:
        fail("--photos and --jobs must be at least 1")
    binary = pathlib.Path(args.cascade).resolve()
    if not os.access(binary, os.X_OK):
        fail(f"no cascade binary at {binary}: run `swift build -c release --product cascade` first")

    ensure_tools()
    build_corpus(count, args.jobs)
    source = source_tree(count)
    files = photo_files(source)
    if len(files) != count:
        fail(f"{source} holds {len(files)} photos, expected {count}")
    warm_cache(files)

    built = time.strftime("%Y-%m-%d %H:%M", time.gmtime(binary.stat().st_mtime))
    versions = {
        "cascade": f"{binary} (built {built} UTC), repository at {git_description()}",
        "sigal": subprocess.run(["sigal", "--version"], capture_output=True, text=True).stdout.strip(),
        "vips": subprocess.run(["vipsthumbnail", "--version"], capture_output=True, text=True).stdout.strip(),
        "floor": "libjpeg-turbo " + subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libjpeg-turbo-progs"],
                                                   capture_output=True, text=True).stdout.strip(),
    }
    megabytes = sum(path.stat().st_size for path in files) / 1e6
    print(f"{count} photos ({megabytes:.0f} MB, 12-13.5 MP each, one in five turned by EXIF), {args.jobs} workers per tool, "
          f"{os.cpu_count()} cores")
    for name, version in versions.items():
        print(f"  {name}: {version}")

    tools = {
        "cascade": cascade_runner(str(binary), source, args.jobs),
        "floor": floor_runner(source, args.jobs),
        "cascade-2": cascade_runner(str(binary), two_sizes_tree(source), args.jobs, widths=[400, 2400], name="cascade-2"),
        "sigal": sigal_runner(source, args.jobs),
        "vips": vips_runner(source, args.jobs),
    }
    selected = args.only or list(tools)
    results = {}
    for name in selected:
        run, check = tools[name]
        for first in (True, False) if name != "floor" else (True,):
            before = load()
            seconds, peak, largest, cpu = run(first)
            ok, what = check(count)
            if not ok:
                fail(f"{name} wrote too few images: {what}")
            results[(name, first)] = (seconds, peak, largest, cpu)
            print(f"  {name:8} {'first' if first else 'no-op':5} {seconds:7.1f} s  {count / seconds:7.2f} photos/s  "
                  f"CPU {cpu / count:5.2f} s/photo  peak RSS {peak / 1024:6.0f} MiB (largest process {largest / 1024:.0f})  "
                  f"load {before} -> {load()}", flush=True)

    floor = results.get(("floor", True))
    print()
    print("| tool | build | seconds | photos/s | cascade ratio | CPU s per photo | cascade CPU ratio "
          "| CPU ÷ floor | peak RSS, all processes (largest) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in selected:
        for first in (True, False):
            if name == "floor" and not first:
                continue  # it redoes everything: the same figures again
            seconds, peak, largest, cpu = results[(name, first)]
            rate = count / seconds
            ratio = cpu_ratio = to_floor = ""
            # sigal is compared with cascade making its two sizes, vipsthumbnail with cascade's four.
            peer = "cascade-2" if name == "sigal" and ("cascade-2", first) in results else "cascade"
            if name in ("sigal", "vips") and (peer, first) in results:
                ratio = f"{(count / results[(peer, first)][0]) / rate:.2f}x ({peer})"
                cpu_ratio = f"{cpu / max(results[(peer, first)][3], 1e-9):.2f}x"
            if floor and first:
                to_floor = f"{cpu / max(floor[3], 1e-9):.2f}x"
            label = {"vips": "vipsthumbnail", "cascade-2": "cascade, 2 sizes", "floor": "floor (djpeg + cjpeg)"}.get(name, name)
            print(f"| {label} | {'first' if first else 'no-op'} | {seconds:.1f} | {rate:.2f} | {ratio} | "
                  f"{cpu / count:.3f} | {cpu_ratio} | {to_floor} | "
                  f"{peak / 1024:.0f} MiB ({largest / 1024:.0f} MiB) |")
    print()
    print("cascade ratio = cascade photos/s / the tool's photos/s (above 1: cascade is faster); sigal is compared "
          "with cascade making sigal's two sizes when that run is selected, vipsthumbnail with cascade's four")
    print("cascade CPU ratio = the tool's CPU seconds / cascade's (above 1: cascade uses less CPU)")
    print("CPU ÷ floor = the tool's CPU seconds in its first build / the floor's (libjpeg-turbo alone: djpeg at "
          "the DCT scale covering 2400 px, cjpeg of the 2400 and 400 px images; below 1.3 is the goal for cascade, 2 sizes)")
    if floor and ("cascade-2", True) in results:
        two = results[("cascade-2", True)]
        line = f"cascade, 2 sizes: {two[3] / count:.3f} CPU s per photo = {two[3] / floor[3]:.2f}x the floor ({floor[3] / count:.3f} s)"
        if ("sigal", True) in results:
            sigal = results[("sigal", True)]
            line += f"; {sigal[0] / two[0]:.2f}x sigal's speed; sigal {sigal[3] / floor[3]:.2f}x the floor"
        if ("vips", True) in results:
            line += f"; vipsthumbnail (4 sizes) {results[('vips', True)][3] / floor[3]:.2f}x the floor"
        line += f"; peak RSS {two[1] / 1024:.0f} MiB"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
