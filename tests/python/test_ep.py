"""Expert parallelism in the Python package.

CPU part (any build): the EpGroup bindings exist, argument errors are clear, and a layer with
ep_size > 1 but no group (the cpu_reference backend's simulation) honours ``expert_placement``:
rank r's output is the full layer's output over the routes whose expert rank r holds.

GPU part: with torch seeing >= 2 GPUs and a megamoe build with NCCL (``EpGroup.available()``),
``torchrun --nproc-per-node 2 tests/python/ep_worker.py`` must succeed (real GPU exchange over
an EpGroup made from the torch.distributed group, checked against float64 torch on each rank).

The package is taken from $MEGAMOE_BUILD_DIR/python, else <repo>/build/python, else wherever
`import megamoe` finds it (pip install).
"""

import os
import pathlib
import subprocess
import sys

_ROOT = pathlib.Path(__file__).resolve().parents[2]
_PKG_DIR = None
for _cand in (os.environ.get("MEGAMOE_BUILD_DIR"), str(_ROOT / "build")):
    if _cand and (pathlib.Path(_cand) / "python" / "megamoe").is_dir():
        _PKG_DIR = str(pathlib.Path(_cand) / "python")
        sys.path.insert(0, _PKG_DIR)
        break

import numpy as np  # noqa: E402
import pytest  # noqa: E402

ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed (scripts/setup.sh installs it)")

import megamoe  # noqa: E402
from megamoe import _C  # noqa: E402

BF16 = ml_dtypes.bfloat16
E, K, H, I = 8, 2, 64, 32


def bf16(a):
    return np.asarray(a, np.float32).astype(BF16)


def problem(T, seed=0, no_route=0.1):
    rng = np.random.default_rng(seed)
    w13 = bf16(rng.standard_normal((E, 2 * I, H)) / np.sqrt(H))
    w2 = bf16(rng.standard_normal((E, H, I)) / np.sqrt(I))
    x = bf16(rng.uniform(-1, 1, (T, H)))
    ids = np.array([rng.permutation(E)[:K] for _ in range(T)], dtype=np.int32).reshape(T, K)
    if T and no_route:
        ids[rng.random((T, K)) < no_route] = -1
    logits = rng.standard_normal((T, K)).astype(np.float32)
    w = (np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)).astype(np.float32).reshape(T, K)
    return x, ids, w, w13, w2


def cpu_layer(**kw):
    return megamoe.MoELayer(E, K, H, I, device="cpu", max_tokens=256, num_threads=1, **kw)


def masked_full(x, ids, w, w13, w2, held):
    """The unsharded (ep_size = 1) reference over only the routes whose expert is in `held`."""
    ids = ids.copy()
    ids[~np.isin(ids, list(held))] = -1
    return np.asarray(cpu_layer().prepare_weights(w13, w2)(x, ids, w)).astype(np.float32)


def rel_l2(a, b):
    a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
    d = np.linalg.norm(b)
    return np.linalg.norm(a - b) / (d if d > 0 else 1.0)


# ---- bindings -------------------------------------------------------------------------------
def test_bindings_exist():
    for name in ("new_unique_id", "create", "available", "rank", "size", "device", "abort", "aborted", "shrink"):
        assert hasattr(_C.EpGroup, name), name
    assert _C.EpGroup.unique_id_bytes == megamoe.ep.UNIQUE_ID_BYTES == 128
    for name in ("check_errors", "unrouted_count"):
        assert hasattr(_C.Layer, name), name
        assert callable(getattr(megamoe.MoELayer, name))
    assert megamoe.EpGroup is megamoe.ep.EpGroup
    assert megamoe.EP_STYLES == ("auto", "push", "pull")
    for name in ("EpGroup", "CommError", "EP_STYLES"):
        assert name in megamoe.__all__


def test_comm_error_is_a_runtime_error():
    assert megamoe.CommError is _C.CommError
    assert issubclass(megamoe.CommError, RuntimeError)
    assert megamoe.CommError.__module__ == "megamoe" and megamoe.CommError.__name__ == "CommError"
    assert not issubclass(megamoe.CommError, (megamoe.CudaError, megamoe.OutOfMemoryError))


def test_available_is_a_bool():
    a = megamoe.EpGroup.available()
    assert isinstance(a, bool)
    assert a == bool(_C.EpGroup.available())
    # the reason is given exactly when groups are unavailable
    assert (megamoe.EpGroup.unavailable_reason() == "") == a
    if not megamoe.with_cuda:
        assert a is False  # NCCL comes only with the CUDA build


def test_group_is_not_constructed_directly():
    with pytest.raises(TypeError, match="from_torch"):
        megamoe.EpGroup(object())


@pytest.mark.parametrize(
    "args, exc, match",
    [
        (("not bytes", 0, 1), TypeError, "'unique_id': expected bytes"),
        ((b"\0" * 5, 0, 1), ValueError, "'unique_id': expected 128 bytes.*got 5 bytes"),
        ((b"\0" * 128, 2, 2), ValueError, r"'rank': expected a value in \[0, size=2\), got 2"),
        ((b"\0" * 128, -1, 2), ValueError, "'rank'"),
        ((b"\0" * 128, 0, 0), ValueError, "'size': expected a positive integer, got 0"),
        ((b"\0" * 128, True, 2), TypeError, "'rank': expected an int, got bool"),
        ((b"\0" * 128, 0, 2.0), TypeError, "'size': expected an int, got float"),
        ((b"\0" * 128, 0, 2 ** 40), ValueError, r"'size': expected an integer in \[-2147483648, 2147483647\]"),
    ],
)
def test_create_rejects_bad_arguments(args, exc, match):
    # Checked before the build's NCCL support matters: the same errors on every build.
    with pytest.raises(exc, match=match):
        megamoe.EpGroup.create(*args)


def test_binding_checks_the_id_length():
    with pytest.raises(ValueError, match="'unique_id': expected 128 bytes"):
        _C.EpGroup.create(b"\1" * 3, 0, 1, 0)


@pytest.mark.skipif(megamoe.EpGroup.available(), reason="this build has NCCL: groups are supported")
def test_without_nccl_groups_raise_not_implemented():
    with pytest.raises(NotImplementedError, match="EpGroup.available") as e:
        megamoe.EpGroup.new_unique_id()
    assert megamoe.EpGroup.unavailable_reason() in str(e.value)
    with pytest.raises(NotImplementedError, match="NCCL"):
        megamoe.EpGroup.create(b"\0" * 128, 0, 1, 0)
    with pytest.raises(NotImplementedError):  # the C++ library says so too
        _C.EpGroup.new_unique_id()


def test_from_torch_needs_an_initialised_process_group():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        pytest.skip("a torch.distributed process group is already initialised in this process")
    with pytest.raises(RuntimeError, match="init_process_group"):
        megamoe.EpGroup.from_torch()
    del torch


# ---- layer arguments --------------------------------------------------------------------------
def test_defaults_without_group():
    layer = cpu_layer()
    assert (layer.ep_rank, layer.ep_size, layer.ep_group, layer.expert_placement) == (0, 1, None, None)
    assert (layer.ep_style, layer.ep_timeout_s) == ("auto", 5.0)
    assert layer.local_experts == E and layer.local_expert_ids == list(range(E))
    layer.check_errors()  # no group: nothing to report
    assert layer.unrouted_count() == 0


@pytest.mark.parametrize(
    "kw, exc, match",
    [
        (dict(ep_group="group"), TypeError, "'ep_group': expected a megamoe.EpGroup or None, got str"),
        (dict(ep_style="broadcast"), ValueError, "'ep_style': expected one of auto, push, pull, got 'broadcast'"),
        (dict(ep_style=1), TypeError, "'ep_style': expected a str"),
        (dict(ep_timeout_s=0), ValueError, "'ep_timeout_s': expected a positive number"),
        (dict(ep_timeout_s=float("nan")), ValueError, "'ep_timeout_s'"),
        (dict(ep_timeout_s="5"), TypeError, "'ep_timeout_s': expected a number of seconds, got str"),
        (dict(ep_size=2, expert_placement=[[0, 1, 2, 3]]), ValueError,
         r"'expert_placement': expected 2 lists \(one per rank, ep_size\), got 1"),
        (dict(ep_size=2, expert_placement=[[0, 1], "ab"]), TypeError, r"'expert_placement\[1\]'"),
        (dict(ep_size=2, expert_placement=[[0, 1.5], [2]]), TypeError, r"'expert_placement\[0\]\[1\]'"),
        (dict(ep_size=2, expert_placement=7), TypeError, "'expert_placement': expected a list"),
        # semantic checks: the C++ config validation (make_placement_tables)
        (dict(ep_size=2, expert_placement=[[0, 1, 2, 3], [4, 5, 6, 8]]), ValueError,
         r"'expert_placement\[1\]\[3\]': expected an expert in \[0, 8\), got 8"),
        (dict(ep_size=2, expert_placement=[[0, 1, 1], [4, 5, 6, 7]]), ValueError, r"'expert_placement\[0\]\[2\]'"),
        (dict(ep_size=2, expert_placement=[[0, 1, 2], []]), ValueError, r"'expert_placement\[1\]'"),
    ],
)
def test_layer_rejects_bad_ep_arguments(kw, exc, match):
    with pytest.raises(exc, match=match):
        cpu_layer(**kw)


def test_cpp_validates_ep_style_and_timeout():
    # The binding's own checks (what other front ends get): ValueError from InvalidArgument.
    def make(style, timeout):
        return _C.Layer(E, K, H, I, "bf16", "swiglu", None, None, 0, 1, 16, "cpu_reference", -1, False, 1,
                        None, None, style, timeout)

    make("auto", 5.0)
    with pytest.raises(ValueError, match="ep_style"):
        make("sideways", 5.0)
    with pytest.raises(ValueError, match="ep_timeout_s"):
        make("push", -1.0)


def test_placement_sets_local_experts_and_repr():
    placement = [[5, 0, 3], [1, 2, 4, 6, 7]]
    for r in range(2):
        layer = cpu_layer(ep_rank=r, ep_size=2, expert_placement=placement)
        assert layer.local_experts == len(placement[r])
        assert layer.local_expert_ids == placement[r]
        assert layer.expert_placement == placement
        assert "expert_placement=" in repr(layer)
    # numpy rows and ints are accepted; [] means the default contiguous blocks
    assert cpu_layer(ep_rank=1, ep_size=2, expert_placement=np.array([[0, 2, 4, 6], [1, 3, 5, 7]])).local_expert_ids \
        == [1, 3, 5, 7]
    layer = cpu_layer(ep_rank=1, ep_size=2, expert_placement=[])
    assert layer.expert_placement is None and layer.local_expert_ids == [4, 5, 6, 7]


def test_placement_weights_must_match_local_experts():
    _, _, _, w13, w2 = problem(1)
    layer = cpu_layer(ep_rank=0, ep_size=2, expert_placement=[[5, 0, 3], [1, 2, 4, 6, 7]])
    with pytest.raises(ValueError, match="w13"):
        layer.prepare_weights(w13[:4], w2[:4])  # 4 experts given, the rank holds 3
    layer.prepare_weights(w13[[5, 0, 3]], w2[[5, 0, 3]])


# ---- ep_size > 1 without a group: the cpu_reference simulation --------------------------------
def test_contiguous_ranks_work_as_before():
    x, ids, w, w13, w2 = problem(29, seed=1)
    full = np.asarray(cpu_layer().prepare_weights(w13, w2)(x, ids, w)).astype(np.float32)
    parts = []
    for r in range(2):
        layer = cpu_layer(ep_rank=r, ep_size=2)
        assert layer.local_experts == 4 and layer.local_expert_ids == list(range(4 * r, 4 * r + 4))
        out = np.asarray(layer.prepare_weights(w13[4 * r:4 * r + 4], w2[4 * r:4 * r + 4])(x, ids, w))
        out = out.astype(np.float32)
        np.testing.assert_array_equal(out, masked_full(x, ids, w, w13, w2, range(4 * r, 4 * r + 4)))
        assert layer.unrouted_count() == 0
        layer.check_errors()
        parts.append(out)
    # each rank adds its own experts' share; the shares sum to the full layer (up to bf16 rounding)
    assert rel_l2(parts[0] + parts[1], full) < 1e-2


@pytest.mark.parametrize(
    "placement",
    [
        [[5, 0, 3], [1, 2, 4, 6, 7]],            # permuted, uneven
        [[0, 1, 2, 3, 4], [4, 5, 6, 7]],         # expert 4 replicated on both ranks
        [[7, 6], [0, 1, 2], [3, 4, 5]],          # three ranks (E % 3 != 0 is fine with a placement)
        [[0, 1, 2], [4, 5, 6]],                  # experts 3 and 7 on no rank
    ],
)
def test_placement_is_passed_to_the_reference(placement):
    x, ids, w, w13, w2 = problem(33, seed=2)
    for r, held in enumerate(placement):
        layer = cpu_layer(ep_rank=r, ep_size=len(placement), expert_placement=placement)
        out = np.asarray(layer.prepare_weights(w13[held], w2[held])(x, ids, w)).astype(np.float32)
        np.testing.assert_array_equal(out, masked_full(x, ids, w, w13, w2, held),
                                      err_msg=f"rank {r} of placement {placement}")


def test_torch_tensors_with_placement():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    x, ids, w, w13, w2 = problem(17, seed=3)
    held = [6, 1, 3]
    layer = cpu_layer(ep_rank=1, ep_size=2, expert_placement=[[0, 2, 4, 5, 7], held])
    tw13 = torch.from_numpy(w13.astype(np.float32)).bfloat16()
    tw2 = torch.from_numpy(w2.astype(np.float32)).bfloat16()
    layer.prepare_weights(tw13[held], tw2[held])
    out = layer(torch.from_numpy(x.astype(np.float32)).bfloat16(), torch.from_numpy(ids), torch.from_numpy(w))
    assert isinstance(out, torch.Tensor) and out.dtype == torch.bfloat16
    np.testing.assert_array_equal(out.float().numpy(), masked_full(x, ids, w, w13, w2, held))


# ---- two GPUs: torchrun ep_worker.py ----------------------------------------------------------
def _gpu_skip_reason():
    try:
        import torch
    except ImportError:
        return "PyTorch is not installed"
    n = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if n < 2:
        return f"needs >= 2 CUDA devices visible to PyTorch, found {n}"
    if not megamoe.with_cuda:
        return "this megamoe build has no CUDA support (built without nvcc)"
    if not megamoe.EpGroup.available():
        return "this megamoe build has no NCCL (megamoe.EpGroup.available() is False)"
    try:
        import torch.distributed.run  # noqa: F401  (what torchrun runs)
    except ImportError as e:
        return f"torch.distributed.run is not importable ({e})"
    return None


@pytest.mark.skipif(_gpu_skip_reason() is not None, reason=str(_gpu_skip_reason()))
def test_two_gpus_torchrun_worker(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (_PKG_DIR, env.get("PYTHONPATH")) if p)
    env.setdefault("OMP_NUM_THREADS", "1")
    # `torchrun` is `python -m torch.distributed.run`; the module form needs no PATH entry.
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2", "--master-port",
           str(29500 + os.getpid() % 1000), str(_ROOT / "tests" / "python" / "ep_worker.py")]
    proc = subprocess.run(cmd, env=env, cwd=str(tmp_path), capture_output=True, text=True, timeout=600)
    log = f"command: {' '.join(cmd)}\n--- stdout ---\n{proc.stdout[-6000:]}\n--- stderr ---\n{proc.stderr[-6000:]}"
    assert proc.returncode == 0, log
    assert proc.stdout.count("ep_worker: rank") >= 2 and "FAIL" not in proc.stdout, log


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-v"]))
