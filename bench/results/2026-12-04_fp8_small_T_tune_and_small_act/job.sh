#!/usr/bin/env bash
# Session 37, one device call, two parts. Binaries (built on the CPU machine, stripped), carry [".carry"]:
#   .carry/head.tgz  megamoe of f2193b5
#   .carry/tuned.tgz megamoe of f2193b5 + the fp8_block T <= 64 table merged from tune_fp8_1-64.json
#                    (scripts/merge_tune.py --buckets 1-64, keeping the three buckets whose winner led
#                    by < 1%: fp8_block:2048:1, :4096:2, :4096:32)
#   .carry/sact.tgz  megamoe + megamoe_gpu_tests of f2193b5 + ../2026-12-04_next_session/small_act.patch
# 1. A/B head vs tuned, `auto`, fp8_block, T = 1..64, four presets, alternated, best of three;
# 2. the prepared split_tma_small_act job (fp8 GPU tests + sanitizers, forced A/B, tune T = 128..1024).
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/head /tmp/tuned /tmp/new && tar xzf .carry/head.tgz -C /tmp/head && tar xzf .carry/tuned.tgz -C /tmp/tuned \
  && tar xzf .carry/sact.tgz -C /tmp/new || exit 1
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
mkdir -p "$R/tune_ab"
RUN_TIMEOUT=60 scripts/ab_bench.sh "$R/tune_ab" /tmp/head/megamoe /tmp/tuned/megamoe 3 "$t0" 150 \
  "auto=--recipe fp8_block --presets $PR --tokens 1,2,4,8,16,32,64 --iters 50" | tee "$R/tune_ab/ab_compare.txt" | tail -n 32
echo "part 1 end $(( $(date +%s) - t0 ))s"
scripts/ab_checks.sh "$R" /tmp/new/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' 'Fp8Gemm.FusedActivationEqualsSeparateKernelSmall'
S="--recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $PR --tokens 128,256,512,1024 --iters 50"
for rep in 1 2; do
  timeout 60 /tmp/head/megamoe bench $S --tactic split_tma_small --json "$R/small_r$rep.json" > "$R/small_r$rep.log" 2>&1
  timeout 60 /tmp/new/megamoe bench $S --tactic split_tma_small_act --json "$R/small_act_r$rep.json" > "$R/small_act_r$rep.log" 2>&1
done
python3 - "$R" <<'PY'
import json, sys, math
r = sys.argv[1]
def best(prefix):
    out = {}
    for rep in (1, 2):
        for x in json.load(open(f"{r}/{prefix}_r{rep}.json")):
            k = (x["model"], x["tokens"])
            out[k] = min(out.get(k, 1e9), x["median_ms"])
    return out
a, b = best("small"), best("small_act")
logs = []
for k in sorted(a):
    if k in b:
        print(f"{k[0]:15s} T={k[1]:5d} split_tma_small {1e3*a[k]:8.1f} us  split_tma_small_act {1e3*b[k]:8.1f} us  {a[k]/b[k]:.3f}x")
        logs.append(math.log(a[k] / b[k]))
print(f"geomean {math.exp(sum(logs)/len(logs)):.3f}x over {len(logs)} cells")
PY
MEGAMOE_TACTIC_CACHE=off timeout 150 /tmp/new/megamoe tune --recipe fp8_block --tokens 128,256,512,1024 --iters 30 \
  --cache "$R/tune_fp8_small_act.json" > "$R/tune.txt" 2> "$R/tune.err"
echo "tune rc=$? $(( $(date +%s) - t0 ))s"; tail -n 18 "$R/tune.txt"
echo "end $(( $(date +%s) - t0 ))s"
