"""Sharded builds on a real Slurm cluster (conftest.py starts it on loopback): a 4-way job array
makes the images into a shared store, and the final build's site equals a one-machine build byte
for byte; a shard killed midway and run again, and one shard run twice at once, leave the store
correct."""
import hashlib
import os
import pathlib
import subprocess
import sys
import time

import pytest

from conftest import REPO, binary

sys.path.insert(0, str(REPO / "Tests" / "browser"))
import photo_factory  # noqa: E402


def tree(root):
    """Every file below `root`: relative path to SHA-256 of its bytes (the search index too:
    the same photos give the same bytes)."""
    root = pathlib.Path(root)
    files = {}
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        files[str(path.relative_to(root))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def cascade(*arguments):
    result = subprocess.run([binary(), *arguments], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"cascade {' '.join(arguments)} failed: {result.stderr}{result.stdout}"
    return result


def job_script(folder, command):
    script = pathlib.Path(folder) / "shard.sh"
    script.write_text("#!/bin/sh\nset -e\nexec " + command + "\n")
    script.chmod(0o755)
    return script


def store_info(store):
    return cascade("store", "info", "--store", str(store)).stdout


def entries(store):
    return [path for path in (pathlib.Path(store) / "objects").glob("*/*")]


def big_photos(folder, count, seed):
    """`count` different photos of 2000x1500: slow enough to kill a shard midway."""
    import random
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        color = (rng.randint(30, 230), rng.randint(30, 230), rng.randint(30, 230))
        (folder / f"big-{i:03d}.png").write_bytes(photo_factory.png(2000, 1500, color))


@pytest.mark.parametrize("by, array", [("content", "0-3"), ("path", "1-4")])
def test_four_way_job_array_makes_the_one_machine_site(cluster, tmp_path, by, array):
    """By content with task ids 0-3; by path (as docs/shards.md's batch script) with ids 1-4,
    which --shard auto counts from SLURM_ARRAY_TASK_MIN."""
    source = tmp_path / "photos"
    for album, count in (("harbour", 120), ("market", 100), ("night/streets", 80)):
        photo_factory.album(source / album, count, seed=len(album))
    plain = tmp_path / "plain"
    cascade("build", str(source), "--output", str(plain), "--quiet")

    store = tmp_path / "store"
    logs = tmp_path / "logs"
    logs.mkdir()
    script = job_script(tmp_path, f'"{binary()}" build "{source}" --shard auto --shard-by {by} --store "{store}"')
    cluster.run("sbatch", f"--array={array}", "--wait", "-o", f"{logs}/shard-%a.txt", "-J", "cascade-shards", str(script),
                timeout=900)
    first = int(array.split("-")[0])
    made = 0
    for index in range(4):
        log = (logs / f"shard-{first + index}.txt").read_text()
        assert f"Shard {index}/4: " in log, log
        assert f"Shard {index}/4 into {store.resolve()}" in log, log
        made += int(log.split("images made for ")[1].split(",")[0])
    assert made == 300
    assert "images of 300 photos" in store_info(store)

    site = tmp_path / "site"
    final = cascade("build", str(source), "--output", str(site), "--store", str(store))
    assert "images made for 0, reused for 300 (300 from the store)" in final.stdout, final.stdout
    assert tree(site) == tree(plain)
    assert len(tree(site)) > 600


def test_killed_shard_and_shard_run_twice_at_once_leave_the_store_correct(cluster, tmp_path):
    source = tmp_path / "photos"
    big_photos(source / "big", 40, seed=7)
    photo_factory.album(source / "small", 60, seed=3)
    plain = tmp_path / "plain"
    cascade("build", str(source), "--output", str(plain), "--quiet")

    # Shard 0 of 2, killed by Slurm while it is making images.
    store = tmp_path / "store"
    script = job_script(tmp_path, f'"{binary()}" build "{source}" --shard 0/2 --store "{store}" --jobs 1')
    job = cluster.run("sbatch", "--parsable", "-o", str(tmp_path / "killed.txt"), str(script)).stdout.strip().split(";")[0]
    deadline = time.time() + 300
    while len(entries(store)) < 2:
        assert cluster.queued(job), "the shard ended before it could be killed: " + (tmp_path / "killed.txt").read_text()
        assert time.time() < deadline, "the shard made nothing in 5 minutes"
        time.sleep(0.05)
    cluster.run("scancel", "--signal=KILL", "--full", job)
    while cluster.queued(job):
        time.sleep(0.2)
    info = store_info(store)
    assert "damaged" not in info, info
    partial = len(entries(store))
    log = (tmp_path / "killed.txt").read_text()
    assert "Shard 0/2 into" not in log, "the shard finished before it was killed:\n" + log

    # Run again: it makes what is missing and leaves what is there.
    cluster.run("sbatch", "--wait", "-o", str(tmp_path / "again.txt"), str(script), timeout=900)
    again = (tmp_path / "again.txt").read_text()
    assert f"already in the store for {partial}" in again, again

    # Shard 1 of 2, twice at once (two jobs on the cluster's two cores).
    twice = job_script(tmp_path, f'"{binary()}" build "{source}" --shard 1/2 --store "{store}" --jobs 1')
    first = subprocess.Popen(["sbatch", "--wait", "-o", str(tmp_path / "twice-1.txt"), str(twice)], env=cluster.env)
    second = subprocess.Popen(["sbatch", "--wait", "-o", str(tmp_path / "twice-2.txt"), str(twice)], env=cluster.env)
    assert first.wait(timeout=900) == 0 and second.wait(timeout=900) == 0
    info = store_info(store)
    assert "images of 100 photos" in info and "damaged" not in info, info

    site = tmp_path / "site"
    final = cascade("build", str(source), "--output", str(site), "--store", str(store))
    assert "(100 from the store)" in final.stdout, final.stdout
    assert tree(site) == tree(plain)

    # gc keeps everything the site uses, and removes nothing else that matters.
    gc = cascade("store", "gc", "--store", str(store), "--keep", str(site))
    assert "Removed the images of 0 photos" in gc.stdout, gc.stdout
    assert "images of 100 photos" in store_info(store)
