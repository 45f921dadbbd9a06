#!/usr/bin/env bash
# Z3: DIAGNOSIS (wrong results): fp8 FC1 tiles do not wait for the x quantization items; timing only, against HEAD.
set -u
source scripts/device_env.sh
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $R/gpu.txt
python3 -c "import ml_dtypes; print('ml_dtypes', ml_dtypes.__version__)" >> $R/gpu.txt 2>&1
t0=$(date +%s)
mkdir -p /tmp/basetree && tar cf - --exclude=./build-dn --exclude=./build-db --exclude=./.git . | tar xf - -C /tmp/basetree
(cd /tmp/basetree && patch -R -p1 < .snap/mine.patch > /dev/null && echo "base tree ok")
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
cmake -S /tmp/basetree -B /tmp/build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_TESTS=OFF ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_base.log 2>&1
( ninja -C $BN -j8 megamoe_cli > $R/build.log 2>&1; echo "build new rc $?" ) &
( ninja -C /tmp/build-base -j8 megamoe_cli > $R/build_base.log 2>&1; echo "build base rc $?" ) &
wait
echo "builds $(( $(date +%s) - t0 ))s"; grep -A5 "error" $R/build.log | head -20
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base new; do
    X=$BN/megamoe; [ $v = base ] && X=/tmp/build-base/megamoe
    for t in mega_min16 mega_rounds; do
      timeout 80 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_mega --tactic $t --presets $P --tokens 1,2,4,8 --iters 50 --json $R/${v}_${t}_r$rep.json > $R/${v}_${t}_r$rep.log 2>&1
    done
  done
  echo "bench r$rep $(( $(date +%s) - t0 ))s"
done
python3 scripts/ab_compare.py $R base new
X=$BN/megamoe
for c in "deepseek-v3 mega_min16" "qwen3-30b-a3b mega_min16"; do set -- $c
  MEGAMOE_MEGA_TRACE=$R/trace_new_$1.csv timeout 60 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_mega --tactic $2 --presets $1 --tokens 1 --iters 50 > $R/trace_new_$1.log 2>&1
done
python3 scripts/mega_trace_summary.py $R/trace_new_*.csv > $R/trace_summary.txt 2>&1; cat $R/trace_summary.txt
echo "end $(( $(date +%s) - t0 ))s"
