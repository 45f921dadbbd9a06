"""GPU tests of the Python package with PyTorch: the GPU backend against the CPU oracle,
torch.compile, CUDA-graph capture and replay, stream semantics, DLPack from other producers.
Skipped (with the reason) without torch, without a CUDA device, without a CUDA build of
megamoe, or when no megamoe GPU backend supports the device."""

import os
import pathlib
import sys

_ROOT = pathlib.Path(__file__).resolve().parents[2]
for _cand in (os.environ.get("MEGAMOE_BUILD_DIR"), str(_ROOT / "build")):
    if _cand and (pathlib.Path(_cand) / "python" / "megamoe").is_dir():
        sys.path.insert(0, str(pathlib.Path(_cand) / "python"))
        break

import pytest  # noqa: E402

torch = pytest.importorskip("torch", reason="PyTorch is not installed: the GPU tests need it")
if not torch.cuda.is_available():
    pytest.skip("no CUDA device visible to PyTorch", allow_module_level=True)

import megamoe  # noqa: E402
import megamoe.torch_ops  # noqa: E402,F401

if not megamoe.with_cuda:
    pytest.skip("this megamoe build has no CUDA backends (built without nvcc)", allow_module_level=True)

DEV = torch.device("cuda", torch.cuda.current_device())


def gpu_layer(E, K, H, I, **kw):
    kw.setdefault("device", DEV)
    try:
        return megamoe.MoELayer(E, K, H, I, **kw)
    except NotImplementedError as e:
        pytest.skip(f"no megamoe GPU backend for this case here: {e}")


def problem(T, E, K, H, I, seed=0, no_route=0.1, device=DEV):
    g = torch.Generator().manual_seed(seed)
    w13 = (torch.randn(E, 2 * I, H, generator=g) / H ** 0.5).bfloat16()
    w2 = (torch.randn(E, H, I, generator=g) / I ** 0.5).bfloat16()
    x = (torch.rand(T, H, generator=g) * 2 - 1).bfloat16()
    ids = torch.stack([torch.randperm(E, generator=g)[:K] for _ in range(T)]).int() if T else \
        torch.zeros(0, K, dtype=torch.int32)
    if T and no_route:
        ids[torch.rand(T, K, generator=g) < no_route] = -1
    w = torch.softmax(torch.randn(T, K, generator=g), -1)
    return [t.to(device) for t in (x, ids, w)] + [w13, w2]


def rel_l2(a, b):
    a, b = a.double().cpu(), b.double().cpu()
    assert torch.isfinite(a).all(), "output holds NaN/inf"
    return ((a - b).norm() / max(b.norm().item(), 1e-30)).item()


try:
    import ml_dtypes  # noqa: F401

    HAVE_ML_DTYPES = True
except ImportError:
    HAVE_ML_DTYPES = False
needs_ml_dtypes = pytest.mark.skipif(not HAVE_ML_DTYPES, reason="ml_dtypes is not installed")


def ref_of(x, ids, w, w13, w2, recipe="bf16", **weights):
    """The CPU oracle (the cpu_reference backend, as megamoe.reference_moe runs it), with torch
    tensors in and out so that it needs no ml_dtypes."""
    fp4 = recipe in ("w4a16_mxfp4", "w4a8_mxfp4", "w4a16_nvfp4", "nvfp4")
    E, H, I = w13.shape[0], w2.shape[1], w2.shape[2] * (2 if fp4 else 1)
    layer = megamoe.MoELayer(E, ids.shape[1], H, I, recipe=recipe, device="cpu", backend="cpu_reference",
                             max_tokens=max(x.shape[0], 1))
    layer.prepare_weights(w13, w2, **weights)
    return layer(x.cpu(), ids.cpu(), w.cpu())


SHAPES = [(8, 2, 256, 128), (64, 6, 192, 320)]


@pytest.mark.parametrize("T", [0, 1, 7, 64, 1000])
@pytest.mark.parametrize("shape", SHAPES)
def test_gpu_matches_reference(T, shape):
    E, K, H, I = shape
    x, ids, w, w13, w2 = problem(T, E, K, H, I, seed=T)
    layer = gpu_layer(E, K, H, I, max_tokens=1024).prepare_weights(w13.to(DEV), w2.to(DEV))
    assert layer.backend != "cpu_reference"
    out = torch.full((T, H), float("nan"), dtype=torch.bfloat16, device=DEV)  # poison: all must be written
    assert layer(x, ids, w, out=out) is out
    torch.cuda.synchronize()
    assert out.shape == (T, H) and out.device == x.device
    if T:
        assert rel_l2(out, ref_of(x, ids, w, w13, w2)) < 5e-3
    again = layer(x, ids, w)
    torch.cuda.synchronize()
    assert torch.equal(again, out), "GPU output is not bitwise repeatable"


@pytest.mark.parametrize("T", [1, 70])
def test_every_tactic_matches_reference(T):
    E, K, H, I = SHAPES[0]
    x, ids, w, w13, w2 = problem(T, E, K, H, I, seed=3)
    layer = gpu_layer(E, K, H, I, max_tokens=128, tactic_cache="off").prepare_weights(w13.to(DEV), w2.to(DEV))
    assert layer.tactic_source == "none"
    names = layer.tactic_names
    assert names, "a GPU backend names its tactics"
    ref = ref_of(x, ids, w, w13, w2)
    for name in names:
        layer.force_tactic(name)
        assert layer.tactic_for(T) in names
        out = layer(x, ids, w)
        torch.cuda.synchronize()
        assert rel_l2(out, ref) < 5e-3, name
    layer.force_tactic("")
    with pytest.raises(ValueError):
        layer.force_tactic("no_such_tactic")


def test_host_and_device_weights_agree():
    E, K, H, I = SHAPES[0]
    x, ids, w, w13, w2 = problem(33, E, K, H, I)
    a = gpu_layer(E, K, H, I).prepare_weights(w13, w2)  # host torch tensors
    b = gpu_layer(E, K, H, I).prepare_weights(w13.to(DEV), w2.to(DEV))
    assert torch.equal(a(x, ids, w), b(x, ids, w))
    if HAVE_ML_DTYPES:  # NumPy bfloat16 weights
        c = gpu_layer(E, K, H, I).prepare_weights(w13.view(torch.int16).numpy().view(megamoe.formats.BF16),
                                                  w2.view(torch.int16).numpy().view(megamoe.formats.BF16))
        assert torch.equal(a(x, ids, w), c(x, ids, w))


@needs_ml_dtypes
@pytest.mark.parametrize("recipe", [r for r in megamoe.RECIPES if r != "bf16"])
def test_other_recipes_when_supported(recipe):
    E, K, H, I = 8, 2, 256, 128
    x, ids, w, w13, w2 = problem(40, E, K, H, I)
    layer = gpu_layer(E, K, H, I, recipe=recipe)  # skips until a GPU backend has the recipe
    q = megamoe.quantize_weights(recipe, w13.float().numpy(), w2.float().numpy())
    out = layer.prepare_weights(**q)(x, ids, w)
    tol = {"w4a16_mxfp4": 5e-3, "w4a16_nvfp4": 5e-3, "fp8_block": 2e-2, "mxfp8": 2e-2}.get(recipe, 5e-2)
    assert rel_l2(out, ref_of(x, ids, w, recipe=recipe, **q)) < tol


def _bytes(a):
    """Raw bytes of a torch tensor or a NumPy array (any dtype), for bit-exact comparison."""
    if isinstance(a, torch.Tensor):
        return a.detach().contiguous().cpu().view(torch.uint8).numpy().tobytes()
    import numpy as np
    return np.ascontiguousarray(a).view(np.uint8).tobytes()


@needs_ml_dtypes
@pytest.mark.parametrize("recipe", ["fp8_block", "mxfp8", "w4a16_mxfp4", "w4a16_nvfp4"])
@pytest.mark.parametrize("src_dtype", ["bfloat16", "float32"])
def test_quantize_weights_gpu_equals_host_quantizer(recipe, src_dtype):
    g = torch.Generator().manual_seed(5)
    E, H, I = 3, 256, 192  # 192: a partial 128-block for fp8_block
    w13 = torch.randn(E, 2 * I, H, generator=g) * 0.05
    w2 = torch.randn(E, H, I, generator=g) * 0.05
    w13[0, :32, :32] = 0.0  # an all-zero block
    w2[1, 5, 7] = 40.0      # one large value
    if src_dtype == "bfloat16":
        w13, w2 = w13.bfloat16(), w2.bfloat16()
    q_host = megamoe.quantize_weights(recipe, w13.float().numpy() if src_dtype == "float32" else
                                      w13.view(torch.int16).numpy().view(megamoe.formats.BF16),
                                      w2.float().numpy() if src_dtype == "float32" else
                                      w2.view(torch.int16).numpy().view(megamoe.formats.BF16))
    q_gpu = megamoe.quantize_weights_gpu(recipe, w13.to(DEV), w2.to(DEV))
    torch.cuda.synchronize()
    assert sorted(q_gpu) == sorted(q_host)
    for k in q_host:
        assert q_gpu[k].device == DEV and tuple(q_gpu[k].shape) == tuple(q_host[k].shape), k
        assert _bytes(q_gpu[k]) == _bytes(q_host[k]), f"{recipe} {k}: GPU bytes differ from the host quantizer's"
    # The GPU tensors go straight into a layer (skips where no GPU backend has the recipe).
    x, ids, w, _, _ = problem(24, E, 2, H, I)
    layer = gpu_layer(E, 2, H, I, recipe=recipe)
    out = layer.prepare_weights(**q_gpu)(x, ids, w)
    tol = {"w4a16_mxfp4": 5e-3, "w4a16_nvfp4": 5e-3}.get(recipe, 2e-2)
    assert rel_l2(out, ref_of(x, ids, w, recipe=recipe, **q_host)) < tol


def test_quantize_weights_gpu_rejects_bad_input():
    w = torch.zeros(2, 64, 64)
    with pytest.raises(ValueError, match="'w13'.*CUDA"):
        megamoe.quantize_weights_gpu("w4a16_mxfp4", w, w.to(DEV))
    with pytest.raises(TypeError, match="'w13'.*bfloat16 or float32"):
        megamoe.quantize_weights_gpu("w4a16_mxfp4", w.to(DEV).half(), w.to(DEV))
    with pytest.raises(ValueError, match="'recipe'"):
        megamoe.quantize_weights_gpu("int4", w.to(DEV), w.to(DEV))
    with pytest.raises(ValueError, match="K"):  # K = 48: not a multiple of the MX block (32)
        megamoe.quantize_weights_gpu("w4a16_mxfp4", torch.zeros(2, 64, 48, device=DEV), w.to(DEV))


def test_device_ids_out_of_range_are_counted():
    E, K, H, I = SHAPES[0]
    x, ids, w, w13, w2 = problem(16, E, K, H, I, no_route=0)
    layer = gpu_layer(E, K, H, I).prepare_weights(w13, w2)
    layer.invalid_id_count()  # reset
    bad = ids.clone()
    bad[3, 0], bad[7, 1] = 99, -5
    clean = bad.clone()
    clean[3, 0], clean[7, 1] = -1, -1
    out = layer(x, bad, w)
    assert torch.equal(out, layer(x, clean, w))
    assert layer.invalid_id_count() == 2
    assert layer.invalid_id_count() == 0


def test_wrong_device_raises_before_work():
    E, K, H, I = SHAPES[0]
    x, ids, w, w13, w2 = problem(4, E, K, H, I)
    layer = gpu_layer(E, K, H, I).prepare_weights(w13, w2)
    with pytest.raises(ValueError, match=r"argument 'x': expected a tensor on cuda:\d+, got a tensor on cpu"):
        layer(x.cpu(), ids, w)
    with pytest.raises(ValueError, match=r"argument 'topk_ids': expected a tensor on cuda"):
        layer(x, ids.cpu(), w)
    if HAVE_ML_DTYPES:
        with pytest.raises(ValueError, match=r"argument 'x': expected a tensor on cuda:\d+, got a tensor on cpu"):
            layer(x.cpu().view(torch.int16).numpy().view(megamoe.formats.BF16), ids, w)  # NumPy x, GPU layer
    with pytest.raises(TypeError, match=r"argument 'x': expected dtype bfloat16"):
        layer(x.float(), ids, w)


def test_current_stream_is_used():
    E, K, H, I = SHAPES[0]
    x, ids, w, w13, w2 = problem(64, E, K, H, I)
    layer = gpu_layer(E, K, H, I).prepare_weights(w13, w2)
    expect = layer(x, ids, w)
    side = torch.cuda.Stream()
    x_dev = torch.full_like(x, float("nan"))
    torch.cuda.synchronize()
    with torch.cuda.stream(side):
        torch.cuda._sleep(200_000_000)  # keeps `side` busy; x_dev is filled only after it
        x_dev.copy_(x)
        out = layer(x_dev, ids, w)  # must run on `side`, after the copy
    torch.cuda.synchronize()
    assert torch.equal(out, expect)
    # explicit stream= argument
    x_dev.fill_(float("nan"))
    torch.cuda.synchronize()
    with torch.cuda.stream(side):
        torch.cuda._sleep(200_000_000)
        x_dev.copy_(x)
    out2 = torch.empty_like(expect)
    layer(x_dev, ids, w, out=out2, stream=side)
    torch.cuda.synchronize()
    assert torch.equal(out2, expect)


def test_cuda_graph_capture_and_replay():
    E, K, H, I = SHAPES[1]
    x, ids, w, w13, w2 = problem(50, E, K, H, I, seed=1)
    x2, ids2, w2b, _, _ = problem(50, E, K, H, I, seed=2)
    layer = gpu_layer(E, K, H, I, max_tokens=64).prepare_weights(w13, w2)
    sx, sids, sw = x.clone(), ids.clone(), w.clone()
    warm = torch.cuda.Stream()
    warm.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(warm):
        for _ in range(2):
            layer(sx, sids, sw)
            torch.ops.megamoe.fused_moe(sx, sids, sw, layer.handle)
    torch.cuda.current_stream().wait_stream(warm)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        s_out = layer(sx, sids, sw)
        s_out_op = torch.ops.megamoe.fused_moe(sx, sids, sw, layer.handle)
    for xs, idss, ws in ((x2, ids2, w2b), (x, ids, w)):
        sx.copy_(xs)
        sids.copy_(idss)
        sw.copy_(ws)
        graph.replay()
        torch.cuda.synchronize()
        expect = layer(xs, idss, ws)
        assert torch.equal(s_out, expect) and torch.equal(s_out_op, expect)


@pytest.mark.parametrize("mode", [None, "reduce-overhead"])
def test_torch_compile(mode):
    E, K, H, I = SHAPES[0]
    _, _, _, w13, w2 = problem(1, E, K, H, I)
    layer = gpu_layer(E, K, H, I, max_tokens=256).prepare_weights(w13, w2)
    router = torch.nn.Linear(H, E, bias=False).to(DEV, torch.bfloat16)

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.router = router
            self.moe = megamoe.torch_ops.MoEModule(layer)

        def forward(self, x):
            scores = torch.softmax(self.router(x).float(), -1)
            w, ids = torch.topk(scores, K, -1)
            w = w / w.sum(-1, keepdim=True)
            ids = ids.int()
            return self.moe(x, ids, w) + x, ids, w

    compiled = torch.compile(Block(), fullgraph=True, mode=mode)
    for T in (8, 8, 100):
        x = (torch.rand(T, H, device=DEV) * 2 - 1).bfloat16()
        with torch.no_grad():  # the op is inference-only (no autograd formula), as engines run it
            out, ids, w = compiled(x)
        out, ids, w = out.clone(), ids.clone(), w.clone()  # reduce-overhead reuses its buffers
        torch.cuda.synchronize()
        # the routing the compiled graph chose, run eagerly: the MoE part must agree
        assert rel_l2(out, layer(x, ids, w) + x) < 1e-3


def test_generic_dlpack_producer_on_cuda():
    class DLPackOnly:  # stands in for CuPy/JAX/...: nothing but the DLPack protocol
        def __init__(self, t):
            self.t = t
            self.streams = []

        def __dlpack__(self, stream=None, **kw):
            self.streams.append(stream)
            return self.t.__dlpack__(stream=stream, **kw)

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    E, K, H, I = SHAPES[0]
    x, ids, w, w13, w2 = problem(21, E, K, H, I)
    layer = gpu_layer(E, K, H, I).prepare_weights(DLPackOnly(w13.to(DEV)), DLPackOnly(w2.to(DEV)))
    expect = layer(x, ids, w)
    torch.cuda.synchronize()
    dx = DLPackOnly(x)
    out = layer(dx, DLPackOnly(ids), DLPackOnly(w))
    assert dx.streams == [1]  # default: the legacy default stream, handed to the producer
    torch.cuda.synchronize()
    assert torch.equal(torch.from_dlpack(out), expect)
    s = torch.cuda.Stream()
    dx2 = DLPackOnly(x)
    out2 = torch.empty_like(expect)
    layer(dx2, DLPackOnly(ids), DLPackOnly(w), out=DLPackOnly(out2), stream=s)
    assert dx2.streams == [s.cuda_stream]
    torch.cuda.synchronize()
    assert torch.equal(out2, expect)
