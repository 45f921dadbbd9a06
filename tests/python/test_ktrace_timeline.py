"""scripts/ktrace/timeline.py on a synthetic ktrace CSV: replays grouped per graph, median durations
and gaps, the lead after the flush, and the kernel names shortened (demangled or not)."""
import csv
import gzip
import importlib.util
import pathlib
import shutil
import subprocess
import sys

import pytest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "ktrace" / "timeline.py"
spec = importlib.util.spec_from_file_location("ktrace_timeline", SCRIPT)
timeline = importlib.util.module_from_spec(spec)
spec.loader.exec_module(timeline)

FP8 = ("void megamoe::sm90::fp8_tma::fp8_tma_kernel<megamoe::sm90::fp8_tma::Geometry<1>, "
       "(megamoe::sm90::fp8_tma::Out)2, (megamoe::Activation)0, false>(CUtensorMap_st, megamoe::sm90::fp8_tma::Params)")
PLAN = "void megamoe::routing::(anonymous namespace)::route_plan_small_kernel<int>(megamoe::routing::(anonymous namespace)::IdSource, long)"


def test_base_name_and_short():
    assert timeline.base_name(PLAN)[0] == "route_plan_small_kernel"
    assert timeline.short("mangled", FP8) == "fp8_tma_kernel<wg1,out2>"
    assert timeline.short("x", "void ns::combine_kernel(float const*, int)") == "combine_kernel"
    cutlass = "void cutlass::device_kernel<cutlass::gemm::kernel::GemmUniversal<MainloopSm90TmaGmmaWarpSpecialized<4, x>>>"
    assert timeline.short("gemm_pdl_kernel", "gemm_pdl_kernel " + cutlass) == "cutlass_gemm<4 stages>"


def write_trace(path, opener=open):
    # Graph 7 replayed 12 times: kernels of 10, 100 and 5 us, 1 us apart (the third starts 2 us early:
    # PDL); a 50 us memset before each replay, 4 us ahead of its first kernel.
    rows, t = [], 1_000_000
    names = [("k0", "route"), ("k1", "fp8"), ("k2", "comb")]
    for _ in range(12):
        rows.append(["memset", t, t + 50_000, 13, 0, 0, 0, 0, "memset 256 bytes"])
        start = t + 54_000
        durs, gaps = [10_000, 100_000, 5_000], [0, 1_000, -2_000]
        end = start
        for node, (d, g) in enumerate(zip(durs, gaps)):
            s = start if node == 0 else end + g
            rows.append(["kernel", s, s + d, 13, 7, node, 132, 256, names[node][0]])
            end = s + d
        t = end + 100_000
    with opener(path, "wt", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kind", "start_ns", "end_ns", "stream", "graph", "node", "grid_x", "block_x", "name"])
        w.writerows(rows)


@pytest.mark.parametrize("gz", [False, True])
def test_timeline_output(tmp_path, gz):
    path = tmp_path / ("t.csv.gz" if gz else "t.csv")
    write_trace(path, gzip.open if gz else open)
    out = subprocess.run([sys.executable, str(SCRIPT), str(path)], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0] == "graph 7: 12 replays of 3 kernels"
    k = [ln.split() for ln in lines[2:5]]
    assert [r[1] for r in k] == ["k0", "k1", "k2"]
    assert [float(r[3]) for r in k] == [10.0, 100.0, 5.0]
    assert [float(r[4]) for r in k] == [0.0, 1.0, -2.0]
    # span: 10 + 1 + 100 - 2 + 5 = 114 us; kernels 115 us; lead 4 us
    assert "span 114.0 us, kernels 115.0 us" in lines[5] and "4.0 us" in lines[5]


def test_too_few_replays_are_skipped(tmp_path):
    path = tmp_path / "t.csv"
    write_trace(path)
    out = subprocess.run([sys.executable, str(SCRIPT), str(path), "--min-replays", "13"], capture_output=True,
                         text=True, check=True).stdout
    assert out == ""


@pytest.mark.skipif(shutil.which("c++filt") is None, reason="c++filt not on the PATH")
def test_demangle_all_with_cxxfilt():
    mangled = "_ZN7megamoe4sm907fp8_tma14fp8_tma_kernelEv"
    d = timeline.demangle_all([mangled, "plain_name"])
    assert d[mangled] == "megamoe::sm90::fp8_tma::fp8_tma_kernel()"
    assert d["plain_name"] == "plain_name"
