"""scripts/slim_tree.sh moves the records aside for a device call and brings them back unchanged."""
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def sh(cwd, *args, check=True):
    return subprocess.run(list(args), cwd=cwd, capture_output=True, text=True, check=check)


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "scripts").mkdir()
    for name in ("slim_tree.sh", "travel_size.py"):
        shutil.copy(ROOT / "scripts" / name, tmp_path / "scripts" / name)
    (tmp_path / ".gitignore").write_text("/.aside/\n")
    for folder, payload in (("a", "alpha"), ("b", "beta"), ("c", "gamma")):
        d = tmp_path / "bench" / "results" / folder / "run1"
        d.mkdir(parents=True)
        (d / "r.json").write_text(payload * 100)
    sh(tmp_path, "git", "init", "-q")
    sh(tmp_path, "git", "add", "-A")
    sh(tmp_path, "git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "records")
    return tmp_path


def test_on_keeps_the_named_folder_and_off_restores_every_record(repo):
    out = sh(repo, "bash", "scripts/slim_tree.sh", "on", "bench/results/b").stdout
    assert "slim_tree: on" in out
    assert sorted(p.name for p in (repo / "bench" / "results").iterdir()) == ["b"]
    assert sorted(p.name for p in (repo / ".aside" / "results").iterdir()) == ["a", "c"]
    assert "on (2 folders aside)" in sh(repo, "bash", "scripts/slim_tree.sh", "status").stdout
    sh(repo, "bash", "scripts/slim_tree.sh", "off")
    assert not (repo / ".aside").exists()
    assert sh(repo, "git", "status", "--short").stdout == ""
    assert (repo / "bench/results/a/run1/r.json").read_text() == "alpha" * 100
    assert sh(repo, "bash", "scripts/slim_tree.sh", "status").stdout.strip() == "slim_tree: off"


def test_off_refuses_to_overwrite_a_record_that_came_back(repo):
    sh(repo, "bash", "scripts/slim_tree.sh", "on")
    (repo / "bench/results/a").mkdir()
    (repo / "bench/results/a/new.txt").write_text("new")
    r = sh(repo, "bash", "scripts/slim_tree.sh", "off", check=False)
    assert r.returncode == 1 and "merge by hand" in r.stderr
    assert (repo / ".aside/results/a/run1/r.json").read_text() == "alpha" * 100  # nothing lost
    assert (repo / "bench/results/a/new.txt").read_text() == "new"


def test_on_twice_refuses_to_overwrite_an_aside_copy(repo):
    sh(repo, "bash", "scripts/slim_tree.sh", "on", "bench/results/a")
    (repo / "bench/results/c").mkdir()  # a folder named like one aside
    r = sh(repo, "bash", "scripts/slim_tree.sh", "on", "bench/results/a", check=False)
    assert r.returncode == 1 and "run off first" in r.stderr
    assert (repo / ".aside/results/c/run1/r.json").read_text() == "gamma" * 100


def test_bad_mode_is_an_error(repo):
    r = sh(repo, "bash", "scripts/slim_tree.sh", "sideways", check=False)
    assert r.returncode == 2 and "usage" in r.stderr
