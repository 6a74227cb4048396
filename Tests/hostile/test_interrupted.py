"""Builds that are killed, and builds that run at once, against the real binary: whatever
happens between builds, the next complete build must equal a clean build of the same folder,
byte for byte, with no temporary file left and the user's own file untouched."""
import hashlib
import os
import pathlib
import random
import shutil
import signal
import subprocess
import time

import pytest

from conftest import REPO, binary
import corpus

USER_FILE = "notes/mine.txt"


def digest(folder):
    """{relative path: sha256} of every file below `folder` (the search index too: the same
    photos give the same bytes)."""
    folder = pathlib.Path(folder)
    files = {}
    for p in sorted(folder.rglob("*")):
        if not p.is_file():
            continue
        files[p.relative_to(folder).as_posix()] = hashlib.sha256(p.read_bytes()).hexdigest()
    return files


def photo(seed):
    rng = random.Random(seed)
    return corpus.jpeg_bytes(rng.randint(500, 900), rng.randint(400, 800),
                             (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255)))


def start(source, out, catalog, *extra, env=None):
    return subprocess.Popen([binary(), "build", str(source), "-o", str(out), "--catalog", str(catalog), "-q", *extra],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO, env=env)


def finish(process, timeout=300):
    out, err = process.communicate(timeout=timeout)
    assert process.returncode == 0, err.decode(errors="replace")
    return err.decode(errors="replace")


def assert_like_clean_build(tmp_path, source, out, catalog, label):
    finish(start(source, out, catalog))
    clean = tmp_path / f"clean-{label}"
    finish(start(source, clean, tmp_path / f"clean-{label}.sqlite"))
    site = digest(out)
    assert site.pop(USER_FILE, None) is not None, f"{label}: the user's file is gone"
    assert (out / USER_FILE).read_text() == "mine", f"{label}: the user's file changed"
    expected = digest(clean)
    wrong = sorted(k for k in set(site) | set(expected) if site.get(k) != expected.get(k))
    assert not wrong, f"{label}: the site differs from a clean build: {wrong[:20]}"
    assert not (out / ".cascade-tmp").exists(), f"{label}: temporary files left"


def edit(source, rng, step):
    """Rotates three names, adds two photos, changes one photo's content and deletes another."""
    names = sorted(p.relative_to(source).as_posix() for p in source.rglob("*.jpg"))
    a, b, c = rng.sample(names, 3)
    os.rename(source / a, source / "t.tmp")
    os.rename(source / b, source / a)
    os.rename(source / c, source / b)
    os.rename(source / "t.tmp", source / c)
    for index in range(2):
        corpus.save(source, f"{'AB'[index]}/new-{step}-{index}.jpg", photo(1000 * step + index))
    changed, deleted = rng.sample([n for n in names if n not in (a, b, c)], 2)
    corpus.save(source, changed, photo(5000 + step))
    (source / deleted).unlink()


def timed_build(source, out, catalog, *extra):
    started = time.monotonic()
    finish(start(source, out, catalog, *extra))
    return time.monotonic() - started


def test_kill_9_at_many_points_then_rebuild_equals_a_clean_build(tmp_path):
    source = tmp_path / "source"
    for index in range(24):
        corpus.save(source, f"{'AB'[index % 2]}/p{index:02}.jpg", photo(index))
    out = tmp_path / "out"
    catalog = tmp_path / "catalog.sqlite"
    corpus.save(out, USER_FILE, b"mine")
    finish(start(source, out, catalog))
    rng = random.Random(7)
    # The kill points are fractions of how long such a rebuild takes on this machine, measured
    # here, so that a fast machine is interrupted as often as a slow one.
    edit(source, rng, 0)
    duration = timed_build(source, out, catalog)
    killed = 0
    fractions = [0.05, 0.5, 0.2, 0.8, 0.35, 0.65, 0.1, 0.95, 0.28, 0.72, 0.42, 0.58]
    for step, fraction in enumerate(fractions, start=1):
        edit(source, rng, step)
        process = start(source, out, catalog, "--jobs", str(1 + step % 2))
        started = time.monotonic()
        time.sleep(fraction * duration)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            killed += 1
        else:
            duration = time.monotonic() - started
        process.communicate()
        if step % 4 == 0:
            assert_like_clean_build(tmp_path, source, out, catalog, f"step{step}")
    assert killed >= len(fractions) // 2, f"only {killed} of {len(fractions)} builds could be killed"
    assert_like_clean_build(tmp_path, source, out, catalog, "final")


def flock_of(path, pid, waiting=False):
    """Whether process `pid` holds (with `waiting`: waits for) a `flock` on the folder `path`,
    by the kernel's table of locks (`/proc/locks`: "1: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE
    0 EOF", a waiter's line with "->" after its number)."""
    inode = os.stat(path).st_ino
    for line in pathlib.Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        blocked = fields[1] == "->"
        if blocked:
            fields = fields[1:]
        if blocked == waiting and fields[1] == "FLOCK" and int(fields[4]) == pid \
                and int(fields[5].rsplit(":", 1)[1]) == inode:
            return True
    return False


def wait_for(condition, process, what, timeout=120):
    """Waits until `condition()` holds; fails when `process` ends first or after `timeout`
    seconds (a state waited for, not a time: a loaded machine only makes it later)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert process.poll() is None, f"the build ended before {what}: {process.communicate()[1].decode(errors='replace')}"
        assert time.monotonic() < deadline, f"no {what} within {timeout} s"
        time.sleep(0.02)


def test_two_builds_at_once_end_like_one(tmp_path):
    """A second build waits for the first (its message names the holder), a third told not to
    wait fails at once, and the two that ran end like one clean build. The first is stopped
    (SIGSTOP) while it holds the lock, so the others meet it whatever the machine's speed."""
    source = tmp_path / "source"
    for index in range(16):
        corpus.save(source, f"{'AB'[index % 2]}/p{index:02}.jpg", photo(100 + index))
    out = tmp_path / "out"
    catalog = tmp_path / "catalog.sqlite"
    corpus.save(out, USER_FILE, b"mine")
    # (The holder's note is in the cache folder: one of this test's own, to be watched.)
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))

    def noted(pid):
        for note in (tmp_path / "cache" / "cascade" / "locks").glob("*.holder"):
            try:
                if note.read_text().startswith(f"{pid}:"):
                    return True
            except OSError:
                pass
        return False

    first = start(source, out, catalog, env=env)
    stopped = False
    try:
        # Stopped once it holds the lock and its note names it (the note is written just after).
        wait_for(lambda: flock_of(out, first.pid) and noted(first.pid), first, "lock held by the first build, and noted")
        os.kill(first.pid, signal.SIGSTOP)
        stopped = True
        second = start(source, out, catalog, env=env)
        wait_for(lambda: flock_of(out, second.pid, waiting=True), second, "second build waiting for the lock")
        refused = start(source, out, catalog, "--no-wait", env=env)
        refused_err = refused.communicate(timeout=300)[1].decode(errors="replace")
    finally:
        if stopped:
            os.kill(first.pid, signal.SIGCONT)
    finish(first)
    waited = finish(second)
    assert "waiting" in waited and f"process {first.pid}" in waited, waited
    assert refused.returncode != 0 and "another build" in refused_err, refused_err
    assert_like_clean_build(tmp_path, source, out, catalog, "together")


def children(pid):
    """The ids of the live processes whose parent is `pid` (zombies are dead)."""
    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses.
        state, ppid = stat[stat.rindex(")") + 2:].split()[:2]
        if int(ppid) == pid and state != "Z":
            found.append(int(entry.name))
    return found


def alive(pid):
    try:
        stat = pathlib.Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def command_line(pid):
    try:
        return pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def wait_for_child(build, wanted, seconds=120):
    """The id of the child of `build` whose command line holds `wanted`, once it runs."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert build.poll() is None, f"the build ended before its {wanted!r} child ran: {build.stderr.read().decode()}"
        for pid in children(build.pid):
            if wanted in command_line(pid):
                return pid
        time.sleep(0.05)
    raise AssertionError(f"no {wanted!r} child of the build within {seconds} s")


needs_ffmpeg = pytest.mark.skipif(not pathlib.Path("/proc").is_dir() or shutil.which("ffmpeg") is None,
                                  reason="needs Linux's /proc and ffmpeg (scripts/setup installs it)")


@pytest.fixture(scope="module")
def long_video(tmp_path_factory):
    """A folder with a 5-minute MPEG-4 Part 2 clip: quick to make, long to transcode to H.264."""
    source = tmp_path_factory.mktemp("long-video") / "photos"
    source.mkdir()
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30",
                    "-t", "300", "-c:v", "mpeg4", "-q:v", "31", str(source / "long.avi")], check=True, timeout=600)
    return source


def wait_until(condition, what, seconds=120):
    """Waits until `condition()` holds; `seconds` is only a guard against a hang (the tests wait
    for states, never for a time)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds} s"
        time.sleep(0.02)


def send(process, sig, group):
    """Sends `sig` to `process` alone, or to its whole process group (a terminal's Ctrl-C)."""
    if group:
        os.killpg(process.pid, sig)
    else:
        os.kill(process.pid, sig)


# (signal, sent to the process group?, the exit status it must give, started with SIGINT ignored?)
# (A shell without job control starts background commands with SIGINT ignored: a CI job.)
STOPPING = [(signal.SIGINT, False, 130, False), (signal.SIGINT, True, 130, False), (signal.SIGTERM, False, 143, False),
            (signal.SIGHUP, False, 129, False), (signal.SIGINT, False, 130, True)]
STOPPING_IDS = ["SIGINT", "SIGINT-to-group", "SIGTERM", "SIGHUP", "SIGINT-ignored-at-start"]


def hangup_as_a_terminal_leaves_it():
    """SIGHUP at its default action, as a terminal's session starts it: a test run under
    `nohup` would otherwise hand the build SIGHUP ignored, which cascade keeps ignored (that is
    what `nohup` asks for), and the SIGHUP case would test nothing."""
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def ignoring_sigint():
    hangup_as_a_terminal_leaves_it()
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def kill_and_expect_child_gone(build, child, sig, name, group=False):
    """Sends `sig` to the build and asserts that its tool process `child` (`name` in the message)
    is gone once the build has ended; kills a child that is not."""
    try:
        send(build, sig, group)
        wait_until(lambda: build.poll() is not None, f"the end of the build after {sig.name}")
        wait_until(lambda: not alive(child), f"the end of {name} after the build's", seconds=60)
    finally:
        if alive(child):
            os.kill(child, signal.SIGKILL)


def published_videos(out):
    return sorted(p.relative_to(out).as_posix() for p in pathlib.Path(out).rglob("*.mp4")
                  if ".cascade-tmp" not in p.parts)


@needs_ffmpeg
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGINT], ids=lambda sig: sig.name)
def test_a_killed_build_leaves_no_ffmpeg_running(tmp_path, long_video, sig):
    build = start(long_video, tmp_path / "out", tmp_path / "catalog.sqlite")
    encoder = wait_for_child(build, "libx264")
    kill_and_expect_child_gone(build, encoder, sig, f"ffmpeg ({command_line(encoder)[:80]}...)")
    # The build ended because of the signal, not because the 5-minute encode was done.
    assert not published_videos(tmp_path / "out")


@needs_ffmpeg
@pytest.mark.parametrize("sig,group,status,ignored", STOPPING, ids=STOPPING_IDS)
def test_a_signal_stops_the_build_during_an_encode(tmp_path, long_video, sig, group, status, ignored):
    """Ctrl-C (to the build, or to its process group as a terminal sends it), SIGTERM and SIGHUP
    stop the build while ffmpeg encodes: the shell's status for the signal, ffmpeg gone, no
    temporary file left, no video published (the encode was cut short), and the next build of
    the same folder equals a clean build."""
    source = tmp_path / "source"
    shutil.copytree(long_video, source)
    for index in range(3):
        corpus.save(source, f"A/p{index}.jpg", photo(300 + index))
    out = tmp_path / "out"
    catalog = tmp_path / "catalog.sqlite"
    corpus.save(out, USER_FILE, b"mine")
    build = subprocess.Popen([binary(), "build", str(source), "-o", str(out), "--catalog", str(catalog), "-q"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
                             start_new_session=True, preexec_fn=ignoring_sigint if ignored else hangup_as_a_terminal_leaves_it)
    encoder = wait_for_child(build, "libx264")
    kill_and_expect_child_gone(build, encoder, sig, "ffmpeg", group=group)
    err = build.stderr.read().decode(errors="replace")
    assert build.returncode == status, f"exit status {build.returncode} after {sig.name}: {err}"
    assert "stopped by" in err, err
    assert not published_videos(out), "the build ran on until the encode was done"
    assert not (out / ".cascade-tmp").exists(), "temporary files left"
    # The next build finishes the site: the long clip is replaced by a short one of the same
    # name (so that two more builds need not encode five minutes each).
    (source / "long.avi").unlink()
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=10",
                    "-t", "1", "-c:v", "mpeg4", str(source / "long.avi")], check=True, timeout=300)
    assert_like_clean_build(tmp_path, source, out, catalog, sig.name)


def test_ctrl_c_while_photos_are_made_exits_130_and_the_next_build_is_clean(tmp_path):
    """A Ctrl-C while photos are made (seen by the first image in the output folder) stops the
    build with status 130, not 0, and leaves no temporary file; the next build equals a clean one."""
    source = tmp_path / "source"
    for index in range(150):
        corpus.save(source, f"{'AB'[index % 2]}/p{index:03}.jpg", photo(2000 + index))
    out = tmp_path / "out"
    catalog = tmp_path / "catalog.sqlite"
    corpus.save(out, USER_FILE, b"mine")
    build = subprocess.Popen([binary(), "build", str(source), "-o", str(out), "--catalog", str(catalog), "-q"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
                             start_new_session=True)

    def an_image_is_written():
        assert build.poll() is None, "the build ended before its first image was seen"
        return any(p.suffix == ".jpg" for p in out.rglob("*.jpg"))

    wait_until(an_image_is_written, "the first image")
    os.killpg(build.pid, signal.SIGINT)
    wait_until(lambda: build.poll() is not None, "the end of the build after SIGINT")
    err = build.stderr.read().decode(errors="replace")
    assert build.returncode == 130, f"exit status {build.returncode} after SIGINT: {err}"
    assert not (out / ".cascade-tmp").exists(), "temporary files left"
    assert_like_clean_build(tmp_path, source, out, catalog, "ctrl-c")


@pytest.mark.parametrize("sig,status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
def test_serve_stops_on_a_signal(tmp_path, sig, status):
    source = tmp_path / "source"
    corpus.save(source, "A/p.jpg", photo(1))
    serve = subprocess.Popen([binary(), "serve", str(source), "-o", str(tmp_path / "out"), "--catalog",
                              str(tmp_path / "catalog.sqlite"), "-p", "0"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
                             start_new_session=True)
    try:
        printed = ""
        while "Serving" not in printed:  # (the first build's summary comes before it)
            line = serve.stdout.readline().decode(errors="replace")
            assert line, printed + serve.stderr.read().decode(errors="replace")
            printed += line
        os.kill(serve.pid, sig)
        wait_until(lambda: serve.poll() is not None, f"the end of serve after {sig.name}", seconds=60)
        assert serve.returncode == status, serve.stderr.read().decode(errors="replace")
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()


@needs_ffmpeg
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=lambda sig: sig.name)
def test_a_killed_build_leaves_no_ffprobe_running(tmp_path, long_video, sig):
    tools = tmp_path / "bin"
    tools.mkdir()
    # An ffprobe that hangs: the build is killed while it waits for it.
    (tools / "ffprobe").write_text("#!/bin/sh\nexec sleep 300\n")
    (tools / "ffprobe").chmod(0o755)
    os.symlink(shutil.which("ffmpeg"), tools / "ffmpeg")
    environment = dict(os.environ, PATH=f"{tools}:{os.environ['PATH']}")
    build = start(long_video, tmp_path / "out", tmp_path / "catalog.sqlite", env=environment)
    probe = wait_for_child(build, "sleep 300", seconds=60)
    kill_and_expect_child_gone(build, probe, sig, "ffprobe")


@needs_ffmpeg
def test_serve_stops_on_ctrl_c_during_its_build(tmp_path, long_video):
    """A Ctrl-C while `serve` builds (its ffmpeg encodes) stops it as it stops a build: 130,
    ffmpeg gone, no temporary file left."""
    out = tmp_path / "out"
    serve = subprocess.Popen([binary(), "serve", str(long_video), "-o", str(out), "--catalog",
                              str(tmp_path / "catalog.sqlite"), "-p", "0"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO,
                             start_new_session=True)
    try:
        encoder = wait_for_child(serve, "libx264")
        kill_and_expect_child_gone(serve, encoder, signal.SIGINT, "ffmpeg", group=True)
        assert serve.returncode == 130, serve.stderr.read().decode(errors="replace")
        assert not published_videos(out), "serve ran on until the encode was done"
        assert not (out / ".cascade-tmp").exists(), "temporary files left"
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()
