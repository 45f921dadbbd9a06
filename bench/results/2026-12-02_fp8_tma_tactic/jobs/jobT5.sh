#!/usr/bin/env bash
# Device job T5: ncu source-level (SASS) stall sampling of the fp8 TMA tactic's FC1, mixtral-8x7b T = 8192.
set -u
source scripts/device_env.sh
t0=$(date +%s)
cmake -S . -B $BN -G Ninja -DCMAKE_BUILD_TYPE=Release ${NCCL_ROOT:+-DMEGAMOE_NCCL_ROOT=$NCCL_ROOT} > $R/cfg_new.log 2>&1
ninja -C $BN -j16 megamoe_cli > $R/build_new.log 2>&1; rc=$?
echo "build $(( $(date +%s) - t0 ))s rc $rc"
X=$BN/megamoe
export MEGAMOE_TACTIC_CACHE=off
timeout 300 ncu --section WarpStateStats --section SourceCounters --metrics regex:smsp__average_warps_issue_stalled_.*_per_issue_active.ratio -k regex:fp8_tma -c 1 -o $R/mix_tma $X bench --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --tactic split_tma --presets mixtral-8x7b --tokens 8192 --iters 50 > $R/ncu_run.log 2>&1
echo "ncu rc=$?"
ncu --import $R/mix_tma.ncu-rep --page details > $R/mix_tma_details.txt 2>&1
ncu --import $R/mix_tma.ncu-rep --page source --csv --print-source sass > $R/mix_tma_sass.csv 2>&1
echo "csv lines $(wc -l < $R/mix_tma_sass.csv)"
grep -E "stalled" $R/mix_tma_details.txt | sort -k3 -n -r | head -25
