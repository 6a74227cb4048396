"""The Debian package, as a photographer who has no Swift would use it: `scripts/package`
writes dist/cascade_VERSION_ARCH.deb, lintian finds no error in it, `apt-get install` installs it
with its dependencies, the installed program builds the example gallery with no Swift on the
PATH and no Swift library on the library path, and `apt-get remove` leaves nothing of it behind.

It installs into the machine's own /usr, so it runs only as root (CI runs as root), and not
where a `cascade` package is already installed (it would be replaced, then removed).

Environment:
  CASCADE_DEB   a package already written by scripts/package (skips building it again)
"""
import gzip
import os
import pathlib
import re
import shutil
import subprocess

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.skipif(shutil.which("dpkg") is None or shutil.which("apt-get") is None,
                       reason="needs Debian's dpkg and apt-get"),
    pytest.mark.skipif(os.geteuid() != 0, reason="installs a package into /usr: run as root"),
]


def run(*command, env=None, timeout=3600):
    result = subprocess.run(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, timeout=timeout)
    output = result.stdout.decode(errors="replace")
    assert result.returncode == 0, f"{' '.join(map(str, command))} failed ({result.returncode}):\n{output[-4000:]}"
    return output


def installed_version():
    result = subprocess.run(["dpkg-query", "-W", "-f=${Status} ${Version}", "cascade"], capture_output=True, text=True)
    return result.stdout.split()[-1] if result.stdout.startswith("install ok installed") else None


@pytest.fixture(scope="module")
def deb():
    if installed_version() is not None:
        pytest.skip("a cascade package is already installed here; this test would replace and remove it")
    given = os.environ.get("CASCADE_DEB")
    if given:
        return pathlib.Path(given).resolve()
    output = run("scripts/package", "--lintian")
    match = re.search(r"wrote (dist/cascade_\S+\.deb)", output)
    assert match, output
    return REPO / match.group(1)


def field(deb, name):
    return subprocess.run(["dpkg-deb", "-f", str(deb), name], capture_output=True, text=True, check=True).stdout.strip()


def test_the_package_is_named_and_described_as_debian_asks(deb):
    version = field(deb, "Version")
    arch = subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True, check=True).stdout.strip()
    assert deb.name == f"cascade_{version}_{arch}.deb"
    source_version = re.search(r'current = "([^"]+)"', (REPO / "Sources/cascade/Version.swift").read_text()).group(1)
    assert version == source_version
    depends = field(deb, "Depends")
    # From the binary's own needs (dpkg-shlibdeps), not written by hand: the C libraries it links.
    for library in ("libc6", "libgd3", "libturbojpeg0", "liblcms2-2", "libexif12", "libsqlite3-0", "libstemmer0d"):
        assert re.search(rf"\b{re.escape(library)}\b", depends), f"{library} missing from Depends: {depends}"
    assert "swift" not in depends.lower()
    assert field(deb, "Recommends") == "ffmpeg"
    lintian = subprocess.run(["lintian", "--fail-on", "error", str(deb)], capture_output=True, text=True)
    errors = [line for line in lintian.stdout.splitlines() if line.startswith("E:")]
    assert lintian.returncode == 0 and not errors, lintian.stdout + lintian.stderr


def test_the_package_ships_the_program_man_pages_and_completions(deb):
    listing = subprocess.run(["dpkg-deb", "-c", str(deb)], capture_output=True, text=True, check=True).stdout
    paths = {line.split()[-1].lstrip(".") for line in listing.splitlines()}
    for path in ("/usr/bin/cascade", "/usr/share/man/man1/cascade.1.gz", "/usr/share/man/man1/cascade.build.1.gz",
                 "/usr/share/man/man1/cascade.serve.1.gz", "/usr/share/bash-completion/completions/cascade",
                 "/usr/share/zsh/vendor-completions/_cascade", "/usr/share/fish/vendor_completions.d/cascade.fish",
                 "/usr/share/doc/cascade/copyright", "/usr/share/doc/cascade/changelog.gz"):
        assert path in paths, f"{path} is not in the package:\n{listing}"


def test_installed_it_builds_the_example_without_swift_then_leaves_nothing_when_removed(deb, tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
    env["DEBIAN_FRONTEND"] = "noninteractive"
    files = []
    try:
        run("apt-get", "install", "-y", "-qq", "--no-install-recommends", str(deb), env=env, timeout=1800)
        assert installed_version() == field(deb, "Version")
        files = [line for line in run("dpkg", "-L", "cascade").splitlines()
                 if line.startswith("/") and os.path.isfile(line)]
        assert "/usr/bin/cascade" in files

        # No Swift anywhere the program could find it: not on the PATH, not on the library path,
        # not among the libraries it loads.
        bare = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "LANG": "C.UTF-8"}
        assert shutil.which("swift", path=bare["PATH"]) is None
        libraries = run("ldd", "/usr/bin/cascade", env=bare)
        assert "not found" not in libraries, libraries
        assert not re.search(r"libswift|libFoundation|libdispatch|libBlocksRuntime|/opt/swift", libraries), libraries
        assert run("/usr/bin/cascade", "--version", env=bare).strip() == field(deb, "Version")

        site = tmp_path / "site"
        run("/usr/bin/cascade", "build", str(REPO / "examples/photos"), "--output", str(site), "-q", env=bare)
        index = (site / "index.html").read_text()
        assert '<meta name="generator" content="Cascade' in index
        assert (site / "nature" / "index.html").is_file()
        assert any((site / "nature" / "thumbs").glob("*.jpg"))

        page = gzip.decompress(pathlib.Path("/usr/share/man/man1/cascade.build.1.gz").read_bytes()).decode()
        assert "--output" in page and ".Sh" in page
        completion = pathlib.Path("/usr/share/bash-completion/completions/cascade").read_text()
        assert "serve" in completion and "--output" in completion
    finally:
        if installed_version() is not None:
            run("apt-get", "remove", "-y", "-qq", "cascade", env=env, timeout=600)
    assert installed_version() is None
    left = [path for path in files if os.path.lexists(path)]
    assert not left, f"left behind after apt-get remove: {left}"
    assert not os.path.lexists("/usr/bin/cascade")
