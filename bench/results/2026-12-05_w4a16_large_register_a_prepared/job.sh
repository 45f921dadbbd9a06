#!/usr/bin/env bash
# Prepared in session 44 (no GPU was lent that session; nothing here has run on a GPU). One experiment
# on the W4A16 TMA tactic (`split_large_tma`, the T >= ~1024 path): two register-A forms
# (W4A16GemmArgs::large_rs / MEGAMOE_W4A16_LARGE_RS = 1 or 2, off by default; branch wip/large-rs).
# Each consumer thread loads its two rows' codes of the next K step from the TMA ring and decodes them
# into its own wgmma A fragments (two fragment sets, alternating) while the current step's MMAs run; no
# decoder warps, no decoded A tiles in shared memory (per step at N = 256: 16 KB of stmatrix writes and
# 32 KB of wgmma A reads fewer). Form 1: passes of <= 256 tokens (N = 128 / 192 / 256), 6 token stages;
# form 2: passes of <= 320 tokens, always two 160-wide MMAs, 5 token stages (ptxas serialises the
# wgmma of a register-A kernel with more widths: README). Binary: /work/carry-stash/large_rs.txz on the CPU machine -> .carry/lrs.txz
# (megamoe + megamoe_gpu_tests of the branch; xz).
# Carry: .carry/lrs.txz, and for the A/B's third variant /work/carry-stash/e90518b.txz -> .carry/cur.txz.
# Two calls on one warm machine: `bash job.sh check` (~420 s), then `bash job.sh ab` (~480 s; AB_DEADLINE,
# default 480 s from the call's start, bounds it):
#  check: W4A16 / fp4 GPU tests as shipped and with MEGAMOE_W4A16_LARGE_RS = 1 and 2 (every TMA-tactic
#    launch in that form); `megamoe run` against the CPU reference with each knob where the heuristic
#    takes the TMA tactic; memcheck / racecheck / synccheck on the register-A cases.
#  ab: base (knob 0) / rs1 / rs2 / ship (e90518b's binary): forced split_large_tma T = 2048 / 8192
#    and `auto` mxfp4 / nvfp4 T = 4096 / 8192, four presets; best of two.
set -u
phase=${1:?check or ab}
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/lrs && tar xJf .carry/lrs.txz -C /tmp/lrs || exit 1
B=/tmp/lrs
if [ "$phase" = check ]; then
F='*W4A16*:QuantizeFp4*:*mxfp4*:*nvfp4*:*fp4*'
timeout 90 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests.log" 2>&1
echo "tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]|SKIPPED" "$R/tests.log" | head -8
for k in 1 2; do
  MEGAMOE_W4A16_LARGE_RS=$k timeout 90 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter="$F" > "$R/tests_rs$k.log" 2>&1
  echo "tests rs$k rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests_rs$k.log" | head -8
done
# The heuristic (MEGAMOE_TACTIC_CACHE=off: no table) takes the TMA tactic from a mean of 256 rows per
# expert: mixtral-8x7b T = 1024 (256), qwen3-30b-a3b T = 8192 (512), gpt-oss-120b T = 8192 (256).
for rp in w4a16_mxfp4:mixtral-8x7b:1024 w4a16_nvfp4:mixtral-8x7b:1024 w4a16_mxfp4:qwen3-30b-a3b:8192 \
          w4a16_mxfp4:gpt-oss-120b:8192; do
  IFS=: read -r r p T <<< "$rp"
  for k in 1 2; do
    [ $(( $(date +%s) - t0 )) -gt 300 ] && { echo "skip run $rp rs$k (time)"; continue; }
    log="$R/run_${r}_${p}_${T}_rs$k.log"
    MEGAMOE_TACTIC_CACHE=off MEGAMOE_W4A16_LARGE_RS=$k timeout 60 $B/megamoe run --recipe $r --preset $p --tokens $T \
      --iters 2 > "$log" 2>&1
    echo "run $rp rs$k rc=$? $(grep -iE 'rel-L2' "$log" | tail -1 | cut -c1-100)"
  done
done
S='W4A16.LargeTmaRegisterAFormMatchesCpu:LargeTmaRegisterA/W4A16ActEpilogue*'
for t in memcheck racecheck synccheck; do
  timeout 90 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter="$S" > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(( $(date +%s) - t0 ))s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
echo "check done $(( $(date +%s) - t0 ))s"
fi
if [ "$phase" = ab ]; then
mkdir -p "$R/ab"
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
# ship: the shipped TMA tactic as built at e90518b (.carry/cur.txz; no kernel change since): the
# branch's shared-memory-A kernels are not byte-identical to it (same instructions; two in another
# form in the producer, a different order and register assignment in 0.1-0.7% of the activation
# epilogue kernels'), so the base is checked against it.
V="base=$B/megamoe@MEGAMOE_W4A16_LARGE_RS=0 rs1=$B/megamoe@MEGAMOE_W4A16_LARGE_RS=1 rs2=$B/megamoe@MEGAMOE_W4A16_LARGE_RS=2"
if [ -f .carry/cur.txz ]; then
  mkdir -p /tmp/cur && tar xJf .carry/cur.txz -C /tmp/cur && V="$V ship=/tmp/cur/megamoe"
fi
AB_VARIANTS="$V" RUN_TIMEOUT=90 \
  scripts/ab_bench.sh "$R/ab" x x 2 "$t0" "${AB_DEADLINE:-480}" \
  "forced=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 2048,8192 --iters 50" \
  "automx=--recipe w4a16_mxfp4 --presets $P --tokens 4096,8192 --iters 50" \
  "autonv=--recipe w4a16_nvfp4 --presets $P --tokens 4096,8192 --iters 50" \
  2>&1 | grep -E "^==|geomean|speed-up|deadline|r[0-9] "
fi
echo "end $(( $(date +%s) - t0 ))s"
