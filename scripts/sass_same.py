#!/usr/bin/env python3
"""Whether a CUDA translation unit compiles to the same machine code as at another commit.

A refactor of kernel code that leaves every kernel's SASS byte for byte the same needs no GPU run
to be trusted. This compiles the unit twice with the build's own nvcc command (from `ninja -t
commands`), as cubins without line info: from the working tree, and from REV's `src` and
`include` (default HEAD; `git archive` into a temporary folder, so changed headers count too).
It then compares every kernel's .text section (anonymous namespaces' per-file hashes set aside)
and prints one line per kernel; exit status 0 only when every kernel of both sides is present
and identical.

    python3 scripts/sass_same.py src/kernels/sm90/gemm/grouped_gemm_w4a16_small.cu [--rev REV] [--build DIR]
        [--rename REGEX REPLACEMENT] [--keep DIR]

--rename maps the tree's kernel names onto REV's before the comparison (a regular expression on the
mangled name, e.g. a template parameter added with its old value as the default:
`--rename 'ELi128EEEv14CUtensorMap' 'EEEv14CUtensorMap'`).

Needs readelf (binutils).
"""
import argparse
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile


def nvcc_command(build, tu):
    target = f"CMakeFiles/megamoe.dir/{tu}.o"
    out = subprocess.run(["ninja", "-C", build, "-t", "commands", target], capture_output=True, text=True, check=True)
    cmd = shlex.split(out.stdout.strip().splitlines()[-1])
    if os.path.basename(cmd[0]) == "ccache":
        cmd = cmd[1:]
    keep, skip = [], 0
    for i, a in enumerate(cmd):
        if skip:
            skip -= 1
            continue
        if a in ("-MD",):
            continue
        if a in ("-MT", "-MF", "-o", "-c"):
            skip = 1
            continue
        if a == "-lineinfo" or a.startswith("-Xcompiler=-fPIC"):
            continue
        keep.append(a)
    return keep


def kernels(cubin, stem):
    out = subprocess.run(["readelf", "-S", "-W", cubin], capture_output=True, text=True).stdout
    data = open(cubin, "rb").read()
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*\[\s*\d+\]\s+(\.text\.\S+)\s+\S+\s+[0-9a-f]+\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
        if not m:
            continue
        name, off, size = m.group(1), int(m.group(2), 16), int(m.group(3), 16)
        # the anonymous namespace's mangled name embeds a per-compilation hash
        name = re.sub(r"\d+_GLOBAL__N__[0-9a-f]+_\d+_" + re.escape(stem) + r"_cu_[0-9a-f]+(?:_\d+)?", "<anon>", name)
        found[name[len(".text."):]] = (hashlib.sha1(data[off:off + size]).hexdigest(), size)
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("tu", help="the .cu file, relative to the repository root")
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--build", default=os.environ.get("BUILD", "/work/build-h6"))
    ap.add_argument("--keep", help="copy both cubins (rev.cubin, tree.cubin) into this folder")
    ap.add_argument("--rename", nargs=2, action="append", default=[], metavar=("REGEX", "REPLACEMENT"))
    args = ap.parse_args()
    root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True, check=True).stdout.strip()
    cmd = nvcc_command(args.build, args.tu)
    stem = os.path.splitext(os.path.basename(args.tu))[0]
    sides = {}
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "archive", args.rev, "src", "include"], cwd=root, capture_output=True, check=True)
        subprocess.run(["tar", "x", "-C", tmp], input=archive.stdout, check=True)
        for side, base in (("rev", tmp), ("tree", root)):
            # the build's include paths point into the checkout; the rev side reads its own tree
            c = [a.replace(f"-I{root}/src", f"-I{base}/src").replace(f"-I{root}/include", f"-I{base}/include")
                 for a in cmd]
            cubin = os.path.join(tmp, side + ".cubin")
            r = subprocess.run(c + ["-cubin", "-o", cubin, "-c", os.path.join(base, args.tu)], cwd=args.build,
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.stderr.write(r.stderr)
                return 2
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
                shutil.copy(cubin, args.keep)
            found = kernels(cubin, stem)
            if side == "tree":
                for pattern, repl in args.rename:
                    found = {re.sub(pattern, repl, n): v for n, v in found.items()}
            sides[side] = found
    names = sorted(set(sides["rev"]) | set(sides["tree"]))
    same = True
    for n in names:
        a, b = sides["rev"].get(n), sides["tree"].get(n)
        status = "same" if a is not None and a == b else ("only at " + args.rev if b is None else
                                                          "only in the tree" if a is None else "DIFFERENT")
        same &= status == "same"
        if status == "DIFFERENT":
            status += f" ({a[1]} -> {b[1]} bytes)"
        print(f"{status:34s} {n}")
    print(f"{len(names)} kernel(s): " + ("identical SASS" if same and names else "not identical"))
    return 0 if same and names else 1


if __name__ == "__main__":
    sys.exit(main())
