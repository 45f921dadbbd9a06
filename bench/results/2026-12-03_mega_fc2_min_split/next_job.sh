#!/usr/bin/env bash
# For the next device job (not run yet): mega_fc2_min_split.patch applied to the tree. The Mega tests
# with the two new tactics (every_tactic covers them), then `megamoe tune` T = 1..16 on the four presets
# for bf16 and fp8_block: every kernel tactic's time per bucket in one process, the new ones beside
# mega_min16 (the shipped winner at qwen3-30b-a3b T = 1). If a new tactic wins a bucket by more than
# the tune's noise, re-run those cells with `megamoe bench --tactic` (alternated, twice) and, when
# merged into the table, `bench/run_bench.py --vllm-peer` in the same job.
set -u
source scripts/device_env.sh
t0=$(date +%s)
MEGAMOE_CMAKE_ARGS="${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT}" scripts/device_build.sh $BN megamoe_gpu_tests megamoe_cli || exit 1
echo "build $(( $(date +%s) - t0 ))s"
timeout 150 $BN/megamoe_gpu_tests --gtest_brief=1 --gtest_filter='*mega*:MegaBf16.*:MegaKernel.*:TacticCache*' > $R/tests_mega.log 2>&1
echo "mega tests rc=$? $(( $(date +%s) - t0 ))s"; grep -E "^\[  PASSED|^\[  FAILED" $R/tests_mega.log | head -8
export MEGAMOE_TACTIC_CACHE=off
for r in bf16 fp8_block; do
  timeout 150 $BN/megamoe tune --recipe $r --presets deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b --tokens 1-16 --iters 30 \
    --cache $R/tune_$r.json > $R/tune_$r.txt 2> $R/tune_$r.err
  echo "tune $r rc=$? $(( $(date +%s) - t0 ))s"
done
python3 - "$R" <<'PY'
import json, sys
for r in ("bf16", "fp8_block"):
    for e in json.load(open(f"{sys.argv[1]}/tune_{r}.json"))["entries"]:
        for T, m in sorted(e["measured_ms"].items(), key=lambda x: int(x[0])):
            base = m.get("mega_min16")
            new = min((v, k) for k, v in m.items() if k.startswith("mega_min16_fc2"))
            if base:
                print(f"{r:9s} H={e['hidden']:5d} T={T:>2s} mega_min16 {base*1e3:7.1f} us  {new[1]} {new[0]*1e3:7.1f} us  "
                      f"x{base/new[0]:.3f}  winner {e['tactics'][T]}")
PY
# Timelines of every kernel tactic at qwen3-30b-a3b T = 1 (bf16, fp8_block): where `mega` (FC1 split
# over all CTAs) loses against `mega_min16` although it streams FC1 with ~2.5x the CTAs
# (python3 scripts/mega_trace_summary.py on each csv).
for r in bf16 fp8_block; do
  B=sm90_bf16_bf16_bf16_mega; [ $r = fp8_block ] && B=sm90_fp8_fp8_bf16_mega
  for t in mega mega_min8 mega_min16 mega_min16_fc2min4 mega_min16_fc2min2; do
    MEGAMOE_MEGA_TRACE=$R/trace_${r}_qw_$t.csv timeout 40 $BN/megamoe bench --recipe $r --backend $B --tactic $t \
      --presets qwen3-30b-a3b --tokens 1 --iters 50 > $R/trace_${r}_qw_$t.log 2>&1
  done
done
for f in $R/trace_*_qw_*.csv; do python3 scripts/mega_trace_summary.py $f; done > $R/trace_summary.txt 2>&1
echo "end $(( $(date +%s) - t0 ))s"
