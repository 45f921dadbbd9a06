"""CPU tests of the Python package (NumPy + ml_dtypes, the cpu_reference backend).

The package is taken from $MEGAMOE_BUILD_DIR/python, else <repo>/build/python (a CMake build
with -DMEGAMOE_BUILD_PYTHON=ON), else wherever `import megamoe` finds it (pip install).
"""

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

ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed (scripts/setup.sh installs it)")

import megamoe  # noqa: E402
from megamoe import _C  # noqa: E402

BF16 = ml_dtypes.bfloat16
E4M3 = ml_dtypes.float8_e4m3fn
E8M0 = ml_dtypes.float8_e8m0fnu
FP4 = ml_dtypes.float4_e2m1fn


# ---- helpers -------------------------------------------------------------------------------
def bf16(a):
    return np.asarray(a, np.float32).astype(BF16)


def f32(a):
    return np.asarray(a).astype(np.float32)


def rel_l2(a, b):
    a, b = f32(a).astype(np.float64), f32(b).astype(np.float64)
    assert np.isfinite(a).all(), "output holds NaN/inf"
    d = np.linalg.norm(b)
    return np.linalg.norm(a - b) / (d if d > 0 else 1.0)


def make_problem(rng, T, E, K, H, I, *, gated=True, bias=False, ids_dtype=np.int32, no_route=0.1):
    n13 = 2 * I if gated else I
    w13 = bf16(rng.standard_normal((E, n13, H)) / np.sqrt(H))
    w2 = bf16(rng.standard_normal((E, H, I)) / np.sqrt(I))
    x = bf16(rng.uniform(-1, 1, (T, H)))
    ids = np.array([rng.permutation(E)[:K] for _ in range(T)], dtype=ids_dtype).reshape(T, K)
    if T and no_route:
        ids[rng.random((T, K)) < no_route] = -1
    logits = rng.standard_normal((T, K)).astype(np.float32)
    w = (np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)).astype(np.float32).reshape(T, K)
    b13 = bf16(rng.standard_normal((E, n13)) * 0.1) if bias else None
    b2 = bf16(rng.standard_normal((E, H)) * 0.1) if bias else None
    return dict(x=x, ids=ids, w=w, w13=w13, w2=w2, b13=b13, b2=b2)


def numpy_moe(x, ids, w, w13, w2, *, activation="swiglu", limit=None, alpha=1.702, b13=None, b2=None,
              first_expert=0, alpha13=None, alpha2=None):
    """An independent float64 implementation of docs/DESIGN.md section 1 (weights already dequantized)."""
    x = f32(x).astype(np.float64)
    w13, w2 = f32(w13).astype(np.float64), f32(w2).astype(np.float64)
    T, H = x.shape
    E = w13.shape[0]
    acc = np.zeros((T, H))
    if limit is None and activation == "swiglu_oai":
        limit = 7.0
    for e in range(E):
        rows, ks = np.nonzero(np.asarray(ids) == e + first_expert)
        if rows.size == 0:
            continue
        h = x[rows] @ w13[e].T
        if alpha13 is not None:
            h = h * alpha13[e]
        if b13 is not None:
            h = h + f32(b13[e])
        if activation == "relu2":
            a = np.maximum(h, 0) ** 2
        else:
            I = h.shape[1] // 2
            g, u = h[:, :I], h[:, I:]
            if limit is not None:
                g, u = np.minimum(g, limit), np.clip(u, -limit, limit)
            if activation == "swiglu":
                a = g / (1 + np.exp(-g)) * u
            elif activation == "swiglu_oai":
                a = g / (1 + np.exp(-alpha * g)) * (u + 1)
            elif activation == "geglu":
                a = 0.5 * g * (1 + np.tanh(0.7978845608028654 * (g + 0.044715 * g ** 3))) * u
        a = f32(bf16(a)).astype(np.float64)
        y = a @ w2[e].T
        if alpha2 is not None:
            y = y * alpha2[e]
        if b2 is not None:
            y = y + f32(b2[e])
        y = f32(bf16(y)).astype(np.float64)
        acc[rows] += np.asarray(w, np.float64)[rows, ks][:, None] * y
    return bf16(acc)


def cpu_layer(E, K, H, I, **kw):
    kw.setdefault("device", "cpu")
    return megamoe.MoELayer(E, K, H, I, **kw)


def test_tactic_api_on_a_backend_without_tactics(tmp_path):
    layer = cpu_layer(4, 2, 64, 32, max_tokens=8, tactic_cache=str(tmp_path / "none.json"))
    assert layer.tactic_names == []
    assert layer.tactic_for(3) == ""
    assert layer.tactic_source == "none"
    layer.force_tactic("")
    with pytest.raises(ValueError, match="tactic"):
        layer.force_tactic("mega")
    with pytest.raises(TypeError):
        cpu_layer(4, 2, 64, 32, tactic_cache=3)


class DLPackOnly:
    """An array that exposes nothing but the DLPack protocol (a stand-in for any framework)."""

    def __init__(self, arr):
        self._arr = arr

    def __dlpack__(self, **kw):
        return self._arr.__dlpack__(**kw)

    def __dlpack_device__(self):
        return self._arr.__dlpack_device__()

    @property
    def shape(self):
        return self._arr.shape


# ---- the package ----------------------------------------------------------------------------
def test_package_metadata():
    import re

    pyproject = (_ROOT / "pyproject.toml").read_text()
    assert megamoe.__version__ == re.search(r'^version = "([^"]+)"', pyproject, re.M).group(1)
    assert "cpu_reference" in megamoe.registered_backends()
    assert megamoe.registered_backends()[-1] == "cpu_reference"
    assert issubclass(megamoe.OutOfMemoryError, RuntimeError)
    assert issubclass(megamoe.CudaError, RuntimeError)
    assert set(megamoe.RECIPES) >= {"bf16", "fp8_block", "w4a16_mxfp4", "w4a16_nvfp4"}


def test_layer_properties():
    layer = cpu_layer(8, 2, 64, 32, activation="swiglu_oai", activation_params={"limit": 5.0, "alpha": 1.5},
                      max_tokens=100)
    assert (layer.num_experts, layer.top_k, layer.hidden_size, layer.intermediate_size) == (8, 2, 64, 32)
    assert layer.backend == "cpu_reference" and layer.device == "cpu"
    assert layer.fc1_rows == 64 and layer.local_experts == 8 and layer.max_tokens == 100
    assert layer.activation_params == {"limit": 5.0, "alpha": 1.5}
    assert not layer.weights_ready and layer.weight_bytes == 0
    assert megamoe.layer_from_handle(layer.handle) is layer
    assert "cpu_reference" in repr(layer)
    assert cpu_layer(8, 2, 64, 32, activation="relu2").fc1_rows == 32


def test_device_none_is_cpu_without_cuda():
    if megamoe.with_cuda and _C.cuda_device_count() > 0:
        pytest.skip("a CUDA device is present: device=None picks it")
    assert megamoe.MoELayer(4, 2, 32, 32).device == "cpu"


# ---- layer vs the oracle ---------------------------------------------------------------------
@pytest.mark.parametrize("T", [0, 1, 7, 64, 300])
def test_layer_matches_reference_and_numpy(T):
    rng = np.random.default_rng(T)
    E, K, H, I = 16, 4, 96, 48
    p = make_problem(rng, T, E, K, H, I)
    layer = cpu_layer(E, K, H, I, max_tokens=512).prepare_weights(p["w13"], p["w2"])
    assert layer.weights_ready and layer.weight_bytes > 0
    out = layer(p["x"], p["ids"], p["w"])
    assert isinstance(out, np.ndarray) and out.dtype == BF16 and out.shape == (T, H)
    ref = megamoe.reference_moe(p["x"], p["ids"], p["w"], p["w13"], p["w2"])
    assert ref.dtype == BF16 and ref.shape == (T, H)
    np.testing.assert_array_equal(out.view(np.uint16), ref.view(np.uint16))
    if T:
        assert rel_l2(out, numpy_moe(p["x"], p["ids"], p["w"], p["w13"], p["w2"])) < 5e-3


@pytest.mark.parametrize(
    "activation,params",
    [("swiglu", None), ("swiglu", {"limit": 0.5}), ("swiglu_oai", None), ("swiglu_oai", {"limit": 1.0, "alpha": 2.0}),
     ("geglu", None), ("relu2", None)],
)
@pytest.mark.parametrize("bias", [False, True])
def test_activations_and_bias(activation, params, bias):
    rng = np.random.default_rng(7)
    E, K, H, I, T = 6, 2, 64, 32, 33
    p = make_problem(rng, T, E, K, H, I, gated=activation != "relu2", bias=bias)
    layer = cpu_layer(E, K, H, I, activation=activation, activation_params=params, has_bias=bias)
    layer.prepare_weights(p["w13"], p["w2"], b13=p["b13"], b2=p["b2"])
    out = layer(p["x"], p["ids"], p["w"])
    ref = megamoe.reference_moe(p["x"], p["ids"], p["w"], p["w13"], p["w2"], b13=p["b13"], b2=p["b2"],
                                activation=activation, activation_params=params)
    np.testing.assert_array_equal(out.view(np.uint16), ref.view(np.uint16))
    params = params or {}
    expect = numpy_moe(p["x"], p["ids"], p["w"], p["w13"], p["w2"], activation=activation, b13=p["b13"],
                       b2=p["b2"], limit=params.get("limit"), alpha=params.get("alpha", 1.702))
    assert rel_l2(out, expect) < 5e-3


def test_int64_ids_strided_x_and_out_param():
    rng = np.random.default_rng(3)
    E, K, H, I, T = 8, 2, 64, 32, 20
    p = make_problem(rng, T, E, K, H, I, ids_dtype=np.int64)
    layer = cpu_layer(E, K, H, I).prepare_weights(p["w13"], p["w2"])
    wide = np.zeros((T, H + 16), BF16)
    wide[:, :H] = p["x"]
    x_strided = wide[:, :H]  # row stride H + 16 > H: allowed
    out = np.full((T, H), np.nan, BF16)
    res = layer(x_strided, p["ids"], p["w"], out=out)
    assert res is out
    expect = layer(p["x"], p["ids"].astype(np.int32), p["w"])
    np.testing.assert_array_equal(out.view(np.uint16), expect.view(np.uint16))


def test_all_tokens_one_expert_and_no_routes():
    rng = np.random.default_rng(4)
    E, K, H, I, T = 8, 2, 64, 32, 17
    p = make_problem(rng, T, E, K, H, I, no_route=0)
    layer = cpu_layer(E, K, H, I).prepare_weights(p["w13"], p["w2"])
    ids = p["ids"].copy()
    ids[:, 0] = 3
    ids[:, 1] = -1
    out = layer(p["x"], ids, p["w"])
    assert rel_l2(out, numpy_moe(p["x"], ids, p["w"], p["w13"], p["w2"])) < 5e-3
    none = layer(p["x"], np.full((T, K), -1, np.int32), p["w"])
    assert not f32(none).any()


def test_deterministic_across_threads():
    rng = np.random.default_rng(5)
    E, K, H, I, T = 8, 3, 64, 64, 100
    p = make_problem(rng, T, E, K, H, I)
    a = cpu_layer(E, K, H, I, num_threads=1).prepare_weights(p["w13"], p["w2"])(p["x"], p["ids"], p["w"])
    layer = cpu_layer(E, K, H, I, num_threads=3).prepare_weights(p["w13"], p["w2"])
    b = layer(p["x"], p["ids"], p["w"])
    c = layer(p["x"], p["ids"], p["w"])
    np.testing.assert_array_equal(a.view(np.uint16), b.view(np.uint16))
    np.testing.assert_array_equal(b.view(np.uint16), c.view(np.uint16))


def test_expert_parallel_ranks_sum_to_full_layer():
    rng = np.random.default_rng(6)
    E, K, H, I, T, R = 8, 2, 64, 32, 40, 2
    p = make_problem(rng, T, E, K, H, I)
    full = cpu_layer(E, K, H, I).prepare_weights(p["w13"], p["w2"])(p["x"], p["ids"], p["w"])
    total = np.zeros((T, H), np.float64)
    for r in range(R):
        sl = slice(r * E // R, (r + 1) * E // R)
        layer = cpu_layer(E, K, H, I, ep_rank=r, ep_size=R)
        assert layer.local_experts == E // R
        layer.prepare_weights(p["w13"][sl], p["w2"][sl])
        part = layer(p["x"], p["ids"], p["w"])
        ref = megamoe.reference_moe(p["x"], p["ids"], p["w"], p["w13"][sl], p["w2"][sl], ep_rank=r, ep_size=R)
        np.testing.assert_array_equal(part.view(np.uint16), ref.view(np.uint16))
        total += f32(part)
    assert rel_l2(total, full) < 1e-2


# ---- recipes ------------------------------------------------------------------------------------
def dequantized(recipe, q):
    """float weights (and per-expert alphas) a recipe's canonical weights stand for."""
    if recipe == "bf16":
        return f32(q["w13"]), f32(q["w2"]), None, None
    if recipe == "fp8_block":
        return (megamoe.dequantize_fp8_block(q["w13"], q["w13_scale"]),
                megamoe.dequantize_fp8_block(q["w2"], q["w2_scale"]), None, None)
    if recipe in ("mxfp8",):
        return (megamoe.dequantize_mx(q["w13"], q["w13_scale"], "e4m3"),
                megamoe.dequantize_mx(q["w2"], q["w2_scale"], "e4m3"), None, None)
    if recipe in ("w4a16_mxfp4", "w4a8_mxfp4"):
        return (megamoe.dequantize_mx(q["w13"], q["w13_scale"], "e2m1"),
                megamoe.dequantize_mx(q["w2"], q["w2_scale"], "e2m1"), None, None)
    # nvfp4: e2m1 * e4m3 per element, alpha = global after accumulation
    return (megamoe.dequantize_nvfp4(q["w13"], q["w13_scale"], 1.0),
            megamoe.dequantize_nvfp4(q["w2"], q["w2_scale"], 1.0), q["w13_global_scale"], q["w2_global_scale"])


@pytest.mark.parametrize("recipe", megamoe.RECIPES)
def test_every_recipe_layer_vs_reference(recipe):
    rng = np.random.default_rng(11)
    E, K, H, I, T = 4, 2, 128, 64, 24
    p = make_problem(rng, T, E, K, H, I)
    q = megamoe.quantize_weights(recipe, p["w13"], p["w2"])
    layer = cpu_layer(E, K, H, I, recipe=recipe).prepare_weights(**q)
    out = layer(p["x"], p["ids"], p["w"])
    ref = megamoe.reference_moe(p["x"], p["ids"], p["w"], recipe=recipe, **q)
    np.testing.assert_array_equal(out.view(np.uint16), ref.view(np.uint16))
    d13, d2, a13, a2 = dequantized(recipe, q)
    expect = numpy_moe(p["x"], p["ids"], p["w"], d13, d2, alpha13=a13, alpha2=a2)
    # bf16 / W4A16 recipes keep bf16 activations (tight); the others quantize activations too.
    tol = {"bf16": 5e-3, "w4a16_mxfp4": 5e-3, "w4a16_nvfp4": 5e-3, "fp8_block": 0.1, "mxfp8": 0.1}.get(recipe, 0.3)
    assert rel_l2(out, expect) < tol


def test_weight_dtype_spellings_agree():
    """float8 codes as ml_dtypes arrays, uint8 arrays and real DLPack float8 give one result."""
    rng = np.random.default_rng(12)
    E, K, H, I, T = 4, 2, 64, 64, 9
    p = make_problem(rng, T, E, K, H, I)
    ref = None
    for spelling in ("ml_dtypes", "uint8", "dlpack"):
        q = megamoe.quantize_weights("mxfp8", p["w13"], p["w2"])
        if spelling == "uint8":
            q = {k: v.view(np.uint8) for k, v in q.items()}
        elif spelling == "dlpack":
            q = {k: _C.dlpack_view(np.ascontiguousarray(v).view(np.uint8), str(v.dtype)) for k, v in q.items()}
        out = cpu_layer(E, K, H, I, recipe="mxfp8").prepare_weights(**q)(p["x"], p["ids"], p["w"])
        if ref is None:
            ref = out
        np.testing.assert_array_equal(out.view(np.uint16), ref.view(np.uint16))


def test_generic_dlpack_inputs():
    rng = np.random.default_rng(13)
    E, K, H, I, T = 8, 2, 64, 32, 11
    p = make_problem(rng, T, E, K, H, I)
    layer = cpu_layer(E, K, H, I).prepare_weights(_C.dlpack_view(p["w13"].view(np.uint16), "bfloat16"),
                                                  DLPackOnly(_C.dlpack_view(p["w2"].view(np.uint16), "bfloat16")))
    expect = layer(p["x"], p["ids"], p["w"])
    x_dl = DLPackOnly(_C.dlpack_view(p["x"].view(np.uint16), "bfloat16"))
    out = layer(x_dl, DLPackOnly(p["ids"]), DLPackOnly(p["w"]))
    assert isinstance(out, np.ndarray) and out.dtype == BF16  # other CPU arrays -> NumPy out
    np.testing.assert_array_equal(out.view(np.uint16), expect.view(np.uint16))
    out2 = np.zeros((T, H), BF16)
    layer(x_dl, p["ids"], p["w"], out=_C.dlpack_view(out2.view(np.uint16), "bfloat16"))
    np.testing.assert_array_equal(out2.view(np.uint16), expect.view(np.uint16))


def test_zero_tokens():
    E, K, H, I = 4, 2, 32, 32
    p = make_problem(np.random.default_rng(0), 0, E, K, H, I)
    layer = cpu_layer(E, K, H, I, max_tokens=0).prepare_weights(p["w13"], p["w2"])
    out = layer(np.zeros((0, H), BF16), np.zeros((0, K), np.int32), np.zeros((0, K), np.float32))
    assert out.shape == (0, H) and out.dtype == BF16


# ---- quantizers vs ml_dtypes ----------------------------------------------------------------------
def _weights(rng, shape, scale=1.0, dtype=np.float32):
    w = (rng.standard_normal(shape) * scale).astype(np.float32)
    w.reshape(-1)[:: 97] *= 40  # outliers, so blocks have different scales
    return w.astype(dtype)


@pytest.mark.parametrize("ue8m0", [False, True])
@pytest.mark.parametrize("shape", [(2, 256, 384), (130, 200)])
def test_fp8_block_vs_ml_dtypes(shape, ue8m0):
    rng = np.random.default_rng(1)
    w = _weights(rng, shape, dtype=BF16)
    codes, scales = megamoe.quantize_fp8_block(w, ue8m0=ue8m0)
    N, K = shape[-2:]
    assert codes.dtype == E4M3 and codes.shape == w.shape
    assert scales.dtype == np.float32 and scales.shape == shape[:-2] + (-(-N // 128), -(-K // 128))
    wf = f32(w).reshape((-1, N, K))
    for b in range(wf.shape[0]):
        for i in range(scales.shape[-2]):
            for j in range(scales.shape[-1]):
                blk = wf[b, i * 128:(i + 1) * 128, j * 128:(j + 1) * 128]
                s = np.float32(np.abs(blk).max()) / np.float32(448)
                if s == 0:
                    s = np.float32(1)
                elif ue8m0:
                    s = np.float32(2.0 ** np.ceil(np.log2(np.float64(s))))
                assert scales.reshape((-1,) + scales.shape[-2:])[b, i, j] == s
                want = (blk / s).astype(E4M3)
                got = codes.reshape((-1, N, K))[b, i * 128:(i + 1) * 128, j * 128:(j + 1) * 128]
                np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    deq = megamoe.dequantize_fp8_block(codes, scales)
    s_full = np.repeat(np.repeat(scales, 128, -2), 128, -1)[..., :N, :K]
    np.testing.assert_array_equal(deq, f32(codes) * s_full)
    assert rel_l2(deq, w) < 0.05


@pytest.mark.parametrize("elem", ["e2m1", "e4m3"])
def test_mx_vs_ml_dtypes(elem):
    rng = np.random.default_rng(2)
    w = _weights(rng, (3, 64, 128))
    codes, scales = megamoe.quantize_mx(w, elem)
    assert scales.dtype == E8M0 and scales.shape == (3, 64, 4)
    emax = 2 if elem == "e2m1" else 8
    blocks = w.reshape(3, 64, 4, 32)
    amax = np.abs(blocks).max(-1)
    e = np.clip(np.floor(np.log2(amax.astype(np.float64))) - emax, -127, 127)
    np.testing.assert_array_equal(scales.view(np.uint8), (e + 127).astype(np.uint8))
    np.testing.assert_array_equal(f32(scales), (2.0 ** e).astype(np.float32))  # ml_dtypes decodes e8m0
    v = (blocks * (2.0 ** -e)[..., None].astype(np.float32)).reshape(3, 64, 128)
    if elem == "e2m1":
        assert codes.dtype == np.uint8 and codes.shape == (3, 64, 64)
        want = v.astype(FP4).view(np.uint8) & 0xF  # ml_dtypes float4 saturates to +-6
        got = np.stack([codes & 0xF, codes >> 4], -1).reshape(3, 64, 128)
        np.testing.assert_array_equal(got, want)
        elems = f32(got.astype(np.uint8).view(FP4))
    else:
        assert codes.dtype == E4M3 and codes.shape == (3, 64, 128)
        want = np.clip(v, -448, 448).astype(E4M3)  # the quantizer saturates; ml_dtypes casts do not
        np.testing.assert_array_equal(codes.view(np.uint8), want.view(np.uint8))
        elems = f32(codes)
    deq = megamoe.dequantize_mx(codes, scales, elem)
    np.testing.assert_array_equal(deq, elems * np.repeat(f32(scales), 32, -1))
    assert rel_l2(deq, w) < (0.2 if elem == "e2m1" else 0.05)


def test_nvfp4_vs_ml_dtypes():
    rng = np.random.default_rng(3)
    w = _weights(rng, (2, 32, 64), dtype=BF16)
    codes, scales, g = megamoe.quantize_nvfp4(w)
    assert codes.shape == (2, 32, 32) and scales.dtype == E4M3 and scales.shape == (2, 32, 4) and g.shape == (2,)
    wf = f32(w)
    for b in range(2):
        gb = np.float32(np.abs(wf[b]).max()) / np.float32(2688)
        assert g[b] == gb
        blocks = wf[b].reshape(32, 4, 16)
        sc = ((np.abs(blocks).max(-1) / np.float32(6)) / gb).astype(np.float32)
        want_sc = np.clip(sc, -448, 448).astype(E4M3)
        np.testing.assert_array_equal(scales[b].view(np.uint8), want_sc.view(np.uint8))
        s = (f32(want_sc) * gb).astype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            v = np.where(s[..., None] == 0, 0, blocks / s[..., None]).astype(np.float32)
        want = v.reshape(32, 64).astype(FP4).view(np.uint8) & 0xF
        got = np.stack([codes[b] & 0xF, codes[b] >> 4], -1).reshape(32, 64)
        np.testing.assert_array_equal(got, want)
    deq = megamoe.dequantize_nvfp4(codes, scales, g)
    unit = megamoe.dequantize_nvfp4(codes, scales, 1.0)
    np.testing.assert_array_equal(deq, (unit * g[:, None, None]).astype(np.float32))
    assert rel_l2(deq, w) < 0.2
    # an explicit global scale is used as given
    _, _, g2 = megamoe.quantize_nvfp4(w, global_scale=0.5)
    np.testing.assert_array_equal(g2, [0.5, 0.5])


def test_quantizer_bad_inputs():
    w = np.ones((4, 48), np.float32)
    with pytest.raises(ValueError, match="multiple of 32"):
        megamoe.quantize_mx(w)
    with pytest.raises(ValueError, match="multiple of 16"):
        megamoe.quantize_nvfp4(np.ones((4, 40), np.float32))
    with pytest.raises(TypeError, match="float32 or bfloat16"):
        megamoe.quantize_fp8_block(np.ones((4, 4), np.int32))
    with pytest.raises(ValueError, match=r"\[..., N, K\]"):
        megamoe.quantize_fp8_block(np.ones(4, np.float32))
    with pytest.raises(ValueError, match="elem"):
        megamoe.quantize_mx(np.ones((4, 32), np.float32), "e5m2")
    with pytest.raises(ValueError, match="recipe"):
        megamoe.quantize_weights("int4", w, w)
    with pytest.raises(TypeError, match="torch CUDA tensors"):  # the GPU quantizers take torch CUDA tensors
        megamoe.quantize_weights_gpu("w4a16_mxfp4", np.ones((2, 64, 64), np.float32), np.ones((2, 64, 64), np.float32))
    # Empty matrices, a global scale of the wrong shape, integer weights for bf16: named errors.
    with pytest.raises(ValueError, match=r"argument 'w'.*N, K >= 1"):
        megamoe.quantize_fp8_block(np.ones((2, 0, 128), np.float32))
    with pytest.raises(ValueError, match=r"argument 'global_scale': expected a scalar or shape \[3\]"):
        megamoe.quantize_nvfp4(np.ones((3, 4, 32), np.float32), global_scale=np.ones(2, np.float32))
    with pytest.raises(TypeError, match=r"argument 'w13': expected dtype float32 or bfloat16"):
        megamoe.quantize_weights("bf16", np.ones((2, 64, 64), np.int64), np.ones((2, 64, 32), np.float32))
    with pytest.raises(TypeError, match=r"argument 'global_scale': expected float32 values, got 'x'"):
        megamoe.quantize_nvfp4(np.ones((2, 4, 32), np.float32), global_scale="x")


def test_dequantizer_codes_whose_k_is_not_a_whole_number_of_blocks():
    # Codes of K = 16 (8 packed bytes) used to be reported as a scales problem ("expected shape [4, 0]"),
    # blaming the scales for the codes' K; the error now names the codes and the block.
    with pytest.raises(ValueError, match=r"argument 'codes': expected K .* multiple of 32 .* got shape \[4, 8\] \(K = 16\)"):
        megamoe.dequantize_mx(np.zeros((4, 8), np.uint8), np.zeros((4, 1), E8M0))
    with pytest.raises(ValueError, match=r"argument 'codes': expected K .* multiple of 32 .*\(K = 48\)"):
        megamoe.dequantize_mx(np.zeros((4, 48), E4M3), np.zeros((4, 1), E8M0), "e4m3")
    with pytest.raises(ValueError, match=r"argument 'codes': expected K .* multiple of 16 .* got shape \[4, 4\] \(K = 8\)"):
        megamoe.dequantize_nvfp4(np.zeros((4, 4), np.uint8), np.zeros((4, 1), E4M3), 1.0)
    # Whole blocks still decode: e2m1 code 2 (= 1.0) in both nibbles times 2^0.
    out = megamoe.dequantize_mx(np.full((4, 16), 0x22, np.uint8), np.full((4, 1), 127, np.uint8))
    np.testing.assert_array_equal(out, np.ones((4, 32), np.float32))


def test_layer_argument_ranges_and_types():
    # Integers past what the C++ side holds, a non-bool has_bias, a non-number activation parameter:
    # errors that name the argument (not a binding's signature dump, not a silent True).
    with pytest.raises(ValueError, match=r"argument 'num_experts': expected an integer in"):
        cpu_layer(2 ** 70, 2, 64, 32)
    with pytest.raises(ValueError, match=r"argument 'num_threads': expected an integer in"):
        cpu_layer(4, 2, 64, 32, num_threads=2 ** 40)
    with pytest.raises(ValueError, match=r"argument 'max_tokens'"):
        cpu_layer(4, 2, 64, 32, max_tokens=2 ** 62 + 1)  # fits int64, over the 2^31 capacity bound
    with pytest.raises(TypeError, match=r"argument 'has_bias': expected a bool"):
        cpu_layer(4, 2, 64, 32, has_bias="false")
    with pytest.raises(TypeError, match=r"argument 'activation_params': expected a number for 'limit'"):
        cpu_layer(4, 2, 64, 32, activation_params={"limit": "abc"})


# ---- errors: every bad input raises before any work ----------------------------------------------
@pytest.fixture(scope="module")
def ready():
    rng = np.random.default_rng(21)
    E, K, H, I, T = 8, 2, 64, 32, 6
    p = make_problem(rng, T, E, K, H, I, no_route=0)
    layer = cpu_layer(E, K, H, I, max_tokens=16).prepare_weights(p["w13"], p["w2"])
    return layer, p


def _raises(exc, match, layer, x, ids, w, out=None):
    sentinel = np.full((x.shape[0] if getattr(x, "ndim", 0) == 2 else 1, layer.hidden_size), 7.0, BF16)
    target = out if out is not None else sentinel
    with pytest.raises(exc, match=match) as info:
        layer(x, ids, w, out=target)
    if out is None:
        assert (f32(sentinel) == 7.0).all(), "output written although the call raised"
    assert "megamoe" in str(info.value)
    return info


def test_bad_forward_inputs(ready):
    layer, p = ready
    x, ids, w = p["x"], p["ids"], p["w"]
    T, H = x.shape
    _raises(TypeError, r"argument 'x': expected dtype bfloat16, got dtype float32", layer, f32(x), ids, w)
    _raises(TypeError, r"argument 'x'.*float4_e2m1fn", layer, f32(x).astype(FP4), ids, w)
    _raises(TypeError, r"argument 'x'.*type list", layer, f32(x).tolist(), ids, w)
    _raises(ValueError, r"argument 'x': expected shape \[T, 64\], got shape \[6, 32\]", layer,
            np.ascontiguousarray(x[:, :32]), ids, w)
    _raises(ValueError, r"argument 'x': expected at most max_tokens=16", layer, np.zeros((17, H), BF16),
            np.zeros((17, 2), np.int32), np.zeros((17, 2), np.float32))
    _raises(ValueError, r"argument 'x': expected rows with unit column stride", layer,
            np.asfortranarray(x), ids, w)
    _raises(TypeError, r"argument 'topk_ids': expected dtype int32 or int64, got dtype float32", layer, x,
            f32(ids), w)
    _raises(ValueError, r"argument 'topk_ids': expected shape \[6 \(T\), 2 \(top_k\)\], got shape \[6, 3\]",
            layer, x, np.zeros((T, 3), np.int32), w)
    _raises(ValueError, r"argument 'topk_ids': expected a contiguous", layer, x,
            np.asfortranarray(np.ones((T, 2), np.int32)), w)
    _raises(TypeError, r"argument 'topk_weights': expected dtype float32, got dtype float64", layer, x, ids,
            w.astype(np.float64))
    _raises(ValueError, r"argument 'topk_weights': expected shape", layer, x, ids, w[:3])
    bad = ids.copy()
    bad[4, 1] = 8
    _raises(ValueError, r"argument 'topk_ids\[4, 1\]': expected -1 \(no route\) or an expert id in \[0, 8\), got 8",
            layer, x, bad, w)
    bad[4, 1] = -2
    _raises(ValueError, r"got -2", layer, x, bad, w)
    _raises(TypeError, r"argument 'out': expected dtype bfloat16, got dtype float32", layer, x, ids, w,
            out=np.zeros((T, H), np.float32))
    _raises(ValueError, r"argument 'out': expected shape", layer, x, ids, w, out=np.zeros((T, H + 1), BF16))
    ro = np.zeros((T, H), BF16)
    ro.flags.writeable = False
    _raises(ValueError, r"argument 'out': expected a writable DLPack tensor", layer, x, ids, w, out=ro)
    with pytest.raises(TypeError, match="argument 'stream'"):
        layer(x, ids, w, stream="fast")


def test_ml_dtypes_ids_and_weights_are_named_by_their_dtype(ready):
    # NumPy bfloat16 / float8 arrays travel as same-width uint views plus a dtype tag; the tag of
    # topk_ids / topk_weights was dropped, so a bfloat16 topk_weights was reported as "got dtype uint16"
    # (with the list of every dtype megamoe knows, bfloat16 included) instead of "got dtype bfloat16".
    layer, p = ready
    x, ids, w = p["x"], p["ids"], p["w"]
    info = _raises(TypeError, r"argument 'topk_weights': expected dtype float32, got dtype bfloat16$", layer, x,
                   ids, w.astype(BF16))
    assert "uint16" not in str(info.value)
    info = _raises(TypeError, r"argument 'topk_ids': expected dtype int32 or int64, got dtype float8_e4m3fn$", layer,
                   x, ids.astype(np.float32).astype(E4M3), w)
    assert "uint8" not in str(info.value)
    _raises(TypeError, r"argument 'topk_ids': expected dtype int32 or int64, got dtype bfloat16$", layer, x,
            bf16(ids), w)
    # The same layer still runs correct inputs afterwards.
    assert layer(x, ids, w).shape == x.shape


def test_forward_before_prepare_weights():
    layer = cpu_layer(4, 2, 32, 32)
    with pytest.raises(RuntimeError, match="before prepare_weights"):
        layer(np.zeros((1, 32), BF16), np.zeros((1, 2), np.int32), np.zeros((1, 2), np.float32))


def test_bad_weights():
    rng = np.random.default_rng(22)
    E, K, H, I = 4, 2, 64, 32
    p = make_problem(rng, 1, E, K, H, I)
    layer = cpu_layer(E, K, H, I)
    with pytest.raises(ValueError, match=r"argument 'w13': expected shape \[4 \(local experts\), 64, 64\], got shape \[4, 64, 32\]"):
        layer.prepare_weights(p["w13"][:, :, :32], p["w2"])
    with pytest.raises(TypeError, match=r"argument 'w2': expected dtype bfloat16, got dtype float32"):
        layer.prepare_weights(p["w13"], f32(p["w2"]))
    with pytest.raises(ValueError, match=r"argument 'w13_scale': expected none"):
        layer.prepare_weights(p["w13"], p["w2"], w13_scale=np.ones((4, 1, 1), np.float32))
    with pytest.raises(ValueError, match=r"argument 'b13': expected none \(config.has_bias is false\)"):
        layer.prepare_weights(p["w13"], p["w2"], b13=np.zeros((4, 64), np.float32))
    with pytest.raises(ValueError, match=r"argument 'w13': expected a contiguous"):
        layer.prepare_weights(np.swapaxes(np.swapaxes(p["w13"], 1, 2).copy(), 1, 2), p["w2"])
    assert not layer.weights_ready
    fp8 = cpu_layer(E, K, H, I, recipe="fp8_block")
    q = megamoe.quantize_weights("fp8_block", p["w13"], p["w2"])
    with pytest.raises(ValueError, match=r"argument 'w2_scale': expected a tensor of shape"):
        fp8.prepare_weights(q["w13"], q["w2"], w13_scale=q["w13_scale"])
    with pytest.raises(TypeError, match=r"argument 'w13'.*float8_e4m3fn"):
        fp8.prepare_weights(p["w13"], q["w2"], w13_scale=q["w13_scale"], w2_scale=q["w2_scale"])
    nv = cpu_layer(E, K, H, I, recipe="w4a16_nvfp4")
    q = megamoe.quantize_weights("w4a16_nvfp4", p["w13"], p["w2"])
    with pytest.raises(ValueError, match=r"argument 'w13_global_scale': expected shape \[4 \(local experts\)\]"):
        nv.prepare_weights(**{**q, "w13_global_scale": [1.0, 2.0]})
    nv.prepare_weights(**{**q, "w13_global_scale": list(map(float, q["w13_global_scale"]))})  # lists are fine
    # Values that are not numbers: errors naming the argument (was float()'s bare "could not convert
    # string to float"), and the C++ check names which of the two input scales is wrong.
    with pytest.raises(TypeError, match=r"argument 'w13_global_scale': expected float32 values"):
        nv.prepare_weights(**{**q, "w13_global_scale": ["a"] * E})
    with pytest.raises(TypeError, match=r"argument 'fc1_input_global_scale': expected a number, got 'x'"):
        nv.prepare_weights(**q, fc1_input_global_scale="x")
    with pytest.raises(TypeError, match=r"argument 'fc2_input_global_scale': expected a number, got bool"):
        nv.prepare_weights(**q, fc2_input_global_scale=True)
    with pytest.raises(ValueError, match=r"argument 'fc2_input_global_scale': expected a positive finite value, got 0"):
        nv.prepare_weights(**q, fc2_input_global_scale=0.0)
    with pytest.raises(ValueError, match=r"argument 'fc1_input_global_scale': expected a positive finite value, got nan"):
        nv.prepare_weights(**q, fc1_input_global_scale=float("nan"))
    assert nv.weights_ready  # the accepted weights above stay in use


def test_bad_configs():
    with pytest.raises(ValueError, match=r"argument 'top_k': expected at most num_experts=4, got 5"):
        cpu_layer(4, 5, 32, 32)
    with pytest.raises(ValueError, match=r"argument 'num_experts': expected a multiple of ep_size=3"):
        cpu_layer(8, 2, 32, 32, ep_size=3)
    with pytest.raises(ValueError, match=r"argument 'ep_rank'"):
        cpu_layer(8, 2, 32, 32, ep_size=2, ep_rank=2)
    with pytest.raises(ValueError, match=r"argument 'hidden_size': expected a positive integer below 2\^31, got 0"):
        cpu_layer(8, 2, 0, 32)
    with pytest.raises(ValueError, match=r"argument 'recipe': expected one of bf16\|"):
        cpu_layer(8, 2, 32, 32, recipe="int8")
    with pytest.raises(ValueError, match=r"argument 'activation': expected one of swiglu\|"):
        cpu_layer(8, 2, 32, 32, activation="gelu")
    with pytest.raises(ValueError, match=r"argument 'hidden_size': expected a multiple of 32 for recipe w4a16_mxfp4"):
        cpu_layer(8, 2, 48, 32, recipe="w4a16_mxfp4")
    with pytest.raises(ValueError, match=r"argument 'backend': expected \"auto\" or one of"):
        cpu_layer(8, 2, 32, 32, backend="magic")
    with pytest.raises(ValueError, match=r"argument 'activation_params'"):
        cpu_layer(8, 2, 32, 32, activation_params={"beta": 1.0})
    with pytest.raises(ValueError, match=r"'alpha' only with activation 'swiglu_oai'"):
        cpu_layer(8, 2, 32, 32, activation_params={"alpha": 1.0})
    with pytest.raises(ValueError, match=r"argument 'swiglu_limit'"):
        cpu_layer(8, 2, 32, 32, activation="geglu", activation_params={"limit": 1.0})
    with pytest.raises(TypeError, match=r"argument 'num_experts': expected an int, got float"):
        cpu_layer(8.0, 2, 32, 32)
    with pytest.raises(TypeError, match=r"argument 'recipe': expected a str"):
        cpu_layer(8, 2, 32, 32, recipe=None)
    with pytest.raises(ValueError, match=r"argument 'device'"):
        cpu_layer(8, 2, 32, 32, device="tpu")
    with pytest.raises(ValueError, match=r"argument 'max_tokens'"):
        cpu_layer(8, 2, 32, 32, max_tokens=-1)


def test_cuda_device_without_cuda_build():
    if megamoe.with_cuda:
        with pytest.raises(NotImplementedError, match="backend 'cpu_reference': runs on the CPU only"):
            megamoe.MoELayer(8, 2, 32, 32, device="cuda:0", backend="cpu_reference")
    else:
        with pytest.raises(NotImplementedError, match="no CUDA support"):
            megamoe.MoELayer(8, 2, 32, 32, device="cuda")



def test_rejected_weights_keep_the_previous_ones():
    rng = np.random.default_rng(23)
    E, K, H, I = 4, 2, 64, 32
    p = make_problem(rng, 5, E, K, H, I)
    layer = cpu_layer(E, K, H, I).prepare_weights(p["w13"], p["w2"])
    before = layer(p["x"], p["ids"], p["w"])
    with pytest.raises(TypeError):
        layer.prepare_weights(f32(p["w13"]), p["w2"])
    assert layer.weights_ready
    np.testing.assert_array_equal(layer(p["x"], p["ids"], p["w"]).view(np.uint16), before.view(np.uint16))
