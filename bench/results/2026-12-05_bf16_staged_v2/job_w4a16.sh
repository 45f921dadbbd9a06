#!/usr/bin/env bash
# Session 49: the W4A16 TMA tactic's staged epilogue (rewritten this session; session 48's branch
# was lost): bf16 outputs (bf16 D, FC1's activation) of passes >= 128 tokens through the warp's own
# rows of the pass's last A buffer (held until the stores are done), stored 16 bytes a lane instead
# of one bf16 a store. MEGAMOE_W4A16_LARGE_TMA_STAGED=0: the direct stores (the decoders' per-lane
# dfull arrivals stay). Same carry as job.sh ([".carry", ".peers"], .carry/bld.txz = the branch's
# binary with this change); ~450-550 s:
#  tests:  every W4A16 / fp4 GPU test (the TMA tactic's tests run staged and direct, and a D16 off 16
#          bytes), the W4A16 backends' conformance cases;
#  san:    memcheck / racecheck / synccheck on W4A16.LargeTmaStagedForSanitizers and the large
#          tactics' activation-epilogue tests;
#  ab:     direct (=0) / staged (=1), forced split_large_tma and `auto`, mxfp4 and nvfp4;
#  peer:   `auto` w4a16_mxfp4 T = 2048 / 8192 with our bf16 as the baseline (bench/run_bench.py),
#          issue 15's "T = 8192 at most 1.05x our bf16".
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
el() { echo $(( $(date +%s) - t0 )); }
mkdir -p /tmp/bld && tar xJf .carry/bld.txz -C /tmp/bld || exit 1
B=/tmp/bld
P=deepseek-v3,gpt-oss-120b,mixtral-8x7b,qwen3-30b-a3b
timeout 200 $B/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*W4A16*:*mxfp4*:*nvfp4*:QuantizeFp4*' \
  > "$R/tests.log" 2>&1
echo "tests rc=$? $(el)s"; grep -E "^\[  PASSED|^\[  FAILED|FAILED  \]" "$R/tests.log" | head -8
for t in memcheck racecheck synccheck; do
  timeout 100 compute-sanitizer --tool $t --error-exitcode 9 $B/megamoe_gpu_tests --gtest_brief=1 \
    --gtest_filter='W4A16.LargeTmaStagedForSanitizers' > "$R/san_$t.log" 2>&1
  echo "$t rc=$? $(el)s $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/san_$t.log" | tail -1)"
done
mkdir -p "$R/ab"
S=$B/megamoe@MEGAMOE_W4A16_LARGE_TMA_STAGED
AB_VARIANTS="direct=$S=0 staged=$S=1" RUN_TIMEOUT=120 scripts/ab_bench.sh "$R/ab" x x 2 "$t0" 420 \
  "forced_mx=--recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --tactic split_large_tma --presets $P --tokens 2048,4096,8192 --iters 30" \
  "auto_nv=--recipe w4a16_nvfp4 --presets $P --tokens 2048,8192 --iters 30" \
  > "$R/ab.txt" 2>&1
grep -E "^==|geomean|ALL|deadline" "$R/ab.txt"
echo "ab $(el)s"
if [ "$(el)" -lt 470 ]; then
  timeout $(( 580 - $(el) )) python3 bench/run_bench.py --build "$B" --recipe w4a16_mxfp4 --out "$R/auto_mx_vs_bf16.json" \
    --presets $P --tokens 2048,8192 --iters 30 > "$R/auto_mx_vs_bf16.log" 2>&1
  echo "mx vs bf16 rc=$? $(el)s"; tail -12 "$R/auto_mx_vs_bf16.log"
else echo "skip mx vs bf16 (time)"; fi
echo "end $(el)s"
