"""Builds that are killed, and builds that run at once, against the real binary: whatever
happens between builds, the next complete build must equal a clean build of the same folder,
byte for byte, with no temporary file left and the user's own file untouched."""
import hashlib
import os
import pathlib
import random
import signal
import subprocess
import time

from conftest import REPO, binary
import corpus

USER_FILE = "notes/mine.txt"


def digest(folder):
    """{relative path: sha256} of every file below `folder`."""
    folder = pathlib.Path(folder)
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def photo(seed):
    rng = random.Random(seed)
    return corpus.jpeg_bytes(rng.randint(500, 900), rng.randint(400, 800),
                             (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255)))


def start(source, out, catalog, *extra):
    return subprocess.Popen([binary(), "build", str(source), "-o", str(out), "--catalog", str(catalog), "-q", *extra],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)


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
    """Swaps two names, rotates three, adds two photos and deletes one."""
    names = sorted(p.relative_to(source).as_posix() for p in source.rglob("*.jpg"))
    a, b, c = rng.sample(names, 3)
    os.rename(source / a, source / "t.tmp")
    os.rename(source / b, source / a)
    os.rename(source / c, source / b)
    os.rename(source / "t.tmp", source / c)
    for index in range(2):
        corpus.save(source, f"{'AB'[index]}/new-{step}-{index}.jpg", photo(1000 * step + index))
    (source / rng.choice([n for n in names if n not in (a, b, c)])).unlink()


def test_kill_9_at_many_points_then_rebuild_equals_a_clean_build(tmp_path):
    source = tmp_path / "source"
    for index in range(24):
        corpus.save(source, f"{'AB'[index % 2]}/p{index:02}.jpg", photo(index))
    out = tmp_path / "out"
    catalog = tmp_path / "catalog.sqlite"
    corpus.save(out, USER_FILE, b"mine")
    finish(start(source, out, catalog))
    rng = random.Random(7)
    killed = 0
    for step, delay in enumerate([0.02, 0.08, 0.15, 0.3, 0.5, 0.8, 1.2, 1.8]):
        edit(source, rng, step)
        process = start(source, out, catalog, "--jobs", str(1 + step % 2))
        time.sleep(delay)
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            killed += 1
        process.communicate()
        if step % 3 == 2:
            assert_like_clean_build(tmp_path, source, out, catalog, f"step{step}")
    assert killed >= 4, "the builds finished before they could be killed: use larger photos"
    assert_like_clean_build(tmp_path, source, out, catalog, "final")


def test_two_builds_at_once_end_like_one(tmp_path):
    source = tmp_path / "source"
    for index in range(16):
        corpus.save(source, f"{'AB'[index % 2]}/p{index:02}.jpg", photo(100 + index))
    out = tmp_path / "out"
    catalog = tmp_path / "catalog.sqlite"
    corpus.save(out, USER_FILE, b"mine")
    first = start(source, out, catalog)
    time.sleep(0.2)
    second = start(source, out, catalog)
    refused = start(source, out, catalog, "--no-wait")
    refused_err = refused.communicate(timeout=300)[1].decode(errors="replace")
    finish(first)
    waited = finish(second)
    if first.returncode == 0 and "waiting" in waited:
        assert "process" in waited, waited
    assert refused.returncode != 0 and "another build" in refused_err, refused_err
    assert_like_clean_build(tmp_path, source, out, catalog, "together")
