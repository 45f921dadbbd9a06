#!/usr/bin/env bash
# Prepared in session 36, not yet run. `split_tma_small_act`: the two-CTA `split_tma_small` with
# split_tma_act's FC1 epilogue (the activation and the 1x128 quantization of a in FC1, no fp32 h, no
# activation-quantize kernel: 5.6 us of qwen3-30b-a3b T = 128's 190). As one CTA per SM it ran 0.917x
# against split_tma_small (session 34, before the division-free epilogue made split_tma_act 1.04x
# faster); with two CTAs per SM one CTA's epilogue can overlap the other's weight stream.
# small_act.patch (on 6e03110): a Narrow act kernel TU (grouped_gemm_fp8_tma_small_act.cu, 8
# instantiations, ptxas 128 registers, no spills), run_act(..., narrow), the tactic in
# sm90_fp8_fp8_bf16_split (and so in the Mega backend's list), the fused-epilogue GPU test for both
# geometries. Build on the CPU machine:
#   git apply bench/results/2026-12-04_next_session/small_act.patch
#   (cd <build dir> && cmake . && ninja megamoe_cli megamoe_gpu_tests)
#   strip copies of both; tar czf .carry/sact.tgz -C <dir> megamoe megamoe_gpu_tests
#   and the HEAD CLI without the patch as .carry/head.tgz (megamoe only)
# 1. fp8 GPU tests (Fp8Gemm.FusedActivationEqualsSeparateKernelSmall runs both geometries; the
#    backend tests run every tactic); racecheck / memcheck / synccheck on the fused test;
# 2. forced split_tma_small (HEAD) against split_tma_small_act (patch), T = 128..1024, alternated,
#    best of two (the tactic names differ: two configurations, compared by scripts/ab_compare.py
#    per cell by hand, or read from the JSON);
# 3. `megamoe tune --recipe fp8_block --tokens 128,256,512,1024` with the new tactic.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$R/gpu.txt"
t0=$(date +%s)
mkdir -p /tmp/head /tmp/new && tar xzf .carry/head.tgz -C /tmp/head && tar xzf .carry/sact.tgz -C /tmp/new || exit 1
scripts/ab_checks.sh "$R" /tmp/new/megamoe_gpu_tests "$t0" 'Fp8*:*fp8*' 'Fp8Gemm.FusedActivationEqualsSeparateKernelSmall'
PR=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
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
