#!/usr/bin/env bash
# Device job B (same warm machine as A): sanitizers, A/B bench of fp8_block, ncu at T = 8192.
set -u
source scripts/device_env.sh
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
t0=$(date +%s)
for rep in 1 2; do
  for b in base new; do
    X=$BB/megamoe; [ $b = new ] && X=$BN/megamoe
    timeout 150 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets $P --tokens 1,8,64,512,2048,4096,8192 --iters 50 --json $R/${b}_split_r$rep.json > $R/${b}_split_r$rep.log 2>&1
    timeout 60 $X bench --recipe fp8_block --tactic mega --presets $P --tokens 1,4 --iters 50 --json $R/${b}_mega_r$rep.json > $R/${b}_mega_r$rep.log 2>&1
  done
  echo "rep $rep $(( $(date +%s) - t0 ))s"
done
python3 scripts/ab_compare.py $R base new > $R/ab.txt 2>&1; tail -70 $R/ab.txt
for p in deepseek-v3 mixtral-8x7b; do
  timeout 80 ncu -k regex:'device_kernel|quant' --metrics gpu__time_duration.sum $BN/megamoe run --recipe fp8_block --preset $p --tokens 8192 --no-check > $R/ncu_new_$p.txt 2>&1
done
gzip $R/ncu_*.txt
for f in $R/ncu_*.txt.gz; do echo $f; python3 scripts/ncu_kernel_summary.py $f | tail -8; done
