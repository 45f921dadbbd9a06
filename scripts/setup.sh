#!/usr/bin/env bash
# Installs everything a fresh machine needs to build and test megamoe. Idempotent.
# Sources: Debian packages (apt-get), PyPI (pip). Nothing else.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CUTLASS_VERSION="4.2.0.0"   # pinned: nvidia-cutlass wheel that carries the C++ headers
PY="${PYTHON:-python3}"

need_apt=()
for tool_pkg in cmake:cmake ninja:ninja-build ccache:ccache g++:g++; do
  tool="${tool_pkg%%:*}"; pkg="${tool_pkg##*:}"
  command -v "$tool" >/dev/null 2>&1 || need_apt+=("$pkg")
done
[ -f /usr/include/gtest/gtest.h ] || need_apt+=(libgtest-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  echo "[setup] apt-get install ${need_apt[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# Python packages (test oracles and the extension's build tools).
py_missing=()
# ml_dtypes >= 0.7: the e8m0 cast's oracle (0.7.0 rounds float32 subnormals to the nearest of
# 2^-127 and 2^-126, as src/formats/codecs.h does; 0.5 and 0.6 did not).
for mod_pkg in numpy:numpy pytest:pytest "ml_dtypes:ml_dtypes>=0.7" nanobind:nanobind \
               scikit_build_core:scikit-build-core; do
  mod="${mod_pkg%%:*}"; pkg="${mod_pkg##*:}"
  "$PY" -c "import $mod" >/dev/null 2>&1 || { py_missing+=("$pkg"); continue; }
  if [ "$mod" = ml_dtypes ]; then
    "$PY" -c "import ml_dtypes, sys; sys.exit(tuple(int(p) for p in ml_dtypes.__version__.split('.')[:2]) < (0, 7))" \
      >/dev/null 2>&1 || py_missing+=("$pkg")
  fi
done
if [ ${#py_missing[@]} -gt 0 ]; then
  echo "[setup] pip install ${py_missing[*]}"
  "$PY" -m pip install -q --disable-pip-version-check --upgrade "${py_missing[@]}"
fi

# CUTLASS/CuTe headers from the pinned wheel, unpacked into .deps/cutlass.
DEST="$ROOT/.deps/cutlass"
if [ ! -f "$DEST/include/cutlass/cutlass.h" ] || [ "$(cat "$DEST/VERSION" 2>/dev/null)" != "$CUTLASS_VERSION" ]; then
  echo "[setup] nvidia-cutlass==$CUTLASS_VERSION headers -> $DEST"
  tmp="$(mktemp -d)"
  "$PY" -m pip download -q --disable-pip-version-check --no-deps "nvidia-cutlass==$CUTLASS_VERSION" -d "$tmp"
  rm -rf "$DEST"; mkdir -p "$DEST"
  "$PY" - "$tmp" "$DEST" <<'PYEOF'
import sys, zipfile, glob, os
src, dest = sys.argv[1], sys.argv[2]
whl = glob.glob(os.path.join(src, "nvidia_cutlass-*.whl"))[0]
prefixes = {"cutlass_library/source/include/": "include/",
            "cutlass_library/source/tools/util/include/": "tools/util/include/"}
with zipfile.ZipFile(whl) as z:
    for name in z.namelist():
        for p, out in prefixes.items():
            if name.startswith(p) and not name.endswith("/"):
                path = os.path.join(dest, out, name[len(p):])
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with z.open(name) as f, open(path, "wb") as g:
                    g.write(f.read())
PYEOF
  echo "$CUTLASS_VERSION" > "$DEST/VERSION"
  rm -rf "$tmp"
fi
echo "[setup] done"
