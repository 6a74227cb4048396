"""The options that take one of a few words (`--sort`, `--format`, `--shard-by`): the spellings
they accept, and a refused value named with the choices (swift-argument-parser lists them)."""
import pytest

from conftest import cascade


@pytest.mark.parametrize("arguments", [
    ["--sort", "name-desc"], ["--sort", "DATE-DESC"], ["--sort", "Name"],
    ["--format", "jpeg"], ["--format", "JPG"], ["--format", "avif, jpeg"], ["--format", "webp,webp,jpeg"],
])
def test_accepted_spellings_build(tmp_path, arguments):
    photos = tmp_path / "photos"
    photos.mkdir()
    run = cascade("build", photos, "--output", tmp_path / "site", "--quiet", *arguments)
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "site" / "index.html").is_file()


@pytest.mark.parametrize("option, value, choices", [
    ("--sort", "newest", ["'date'", "'date-desc'", "'name'", "'name-desc'"]),
    ("--format", "gif", ["'jpeg'", "'webp'", "'avif'"]),
    ("--format", "jpeg,gif", ["'jpeg'", "'webp'", "'avif'"]),
    ("--format", ",", ["'jpeg'", "'webp'", "'avif'"]),
])
def test_a_refused_value_is_named_with_the_choices(tmp_path, option, value, choices):
    run = cascade("build", tmp_path, "--output", tmp_path / "site", option, value)
    assert run.returncode != 0
    assert f"The value '{value}' is invalid for '{option} <" in run.stderr
    for choice in choices:
        assert choice in run.stderr
    assert not (tmp_path / "site").exists()


def test_shard_by_takes_content_or_path(tmp_path):
    run = cascade("build", tmp_path, "--shard", "0/2", "--shard-by", "hash", "--store", tmp_path / "store")
    assert run.returncode != 0
    assert "The value 'hash' is invalid for '--shard-by <shard-by>'" in run.stderr
    assert "'content'" in run.stderr and "'path'" in run.stderr
