"""PyTorch integration on the CPU (cpu_reference backend): torch tensors in/out, the custom
ops, their fake (meta) kernels and torch.compile tracing. Skipped without torch; the CUDA side
is in test_gpu_torch.py."""

import os
import pathlib
import sys

_ROOT = pathlib.Path(__file__).resolve().parents[2]
for _cand in (os.environ.get("MEGAMOE_BUILD_DIR"), str(_ROOT / "build")):
    if _cand and (pathlib.Path(_cand) / "python" / "megamoe").is_dir():
        sys.path.insert(0, str(pathlib.Path(_cand) / "python"))
        break

import numpy as np  # noqa: E402
import pytest  # noqa: E402

torch = pytest.importorskip("torch", reason="PyTorch is not installed: the torch integration tests need it")

import megamoe  # noqa: E402
import megamoe.torch_ops  # noqa: E402,F401

E, K, H, I = 8, 2, 64, 32
try:
    import ml_dtypes  # noqa: F401

    HAVE_ML_DTYPES = True
except ImportError:
    HAVE_ML_DTYPES = False
needs_ml_dtypes = pytest.mark.skipif(not HAVE_ML_DTYPES, reason="ml_dtypes is not installed")


def problem(T, seed=0):
    g = torch.Generator().manual_seed(seed)
    w13 = (torch.randn(E, 2 * I, H, generator=g) / H ** 0.5).bfloat16()
    w2 = (torch.randn(E, H, I, generator=g) / I ** 0.5).bfloat16()
    x = (torch.rand(T, H, generator=g) * 2 - 1).bfloat16()
    ids = torch.stack([torch.randperm(E, generator=g)[:K] for _ in range(T)]).int() if T else \
        torch.zeros(0, K, dtype=torch.int32)
    w = torch.softmax(torch.randn(T, K, generator=g), -1)
    return x, ids, w, w13, w2


@pytest.fixture(scope="module")
def layer():
    _, _, _, w13, w2 = problem(1)
    return megamoe.MoELayer(E, K, H, I, device="cpu", max_tokens=256).prepare_weights(w13, w2)


def test_op_is_registered():
    assert hasattr(torch.ops.megamoe, "fused_moe")
    assert hasattr(torch.ops.megamoe, "fused_moe_out")


@needs_ml_dtypes
def test_torch_in_torch_out_matches_numpy_and_reference(layer):
    import ml_dtypes

    x, ids, w, w13, w2 = problem(37)
    out = layer(x, ids, w)
    assert isinstance(out, torch.Tensor) and out.dtype == torch.bfloat16 and out.shape == (37, H)
    xn = x.float().numpy().astype(ml_dtypes.bfloat16)
    out_np = layer(xn, ids.numpy(), w.numpy())
    np.testing.assert_array_equal(out.view(torch.int16).numpy(), out_np.view(np.int16))
    ref = megamoe.reference_moe(x, ids, w, w13, w2)  # torch inputs are fine for the oracle
    np.testing.assert_array_equal(out.view(torch.int16).numpy(), ref.view(np.int16))


def test_ops_match_layer(layer):
    x, ids, w, _, _ = problem(20, seed=1)
    expect = layer(x, ids, w)
    assert torch.equal(torch.ops.megamoe.fused_moe(x, ids, w, layer.handle), expect)
    out = torch.full_like(expect, float("nan"))
    torch.ops.megamoe.fused_moe_out(x, ids, w, out, layer.handle)
    assert torch.equal(out, expect)
    out2 = torch.empty_like(expect)
    assert layer(x, ids.long(), w, out=out2) is out2 and torch.equal(out2, expect)


def test_opcheck(layer):
    x, ids, w, _, _ = problem(9, seed=2)
    torch.library.opcheck(torch.ops.megamoe.fused_moe.default, (x, ids, w, layer.handle))


def test_fake_kernel_shapes(layer):
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        x = torch.empty(13, H, dtype=torch.bfloat16)
        ids = torch.empty(13, K, dtype=torch.int32)
        w = torch.empty(13, K)
        out = torch.ops.megamoe.fused_moe(x, ids, w, layer.handle)
        assert out.shape == (13, H) and out.dtype == torch.bfloat16


@pytest.mark.parametrize("dynamic", [False, True])
def test_compile_module_fullgraph(layer, dynamic):
    mod = megamoe.torch_ops.MoEModule(layer)
    compiled = torch.compile(mod, backend="aot_eager", fullgraph=True, dynamic=dynamic)
    for T in (5, 11):
        x, ids, w, _, _ = problem(T, seed=T)
        assert torch.equal(compiled(x, ids, w), layer(x, ids, w))


def test_compile_function_calling_layer(layer):
    def block(x, ids, w):
        return layer(x * 1, ids, w) + 0  # the layer call itself inside a compiled region

    compiled = torch.compile(block, backend="aot_eager", fullgraph=True)
    x, ids, w, _, _ = problem(6, seed=3)
    assert torch.equal(compiled(x, ids, w), layer(x, ids, w))


@needs_ml_dtypes
def test_float8_torch_weights():
    x, ids, w, w13, w2 = problem(12, seed=4)
    q = megamoe.quantize_weights("fp8_block", w13.float().numpy(), w2.float().numpy())
    a = megamoe.MoELayer(E, K, H, I, recipe="fp8_block", device="cpu").prepare_weights(**q)
    tq = {k: torch.from_numpy(np.ascontiguousarray(v).view(np.uint8)) for k, v in q.items()}
    for k in ("w13", "w2"):
        tq[k] = tq[k].view(torch.float8_e4m3fn)
    for k in ("w13_scale", "w2_scale"):
        tq[k] = torch.from_numpy(q[k])
    b = megamoe.MoELayer(E, K, H, I, recipe="fp8_block", device="cpu").prepare_weights(**tq)
    assert torch.equal(a(x, ids, w), b(x, ids, w))


def test_torch_bad_inputs(layer):
    x, ids, w, _, _ = problem(4, seed=5)
    with pytest.raises(TypeError, match=r"argument 'x': expected dtype bfloat16, got dtype float32"):
        layer(x.float(), ids, w)
    with pytest.raises(TypeError, match=r"argument 'topk_ids': expected dtype .*got dtype torch.int16"):
        layer(x, ids.short(), w)
    with pytest.raises(ValueError, match=r"argument 'topk_ids': expected a contiguous"):
        layer(x, torch.zeros(K, 4, dtype=torch.int32).t(), w)
    with pytest.raises(ValueError, match=r"argument 'topk_ids\[0, 0\]'"):
        layer(x, torch.full_like(ids, 99), w)


def test_dead_handle():
    _, _, _, w13, w2 = problem(1)
    tmp = megamoe.MoELayer(E, K, H, I, device="cpu").prepare_weights(w13, w2)
    handle = tmp.handle
    del tmp
    import gc

    gc.collect()
    x, ids, w, _, _ = problem(2)
    with pytest.raises(RuntimeError, match=f"no live MoELayer has handle {handle}"):
        torch.ops.megamoe.fused_moe(x, ids, w, handle)
