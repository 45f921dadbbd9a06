"""The command line's bad-input handling: every case exits with an error that names the option,
never a signal (segfault, abort) and never a silent substitute value.

Runs the build-tree program `megamoe` (MEGAMOE_BUILD_DIR, as scripts/test.sh sets it). With a
build tree named, a missing program is a failure; with none (an installed package), skipped.
"""
import os
import pathlib
import subprocess

import pytest

BUILD = pathlib.Path(os.environ.get("MEGAMOE_BUILD_DIR", "build"))
CLI = BUILD / "megamoe"


def megamoe(*args, timeout=60):
    if not (CLI.is_file() and os.access(CLI, os.X_OK)):
        msg = f"megamoe not found at {CLI}; build the megamoe_cli target and set MEGAMOE_BUILD_DIR"
        if "MEGAMOE_BUILD_DIR" in os.environ:
            pytest.fail(msg, pytrace=False)
        pytest.skip("needs the build-tree program megamoe (no MEGAMOE_BUILD_DIR set): " + msg)
    env = dict(os.environ, MEGAMOE_TACTIC_CACHE="off")
    return subprocess.run([str(CLI), *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env)


def test_device_on_the_cpu_reference_is_said_to_be_ignored():
    # The CPU reference runs whatever --device says; the run says so instead of dropping it silently.
    res = megamoe("run", "--backend", "cpu_reference", "--device", "5", "--tokens", "2", "--iters", "1")
    assert res.returncode == 0, res.stderr
    assert "--device 5 ignored" in res.stderr, res.stderr


def test_tactic_on_the_cpu_reference_is_said_to_be_ignored():
    # The CPU reference has no tactics; a forced one is reported as ignored, not dropped silently.
    res = megamoe("run", "--backend", "cpu_reference", "--tactic", "split_large_tile", "--tokens", "2", "--iters", "1")
    assert res.returncode == 0, res.stderr
    assert "--tactic split_large_tile ignored" in res.stderr, res.stderr


@pytest.mark.skipif(pathlib.Path("/dev/nvidiactl").exists(), reason="a GPU is present: the named backend would run")
def test_gpu_backend_without_a_gpu_is_refused_for_a_layer_over_the_host_budget():
    # deepseek-v3's bf16 weights (21 GiB) take the per-expert reference path; a named GPU backend used
    # to be replaced by the CPU reference there without a word (smaller presets were refused).
    res = megamoe("run", "--backend", "sm90_bf16_bf16_bf16_split", "--preset", "deepseek-v3", "--tokens", "1",
                  "--iters", "1")
    assert res.returncode > 0, (res.returncode, res.stdout, res.stderr)
    assert "needs a CUDA device" in res.stderr, res.stderr
    assert "this run is the reference itself" not in res.stdout, res.stdout


def test_tactic_without_a_name_is_refused():
    # `--tactic=` names nothing: an error, not a run with the layer's own choice.
    res = megamoe("run", "--tactic=", "--tokens", "2", "--iters", "1")
    assert res.returncode != 0 and res.returncode > 0, (res.returncode, res.stderr)
    assert "--tactic" in res.stderr, res.stderr


@pytest.mark.parametrize(
    "args, option",
    [
        # T * K wrapped to 0 and the route generator wrote past an empty vector (a segfault).
        (["run", "--preset", "deepseek-v3", "--tokens", "2305843009213693952", "--iters", "1"], "--tokens"),
        (["run", "--preset", "deepseek-v3", "--tokens", "100000000000", "--iters", "1"], "--tokens"),
        # Integers held in an int were truncated (4294967297 ran 1 iteration).
        (["run", "--iters", "4294967297"], "--iters"),
        (["run", "--threads", "4294967297"], "--threads"),
        (["run", "--threads", "-1"], "--threads"),
        # A word after a flag was taken as its value and dropped.
        (["run", "--no-check", "5"], "--no-check"),
        # --ep below 1 ran as if it were not given.
        (["check", "--ep", "0"], "--ep"),
        (["check", "--ep", "-2"], "--ep"),
        # Token lists: trailing garbage, ranges past 2^31 (the doubling wrapped and never ended),
        # empty and reversed ranges. `tune` reads --tokens before it looks for a GPU.
        (["tune", "--tokens", "8abc", "--cache", "unused.json"], "--tokens"),
        (["tune", "--tokens", "1-8x", "--cache", "unused.json"], "--tokens"),
        (["tune", "--tokens", "1-4611686018427387904", "--cache", "unused.json"], "--tokens"),
        (["tune", "--tokens", "64-8", "--cache", "unused.json"], "--tokens"),
        (["tune", "--tokens", "1,,2", "--cache", "unused.json"], "--tokens"),
        (["tune", "--tokens", "-3", "--cache", "unused.json"], "--tokens"),
        # Timings per tactic: at least one (no timing would leave every bucket empty), at most 10.
        (["tune", "--rounds", "0", "--cache", "unused.json"], "--rounds"),
        (["tune", "--rounds", "11", "--cache", "unused.json"], "--rounds"),
        # `bench` and `tune` check every argument before they look for a GPU, so a CPU dry run of a
        # job script finds what the GPU machine would refuse (session 51 lost a device call to a
        # bench with --iters 40, which a dry run had passed: it stopped at "no CUDA device" first).
        (["bench", "--iters", "40"], "--iters"),
        (["bench", "--tokens", "1-8x"], "--tokens"),
        (["bench", "--presets", "deepseek-v3,no-such-model"], "preset"),
        (["bench", "--routing", "sideways"], "routing"),
        (["bench", "--recipe", "fp16"], "recipe"),
        (["tune", "--presets", "no-such-model", "--cache", "unused.json"], "preset"),
        # bench's own options, checked before any device work: --ep-style was read only by the EP
        # workers (ignored without --ep), an empty --tactic forced nothing without a word.
        (["bench", "--ep-style", "sideways"], "--ep-style"),
        (["bench", "--tactic="], "--tactic"),
        # The L2 flush's mode: a misspelt one used to mean memset without a word; the EP bench has no read flush.
        (["bench", "--l2-flush", "sideways"], "--l2-flush"),
        (["bench", "--l2-flush", "read", "--ep", "2"], "--l2-flush"),
        (["tune", "--l2-flush", "clean", "--cache", "unused.json"], "--l2-flush"),
        # `check --accuracy` tabulates every recipe with its auto backend: these were silently ignored.
        (["check", "--accuracy", "--recipe", "nvfp4"], "--recipe"),
        (["check", "--accuracy", "--backend", "cpu_reference"], "--backend"),
        (["check", "--accuracy", "--ep", "2"], "--ep"),
        # A token count inside the 2^31 / top_k bound whose inputs and outputs cannot fit in host
        # memory (11 TiB here) ended in "megamoe: std::bad_alloc".
        (["run", "--preset", "deepseek-v3", "--tokens", "268435455", "--iters", "1"], "--tokens"),
    ],
)
def test_bad_option_names_itself(args, option, tmp_path):
    args = [str(tmp_path / a) if a == "unused.json" else a for a in args]
    res = megamoe(*args)
    assert res.returncode > 0, f"megamoe {' '.join(args)}: exit {res.returncode} (a signal if negative)\n{res.stderr}"
    assert option in res.stderr, f"megamoe {' '.join(args)}: the error does not name {option}:\n{res.stderr}"
    assert "expected" in res.stderr, res.stderr



@pytest.mark.parametrize("where", ["missing-folder", "a-folder", "empty"])
def test_bench_json_path_that_cannot_be_written_is_refused_first(where, tmp_path):
    # bench writes --json once every cell has run: a path it cannot write used to fail only then,
    # after the whole GPU run (and on a machine without a GPU a dry run never saw it).
    path = {"missing-folder": tmp_path / "no-such-folder" / "out.json", "a-folder": tmp_path, "empty": ""}[where]
    arg = f"--json={path}"
    for args in (["bench", arg, "--tokens", "1"], ["bench", arg, "--ep", "2"]):
        res = megamoe(*args)
        assert res.returncode > 0, (args, res.returncode, res.stderr)
        assert "argument '--json': expected a writable file path" in res.stderr, (args, res.stderr)
        assert f"got '{path}'" in res.stderr, (args, res.stderr)
    assert not (tmp_path / "no-such-folder").exists()


@pytest.mark.parametrize("cmd", [["bench", "--tokens", "1"], ["tune", "--tokens", "1", "--cache", "unused.json"]])
def test_bad_l2_flush_from_the_environment_names_the_variable(cmd, monkeypatch):
    # MEGAMOE_BENCH_FLUSH=Read (any value but memset / read) used to time with the memset flush silently.
    monkeypatch.setenv("MEGAMOE_BENCH_FLUSH", "Read")
    res = megamoe(*cmd)
    assert res.returncode > 0, (res.returncode, res.stderr)
    assert "MEGAMOE_BENCH_FLUSH" in res.stderr and "memset or read" in res.stderr, res.stderr
