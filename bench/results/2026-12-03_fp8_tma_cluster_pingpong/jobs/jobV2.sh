#!/usr/bin/env bash
# V2: why the 2-CTA multicast ran at ~0.6x: grid sizes printed, cluster attribute of 1 vs a plain launch, forced grid; base build (HEAD) for the c1 regression.
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/basetree && tar cf - --exclude=./build-dn --exclude=./build-db --exclude=./.git . | tar xf - -C /tmp/basetree
(cd /tmp/basetree && patch -R -p1 < .snap/mine.patch > /dev/null && echo "base tree ok")
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg.log 2>&1
ninja -C $BN -j16 megamoe_cli > $R/build.log 2>&1; echo "build new rc $? $(( $(date +%s) - t0 ))s"
cmake -S /tmp/basetree -B /tmp/build-base -G Ninja -DCMAKE_BUILD_TYPE=Release -DMEGAMOE_BUILD_TESTS=OFF ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_base.log 2>&1
ninja -C /tmp/build-base -j16 megamoe_cli > $R/build_base.log 2>&1; echo "build base rc $? $(( $(date +%s) - t0 ))s"
export MEGAMOE_TACTIC_CACHE=off
P=deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b
for rep in 1 2; do
  for v in base k0 k1 k2 k2g66 k2g33; do
    X=$BN/megamoe; [ $v = base ] && X=/tmp/build-base/megamoe
    unset MEGAMOE_FP8_TMA_GRID
    case $v in k0) c=0;; k1|base) c=1;; k2) c=2;; k2g66) c=2; export MEGAMOE_FP8_TMA_GRID=66;; k2g33) c=2; export MEGAMOE_FP8_TMA_GRID=33;; esac
    MEGAMOE_FP8_TMA_CLUSTER=$c timeout 100 $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets $P --tokens 128,8192 --iters 50 --json $R/${v}_fp8_r$rep.json > $R/${v}_fp8_r$rep.log 2>&1
    echo "bench $v r$rep rc=$? $(grep -m1 fp8_tma $R/${v}_fp8_r$rep.log) $(( $(date +%s) - t0 ))s"
  done
done
for v in k0 k1 k2 k2g66 k2g33; do echo "=== base vs $v"; python3 scripts/ab_compare.py $R base $v 2>&1 | tail -10; done
