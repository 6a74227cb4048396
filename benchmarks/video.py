#!/usr/bin/env python3
"""Video benchmark: publishing ten 1080p clips of 30 s, the remux path against a full transcode
(and against sigal's video support, when sigal is installed).

Usage: python3 benchmarks/video.py [--clips N] [--seconds S] [--jobs N] [--cascade PATH]

1. Corpus (cached in .bench/video-v1/): N clips of 1920x1080, 30 fps, S seconds (ffmpeg's
   `testsrc2` moving pattern, a different seed of noise each, and a 440 Hz tone), H.264 High
   + AAC, in two copies with the same streams: `mp4/` (MP4: web-ready, so cascade copies the
   streams into its web version) and `mkv/` (Matroska: not playable by every browser, so cascade
   encodes it again: H.264 `-preset fast`, CRF 24 for video_quality 75, AAC).
2. `cascade build SRC -o OUT --jobs J --quiet` into an empty folder (and an empty catalog) on each
   copy, then a rebuild of the mp4 copy with nothing changed. With sigal (`pip install sigal`),
   `sigal build` at the same size (`video_size = (1920, 1080)`; its default is 480x360) with
   `video_format = "mp4"`: of the mkv copy (sigal encodes it: H.264 via libx264, AAC) and of the
   mp4 copy (sigal copies an MP4 within the size as it is); with `--sigal-webm` also with its
   default format (WebM, VP8 via libvpx, much slower).
3. Prints the wall and CPU time of each, per clip, and the ratios against the full transcode.
"""
import argparse
import os
import pathlib
import resource
import shutil
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parents[1]
CORPUS = REPO / ".bench" / "video-v1"


def run(command, **kwargs):
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kwargs)


def corpus(clips, seconds):
    folder = CORPUS / f"{clips}x{seconds}s"
    mp4, mkv = folder / "mp4" / "Clips", folder / "mkv" / "Clips"
    if (folder / "done").exists():
        return folder
    for copy in (mp4, mkv):
        copy.mkdir(parents=True, exist_ok=True)
    for index in range(clips):
        name = f"clip{index:02d}"
        run(["ffmpeg", "-nostdin", "-y", "-f", "lavfi", "-i", f"testsrc2=size=1920x1080:rate=30",
             "-f", "lavfi", "-i", "sine=frequency=440", "-t", str(seconds),
             "-vf", f"noise=alls=12:allf=t:all_seed={index + 1}", "-c:v", "libx264", "-preset", "veryfast",
             "-crf", "23", "-pix_fmt", "yuv420p", "-c:a", "aac", str(mp4 / f"{name}.mp4")])
        run(["ffmpeg", "-nostdin", "-y", "-i", str(mp4 / f"{name}.mp4"), "-c", "copy", str(mkv / f"{name}.mkv")])
    (folder / "done").write_text("ok\n")
    return folder


def timed(command, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode != 0:
        sys.exit(f"{' '.join(map(str, command))} failed:\n{result.stdout}\n{result.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clips", type=int, default=10)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--sigal-webm", action="store_true", help="also time sigal's default WebM (VP8) output (slow)")
    parser.add_argument("--cascade", default=str(REPO / ".build" / "release" / "cascade"))
    arguments = parser.parse_args()
    folder = corpus(arguments.clips, arguments.seconds)
    work = pathlib.Path(tempfile.mkdtemp(prefix="cascade-video-bench-"))
    env = dict(os.environ, XDG_CACHE_HOME=str(work / "cache"))
    results = []
    try:
        def cascade(label, source, output):
            wall, cpu = timed([arguments.cascade, "build", str(source), "-o", str(output), "--jobs", str(arguments.jobs), "--quiet"], env)
            results.append((label, wall, cpu))
            report(results[-1])

        def report(result):
            label, wall, cpu = result
            print(f"| {label} | {wall:.1f} s | {cpu:.1f} s | {wall / arguments.clips:.2f} s | {wall / results[0][1]:.3f}× |", flush=True)

        print(f"{arguments.clips} clips of 1920x1080, {arguments.seconds} s each, --jobs {arguments.jobs}, {os.cpu_count()} cores,"
              f" load average {os.getloadavg()[0]:.1f} at the start", flush=True)
        print("| build | wall | CPU | wall per clip | wall vs. full transcode |", flush=True)
        print("| --- | --- | --- | --- | --- |", flush=True)
        cascade("cascade, full transcode (MKV → H.264/AAC MP4)", folder / "mkv", work / "mkv-site")
        cascade("cascade, remux (MP4 already H.264/AAC)", folder / "mp4", work / "mp4-site")
        cascade("cascade, rebuild with nothing changed", folder / "mp4", work / "mp4-site")
        sigal = shutil.which("sigal")
        if sigal:
            variants = [("sigal, MKV → MP4 (H.264, its transcode), video_size 1920×1080", "mkv", 'video_format = "mp4"\n'),
                        ("sigal, MP4 → MP4 (copied as it is, metadata and all)", "mp4", 'video_format = "mp4"\n')]
            if arguments.sigal_webm:
                variants.append(("sigal, its default video_format (WebM, VP8), video_size 1920×1080", "mp4", ""))
            for label, copy, setting in variants:
                config = work / f"sigal-{len(results)}.py"
                config.write_text(f'source = "{folder / copy}"\ndestination = "{work / ("sigal-" + str(len(results)))}"\n'
                                  f'zip_gallery = False\nuse_orig = False\nvideo_size = (1920, 1080)\n{setting}')
                wall, cpu = timed([sigal, "build", "-c", str(config), "-n", str(arguments.jobs)], env)
                results.append((label, wall, cpu))
                report(results[-1])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end", flush=True)

if __name__ == "__main__":
    main()
