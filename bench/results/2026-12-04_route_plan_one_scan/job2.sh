#!/usr/bin/env bash
# Session 35, after 7908d98. (1) The single-block route plan with fewer warps at T*K = 1024
# (small_warps_diag.patch: W capped at 8 / 16, several routes a lane): kernel timelines at
# qwen3-30b-a3b T = 64 / 128 (fp8_block split). (2) Where W4A16 decode time goes: kernel timelines
# of the mxfp4 split backend and of `auto` at deepseek-v3 / gpt-oss-120b T = 1 and 16.
# Binaries: .carry/head.tgz (7908d98), .carry/rpw.tgz (w8/, w16/: the CLI with the patch, built by
# scripts/local_variant.sh). Run from the repository root.
set -u
source scripts/device_env.sh
t0=$(date +%s)
mkdir -p /tmp/head /tmp/v && tar xzf .carry/head.tgz -C /tmp/head && tar xzf .carry/rpw.tgz -C /tmp/v || exit 1
CUDA=/usr/local/cuda
gcc -O2 -shared -fPIC -o /tmp/libktrace.so scripts/ktrace/ktrace.c -I$CUDA/include -L$CUDA/lib64 -lcupti
kt() {  # name binary bench-args...
  local n=$1 b=$2; shift 2
  CUDA_INJECTION64_PATH=/tmp/libktrace.so KTRACE_OUT=$R/kt_$n.csv LD_LIBRARY_PATH=$CUDA/lib64:${LD_LIBRARY_PATH:-} \
    timeout 60 $b bench "$@" --iters 50 > "$R/kt_$n.log" 2>&1
  python3 scripts/ktrace/timeline.py $R/kt_$n.csv > $R/kt_$n.timeline.txt 2>&1
}
export MEGAMOE_TACTIC_CACHE=off
for rep in 1 2; do for v in head v/w8 v/w16; do for t in 64 128; do
  n=$(basename $v)_T${t}_r$rep
  kt $n /tmp/$v/megamoe --recipe fp8_block --backend sm90_fp8_fp8_bf16_split --presets qwen3-30b-a3b --tokens $t
  echo "$n $(grep -E 'route_plan' $R/kt_$n.timeline.txt)"
done; done; done
unset MEGAMOE_TACTIC_CACHE
for p in deepseek-v3 gpt-oss-120b; do for t in 1 16; do
  kt w4split_${p}_T$t /tmp/head/megamoe --recipe w4a16_mxfp4 --backend sm90_bf16_mxfp4_bf16_split --presets $p --tokens $t
  kt w4auto_${p}_T$t /tmp/head/megamoe --recipe w4a16_mxfp4 --presets $p --tokens $t
  for k in split auto; do echo "== w4$k $p T=$t"; grep -vE "^graph|^ *#" $R/kt_w4${k}_${p}_T$t.timeline.txt | head -12; done
done; done
gzip -f $R/*.csv
echo "end $(( $(date +%s) - t0 ))s"
