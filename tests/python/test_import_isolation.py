"""The extension module must not interfere with other extensions in the same process.

Issue 9: `import megamoe` before ml_dtypes crashed ml_dtypes' float4 code, because megamoe._C
exported weak copies of libstdc++ internals (std::string members) and the dynamic linker bound
libstdc++.so.6's own calls to them. These tests pin the fix down three ways:

* `_C`'s dynamic symbol table defines exactly one exported symbol, `PyInit__C` (read from the
  ELF file itself, so the check needs no binutils);
* with `LD_DEBUG=bindings`, no other object binds a symbol to `_C` after `import megamoe`;
* fresh interpreters import megamoe first, last and between numpy / ml_dtypes / torch / CuPy /
  JAX, then use every one of them: ml_dtypes' float4 finfo (the crash site), a tiny MoE layer
  on the CPU reference checked against a float64 NumPy computation, and on a GPU (when torch
  sees one and the build has CUDA) the same layer on the auto-selected GPU backend.
"""

import importlib.util
import os
import pathlib
import struct
import subprocess
import sys
import textwrap

import pytest

_ROOT = pathlib.Path(__file__).resolve().parents[2]
for _cand in (os.environ.get("MEGAMOE_BUILD_DIR"), str(_ROOT / "build")):
    if _cand and (pathlib.Path(_cand) / "python" / "megamoe").is_dir():
        sys.path.insert(0, str(pathlib.Path(_cand) / "python"))
        break

_SPEC = importlib.util.find_spec("megamoe")
if _SPEC is None or not _SPEC.submodule_search_locations:
    pytest.skip("the megamoe package is neither built (MEGAMOE_BUILD_DIR) nor installed", allow_module_level=True)
_PKG_DIR = pathlib.Path(list(_SPEC.submodule_search_locations)[0])
_PKG_PARENT = str(_PKG_DIR.parent)


def _extension_path() -> pathlib.Path:
    found = sorted(_PKG_DIR.glob("_C*.so"))
    assert found, f"no _C*.so extension in {_PKG_DIR}"
    return found[0]


# ---- the ELF dynamic symbol table ------------------------------------------------------------

_SHT_DYNSYM = 11
_STB_LOCAL = 0
_STV_HIDDEN, _STV_INTERNAL = 2, 1


def exported_symbols(path: pathlib.Path) -> list:
    """Names of the symbols an ELF64 little-endian shared object defines and exports (global,
    weak or GNU-unique binding, default or protected visibility) in .dynsym."""
    data = path.read_bytes()
    assert data[:4] == b"\x7fELF", f"{path} is not an ELF file"
    assert data[4] == 2 and data[5] == 1, f"{path}: expected ELF64 little-endian"
    e_shoff = struct.unpack_from("<Q", data, 0x28)[0]
    e_shentsize, e_shnum = struct.unpack_from("<HH", data, 0x3A)

    def section(i):  # (type, offset, size, link, entsize)
        off = e_shoff + i * e_shentsize
        _, sh_type, _, _, sh_offset, sh_size, sh_link, _, _, sh_entsize = struct.unpack_from(
            "<IIQQQQIIQQ", data, off)
        return sh_type, sh_offset, sh_size, sh_link, sh_entsize

    dynsym = [section(i) for i in range(e_shnum) if section(i)[0] == _SHT_DYNSYM]
    assert len(dynsym) == 1, f"{path}: expected one .dynsym section, found {len(dynsym)}"
    _, sym_off, sym_size, str_index, sym_ent = dynsym[0]
    _, str_off, str_size, _, _ = section(str_index)
    strtab = data[str_off:str_off + str_size]
    names = []
    for i in range(1, sym_size // sym_ent):  # entry 0 is the reserved null symbol
        st_name, st_info, st_other, st_shndx, _, _ = struct.unpack_from("<IBBHQQ", data, sym_off + i * sym_ent)
        if st_shndx == 0:  # undefined: imported, not exported
            continue
        if (st_info >> 4) == _STB_LOCAL or (st_other & 3) in (_STV_HIDDEN, _STV_INTERNAL):
            continue
        names.append(strtab[st_name:strtab.index(b"\0", st_name)].decode())
    return names


def test_extension_exports_only_its_init_function():
    names = exported_symbols(_extension_path())
    assert names == ["PyInit__C"], (
        f"megamoe._C must export only PyInit__C (python/CMakeLists.txt version script); "
        f"it exports {len(names)} symbols, e.g. {names[:8]}")


def test_exported_symbols_reader_sees_imports_and_exports():
    # The reader itself must be able to fail: the Python interpreter's own extension modules
    # (or libpython) export PyInit_* / Py* symbols, so a reader that returned [] always would
    # be caught here.
    import _ctypes  # an extension module every CPython build ships

    names = exported_symbols(pathlib.Path(_ctypes.__file__))
    assert "PyInit__ctypes" in names


# ---- fresh interpreters ------------------------------------------------------------------------


def _run_child(code: str, env_extra=None, timeout=300):
    env = dict(os.environ)
    env["PYTHONPATH"] = _PKG_PARENT + os.pathsep + env.get("PYTHONPATH", "")
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=timeout, cwd=str(_ROOT))


def test_nothing_binds_to_the_extension():
    res = _run_child("import megamoe", {"LD_DEBUG": "bindings"})
    assert res.returncode == 0, res.stderr[-4000:]
    lines = res.stderr.splitlines()
    if not any("binding file" in line for line in lines):
        pytest.skip("this dynamic linker prints no LD_DEBUG=bindings trace (not glibc?)")
    foreign = [line.strip() for line in lines
               if "binding file" in line and " to " in line
               and "_C." in line.split(" to ", 1)[1] and "_C." not in line.split(" to ", 1)[0]]
    assert not foreign, "objects bind symbols to megamoe._C:\n" + "\n".join(foreign[:10])


# The work done after the imports: each module is used, so a corrupted runtime shows up.
_CHILD_WORK = textwrap.dedent("""
    import sys
    import numpy as np
    import ml_dtypes
    import megamoe

    # ml_dtypes' float4 code: the crash site of issue 9.
    fi = ml_dtypes.finfo(ml_dtypes.float4_e2m1fn)
    assert float(fi.max) == 6.0, fi.max
    assert float(np.array([1.5, -6.0], dtype=np.float32).astype(ml_dtypes.float4_e2m1fn)
                 .astype(np.float32)[1]) == -6.0

    # A tiny layer on the CPU reference against float64 NumPy (swiglu, fixed k order).
    rng = np.random.default_rng(int(sys.argv[1]) if len(sys.argv) > 1 else 7)
    T, E, K, H, I = 5, 4, 2, 64, 64
    bf16 = lambda a: np.asarray(a, dtype=np.float32).astype(ml_dtypes.bfloat16)
    w13 = bf16(rng.standard_normal((E, 2 * I, H)) / np.sqrt(H))
    w2 = bf16(rng.standard_normal((E, H, I)) / np.sqrt(I))
    x = bf16(rng.uniform(-1, 1, (T, H)))
    ids = np.stack([rng.permutation(E)[:K] for _ in range(T)]).astype(np.int32)
    wts = rng.random((T, K)).astype(np.float32)
    layer = megamoe.MoELayer(E, K, H, I, device="cpu")
    layer.prepare_weights(w13, w2)
    out = np.asarray(layer(x, ids, wts)).astype(np.float64)
    f = lambda a: np.asarray(a).astype(np.float64)
    ref = np.zeros((T, H))
    for t in range(T):
        for k in range(K):
            e = ids[t, k]
            h = f(w13[e]) @ f(x[t])
            g, u = h[:I], h[I:]
            a = f(bf16(g / (1 + np.exp(-g)) * u))
            ref[t] += wts[t, k] * f(bf16(f(w2[e]) @ a))
    rel = np.linalg.norm(out - ref) / np.linalg.norm(ref)
    assert np.isfinite(out).all() and rel < 1e-2, rel
    print("cpu rel-L2", rel)

    mods = sys.modules
    if "torch" in mods:
        import torch
        t = torch.arange(6, dtype=torch.float32).reshape(2, 3)
        assert float((t @ t.T).sum()) == 83.0  # [[5, 14], [14, 50]]
        if torch.cuda.is_available() and megamoe.with_cuda:
            g = megamoe.MoELayer(E, K, H, I, device="cuda")
            tb = lambda a: torch.from_numpy(np.ascontiguousarray(a).view(np.int16)).view(torch.bfloat16).cuda()
            g.prepare_weights(tb(w13), tb(w2))
            xt = tb(x)
            og = g(xt, torch.from_numpy(ids).cuda(), torch.from_numpy(wts).cuda())
            torch.cuda.synchronize()
            og = og.float().cpu().numpy().astype(np.float64)
            relg = np.linalg.norm(og - ref) / np.linalg.norm(ref)
            assert relg < 1e-2, relg
            print("gpu", g.backend, "rel-L2", relg)
    if "cupy" in mods:
        import cupy
        assert int(cupy.arange(4).sum()) == 6
    if "jax" in mods:
        import jax.numpy as jnp
        assert float(jnp.arange(4.0).sum()) == 6.0
    print("OK")
""")

_ORDERS = [
    ("megamoe",),
    ("megamoe", "numpy", "ml_dtypes"),
    ("megamoe", "ml_dtypes", "numpy"),
    ("numpy", "megamoe", "ml_dtypes"),
    ("ml_dtypes", "megamoe"),
    ("numpy", "ml_dtypes", "megamoe"),
    ("megamoe", "torch", "ml_dtypes"),
    ("megamoe", "ml_dtypes", "torch"),
    ("torch", "megamoe", "ml_dtypes"),
    ("ml_dtypes", "torch", "megamoe"),
    ("megamoe", "cupy", "ml_dtypes"),
    ("cupy", "megamoe"),
    ("megamoe", "jax", "ml_dtypes"),
    ("jax", "megamoe"),
]


_ALONE = {}


def _importable_alone(module: str):
    """None when `module` imports in a fresh interpreter without megamoe, else the error."""
    if module not in _ALONE:
        res = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True, text=True,
                             timeout=300)
        _ALONE[module] = None if res.returncode == 0 else (res.stderr.strip().splitlines() or ["?"])[-1]
    return _ALONE[module]


@pytest.mark.parametrize("order", _ORDERS, ids=["-".join(o) for o in _ORDERS])
def test_import_order_does_not_matter(order):
    missing = [m for m in order if m != "megamoe" and importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed here")
    for m in order:  # a module that cannot be imported even alone is this machine's problem
        if m != "megamoe" and _importable_alone(m) is not None:
            pytest.skip(f"{m} is installed but does not import on its own here: {_importable_alone(m)}")
    code = "".join(f"import {m}\n" for m in order) + _CHILD_WORK
    res = _run_child(code)
    assert res.returncode == 0, (
        f"fresh interpreter importing {' -> '.join(order)} failed (rc {res.returncode}):\n"
        f"{res.stdout[-2000:]}\n{res.stderr[-4000:]}")
    assert res.stdout.rstrip().endswith("OK"), res.stdout
