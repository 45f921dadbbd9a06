#!/usr/bin/env python3
"""Instruction mix of the loops in a CUDA object's SASS, without a GPU.

    python3 scripts/sass_loops.py build/CMakeFiles/megamoe.dir/src/kernels/sm90/gemm/grouped_gemm_w4a16_small.cu.o
    python3 scripts/sass_loops.py OBJ --function w4a16_small_kernel --max-len 400

For every kernel in the object it lists the backward branches' loops (start address, static
length in instructions) with the most frequent opcodes. A kernel's K loop is the one holding its
MMAs (HMMA / HGMMA) and the stage barrier (BAR.SYNC); the counts are static: a branch inside a
loop means some of its instructions run only on some iterations.

cuobjdump and nvdisasm come with a full CUDA toolkit. The build machines' toolkit has neither,
so this script looks for them on PATH, then in $MEGAMOE_SASS_TOOLS, and otherwise says how to
get them (the `nvidia-cuda-cuobjdump` and `nvidia-cuda-nvdisasm` wheels hold both binaries).
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys


def find_tool(name):
    path = shutil.which(name)
    if path:
        return path
    extra = os.environ.get("MEGAMOE_SASS_TOOLS", "")
    for d in extra.split(os.pathsep):
        candidate = os.path.join(d, name)
        if d and os.access(candidate, os.X_OK):
            return candidate
    sys.exit(
        f"sass_loops: '{name}' not found on PATH or in $MEGAMOE_SASS_TOOLS.\n"
        "  pip download --no-deps -d /tmp/sass nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm\n"
        "  then unzip both wheels and set MEGAMOE_SASS_TOOLS to the folder holding cuobjdump and nvdisasm\n"
        "  (nvidia/cu13/bin inside each wheel)."
    )


def opcode(text):
    words = text.split()
    op = words[1] if words[0].startswith("@") and len(words) > 1 else words[0]
    return op.split(".")[0]


def loops_of(function_text):
    """(start, end, [instruction text]) of every backward branch's range."""
    ins = [(int(a, 16), b.strip()) for a, b in re.findall(r"/\*([0-9a-f]{4,})\*/\s+([^;]*);", function_text)]
    out = []
    for addr, text in ins:
        if "BRA" not in text:
            continue
        target = re.search(r"0x([0-9a-f]+)", text)
        if target and int(target.group(1), 16) < addr:
            start = int(target.group(1), 16)
            out.append((start, addr, [t for a, t in ins if start <= a <= addr]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("object", help="a .o, .cubin or executable with sm_90a code")
    ap.add_argument("--function", default="", help="only kernels whose mangled name contains this")
    ap.add_argument("--max-len", type=int, default=2000, help="skip loops longer than this (outer loops)")
    ap.add_argument("--top", type=int, default=12, help="opcodes shown per loop")
    args = ap.parse_args()

    cuobjdump = find_tool("cuobjdump")
    nvdisasm = find_tool("nvdisasm")
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(nvdisasm) + os.pathsep + env.get("PATH", "")
    sass = subprocess.run([cuobjdump, "-sass", args.object], capture_output=True, text=True, env=env)
    if sass.returncode != 0:
        sys.exit(f"sass_loops: cuobjdump failed: {sass.stderr.strip()}")
    functions = re.split(r"\n\s*Function : ", sass.stdout)[1:]
    if not functions:
        sys.exit("sass_loops: no SASS in that file (is it built for sm_90a?)")
    for f in functions:
        name = f.split("\n", 1)[0].strip()
        if args.function not in name:
            continue
        print(name)
        for start, end, body in loops_of(f):
            if len(body) > args.max_len:
                continue
            mix = collections.Counter(opcode(t) for t in body)
            top = ", ".join(f"{op} {n}" for op, n in mix.most_common(args.top))
            print(f"  loop {start:#07x}..{end:#07x}: {len(body)} instructions: {top}")


if __name__ == "__main__":
    main()
