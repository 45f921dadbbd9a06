// The tactic defaults shipped with megamoe (core/tactics.h): measured entries that
// lookup_tactics() uses when the user's cache has none for a layer on a GPU of the same name and
// SM count. Each entry comes from a benchmark job in bench/results/ (docs/BENCHMARKS.md):
//
//   bf16, fp8_block, w4a16_mxfp4 and w4a16_nvfp4, the presets' shapes with plain swiglu and no
//   biases (as `megamoe bench` runs them), the mega backends of each recipe on an NVIDIA H200,
//   T = 1..64: the `megamoe tune` runs of 2026-11-30 (bench/results/2026-11-30_2cc67cf_tune_*,
//   docs/BENCHMARKS.md "Tactic tables"): per bucket the winner of "mega", "mega_rounds" and the
//   split pipeline's tactics. The w4a16_mxfp4 / w4a16_nvfp4 entries were re-measured on
//   2026-12-01 after the register decode and the small tactic's ldmatrix
//   (bench/results/2026-12-01_c625760_tune_w4a16_*).
//   fp8_block and bf16, T = 128..8192 (the split tactics): `megamoe tune --recipe <r> --tokens
//   128-8192 --iters 40` of 2026-12-01 (bench/results/2026-12-01_{148df44_tune_fp8,8ac2c24_tune_bf16}_128-8192.*).
//   fp8_block, T = 8..1024, re-measured after the 32-wide swap-AB token tile (choose_fp8_swap_tile):
//   `megamoe tune --recipe fp8_block --tokens 8,16,32,64,128,256,512,1024 --iters 40` of 2026-12-02
//   (bench/results/2026-12-02_fp8swap32_tune_fp8_8-1024.*).
//   w4a16_mxfp4 and w4a16_nvfp4, T = 128..8192 (the split tactics, after the TMA tactic's 320-token
//   passes): `megamoe tune --recipe <r> --presets <p> --tokens 128-8192 --iters 30` of 2026-12-02
//   (bench/results/2026-12-02_7e376a5_tune_w4a16_128-8192.*): the heuristic's choice in 27 of 28
//   cells per format; qwen3-30b-a3b T = 8192 runs split_large (1.02x).
//   w4a16_mxfp4 and w4a16_nvfp4, T = 1..4096, re-measured after the small tactic's per-tile-count
//   K loop (1e5e670) and the large tactic's 64-token passes with per-pass MMA width (f5c81c0):
//   `megamoe tune --recipe <r> --presets (the four) --tokens 1-4096 --iters 30` of 2026-12-02 at
//   2ede7f1 (bench/results/2026-12-02_2ede7f1_tune_w4a16_1-4096.*), then again after the large
//   tactic's lean K loop with 5 stages (2026-12-02, bench/results/2026-12-02_lean5_tune_w4a16_1-4096.*).
//   T = 8192 keeps the 7e376a5 tune. mxfp4 deepseek-v3 T = 1 comes from `megamoe tune --recipe
//   w4a16_mxfp4 --presets deepseek-v3 --tokens 1-2 --iters 30` (bench/results/2026-12-02_lean5_t1_probe/):
//   mega_rounds 0.097 ms against mega's 0.108, as every process that timed it alone measured, while
//   tunes of more buckets measured mega_rounds at 0.126-0.127 (not understood; docs/BENCHMARKS.md,
//   2026-12-02 "lean 5-stage K loop").
//   bf16 and fp8_block, T = 1..64, re-measured at 6558190 (the Mega kernel after its first two claims
//   moved to entry, the fp8 32-wide swap-AB tile): `megamoe tune --recipe <r> --presets (the four)
//   --tokens 1-64 --iters 30` of 2026-12-02 (bench/results/2026-12-02_6558190_tune_bf16_fp8_1-64/):
//   13 winners changed, bf16 mostly from the kernel to split_swap_ab at T = 4..32 (by 0.4-5.6%).
//   fp8_block, T = 128..8192, re-measured with our own TMA tactics (tokens in wgmma's M, `split_tma`
//   and `split_tma_act`): `megamoe tune --recipe fp8_block --tokens 128-8192 --iters 30` of
//   2026-12-03 at da297ca, merged with `scripts/merge_tune.py --buckets 128-8192`
//   (bench/results/2026-12-03_fp8_tma_tokens_in_m/U3/): 9 buckets changed (docs/TUNING.md).
//   Then again after the TMA kernel's step took CUTLASS's order (scales read before the MMAs, the
//   stage released right after their wait, the next stage tested before the promotion): the same
//   tune, 2026-12-03 (bench/results/2026-12-03_fp8_tma_cutlass_order/W3/), 3 buckets changed.
//   Later merges (2026-12-03 .. 2026-12-04, the last after `split_tma_small` became two CTAs per
//   SM: bench/results/2026-12-04_fp8_tma_small_two_ctas/run2/, 4 buckets; the last W4A16 one,
//   T = 256..8192 after `split_large`'s activation epilogue: bench/results/2026-12-04_w4a16_large_act_epilogue/tune_run/,
//   7 buckets; the bf16 one of 2026-12-05, T = 4096 / 8192 with our own large-T GEMM among the
//   tactics: bench/results/2026-12-05_bf16_large_tma_prepared/run1_tune/, 1 bucket) are listed in
//   docs/TUNING.md.
//
//   NVIDIA H100 80GB HBM3 (the last entries, partial): bf16 and fp8_block, the buckets where the
//   H100's own `megamoe tune` timed the H200's tactic at least 2% slower than its winner (session 53,
//   2026-12-05: bench/results/2026-12-05_session53/run4_tune_h100/ for T = 2048 .. 8192 and mixtral-8x7b
//   bf16 T = 16384 / 32768, bench/results/2026-12-05_session51/run4_tune_large_buckets/ for the other
//   T = 16384 / 32768; scripts/merge_tune.py --add, docs/TUNING.md "The shipped defaults"). Then the
//   H100's tunes of bf16 / fp8_block T = 1..1024 and W4A16 T = 1..8192 (session 55, 2026-12-05:
//   bench/results/2026-12-05_session55/run4_h100_peer_bf16_tune/, run5_h100_tunes/; merge_tune.py --add
//   --min-gain 0.02), shipped after their `auto` A/B on the H100 (session 56, 2026-12-06:
//   bench/results/2026-12-06_session56/run2_h100_table_ab/, 91 cells 1.017x, every changed bf16 /
//   fp8_block bucket 1.02-1.10x) without the one bucket that lost there (w4a16_nvfp4 gpt-oss-120b
//   T = 8192: 0.981x). Then fp8_block T = 2048..8192 after the fp8 TMA kernel's WidePaired geometry
//   (session 58, 2026-12-06: bench/results/2026-12-06_session58/run4_pp2_tune/, merge_tune.py
//   --min-gain 0.02: 5 buckets to split_tma_act, qwen3-30b-a3b T = 4096 / 8192 and mixtral-8x7b
//   T = 2048..8192, 1.020-1.061x in the tune), and again after its dynamic tile order (run11_dyn_tune/:
//   deepseek-v3 T = 4096 -> split_tma_act 1.097x, T = 8192 -> split_tma 1.234x; `auto` with that tune
//   against the table and kernels before session 58: 12 cells T = 2048..8192 1.070x), and after the
//   activation epilogue without a branch per element (session 60, 2026-12-06:
//   bench/results/2026-12-06_session60/run4_tune_h100/, T = 2048..32768, --min-gain 0.02: qwen3-30b-a3b
//   T = 2048 -> split_tma_act 1.070x, gpt-oss-120b T = 16384 -> split_tma_act_large_fc2 1.025x; `auto`
//   A/B 1.070x / 1.033x, run5_peers/ab/); deepseek-v3 T = 8192 set to split_tma_act by hand: the tune
//   timed it 1.023x behind split_tma, three A/B jobs (runs 1, 3, 7) 1.037-1.055x ahead; `auto` 1.063x
//   (run8_bf16act/). That bucket's split_tma / split_tma_act times are run 7's (run7_minmax/ab/new_ds_*:
//   each tactic forced in processes of its own, best of two medians), the other tactics' the tune's
//   (whose in-process times ran lower for both). Then fp8_block T = 128..1024 (run10_tune_small/,
//   --min-gain 0.02): 6 buckets to
//   split_tma_act (deepseek-v3 T = 128..1024, gpt-oss-120b T = 128, mixtral-8x7b T = 512), `auto`
//   A/B 1.026-1.068x on them (run11_ab_small/). Then W4A16 with the `split_small_deep` tactic
//   (session 72, 2026-12-07: bench/results/2026-12-07_session72/job14_h100/, `megamoe tune` of both
//   formats, gpt-oss-120b / mixtral-8x7b T = 1 / 2 / 4, --min-gain 0.02): gpt-oss-120b T = 1 ->
//   split_small_deep (mxfp4 1.046x, nvfp4 1.065x), nvfp4 T = 2 -> split_small_k1 (1.094x over mega);
//   `auto` with the tune's cache against the table before it 1.062x / 1.064x / 1.109x on those three
//   cells, 0.996-1.005x on the other nine. Then bf16 deepseek-v3 T = 1 -> split_tma_small (session
//   75, 2026-12-07: bench/results/2026-12-07_session75/call8_tune_small/, `megamoe tune` of bf16
//   deepseek-v3 / mixtral-8x7b / gpt-oss-120b T = 1 / 16 and fp8_block qwen3-30b-a3b / deepseek-v3
//   T = 1 / 2 / 4, --min-gain 0.02 --keep fp8_block:2048:1): 1.036x in the tune, `auto` with the
//   tune's cache against the table before it 1.035x in both rounds (259.3 -> 250.6 us); fp8_block
//   qwen3-30b-a3b T = 1 kept (the tune's mega_min16, 1.038x there, ran 0.931x in that A/B). The buckets
//   they leave empty run the H200's entry of the same layer (core/tactics.cpp).
//
// Regenerate with `megamoe tune` on the GPU and merge with scripts/merge_tune.py (driver 0 and
// library "*": any driver and version).
#include "core/tactics.h"

namespace megamoe {

const char* shipped_tactics_json() {
  return R"json({
 "format": "megamoe-tactics",
 "version": 1,
 "entries": [
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_bf16_bf16_mega",
   "recipe": "bf16",
   "activation": "swiglu",
   "bias": false,
   "experts": 256,
   "top_k": 8,
   "hidden": 7168,
   "intermediate": 2048,
   "tactics": {
    "1": "mega",
    "2": "mega_rounds",
    "4": "mega_min16",
    "8": "mega",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab",
    "128": "split_swap_ab",
    "256": "split_tma_small",
    "512": "split_tma_small",
    "1024": "split_tma_small",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile",
    "16384": "split_large_tile",
    "32768": "split_large_tile"
   },
   "measured_ms": {
    "1": {
     "mega": 0.214848,
     "mega_rounds": 0.214944,
     "split_swap_ab": 0.223584,
     "split_large_tile": 0.237536
    },
    "2": {
     "mega": 0.341408,
     "mega_rounds": 0.335648,
     "mega_min8": 0.340928,
     "mega_min16": 0.341056,
     "split_swap_ab": 0.352672,
     "split_large_tile": 0.381312
    },
    "4": {
     "mega": 0.659872,
     "mega_rounds": 0.660736,
     "mega_min8": 0.660384,
     "mega_min16": 0.659712,
     "split_swap_ab": 0.674528,
     "split_large_tile": 0.703232,
     "split_tma_small": 0.682144
    },
    "8": {
     "mega": 1.15626,
     "mega_rounds": 1.15706,
     "mega_min8": 1.15722,
     "mega_min16": 1.15654,
     "split_swap_ab": 1.15866,
     "split_large_tile": 1.19808,
     "split_tma_small": 1.18506
    },
    "16": {
     "mega": 2.02931,
     "mega_rounds": 2.02918,
     "mega_min8": 2.02854,
     "mega_min16": 2.0272,
     "split_swap_ab": 2.01155,
     "split_large_tile": 2.07904,
     "split_tma_small": 2.0592
    },
    "32": {
     "mega": 3.29069,
     "mega_rounds": 3.29155,
     "mega_min8": 3.29126,
     "mega_min16": 3.29152,
     "split_swap_ab": 3.2671,
     "split_large_tile": 3.31347,
     "split_tma_small": 3.33251
    },
    "64": {
     "mega": 4.38464,
     "mega_rounds": 4.38541,
     "mega_min8": 4.38458,
     "mega_min16": 4.38432,
     "split_swap_ab": 4.35616,
     "split_large_tile": 4.42224,
     "split_tma_small": 4.41398
    },
    "128": {
     "split_swap_ab": 4.99574,
     "split_large_tile": 5.0496,
     "split_tma_small": 5.04269
    },
    "256": {
     "split_swap_ab": 5.17488,
     "split_large_tile": 5.20214,
     "split_tma_small": 5.17094
    },
    "512": {
     "split_swap_ab": 5.33776,
     "split_large_tile": 5.30259,
     "split_tma_small": 5.24742
    },
    "1024": {
     "split_swap_ab": 5.5287,
     "split_large_tile": 5.4735,
     "split_tma_small": 5.41459
    },
    "2048": {
     "split_swap_ab": 6.15398,
     "split_large_tile": 5.7345,
     "split_tma_small": 8.58806,
     "split_large_tma": 6.25712,
     "split_large_tma_fc1": 6.43741,
     "split_large_tma_fc2": 6.05853
    },
    "4096": {
     "split_swap_ab": 9.83309,
     "split_large_tile": 7.13382,
     "split_tma_small": 14.2531,
     "split_large_tma": 8.22803,
     "split_large_tma_fc1": 7.94381,
     "split_large_tma_fc2": 7.59898
    },
    "8192": {
     "split_swap_ab": 19.1269,
     "split_large_tile": 11.4632,
     "split_tma_small": 27.0834,
     "split_large_tma": 11.8384,
     "split_large_tma_fc1": 11.9,
     "split_large_tma_fc2": 11.6211
    },
    "16384": {
     "split_swap_ab": 42.9414,
     "split_large_tile": 22.3946,
     "split_tma_small": 54.967,
     "split_large_tma": 23.3796,
     "split_large_tma_fc1": 23.2973,
     "split_large_tma_fc2": 22.96
    },
    "32768": {
     "split_swap_ab": 92.1365,
     "split_large_tile": 42.8193,
     "split_tma_small": 109.624,
     "split_large_tma": 45.7251,
     "split_large_tma_fc1": 44.3137,
     "split_large_tma_fc2": 44.7974
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_bf16_bf16_mega",
   "recipe": "bf16",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 8,
   "hidden": 2048,
   "intermediate": 768,
   "tactics": {
    "1": "mega_min16",
    "2": "mega_min8",
    "4": "split_tma_small",
    "8": "mega",
    "16": "split_tma_small",
    "32": "split_tma_small",
    "64": "split_tma_small",
    "128": "split_tma_small",
    "256": "split_tma_small",
    "512": "split_large_tile",
    "1024": "split_large_tile",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile",
    "16384": "split_large_tile",
    "32768": "split_large_tile"
   },
   "measured_ms": {
    "1": {
     "mega": 0.05376,
     "mega_rounds": 0.05312,
     "mega_min8": 0.051552,
     "mega_min16": 0.048672,
     "split_swap_ab": 0.055648,
     "split_large_tile": 0.071232
    },
    "2": {
     "mega": 0.068928,
     "mega_rounds": 0.067136,
     "mega_min8": 0.063712,
     "mega_min16": 0.074784,
     "split_swap_ab": 0.070592,
     "split_large_tile": 0.079392
    },
    "4": {
     "mega": 0.105248,
     "mega_rounds": 0.100224,
     "mega_min8": 0.098752,
     "mega_min16": 0.099392,
     "split_swap_ab": 0.107008,
     "split_large_tile": 0.114368,
     "split_tma_small": 0.096544
    },
    "8": {
     "mega": 0.141632,
     "mega_rounds": 0.142816,
     "mega_min8": 0.141984,
     "mega_min16": 0.141952,
     "split_swap_ab": 0.151648,
     "split_large_tile": 0.160832,
     "split_tma_small": 0.142176
    },
    "16": {
     "mega": 0.21184,
     "mega_rounds": 0.213568,
     "mega_min8": 0.212736,
     "mega_min16": 0.212416,
     "split_swap_ab": 0.21696,
     "split_large_tile": 0.2192,
     "split_tma_small": 0.204896
    },
    "32": {
     "mega": 0.286912,
     "mega_rounds": 0.28848,
     "mega_min8": 0.288224,
     "mega_min16": 0.287584,
     "split_swap_ab": 0.286432,
     "split_large_tile": 0.293312,
     "split_tma_small": 0.27648
    },
    "64": {
     "mega": 0.316736,
     "mega_rounds": 0.318048,
     "mega_min8": 0.316992,
     "mega_min16": 0.316416,
     "split_swap_ab": 0.31488,
     "split_large_tile": 0.317856,
     "split_tma_small": 0.30416
    },
    "128": {
     "split_swap_ab": 0.326176,
     "split_large_tile": 0.327168,
     "split_tma_small": 0.314208
    },
    "256": {
     "split_swap_ab": 0.336032,
     "split_large_tile": 0.333952,
     "split_tma_small": 0.322368
    },
    "512": {
     "split_swap_ab": 0.349504,
     "split_large_tile": 0.342816,
     "split_tma_small": 0.349696
    },
    "1024": {
     "split_swap_ab": 0.399072,
     "split_large_tile": 0.37632,
     "split_tma_small": 0.517088
    },
    "2048": {
     "split_swap_ab": 0.590624,
     "split_large_tile": 0.458624,
     "split_tma_small": 0.885376,
     "split_large_tma": 0.54848,
     "split_large_tma_fc1": 0.507648,
     "split_large_tma_fc2": 0.506272
    },
    "4096": {
     "split_swap_ab": 1.05427,
     "split_large_tile": 0.746624,
     "split_tma_small": 1.60672,
     "split_large_tma": 0.801216,
     "split_large_tma_fc1": 0.76224,
     "split_large_tma_fc2": 0.762656
    },
    "8192": {
     "split_swap_ab": 1.97706,
     "split_large_tile": 1.34502,
     "split_tma_small": 3.06448,
     "split_large_tma": 1.47085,
     "split_large_tma_fc1": 1.44035,
     "split_large_tma_fc2": 1.39155
    },
    "16384": {
     "split_swap_ab": 3.72982,
     "split_large_tile": 2.60803,
     "split_tma_small": 6.1519,
     "split_large_tma": 2.81603,
     "split_large_tma_fc1": 2.76368,
     "split_large_tma_fc2": 2.72509
    },
    "32768": {
     "split_swap_ab": 7.25674,
     "split_large_tile": 5.13978,
     "split_tma_small": 12.4055,
     "split_large_tma": 5.35466,
     "split_large_tma_fc1": 5.45869,
     "split_large_tma_fc2": 5.34522
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_bf16_bf16_mega",
   "recipe": "bf16",
   "activation": "swiglu",
   "bias": false,
   "experts": 8,
   "top_k": 2,
   "hidden": 4096,
   "intermediate": 14336,
   "tactics": {
    "1": "mega_rounds",
    "2": "mega_min16",
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_tma_small",
    "128": "split_tma_small",
    "256": "split_large_tile",
    "512": "split_large_tile",
    "1024": "split_large_tile",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile",
    "16384": "split_large_tile",
    "32768": "split_large_tile"
   },
   "measured_ms": {
    "1": {
     "mega": 0.217632,
     "mega_rounds": 0.202784,
     "mega_min8": 0.203904,
     "mega_min16": 0.204704,
     "split_swap_ab": 0.227296,
     "split_large_tile": 0.308096
    },
    "2": {
     "mega": 0.286912,
     "mega_rounds": 0.296416,
     "mega_min8": 0.285312,
     "mega_min16": 0.285216,
     "split_swap_ab": 0.298048,
     "split_large_tile": 0.377248
    },
    "4": {
     "mega": 0.614784,
     "mega_rounds": 0.6664,
     "mega_min8": 0.615296,
     "mega_min16": 0.615456,
     "split_swap_ab": 0.584448,
     "split_large_tile": 0.623328,
     "split_tma_small": 0.609632
    },
    "8": {
     "mega": 0.685312,
     "mega_rounds": 0.68432,
     "mega_min8": 0.686112,
     "mega_min16": 0.685664,
     "split_swap_ab": 0.671264,
     "split_large_tile": 0.696768,
     "split_tma_small": 0.687552
    },
    "16": {
     "mega": 0.685888,
     "mega_rounds": 0.729376,
     "mega_min8": 0.68656,
     "mega_min16": 0.686816,
     "split_swap_ab": 0.67792,
     "split_large_tile": 0.696,
     "split_tma_small": 0.683904
    },
    "32": {
     "mega": 0.697184,
     "mega_rounds": 0.766048,
     "mega_min8": 0.697024,
     "mega_min16": 0.697056,
     "split_swap_ab": 0.67152,
     "split_large_tile": 0.70448,
     "split_tma_small": 0.67968
    },
    "64": {
     "mega": 0.912288,
     "mega_rounds": 0.91472,
     "mega_min8": 0.9136,
     "mega_min16": 0.910976,
     "split_swap_ab": 0.710752,
     "split_large_tile": 0.705344,
     "split_tma_small": 0.680288
    },
    "128": {
     "split_swap_ab": 0.701664,
     "split_large_tile": 0.704672,
     "split_tma_small": 0.693536
    },
    "256": {
     "split_swap_ab": 0.913888,
     "split_large_tile": 0.735456,
     "split_tma_small": 1.17613
    },
    "512": {
     "split_swap_ab": 1.09686,
     "split_large_tile": 0.89808,
     "split_tma_small": 1.69059
    },
    "1024": {
     "split_swap_ab": 2.00182,
     "split_large_tile": 1.44349,
     "split_tma_small": 3.23725
    },
    "2048": {
     "split_swap_ab": 4.01296,
     "split_large_tile": 2.53491,
     "split_tma_small": 6.20714,
     "split_large_tma": 2.82979,
     "split_large_tma_fc1": 2.66659,
     "split_large_tma_fc2": 2.64349
    },
    "4096": {
     "split_swap_ab": 7.53158,
     "split_large_tile": 4.64163,
     "split_tma_small": 12.3144,
     "split_large_tma": 5.36525,
     "split_large_tma_fc1": 5.30061,
     "split_large_tma_fc2": 4.99114
    },
    "8192": {
     "split_swap_ab": 16.3495,
     "split_large_tile": 9.10458,
     "split_tma_small": 24.3622,
     "split_large_tma": 10.5967,
     "split_large_tma_fc1": 9.79011,
     "split_large_tma_fc2": 9.8889
    },
    "16384": {
     "split_swap_ab": 34.3663,
     "split_large_tile": 18.9864,
     "split_tma_small": 51.7923,
     "split_large_tma": 21.785,
     "split_large_tma_fc1": 19.9888,
     "split_large_tma_fc2": 21.0728
    },
    "32768": {
     "split_swap_ab": 69.9291,
     "split_large_tile": 40.2467,
     "split_tma_small": 106.772,
     "split_large_tma": 47.4823,
     "split_large_tma_fc1": 43.1616,
     "split_large_tma_fc2": 43.5421
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_bf16_bf16_mega",
   "recipe": "bf16",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 4,
   "hidden": 2880,
   "intermediate": 2880,
   "tactics": {
    "1": "mega_min8",
    "2": "mega_min8",
    "4": "split_tma_small",
    "8": "mega",
    "16": "split_swap_ab",
    "32": "split_tma_small",
    "64": "split_tma_small",
    "128": "split_tma_small",
    "256": "split_tma_small",
    "512": "split_tma_small",
    "1024": "split_swap_ab",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tma_fc1",
    "16384": "split_large_tma_fc1"
   },
   "measured_ms": {
    "1": {
     "mega": 0.087872,
     "mega_rounds": 0.085312,
     "mega_min8": 0.080832,
     "mega_min16": 0.102688,
     "split_swap_ab": 0.090144,
     "split_large_tile": 0.112416
    },
    "2": {
     "mega": 0.116832,
     "mega_rounds": 0.123328,
     "mega_min8": 0.116224,
     "mega_min16": 0.118176,
     "split_swap_ab": 0.127456,
     "split_large_tile": 0.149376
    },
    "4": {
     "mega": 0.219552,
     "mega_rounds": 0.220704,
     "mega_min8": 0.219776,
     "mega_min16": 0.219456,
     "split_swap_ab": 0.220032,
     "split_large_tile": 0.244608,
     "split_tma_small": 0.21856
    },
    "8": {
     "mega": 0.38224,
     "mega_rounds": 0.383168,
     "mega_min8": 0.382272,
     "mega_min16": 0.382496,
     "split_swap_ab": 0.38928,
     "split_large_tile": 0.410176,
     "split_tma_small": 0.38928
    },
    "16": {
     "mega": 0.610112,
     "mega_rounds": 0.610624,
     "mega_min8": 0.610112,
     "mega_min16": 0.609888,
     "split_swap_ab": 0.609088,
     "split_large_tile": 0.634336,
     "split_tma_small": 0.6104
    },
    "32": {
     "mega": 0.917984,
     "mega_rounds": 0.917728,
     "mega_min8": 0.915264,
     "mega_min16": 0.916448,
     "split_swap_ab": 0.905824,
     "split_large_tile": 0.924512,
     "split_tma_small": 0.898208
    },
    "64": {
     "mega": 1.29229,
     "mega_rounds": 1.29462,
     "mega_min8": 1.29472,
     "mega_min16": 1.29366,
     "split_swap_ab": 1.2936,
     "split_large_tile": 1.31936,
     "split_tma_small": 1.28291
    },
    "128": {
     "split_swap_ab": 1.44723,
     "split_large_tile": 1.47354,
     "split_tma_small": 1.43258
    },
    "256": {
     "split_swap_ab": 1.50925,
     "split_large_tile": 1.52618,
     "split_tma_small": 1.49123
    },
    "512": {
     "split_swap_ab": 1.53933,
     "split_large_tile": 1.55622,
     "split_tma_small": 1.51683
    },
    "1024": {
     "split_swap_ab": 1.58838,
     "split_large_tile": 1.60541,
     "split_tma_small": 1.59274
    },
    "2048": {
     "split_swap_ab": 1.99552,
     "split_large_tile": 1.78768
    },
    "4096": {
     "split_swap_ab": 2.96298,
     "split_large_tile": 2.15197,
     "split_tma_small": 4.13312,
     "split_large_tma": 2.31398,
     "split_large_tma_fc1": 2.50986,
     "split_large_tma_fc2": 2.24128
    },
    "8192": {
     "split_swap_ab": 5.11891,
     "split_large_tile": 3.65482,
     "split_tma_small": 7.6496,
     "split_large_tma": 3.41306,
     "split_large_tma_fc1": 3.41136,
     "split_large_tma_fc2": 3.59696
    },
    "16384": {
     "split_swap_ab": 10.5191,
     "split_large_tile": 6.7392,
     "split_tma_small": 15.0765,
     "split_large_tma": 6.65888,
     "split_large_tma_fc1": 6.4567,
     "split_large_tma_fc2": 6.91875
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_fp8_fp8_bf16_mega",
   "recipe": "fp8_block",
   "activation": "swiglu",
   "bias": false,
   "experts": 256,
   "top_k": 8,
   "hidden": 7168,
   "intermediate": 2048,
   "tactics": {
    "1": "mega_rounds",
    "2": "mega_rounds",
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab",
    "128": "split_tma_small",
    "256": "split_tma_small",
    "512": "split_swap_ab",
    "1024": "split_tma_small_act",
    "2048": "split_tma_act",
    "4096": "split_tma_act",
    "8192": "split_tma",
    "16384": "split_large_tile",
    "32768": "split_large_tile"
   },
   "measured_ms": {
    "1": {
     "mega": 0.130656,
     "mega_rounds": 0.11984,
     "mega_min8": 0.131136,
     "mega_min16": 0.124832,
     "split_swap_ab": 0.124544,
     "split_large_tile": 0.17152,
     "split_tma": 0.16128,
     "split_tma_act": 0.16272,
     "split_tma_act_large_fc2": 0.16384,
     "split_tma_small": 0.150784
    },
    "2": {
     "mega": 0.202688,
     "mega_rounds": 0.19248,
     "mega_min8": 0.201888,
     "mega_min16": 0.201984,
     "split_swap_ab": 0.196,
     "split_large_tile": 0.303392,
     "split_tma": 0.24176,
     "split_tma_act": 0.24704,
     "split_tma_act_large_fc2": 0.264288,
     "split_tma_small": 0.220096
    },
    "4": {
     "mega": 0.371936,
     "mega_rounds": 0.372064,
     "mega_min8": 0.371488,
     "mega_min16": 0.371456,
     "split_swap_ab": 0.364256,
     "split_large_tile": 0.558432,
     "split_tma": 0.429504,
     "split_tma_act": 0.439744,
     "split_tma_act_large_fc2": 0.480064,
     "split_tma_small": 0.391072
    },
    "8": {
     "mega": 0.646592,
     "mega_rounds": 0.646048,
     "mega_min8": 0.645408,
     "mega_min16": 0.646112,
     "split_swap_ab": 0.614336,
     "split_large_tile": 0.923904,
     "split_tma": 0.707104,
     "split_tma_act": 0.716608,
     "split_tma_act_large_fc2": 0.78528,
     "split_tma_small": 0.639136
    },
    "16": {
     "mega": 1.12595,
     "mega_rounds": 1.12928,
     "mega_min8": 1.12611,
     "mega_min16": 1.12541,
     "split_swap_ab": 1.05114,
     "split_large_tile": 1.54077,
     "split_tma": 1.15501,
     "split_tma_act": 1.18304,
     "split_tma_act_large_fc2": 1.3023,
     "split_tma_small": 1.08192
    },
    "32": {
     "mega": 1.82912,
     "mega_rounds": 1.83075,
     "mega_min8": 1.82877,
     "mega_min16": 1.82954,
     "split_swap_ab": 1.70131,
     "split_large_tile": 2.41763,
     "split_tma": 1.82928,
     "split_tma_act": 1.85904,
     "split_tma_act_large_fc2": 2.04758,
     "split_tma_small": 1.82371
    },
    "64": {
     "mega": 2.42979,
     "mega_rounds": 2.43178,
     "mega_min8": 2.42998,
     "mega_min16": 2.43037,
     "split_swap_ab": 2.2697,
     "split_large_tile": 3.13789,
     "split_tma": 2.48803,
     "split_tma_act": 2.48144,
     "split_tma_act_large_fc2": 2.74586,
     "split_tma_small": 2.40013
    },
    "128": {
     "split_swap_ab": 2.67891,
     "split_large_tile": 3.53552,
     "split_tma": 2.65366,
     "split_tma_act": 2.8168,
     "split_tma_act_large_fc2": 3.04221,
     "split_tma_small": 2.64502
    },
    "256": {
     "split_swap_ab": 2.79056,
     "split_large_tile": 3.64422,
     "split_tma": 2.76746,
     "split_tma_act": 3.04726,
     "split_tma_act_large_fc2": 3.16378,
     "split_tma_small": 2.7415
    },
    "512": {
     "split_swap_ab": 2.89341,
     "split_large_tile": 3.66528,
     "split_tma": 2.93344,
     "split_tma_act": 3.01683,
     "split_tma_act_large_fc2": 3.35056,
     "split_tma_small": 3.01597,
     "split_tma_small_act": 2.92077
    },
    "1024": {
     "split_swap_ab": 3.0583,
     "split_large_tile": 3.74614,
     "split_tma": 3.08979,
     "split_tma_act": 3.12637,
     "split_tma_act_large_fc2": 3.41411,
     "split_tma_small": 3.07715,
     "split_tma_small_act": 2.96195
    },
    "2048": {
     "split_swap_ab": 4.2288,
     "split_large_tile": 3.87562,
     "split_tma": 3.57277,
     "split_tma_act": 3.50557,
     "split_tma_act_large_fc2": 3.57446,
     "split_tma_small": 4.66019
    },
    "4096": {
     "split_swap_ab": 5.95194,
     "split_large_tile": 5.28893,
     "split_tma": 4.94,
     "split_tma_act": 4.55914,
     "split_tma_act_large_fc2": 4.80659,
     "split_tma_small": 5.39059,
     "split_tma_small_act": 5.17085
    },
    "8192": {
     "split_swap_ab": 10.4631,
     "split_large_tile": 8.85472,
     "split_tma": 7.79706,
     "split_tma_act": 8.02864,
     "split_tma_act_large_fc2": 8.06598,
     "split_tma_small": 10.3149,
     "split_tma_small_act": 9.02714
    },
    "16384": {
     "split_swap_ab": 19.496,
     "split_large_tile": 15.568,
     "split_tma": 17.3501,
     "split_tma_act": 16.4981,
     "split_tma_act_large_fc2": 16.3504,
     "split_tma_small": 20.5264,
     "split_tma_small_act": 18.9726
    },
    "32768": {
     "split_swap_ab": 37.3935,
     "split_large_tile": 29.1314,
     "split_tma": 36.4379,
     "split_tma_act": 33.7875,
     "split_tma_act_large_fc2": 33.0275,
     "split_tma_small": 41.0074,
     "split_tma_small_act": 40.1025
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_fp8_fp8_bf16_mega",
   "recipe": "fp8_block",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 8,
   "hidden": 2048,
   "intermediate": 768,
   "tactics": {
    "1": "mega_min16",
    "2": "mega_min16",
    "4": "mega",
    "8": "mega_min16",
    "16": "split_tma_small",
    "32": "split_tma_small",
    "64": "split_tma_small",
    "128": "split_tma_small",
    "256": "split_tma_small_act",
    "512": "split_tma_small_act",
    "1024": "split_tma_small_act",
    "2048": "split_tma_act",
    "4096": "split_tma_act",
    "8192": "split_tma_act",
    "16384": "split_tma_act"
   },
   "measured_ms": {
    "1": {
     "mega": 0.049568,
     "mega_rounds": 0.049792,
     "mega_min8": 0.04656,
     "mega_min16": 0.045888,
     "split_swap_ab": 0.050368,
     "split_large_tile": 0.054016
    },
    "2": {
     "mega": 0.052352,
     "mega_rounds": 0.051392,
     "mega_min8": 0.051648,
     "mega_min16": 0.048192,
     "split_swap_ab": 0.056352,
     "split_large_tile": 0.066304,
     "split_tma": 0.063456,
     "split_tma_act": 0.066432,
     "split_tma_act_large_fc2": 0.066144,
     "split_tma_small": 0.058912
    },
    "4": {
     "mega": 0.073568,
     "mega_rounds": 0.0744,
     "mega_min8": 0.073792,
     "mega_min16": 0.074624,
     "split_swap_ab": 0.077632,
     "split_large_tile": 0.09184,
     "split_tma": 0.08336,
     "split_tma_act": 0.091712,
     "split_tma_act_large_fc2": 0.096224,
     "split_tma_small": 0.077376
    },
    "8": {
     "mega": 0.095968,
     "mega_rounds": 0.096448,
     "mega_min8": 0.09584,
     "mega_min16": 0.095808,
     "split_swap_ab": 0.102496,
     "split_large_tile": 0.130752,
     "split_tma": 0.107488,
     "split_tma_act": 0.118336,
     "split_tma_act_large_fc2": 0.128448,
     "split_tma_small": 0.097248
    },
    "16": {
     "mega": 0.137248,
     "mega_rounds": 0.137792,
     "mega_min8": 0.137472,
     "mega_min16": 0.137568,
     "split_swap_ab": 0.1384,
     "split_large_tile": 0.183136,
     "split_tma": 0.142208,
     "split_tma_act": 0.15232,
     "split_tma_act_large_fc2": 0.168256,
     "split_tma_small": 0.128352
    },
    "32": {
     "mega": 0.183904,
     "mega_rounds": 0.184608,
     "mega_min8": 0.183904,
     "mega_min16": 0.184096,
     "split_swap_ab": 0.175744,
     "split_large_tile": 0.230336,
     "split_tma": 0.173184,
     "split_tma_act": 0.19408,
     "split_tma_act_large_fc2": 0.215712,
     "split_tma_small": 0.162464
    },
    "64": {
     "mega": 0.210368,
     "mega_rounds": 0.210944,
     "mega_min8": 0.210592,
     "mega_min16": 0.210592,
     "split_swap_ab": 0.191424,
     "split_large_tile": 0.248448,
     "split_tma": 0.18592,
     "split_tma_act": 0.200832,
     "split_tma_act_large_fc2": 0.22608,
     "split_tma_small": 0.17504
    },
    "128": {
     "split_swap_ab": 0.201024,
     "split_large_tile": 0.252768,
     "split_tma": 0.192992,
     "split_tma_act": 0.208704,
     "split_tma_act_large_fc2": 0.234016,
     "split_tma_small": 0.184448
    },
    "256": {
     "split_swap_ab": 0.210624,
     "split_large_tile": 0.257888,
     "split_tma": 0.199936,
     "split_tma_act": 0.2136,
     "split_tma_act_large_fc2": 0.237024,
     "split_tma_small": 0.194144,
     "split_tma_small_act": 0.191392
    },
    "512": {
     "split_swap_ab": 0.237024,
     "split_large_tile": 0.267808,
     "split_tma": 0.215232,
     "split_tma_act": 0.220576,
     "split_tma_act_large_fc2": 0.243168,
     "split_tma_small": 0.209792,
     "split_tma_small_act": 0.199264
    },
    "1024": {
     "split_swap_ab": 0.296864,
     "split_large_tile": 0.286592,
     "split_tma": 0.264768,
     "split_tma_act": 0.262624,
     "split_tma_act_large_fc2": 0.265728,
     "split_tma_small": 0.27072,
     "split_tma_small_act": 0.259936
    },
    "2048": {
     "split_swap_ab": 0.443712,
     "split_large_tile": 0.378912,
     "split_tma": 0.352544,
     "split_tma_act": 0.346528,
     "split_tma_act_large_fc2": 0.35408,
     "split_tma_small": 0.368192,
     "split_tma_small_act": 0.349504
    },
    "4096": {
     "split_swap_ab": 0.785824,
     "split_large_tile": 0.63408,
     "split_tma": 0.592608,
     "split_tma_act": 0.574176,
     "split_tma_act_large_fc2": 0.593152,
     "split_tma_small": 0.64816,
     "split_tma_small_act": 0.606272
    },
    "8192": {
     "split_swap_ab": 1.44538,
     "split_large_tile": 1.15462,
     "split_tma": 1.05568,
     "split_tma_act": 1.02173,
     "split_tma_act_large_fc2": 1.05485,
     "split_tma_small": 1.22864,
     "split_tma_small_act": 1.10022
    },
    "16384": {
     "split_swap_ab": 2.81024,
     "split_large_tile": 2.19334,
     "split_tma": 2.24502,
     "split_tma_act": 2.06483,
     "split_tma_act_large_fc2": 2.11002,
     "split_tma_small": 2.55306,
     "split_tma_small_act": 2.10003
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_fp8_fp8_bf16_mega",
   "recipe": "fp8_block",
   "activation": "swiglu",
   "bias": false,
   "experts": 8,
   "top_k": 2,
   "hidden": 4096,
   "intermediate": 14336,
   "tactics": {
    "1": "mega_rounds",
    "2": "mega_min8",
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_tma_small",
    "128": "split_tma_small",
    "256": "split_tma_act",
    "512": "split_tma_small_act",
    "1024": "split_tma_act_large_fc2",
    "2048": "split_tma_act_large_fc2",
    "4096": "split_tma_act_large_fc2",
    "8192": "split_tma_act",
    "32768": "split_tma_act_large_fc2"
   },
   "measured_ms": {
    "1": {
     "mega": 0.13392,
     "mega_rounds": 0.123552,
     "mega_min8": 0.133728,
     "mega_min16": 0.136416,
     "split_swap_ab": 0.13616,
     "split_large_tile": 0.201184,
     "split_tma": 0.15072,
     "split_tma_act": 0.153152,
     "split_tma_act_large_fc2": 0.178624,
     "split_tma_small": 0.147712
    },
    "2": {
     "mega": 0.167488,
     "mega_rounds": 0.183008,
     "mega_min8": 0.167104,
     "mega_min16": 0.167424,
     "split_swap_ab": 0.171744,
     "split_large_tile": 0.25424
    },
    "4": {
     "mega": 0.340896,
     "mega_rounds": 0.357056,
     "mega_min8": 0.341056,
     "mega_min16": 0.340832,
     "split_swap_ab": 0.327424,
     "split_large_tile": 0.504384,
     "split_tma": 0.389984,
     "split_tma_act": 0.39344,
     "split_tma_act_large_fc2": 0.430144,
     "split_tma_small": 0.352992
    },
    "8": {
     "mega": 0.394464,
     "mega_rounds": 0.424928,
     "mega_min8": 0.396256,
     "mega_min16": 0.396,
     "split_swap_ab": 0.362816,
     "split_large_tile": 0.561312,
     "split_tma": 0.432576,
     "split_tma_act": 0.454944,
     "split_tma_act_large_fc2": 0.48992,
     "split_tma_small": 0.39632
    },
    "16": {
     "mega": 0.397312,
     "mega_rounds": 0.40192,
     "mega_min8": 0.396256,
     "mega_min16": 0.395424,
     "split_swap_ab": 0.366336,
     "split_large_tile": 0.599968,
     "split_tma": 0.435808,
     "split_tma_act": 0.451296,
     "split_tma_act_large_fc2": 0.497504,
     "split_tma_small": 0.398976
    },
    "32": {
     "mega": 0.420864,
     "mega_rounds": 0.469216,
     "mega_min8": 0.4192,
     "mega_min16": 0.420704,
     "split_swap_ab": 0.378944,
     "split_large_tile": 0.582112
    },
    "64": {
     "mega": 0.562016,
     "mega_rounds": 0.55904,
     "mega_min8": 0.563552,
     "mega_min16": 0.562592,
     "split_swap_ab": 0.377888,
     "split_large_tile": 0.585472,
     "split_tma": 0.387904,
     "split_tma_act": 0.389088,
     "split_tma_act_large_fc2": 0.437984,
     "split_tma_small": 0.37392
    },
    "128": {
     "split_swap_ab": 0.398912,
     "split_large_tile": 0.558912,
     "split_tma": 0.38928,
     "split_tma_act": 0.38416,
     "split_tma_act_large_fc2": 0.42016,
     "split_tma_small": 0.383424
    },
    "256": {
     "split_swap_ab": 0.558912,
     "split_large_tile": 0.528064,
     "split_tma": 0.485056,
     "split_tma_act": 0.464512,
     "split_tma_act_large_fc2": 0.465312,
     "split_tma_small": 0.497728,
     "split_tma_small_act": 0.484768
    },
    "512": {
     "split_swap_ab": 0.71328,
     "split_large_tile": 0.6824,
     "split_tma": 0.708128,
     "split_tma_act": 0.681536,
     "split_tma_act_large_fc2": 0.6536,
     "split_tma_small": 0.712768,
     "split_tma_small_act": 0.640128
    },
    "1024": {
     "split_swap_ab": 1.26381,
     "split_large_tile": 1.06794,
     "split_tma": 1.13123,
     "split_tma_act": 1.08736,
     "split_tma_act_large_fc2": 1.0223,
     "split_tma_small": 1.14234,
     "split_tma_small_act": 1.09952
    },
    "2048": {
     "split_swap_ab": 2.32899,
     "split_large_tile": 1.83264,
     "split_tma": 1.8025,
     "split_tma_act": 1.75738,
     "split_tma_act_large_fc2": 1.73722,
     "split_tma_small": 2.31901,
     "split_tma_small_act": 2.05757
    },
    "4096": {
     "split_swap_ab": 4.51309,
     "split_large_tile": 3.57645,
     "split_tma": 3.89302,
     "split_tma_act": 3.57725,
     "split_tma_act_large_fc2": 3.46349,
     "split_tma_small": 4.65034
    },
    "8192": {
     "split_swap_ab": 8.60205,
     "split_large_tile": 6.5904,
     "split_tma": 6.60704,
     "split_tma_act": 6.17091,
     "split_tma_act_large_fc2": 6.30275,
     "split_tma_small": 8.1528,
     "split_tma_small_act": 7.6359
    },
    "32768": {
     "split_swap_ab": 37.0643,
     "split_large_tile": 28.5775,
     "split_tma": 31.9524,
     "split_tma_act": 29.3903,
     "split_tma_act_large_fc2": 28.076,
     "split_tma_small": 34.507,
     "split_tma_small_act": 32.7323
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_fp8_fp8_bf16_mega",
   "recipe": "fp8_block",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 4,
   "hidden": 2880,
   "intermediate": 2880,
   "tactics": {
    "1": "mega_rounds",
    "2": "mega_min8",
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab",
    "128": "split_swap_ab",
    "256": "split_swap_ab",
    "512": "split_swap_ab",
    "1024": "split_tma_small_act",
    "2048": "split_tma_act",
    "4096": "split_tma_act_large_fc2",
    "8192": "split_tma_act_large_fc2",
    "16384": "split_tma_act_large_fc2",
    "32768": "split_tma_act_large_fc2"
   },
   "measured_ms": {
    "1": {
     "mega": 0.066432,
     "mega_rounds": 0.062944,
     "mega_min8": 0.07856,
     "mega_min16": 0.064384,
     "split_swap_ab": 0.070272,
     "split_large_tile": 0.086176,
     "split_tma": 0.083296,
     "split_tma_act": 0.080832,
     "split_tma_act_large_fc2": 0.081696,
     "split_tma_small": 0.078304
    },
    "2": {
     "mega": 0.087104,
     "mega_rounds": 0.090624,
     "mega_min8": 0.08576,
     "mega_min16": 0.088736,
     "split_swap_ab": 0.089472,
     "split_large_tile": 0.115776,
     "split_tma": 0.100288,
     "split_tma_act": 0.112736,
     "split_tma_act_large_fc2": 0.117312,
     "split_tma_small": 0.093248
    },
    "4": {
     "mega": 0.143552,
     "mega_rounds": 0.144448,
     "mega_min8": 0.143904,
     "mega_min16": 0.147232,
     "split_swap_ab": 0.138944,
     "split_large_tile": 0.210688,
     "split_tma": 0.164832,
     "split_tma_act": 0.17136,
     "split_tma_act_large_fc2": 0.180768,
     "split_tma_small": 0.152672
    },
    "8": {
     "mega": 0.246624,
     "mega_rounds": 0.247488,
     "mega_min8": 0.24688,
     "mega_min16": 0.246656,
     "split_swap_ab": 0.22592,
     "split_large_tile": 0.355872,
     "split_tma": 0.278144,
     "split_tma_act": 0.301312,
     "split_tma_act_large_fc2": 0.31712,
     "split_tma_small": 0.25184
    },
    "16": {
     "mega": 0.3776,
     "mega_rounds": 0.37808,
     "mega_min8": 0.376704,
     "mega_min16": 0.377312,
     "split_swap_ab": 0.339424,
     "split_large_tile": 0.517216,
     "split_tma": 0.412768,
     "split_tma_act": 0.430496,
     "split_tma_act_large_fc2": 0.453984,
     "split_tma_small": 0.367552
    },
    "32": {
     "mega": 0.554464,
     "mega_rounds": 0.555616,
     "mega_min8": 0.554336,
     "mega_min16": 0.554272,
     "split_swap_ab": 0.491424,
     "split_large_tile": 0.7392,
     "split_tma": 0.59184,
     "split_tma_act": 0.616192,
     "split_tma_act_large_fc2": 0.653696,
     "split_tma_small": 0.523776
    },
    "64": {
     "mega": 0.785664,
     "mega_rounds": 0.785824,
     "mega_min8": 0.786176,
     "mega_min16": 0.780864,
     "split_swap_ab": 0.690912,
     "split_large_tile": 1.01078,
     "split_tma": 0.784544,
     "split_tma_act": 0.829888,
     "split_tma_act_large_fc2": 0.884064,
     "split_tma_small": 0.724864
    },
    "128": {
     "split_swap_ab": 0.794624,
     "split_large_tile": 1.12419,
     "split_tma": 0.866912,
     "split_tma_act": 0.952608,
     "split_tma_act_large_fc2": 1.00806,
     "split_tma_small": 0.856544,
     "split_tma_small_act": 0.861984
    },
    "256": {
     "split_swap_ab": 0.84608,
     "split_large_tile": 1.14886,
     "split_tma": 0.892832,
     "split_tma_act": 0.9768,
     "split_tma_act_large_fc2": 1.052,
     "split_tma_small": 0.872992,
     "split_tma_small_act": 0.875456
    },
    "512": {
     "split_swap_ab": 0.875552,
     "split_large_tile": 1.18902,
     "split_tma": 0.914016,
     "split_tma_act": 0.99536,
     "split_tma_act_large_fc2": 1.06102,
     "split_tma_small": 0.898944,
     "split_tma_small_act": 0.910368
    },
    "1024": {
     "split_swap_ab": 0.96096,
     "split_large_tile": 1.20547,
     "split_tma": 0.957984,
     "split_tma_act": 0.999232,
     "split_tma_act_large_fc2": 1.06758,
     "split_tma_small": 0.957184,
     "split_tma_small_act": 0.940672
    },
    "2048": {
     "split_swap_ab": 1.18358,
     "split_large_tile": 1.18733,
     "split_tma": 1.09373,
     "split_tma_act": 1.0417,
     "split_tma_act_large_fc2": 1.05757,
     "split_tma_small": 1.14397,
     "split_tma_small_act": 1.09158
    },
    "4096": {
     "split_swap_ab": 2.08515,
     "split_large_tile": 1.81206,
     "split_tma": 1.85654,
     "split_tma_act": 1.7785,
     "split_tma_act_large_fc2": 1.74288,
     "split_tma_small": 2.13542
    },
    "8192": {
     "split_swap_ab": 3.32086,
     "split_large_tile": 2.85334,
     "split_tma": 2.94976,
     "split_tma_act": 2.63213,
     "split_tma_act_large_fc2": 2.62109,
     "split_tma_small": 3.18653,
     "split_tma_small_act": 2.86656
    },
    "16384": {
     "split_swap_ab": 6.09933,
     "split_large_tile": 4.96979,
     "split_tma": 5.56189,
     "split_tma_act": 4.78301,
     "split_tma_act_large_fc2": 4.716,
     "split_tma_small": 6.66467,
     "split_tma_small_act": 5.3641
    },
    "32768": {
     "split_swap_ab": 11.6487,
     "split_large_tile": 9.45856,
     "split_tma": 10.0345,
     "split_tma_act": 9.11133,
     "split_tma_act_large_fc2": 9.00218,
     "split_tma_small": 12.187,
     "split_tma_small_act": 10.4932
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_mxfp4_bf16_mega",
   "recipe": "w4a16_mxfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 256,
   "top_k": 8,
   "hidden": 7168,
   "intermediate": 2048,
   "tactics": {
    "1": "split_small_k1",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small_k1",
    "128": "split_small_k1",
    "256": "split_small_k1",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.104736,
     "mega_rounds": 0.125792,
     "mega_min8": 0.100256,
     "mega_min16": 0.124256,
     "split_small": 0.084704,
     "split_small_k1": 0.081664,
     "split_small_k2": 0.090496,
     "split_large": 0.100192,
     "split_large_tma": 0.265888,
     "split_large_tma_fc1": 0.197984,
     "split_large_tma_fc2": 0.167904
    },
    "2": {
     "mega": 0.161408,
     "mega_rounds": 0.156608,
     "mega_min8": 0.160704,
     "mega_min16": 0.15616,
     "split_small": 0.132864,
     "split_small_k1": 0.132704,
     "split_small_k2": 0.145408,
     "split_large": 0.16832,
     "split_large_tma": 0.457568,
     "split_large_tma_fc1": 0.348928,
     "split_large_tma_fc2": 0.276928
    },
    "4": {
     "mega": 0.292096,
     "mega_rounds": 0.29184,
     "mega_min8": 0.291712,
     "mega_min16": 0.29232,
     "split_small": 0.238208,
     "split_small_k1": 0.23776,
     "split_small_k2": 0.266336,
     "split_large": 0.298752,
     "split_large_tma": 0.849984,
     "split_large_tma_fc1": 0.66464,
     "split_large_tma_fc2": 0.49504
    },
    "8": {
     "mega": 0.50352,
     "mega_rounds": 0.503616,
     "mega_min8": 0.50368,
     "mega_min16": 0.503072,
     "split_small": 0.390944,
     "split_small_k1": 0.395008,
     "split_small_k2": 0.451232,
     "split_large": 0.504096,
     "split_large_tma": 1.45859,
     "split_large_tma_fc1": 1.13533,
     "split_large_tma_fc2": 0.833728
    },
    "16": {
     "mega": 0.874112,
     "mega_rounds": 0.8752,
     "mega_min8": 0.874048,
     "mega_min16": 0.874176,
     "split_small": 0.67872,
     "split_small_k1": 0.693632,
     "split_small_k2": 0.787968,
     "split_large": 0.866688,
     "split_large_tma": 2.52086,
     "split_large_tma_fc1": 1.99754,
     "split_large_tma_fc2": 1.41043
    },
    "32": {
     "mega": 1.41875,
     "mega_rounds": 1.42048,
     "mega_min8": 1.41875,
     "mega_min16": 1.42179,
     "split_small": 1.12384,
     "split_small_k1": 1.13978,
     "split_small_k2": 1.29219,
     "split_large": 1.38358,
     "split_large_tma": 4.06144,
     "split_large_tma_fc1": 3.14032,
     "split_large_tma_fc2": 2.25411
    },
    "64": {
     "mega": 1.89133,
     "mega_rounds": 1.8927,
     "mega_min8": 1.89094,
     "mega_min16": 1.89158,
     "split_small": 1.50115,
     "split_small_k1": 1.49091,
     "split_small_k2": 1.69373,
     "split_large": 1.8455,
     "split_large_tma": 5.44045,
     "split_large_tma_fc1": 4.21062,
     "split_large_tma_fc2": 3.00678
    },
    "128": {
     "split_small": 1.75366,
     "split_small_k1": 1.73482,
     "split_small_k2": 1.94413,
     "split_large": 2.11523,
     "split_large_tma": 6.15418,
     "split_large_tma_fc1": 4.80554,
     "split_large_tma_fc2": 3.41501
    },
    "256": {
     "split_small": 1.90422,
     "split_small_k1": 1.90243,
     "split_small_k2": 2.13968,
     "split_large": 2.2456,
     "split_large_tma": 6.32013,
     "split_large_tma_fc1": 4.94992,
     "split_large_tma_fc2": 3.52198
    },
    "512": {
     "split_small": 2.65606,
     "split_large": 2.47898,
     "split_large_tma": 6.38627
    },
    "1024": {
     "split_small": 3.92467,
     "split_small_k1": 3.92899,
     "split_small_k2": 4.22128,
     "split_large": 3.08554,
     "split_large_tma": 6.52035,
     "split_large_tma_fc1": 5.2248,
     "split_large_tma_fc2": 4.08662
    },
    "2048": {
     "split_small": 6.8591,
     "split_small_k1": 7.39917,
     "split_small_k2": 7.95763,
     "split_large": 4.63901,
     "split_large_tma": 7.06278,
     "split_large_tma_fc1": 6.14595,
     "split_large_tma_fc2": 5.4023
    },
    "4096": {
     "split_small": 12.5176,
     "split_small_k1": 12.769,
     "split_small_k2": 13.9371,
     "split_large": 7.30502,
     "split_large_tma": 9.38749,
     "split_large_tma_fc1": 8.67645,
     "split_large_tma_fc2": 8.03277
    },
    "8192": {
     "split_small": 24.3443,
     "split_small_k1": 24.6314,
     "split_small_k2": 27.1067,
     "split_large": 13.7829,
     "split_large_tma": 12.962,
     "split_large_tma_fc1": 13.1796,
     "split_large_tma_fc2": 13.5342
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_mxfp4_bf16_mega",
   "recipe": "w4a16_mxfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 8,
   "hidden": 2048,
   "intermediate": 768,
   "tactics": {
    "1": "split_small_k1",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "8": "split_small",
    "16": "split_small_k1",
    "32": "split_small_k1",
    "64": "split_small",
    "128": "split_small_k1",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma_fc1",
    "8192": "split_large_tma_fc1"
   },
   "measured_ms": {
    "1": {
     "mega": 0.033248,
     "mega_rounds": 0.03424,
     "mega_min8": 0.036384,
     "mega_min16": 0.035968,
     "split_small": 0.031712,
     "split_small_k1": 0.029248,
     "split_small_k2": 0.031808,
     "split_large": 0.033696,
     "split_large_tma": 0.063104,
     "split_large_tma_fc1": 0.050208,
     "split_large_tma_fc2": 0.046848
    },
    "2": {
     "mega": 0.044544,
     "mega_rounds": 0.044832,
     "mega_min8": 0.044416,
     "mega_min16": 0.044512,
     "split_small": 0.041472,
     "split_small_k1": 0.037536,
     "split_small_k2": 0.04128,
     "split_large": 0.039744,
     "split_large_tma": 0.0928,
     "split_large_tma_fc1": 0.07248,
     "split_large_tma_fc2": 0.05984
    },
    "4": {
     "mega": 0.061728,
     "mega_rounds": 0.06272,
     "mega_min8": 0.05872,
     "mega_min16": 0.059136,
     "split_small": 0.054784,
     "split_small_k1": 0.05472,
     "split_small_k2": 0.06096,
     "split_large": 0.055808,
     "split_large_tma": 0.130464,
     "split_large_tma_fc1": 0.099744,
     "split_large_tma_fc2": 0.086304
    },
    "8": {
     "mega": 0.076864,
     "mega_rounds": 0.077696,
     "mega_min8": 0.07648,
     "mega_min16": 0.076544,
     "split_small": 0.073728,
     "split_small_k1": 0.074112,
     "split_small_k2": 0.086144,
     "split_large": 0.078368,
     "split_large_tma": 0.19536,
     "split_large_tma_fc1": 0.147552,
     "split_large_tma_fc2": 0.125664
    },
    "16": {
     "mega": 0.110272,
     "mega_rounds": 0.11072,
     "mega_min8": 0.109504,
     "mega_min16": 0.110048,
     "split_small": 0.099072,
     "split_small_k1": 0.09872,
     "split_small_k2": 0.12464,
     "split_large": 0.1072,
     "split_large_tma": 0.27648,
     "split_large_tma_fc1": 0.221152,
     "split_large_tma_fc2": 0.169824
    },
    "32": {
     "mega": 0.147296,
     "mega_rounds": 0.148192,
     "mega_min8": 0.14768,
     "mega_min16": 0.147552,
     "split_small": 0.126464,
     "split_small_k1": 0.12624,
     "split_small_k2": 0.15856,
     "split_large": 0.13952,
     "split_large_tma": 0.36672,
     "split_large_tma_fc1": 0.285824,
     "split_large_tma_fc2": 0.222272
    },
    "64": {
     "mega": 0.171104,
     "mega_rounds": 0.172096,
     "mega_min8": 0.171584,
     "mega_min16": 0.17104,
     "split_small": 0.138272,
     "split_small_k1": 0.138464,
     "split_small_k2": 0.175744,
     "split_large": 0.153696,
     "split_large_tma": 0.416768,
     "split_large_tma_fc1": 0.322528,
     "split_large_tma_fc2": 0.245728
    },
    "128": {
     "split_small": 0.147648,
     "split_small_k1": 0.147168,
     "split_small_k2": 0.188672,
     "split_large": 0.160352,
     "split_large_tma": 0.421504,
     "split_large_tma_fc1": 0.328288,
     "split_large_tma_fc2": 0.251616
    },
    "256": {
     "split_small": 0.17184,
     "split_small_k1": 0.171616,
     "split_small_k2": 0.217536,
     "split_large": 0.169568,
     "split_large_tma": 0.424832,
     "split_large_tma_fc1": 0.33584,
     "split_large_tma_fc2": 0.258336
    },
    "512": {
     "split_small": 0.256928,
     "split_small_k1": 0.256672,
     "split_small_k2": 0.316704,
     "split_large": 0.20912,
     "split_large_tma": 0.446272
    },
    "1024": {
     "split_small": 0.421728,
     "split_small_k1": 0.422208,
     "split_small_k2": 0.527968,
     "split_large": 0.325664,
     "split_large_tma": 0.498336,
     "split_large_tma_fc1": 0.425152,
     "split_large_tma_fc2": 0.397344
    },
    "2048": {
     "split_small": 0.785952,
     "split_small_k1": 0.75056,
     "split_small_k2": 0.967456,
     "split_large": 0.494944,
     "split_large_tma": 0.622464,
     "split_large_tma_fc1": 0.56256,
     "split_large_tma_fc2": 0.554912
    },
    "4096": {
     "split_small": 1.4551,
     "split_small_k1": 1.4768,
     "split_small_k2": 1.91699,
     "split_large": 0.886176,
     "split_large_tma": 0.889792,
     "split_large_tma_fc1": 0.860096,
     "split_large_tma_fc2": 0.896704
    },
    "8192": {
     "split_small": 2.94544,
     "split_small_k1": 2.94688,
     "split_small_k2": 3.70858,
     "split_large": 1.71645,
     "split_large_tma": 1.67798,
     "split_large_tma_fc1": 1.62426,
     "split_large_tma_fc2": 1.73469
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_mxfp4_bf16_mega",
   "recipe": "w4a16_mxfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 8,
   "top_k": 2,
   "hidden": 4096,
   "intermediate": 14336,
   "tactics": {
    "1": "split_small",
    "2": "split_small",
    "4": "split_small_k1",
    "8": "split_small_k1",
    "16": "split_small_k1",
    "32": "split_small_k1",
    "64": "split_small",
    "128": "split_large",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large_tma",
    "2048": "split_large_tma",
    "4096": "split_large_tma",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.102496,
     "mega_rounds": 0.102848,
     "mega_min8": 0.10368,
     "mega_min16": 0.100608,
     "split_small": 0.082112,
     "split_small_k1": 0.096704,
     "split_small_k2": 0.084704,
     "split_large": 0.145248,
     "split_large_tma": 0.30272,
     "split_large_tma_fc1": 0.236768,
     "split_large_tma_fc2": 0.209856
    },
    "2": {
     "mega": 0.132672,
     "mega_rounds": 0.12896,
     "mega_min8": 0.132576,
     "mega_min16": 0.13792,
     "split_small": 0.116096,
     "split_small_k1": 0.117024,
     "split_small_k2": 0.116544,
     "split_large": 0.17072,
     "split_large_tma": 0.377344,
     "split_large_tma_fc1": 0.311936,
     "split_large_tma_fc2": 0.235104
    },
    "4": {
     "mega": 0.263232,
     "mega_rounds": 0.264384,
     "mega_min8": 0.263488,
     "mega_min16": 0.263488,
     "split_small": 0.213248,
     "split_small_k1": 0.211648,
     "split_small_k2": 0.222976,
     "split_large": 0.277312,
     "split_large_tma": 0.735712,
     "split_large_tma_fc1": 0.567488,
     "split_large_tma_fc2": 0.44944
    },
    "8": {
     "mega": 0.299328,
     "mega_rounds": 0.324352,
     "mega_min8": 0.299392,
     "mega_min16": 0.299104,
     "split_small": 0.233728,
     "split_small_k1": 0.230784,
     "split_small_k2": 0.241856,
     "split_large": 0.304864,
     "split_large_tma": 0.81072,
     "split_large_tma_fc1": 0.643776,
     "split_large_tma_fc2": 0.47392
    },
    "16": {
     "mega": 0.300416,
     "mega_rounds": 0.291136,
     "mega_min8": 0.300064,
     "mega_min16": 0.3,
     "split_small": 0.234272,
     "split_small_k1": 0.230624,
     "split_small_k2": 0.244256,
     "split_large": 0.304928,
     "split_large_tma": 0.81056,
     "split_large_tma_fc1": 0.644128,
     "split_large_tma_fc2": 0.473952
    },
    "32": {
     "mega": 0.329696,
     "mega_rounds": 0.35392,
     "mega_min8": 0.329248,
     "mega_min16": 0.330368,
     "split_small": 0.245344,
     "split_small_k1": 0.2408,
     "split_small_k2": 0.255296,
     "split_large": 0.30736,
     "split_large_tma": 0.811232,
     "split_large_tma_fc1": 0.643776,
     "split_large_tma_fc2": 0.476288
    },
    "64": {
     "mega": 0.456352,
     "mega_rounds": 0.459232,
     "mega_min8": 0.45872,
     "mega_min16": 0.457632,
     "split_small": 0.302368,
     "split_small_k1": 0.302944,
     "split_small_k2": 0.321184,
     "split_large": 0.326528,
     "split_large_tma": 0.822304,
     "split_large_tma_fc1": 0.661344,
     "split_large_tma_fc2": 0.485888
    },
    "128": {
     "split_small": 0.436608,
     "split_small_k1": 0.47136,
     "split_small_k2": 0.46224,
     "split_large": 0.378144,
     "split_large_tma": 0.833152,
     "split_large_tma_fc1": 0.69536,
     "split_large_tma_fc2": 0.517856
    },
    "256": {
     "split_small": 0.89248,
     "split_small_k1": 0.88992,
     "split_small_k2": 0.920992,
     "split_large": 0.607104,
     "split_large_tma": 0.930784,
     "split_large_tma_fc1": 0.812192,
     "split_large_tma_fc2": 0.726496
    },
    "512": {
     "split_small": 1.5449,
     "split_small_k1": 1.63728,
     "split_small_k2": 1.74282,
     "split_large": 0.887456,
     "split_large_tma": 1.06218
    },
    "1024": {
     "split_small": 3.11482,
     "split_small_k1": 3.09386,
     "split_small_k2": 3.08931,
     "split_large": 1.62563,
     "split_large_tma": 1.40726,
     "split_large_tma_fc1": 1.51126,
     "split_large_tma_fc2": 1.5185
    },
    "2048": {
     "split_small": 6.3104,
     "split_small_k1": 6.36368,
     "split_small_k2": 6.39626,
     "split_large": 3.25962,
     "split_large_tma": 2.78816,
     "split_large_tma_fc1": 2.91946,
     "split_large_tma_fc2": 3.09811
    },
    "4096": {
     "split_small": 11.8009,
     "split_small_k1": 12.0255,
     "split_small_k2": 12.5298,
     "split_large": 6.09853,
     "split_large_tma": 5.84195,
     "split_large_tma_fc1": 6.13306,
     "split_large_tma_fc2": 6.03418
    },
    "8192": {
     "split_small": 23.6359,
     "split_small_k1": 23.7244,
     "split_small_k2": 24.9156,
     "split_large": 12.0358,
     "split_large_tma": 11.1394,
     "split_large_tma_fc1": 11.474,
     "split_large_tma_fc2": 11.7426
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_mxfp4_bf16_mega",
   "recipe": "w4a16_mxfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 4,
   "hidden": 2880,
   "intermediate": 2880,
   "tactics": {
    "1": "split_small_k1",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "8": "split_small_k1",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small",
    "256": "split_small",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.057184,
     "mega_rounds": 0.054848,
     "mega_min8": 0.0592,
     "mega_min16": 0.058944,
     "split_small": 0.050208,
     "split_small_k1": 0.045024,
     "split_small_k2": 0.049792,
     "split_large": 0.053024,
     "split_large_tma": 0.118336,
     "split_large_tma_fc1": 0.098752,
     "split_large_tma_fc2": 0.075136
    },
    "2": {
     "mega": 0.070496,
     "mega_rounds": 0.072064,
     "mega_min8": 0.07952,
     "mega_min16": 0.079264,
     "split_small": 0.063136,
     "split_small_k1": 0.061312,
     "split_small_k2": 0.066496,
     "split_large": 0.069792,
     "split_large_tma": 0.172768,
     "split_large_tma_fc1": 0.12832,
     "split_large_tma_fc2": 0.113344
    },
    "4": {
     "mega": 0.11296,
     "mega_rounds": 0.114112,
     "mega_min8": 0.10864,
     "mega_min16": 0.108608,
     "split_small": 0.094368,
     "split_small_k1": 0.093952,
     "split_small_k2": 0.110432,
     "split_large": 0.10736,
     "split_large_tma": 0.278432,
     "split_large_tma_fc1": 0.22368,
     "split_large_tma_fc2": 0.170176
    },
    "8": {
     "mega": 0.182848,
     "mega_rounds": 0.183456,
     "mega_min8": 0.182848,
     "mega_min16": 0.182688,
     "split_small": 0.153888,
     "split_small_k1": 0.1536,
     "split_small_k2": 0.183616,
     "split_large": 0.180384,
     "split_large_tma": 0.49024,
     "split_large_tma_fc1": 0.38576,
     "split_large_tma_fc2": 0.29728
    },
    "16": {
     "mega": 0.292704,
     "mega_rounds": 0.293504,
     "mega_min8": 0.292448,
     "mega_min16": 0.292576,
     "split_small": 0.227104,
     "split_small_k1": 0.227424,
     "split_small_k2": 0.285952,
     "split_large": 0.2704,
     "split_large_tma": 0.76688,
     "split_large_tma_fc1": 0.60128,
     "split_large_tma_fc2": 0.439712
    },
    "32": {
     "mega": 0.430368,
     "mega_rounds": 0.430912,
     "mega_min8": 0.43056,
     "mega_min16": 0.431744,
     "split_small": 0.32784,
     "split_small_k1": 0.327968,
     "split_small_k2": 0.431168,
     "split_large": 0.40048,
     "split_large_tma": 1.15226,
     "split_large_tma_fc1": 0.899072,
     "split_large_tma_fc2": 0.656704
    },
    "64": {
     "mega": 0.617536,
     "mega_rounds": 0.617664,
     "mega_min8": 0.617088,
     "mega_min16": 0.617088,
     "split_small": 0.460128,
     "split_small_k1": 0.462688,
     "split_small_k2": 0.587904,
     "split_large": 0.55792,
     "split_large_tma": 1.6167,
     "split_large_tma_fc1": 1.25168,
     "split_large_tma_fc2": 0.91936
    },
    "128": {
     "split_small": 0.518784,
     "split_small_k1": 0.519808,
     "split_small_k2": 0.662848,
     "split_large": 0.62352,
     "split_large_tma": 1.80266,
     "split_large_tma_fc1": 1.40989,
     "split_large_tma_fc2": 1.01715
    },
    "256": {
     "split_small": 0.579296,
     "split_small_k1": 0.585504,
     "split_small_k2": 0.731168,
     "split_large": 0.655456,
     "split_large_tma": 1.8625,
     "split_large_tma_fc1": 1.45085,
     "split_large_tma_fc2": 1.07046
    },
    "512": {
     "split_small": 0.745984,
     "split_small_k1": 0.758336,
     "split_small_k2": 0.853216,
     "split_large": 0.731168,
     "split_large_tma": 1.88832
    },
    "1024": {
     "split_small": 1.21981,
     "split_small_k1": 1.2256,
     "split_small_k2": 1.3273,
     "split_large": 0.9024,
     "split_large_tma": 1.91878,
     "split_large_tma_fc1": 1.53549,
     "split_large_tma_fc2": 1.22954
    },
    "2048": {
     "split_small": 2.09178,
     "split_small_k1": 2.25328,
     "split_small_k2": 2.20122,
     "split_large": 1.37923,
     "split_large_tma": 2.09363,
     "split_large_tma_fc1": 1.80109,
     "split_large_tma_fc2": 1.60554
    },
    "4096": {
     "split_small": 3.74285,
     "split_small_k1": 3.74365,
     "split_small_k2": 4.06701,
     "split_large": 2.17587,
     "split_large_tma": 2.68131,
     "split_large_tma_fc1": 2.5217,
     "split_large_tma_fc2": 2.33414
    },
    "8192": {
     "split_small": 7.1904,
     "split_small_k1": 7.19674,
     "split_small_k2": 7.92387,
     "split_large": 3.99699,
     "split_large_tma": 3.7551,
     "split_large_tma_fc1": 3.94326,
     "split_large_tma_fc2": 3.89059
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_nvfp4_bf16_mega",
   "recipe": "w4a16_nvfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 256,
   "top_k": 8,
   "hidden": 7168,
   "intermediate": 2048,
   "tactics": {
    "1": "split_small_k1",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "8": "split_small",
    "16": "split_small_k1",
    "32": "split_small_k1",
    "64": "split_small_k1",
    "128": "split_small_k1",
    "256": "split_small_k1",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.108064,
     "mega_rounds": 0.135296,
     "mega_min8": 0.106016,
     "mega_min16": 0.133568,
     "split_small": 0.089088,
     "split_small_k1": 0.08608,
     "split_small_k2": 0.09424,
     "split_large": 0.109728,
     "split_large_tma": 0.279616,
     "split_large_tma_fc1": 0.208864,
     "split_large_tma_fc2": 0.179552
    },
    "2": {
     "mega": 0.165536,
     "mega_rounds": 0.166944,
     "mega_min8": 0.166048,
     "mega_min16": 0.16656,
     "split_small": 0.141152,
     "split_small_k1": 0.141056,
     "split_small_k2": 0.151424,
     "split_large": 0.180352,
     "split_large_tma": 0.478784,
     "split_large_tma_fc1": 0.369472,
     "split_large_tma_fc2": 0.290496
    },
    "4": {
     "mega": 0.31328,
     "mega_rounds": 0.313696,
     "mega_min8": 0.313696,
     "mega_min16": 0.313568,
     "split_small": 0.25648,
     "split_small_k1": 0.256448,
     "split_small_k2": 0.28128,
     "split_large": 0.324512,
     "split_large_tma": 0.902176,
     "split_large_tma_fc1": 0.711104,
     "split_large_tma_fc2": 0.527104
    },
    "8": {
     "mega": 0.53312,
     "mega_rounds": 0.533248,
     "mega_min8": 0.534144,
     "mega_min16": 0.534048,
     "split_small": 0.42416,
     "split_small_k1": 0.426208,
     "split_small_k2": 0.477056,
     "split_large": 0.550528,
     "split_large_tma": 1.55482,
     "split_large_tma_fc1": 1.21248,
     "split_large_tma_fc2": 0.893696
    },
    "16": {
     "mega": 0.93056,
     "mega_rounds": 0.931264,
     "mega_min8": 0.9312,
     "mega_min16": 0.930912,
     "split_small": 0.778176,
     "split_small_k1": 0.763328,
     "split_small_k2": 0.83728,
     "split_large": 0.94944,
     "split_large_tma": 2.70592,
     "split_large_tma_fc1": 2.13734,
     "split_large_tma_fc2": 1.51539
    },
    "32": {
     "mega": 1.50771,
     "mega_rounds": 1.50752,
     "mega_min8": 1.50643,
     "mega_min16": 1.50637,
     "split_small": 1.23402,
     "split_small_k1": 1.22752,
     "split_small_k2": 1.37149,
     "split_large": 1.51482,
     "split_large_tma": 4.31555,
     "split_large_tma_fc1": 3.36282,
     "split_large_tma_fc2": 2.42288
    },
    "64": {
     "mega": 2.01088,
     "mega_rounds": 2.01443,
     "mega_min8": 2.00957,
     "mega_min16": 2.01462,
     "split_small": 1.64259,
     "split_small_k1": 1.63322,
     "split_small_k2": 1.80061,
     "split_large": 2.02413,
     "split_large_tma": 5.78864,
     "split_large_tma_fc1": 4.50586,
     "split_large_tma_fc2": 3.2391
    },
    "128": {
     "split_small": 1.8855,
     "split_small_k1": 1.884,
     "split_small_k2": 2.06576,
     "split_large": 2.30131,
     "split_large_tma": 6.55437,
     "split_large_tma_fc1": 5.09421,
     "split_large_tma_fc2": 3.67789
    },
    "256": {
     "split_small": 2.05914,
     "split_small_k1": 2.05702,
     "split_small_k2": 2.29466,
     "split_large": 2.39782,
     "split_large_tma": 6.74224,
     "split_large_tma_fc1": 5.31283,
     "split_large_tma_fc2": 3.78285
    },
    "512": {
     "split_small": 2.7591,
     "split_large": 2.63149,
     "split_large_tma": 6.79638
    },
    "1024": {
     "split_small": 3.96813,
     "split_small_k1": 4.12,
     "split_small_k2": 4.44768,
     "split_large": 3.34928,
     "split_large_tma": 6.88659,
     "split_large_tma_fc1": 5.57763,
     "split_large_tma_fc2": 4.3537
    },
    "2048": {
     "split_small": 7.24365,
     "split_small_k1": 7.92621,
     "split_small_k2": 8.28784,
     "split_large": 4.76198,
     "split_large_tma": 7.46211,
     "split_large_tma_fc1": 6.47043,
     "split_large_tma_fc2": 5.71939
    },
    "4096": {
     "split_small": 13.1524,
     "split_small_k1": 13.4137,
     "split_small_k2": 14.7074,
     "split_large": 7.65971,
     "split_large_tma": 9.77955,
     "split_large_tma_fc1": 9.14525,
     "split_large_tma_fc2": 8.44106
    },
    "8192": {
     "split_small": 25.4984,
     "split_small_k1": 25.9951,
     "split_small_k2": 28.2449,
     "split_large": 14.3389,
     "split_large_tma": 13.5556,
     "split_large_tma_fc1": 13.6953,
     "split_large_tma_fc2": 14.0135
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_nvfp4_bf16_mega",
   "recipe": "w4a16_nvfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 8,
   "hidden": 2048,
   "intermediate": 768,
   "tactics": {
    "1": "split_small_k1",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small_k1",
    "64": "split_small",
    "128": "split_small",
    "256": "split_small",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma_fc1",
    "8192": "split_large_tma_fc1"
   },
   "measured_ms": {
    "1": {
     "mega": 0.035296,
     "mega_rounds": 0.035968,
     "mega_min8": 0.038624,
     "mega_min16": 0.038496,
     "split_small": 0.032512,
     "split_small_k1": 0.0296,
     "split_small_k2": 0.032416,
     "split_large": 0.034016,
     "split_large_tma": 0.064704,
     "split_large_tma_fc1": 0.051744,
     "split_large_tma_fc2": 0.047168
    },
    "2": {
     "mega": 0.049184,
     "mega_rounds": 0.048352,
     "mega_min8": 0.047424,
     "mega_min16": 0.046688,
     "split_small": 0.042432,
     "split_small_k1": 0.038912,
     "split_small_k2": 0.042496,
     "split_large": 0.042176,
     "split_large_tma": 0.096288,
     "split_large_tma_fc1": 0.07552,
     "split_large_tma_fc2": 0.062272
    },
    "4": {
     "mega": 0.06432,
     "mega_rounds": 0.065312,
     "mega_min8": 0.062816,
     "mega_min16": 0.063264,
     "split_small": 0.055936,
     "split_small_k1": 0.055424,
     "split_small_k2": 0.062592,
     "split_large": 0.05872,
     "split_large_tma": 0.135648,
     "split_large_tma_fc1": 0.104192,
     "split_large_tma_fc2": 0.089216
    },
    "8": {
     "mega": 0.079424,
     "mega_rounds": 0.079712,
     "mega_min8": 0.078784,
     "mega_min16": 0.078912,
     "split_small": 0.07696,
     "split_small_k1": 0.077216,
     "split_small_k2": 0.0888,
     "split_large": 0.082848,
     "split_large_tma": 0.202592,
     "split_large_tma_fc1": 0.155712,
     "split_large_tma_fc2": 0.129856
    },
    "16": {
     "mega": 0.114496,
     "mega_rounds": 0.115168,
     "mega_min8": 0.1144,
     "mega_min16": 0.114528,
     "split_small": 0.103104,
     "split_small_k1": 0.103328,
     "split_small_k2": 0.129408,
     "split_large": 0.116096,
     "split_large_tma": 0.290368,
     "split_large_tma_fc1": 0.234272,
     "split_large_tma_fc2": 0.178304
    },
    "32": {
     "mega": 0.156256,
     "mega_rounds": 0.156544,
     "mega_min8": 0.155552,
     "mega_min16": 0.155424,
     "split_small": 0.133984,
     "split_small_k1": 0.133344,
     "split_small_k2": 0.1632,
     "split_large": 0.150336,
     "split_large_tma": 0.39328,
     "split_large_tma_fc1": 0.310336,
     "split_large_tma_fc2": 0.232512
    },
    "64": {
     "mega": 0.177408,
     "mega_rounds": 0.178016,
     "mega_min8": 0.177568,
     "mega_min16": 0.178016,
     "split_small": 0.146592,
     "split_small_k1": 0.14672,
     "split_small_k2": 0.180896,
     "split_large": 0.165664,
     "split_large_tma": 0.430048,
     "split_large_tma_fc1": 0.337216,
     "split_large_tma_fc2": 0.257472
    },
    "128": {
     "split_small": 0.155488,
     "split_small_k1": 0.155584,
     "split_small_k2": 0.193824,
     "split_large": 0.171552,
     "split_large_tma": 0.437152,
     "split_large_tma_fc1": 0.343648,
     "split_large_tma_fc2": 0.26352
    },
    "256": {
     "split_small": 0.180864,
     "split_small_k1": 0.180864,
     "split_small_k2": 0.228,
     "split_large": 0.18112,
     "split_large_tma": 0.440864,
     "split_large_tma_fc1": 0.350528,
     "split_large_tma_fc2": 0.271008
    },
    "512": {
     "split_small": 0.268672,
     "split_small_k1": 0.268832,
     "split_small_k2": 0.326912,
     "split_large": 0.222528,
     "split_large_tma": 0.464256
    },
    "1024": {
     "split_small": 0.434912,
     "split_small_k1": 0.439072,
     "split_small_k2": 0.547456,
     "split_large": 0.330848,
     "split_large_tma": 0.51216,
     "split_large_tma_fc1": 0.440192,
     "split_large_tma_fc2": 0.406336
    },
    "2048": {
     "split_small": 0.82048,
     "split_small_k1": 0.810656,
     "split_small_k2": 1.00902,
     "split_large": 0.51216,
     "split_large_tma": 0.6408,
     "split_large_tma_fc1": 0.584,
     "split_large_tma_fc2": 0.568608
    },
    "4096": {
     "split_small": 1.53674,
     "split_small_k1": 1.57658,
     "split_small_k2": 1.96976,
     "split_large": 0.902336,
     "split_large_tma": 0.914944,
     "split_large_tma_fc1": 0.897088,
     "split_large_tma_fc2": 0.927872
    },
    "8192": {
     "split_small": 3.07245,
     "split_small_k1": 3.09414,
     "split_small_k2": 3.74941,
     "split_large": 1.77987,
     "split_large_tma": 1.7441,
     "split_large_tma_fc1": 1.6935,
     "split_large_tma_fc2": 1.76294
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_nvfp4_bf16_mega",
   "recipe": "w4a16_nvfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 8,
   "top_k": 2,
   "hidden": 4096,
   "intermediate": 14336,
   "tactics": {
    "1": "split_small",
    "2": "split_small",
    "4": "split_small_k1",
    "8": "split_small_k1",
    "16": "split_small_k1",
    "32": "split_small_k1",
    "64": "split_small",
    "128": "split_large",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large_tma",
    "2048": "split_large_tma",
    "4096": "split_large_tma",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.103136,
     "mega_rounds": 0.11296,
     "mega_min8": 0.106688,
     "mega_min16": 0.108864,
     "split_small": 0.086144,
     "split_small_k1": 0.10128,
     "split_small_k2": 0.088768,
     "split_large": 0.154752,
     "split_large_tma": 0.318976,
     "split_large_tma_fc1": 0.2512,
     "split_large_tma_fc2": 0.222176
    },
    "2": {
     "mega": 0.147712,
     "mega_rounds": 0.14048,
     "mega_min8": 0.148896,
     "mega_min16": 0.152672,
     "split_small": 0.122752,
     "split_small_k1": 0.123168,
     "split_small_k2": 0.12448,
     "split_large": 0.182432,
     "split_large_tma": 0.400544,
     "split_large_tma_fc1": 0.332224,
     "split_large_tma_fc2": 0.250464
    },
    "4": {
     "mega": 0.270144,
     "mega_rounds": 0.2896,
     "mega_min8": 0.270144,
     "mega_min16": 0.27024,
     "split_small": 0.22768,
     "split_small_k1": 0.22736,
     "split_small_k2": 0.239328,
     "split_large": 0.303456,
     "split_large_tma": 0.780512,
     "split_large_tma_fc1": 0.605632,
     "split_large_tma_fc2": 0.478688
    },
    "8": {
     "mega": 0.330752,
     "mega_rounds": 0.337952,
     "mega_min8": 0.330048,
     "mega_min16": 0.33056,
     "split_small": 0.250368,
     "split_small_k1": 0.247904,
     "split_small_k2": 0.26144,
     "split_large": 0.33184,
     "split_large_tma": 0.861344,
     "split_large_tma_fc1": 0.687168,
     "split_large_tma_fc2": 0.507264
    },
    "16": {
     "mega": 0.331616,
     "mega_rounds": 0.338144,
     "mega_min8": 0.331616,
     "mega_min16": 0.330624,
     "split_small": 0.250272,
     "split_small_k1": 0.247936,
     "split_small_k2": 0.26416,
     "split_large": 0.332768,
     "split_large_tma": 0.860928,
     "split_large_tma_fc1": 0.686656,
     "split_large_tma_fc2": 0.506912
    },
    "32": {
     "mega": 0.3512,
     "mega_rounds": 0.361216,
     "mega_min8": 0.351712,
     "mega_min16": 0.352224,
     "split_small": 0.26192,
     "split_small_k1": 0.260224,
     "split_small_k2": 0.274816,
     "split_large": 0.334848,
     "split_large_tma": 0.863904,
     "split_large_tma_fc1": 0.690784,
     "split_large_tma_fc2": 0.509664
    },
    "64": {
     "mega": 0.490496,
     "mega_rounds": 0.49168,
     "mega_min8": 0.49136,
     "mega_min16": 0.49152,
     "split_small": 0.319424,
     "split_small_k1": 0.328896,
     "split_small_k2": 0.34112,
     "split_large": 0.353888,
     "split_large_tma": 0.876576,
     "split_large_tma_fc1": 0.70928,
     "split_large_tma_fc2": 0.522528
    },
    "128": {
     "split_small": 0.457664,
     "split_small_k1": 0.500928,
     "split_small_k2": 0.490752,
     "split_large": 0.416,
     "split_large_tma": 0.884128,
     "split_large_tma_fc1": 0.748032,
     "split_large_tma_fc2": 0.554336
    },
    "256": {
     "split_small": 0.960416,
     "split_small_k1": 0.944192,
     "split_small_k2": 0.9728,
     "split_large": 0.609056,
     "split_large_tma": 0.975808,
     "split_large_tma_fc1": 0.859008,
     "split_large_tma_fc2": 0.730368
    },
    "512": {
     "split_small": 1.69453,
     "split_small_k1": 1.708,
     "split_small_k2": 1.69264,
     "split_large": 0.915968,
     "split_large_tma": 1.11168
    },
    "1024": {
     "split_small": 3.30282,
     "split_small_k1": 3.23005,
     "split_small_k2": 3.24534,
     "split_large": 1.68522,
     "split_large_tma": 1.49088,
     "split_large_tma_fc1": 1.60483,
     "split_large_tma_fc2": 1.59389
    },
    "2048": {
     "split_small": 6.78202,
     "split_small_k1": 6.78906,
     "split_small_k2": 6.62826,
     "split_large": 3.32,
     "split_large_tma": 2.94483,
     "split_large_tma_fc1": 3.05843,
     "split_large_tma_fc2": 3.21238
    },
    "4096": {
     "split_small": 12.4247,
     "split_small_k1": 12.7103,
     "split_small_k2": 13.1779,
     "split_large": 6.29962,
     "split_large_tma": 6.12464,
     "split_large_tma_fc1": 6.26534,
     "split_large_tma_fc2": 6.25133
    },
    "8192": {
     "split_small": 24.9079,
     "split_small_k1": 25.1913,
     "split_small_k2": 26.0048,
     "split_large": 12.6801,
     "split_large_tma": 11.3142,
     "split_large_tma_fc1": 11.8043,
     "split_large_tma_fc2": 12.2204
    }
   }
  },
  {
   "gpu": "NVIDIA H200",
   "sm_count": 132,
   "driver": 0,
   "library": "*",
   "backend": "sm90_bf16_nvfp4_bf16_mega",
   "recipe": "w4a16_nvfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 4,
   "hidden": 2880,
   "intermediate": 2880,
   "tactics": {
    "1": "split_small_k1",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small_k1",
    "256": "split_small_k1",
    "512": "split_small",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.056448,
     "mega_rounds": 0.064768,
     "mega_min8": 0.062912,
     "mega_min16": 0.062624,
     "split_small": 0.05104,
     "split_small_k1": 0.046528,
     "split_small_k2": 0.050784,
     "split_large": 0.057472,
     "split_large_tma": 0.124032,
     "split_large_tma_fc1": 0.102336,
     "split_large_tma_fc2": 0.079776
    },
    "2": {
     "mega": 0.071744,
     "mega_rounds": 0.073632,
     "mega_min8": 0.085824,
     "mega_min16": 0.086144,
     "split_small": 0.064832,
     "split_small_k1": 0.063936,
     "split_small_k2": 0.068032,
     "split_large": 0.075488,
     "split_large_tma": 0.181696,
     "split_large_tma_fc1": 0.138272,
     "split_large_tma_fc2": 0.119104
    },
    "4": {
     "mega": 0.120128,
     "mega_rounds": 0.120448,
     "mega_min8": 0.116864,
     "mega_min16": 0.116928,
     "split_small": 0.098912,
     "split_small_k1": 0.098848,
     "split_small_k2": 0.113056,
     "split_large": 0.116032,
     "split_large_tma": 0.295104,
     "split_large_tma_fc1": 0.236896,
     "split_large_tma_fc2": 0.180352
    },
    "8": {
     "mega": 0.193632,
     "mega_rounds": 0.194112,
     "mega_min8": 0.193824,
     "mega_min16": 0.194016,
     "split_small": 0.163392,
     "split_small_k1": 0.163776,
     "split_small_k2": 0.189248,
     "split_large": 0.195456,
     "split_large_tma": 0.522016,
     "split_large_tma_fc1": 0.409568,
     "split_large_tma_fc2": 0.317504
    },
    "16": {
     "mega": 0.319008,
     "mega_rounds": 0.320256,
     "mega_min8": 0.319776,
     "mega_min16": 0.319456,
     "split_small": 0.242848,
     "split_small_k1": 0.24304,
     "split_small_k2": 0.295008,
     "split_large": 0.296064,
     "split_large_tma": 0.81232,
     "split_large_tma_fc1": 0.638144,
     "split_large_tma_fc2": 0.471296
    },
    "32": {
     "mega": 0.455296,
     "mega_rounds": 0.456128,
     "mega_min8": 0.455456,
     "mega_min16": 0.455584,
     "split_small": 0.349728,
     "split_small_k1": 0.351456,
     "split_small_k2": 0.44368,
     "split_large": 0.439104,
     "split_large_tma": 1.22112,
     "split_large_tma_fc1": 0.945344,
     "split_large_tma_fc2": 0.706336
    },
    "64": {
     "mega": 0.650272,
     "mega_rounds": 0.65072,
     "mega_min8": 0.650112,
     "mega_min16": 0.651232,
     "split_small": 0.498336,
     "split_small_k1": 0.498688,
     "split_small_k2": 0.606944,
     "split_large": 0.612992,
     "split_large_tma": 1.71072,
     "split_large_tma_fc1": 1.3289,
     "split_large_tma_fc2": 0.990496
    },
    "128": {
     "split_small": 0.558304,
     "split_small_k1": 0.555552,
     "split_small_k2": 0.678784,
     "split_large": 0.68592,
     "split_large_tma": 1.91235,
     "split_large_tma_fc1": 1.49581,
     "split_large_tma_fc2": 1.09974
    },
    "256": {
     "split_small": 0.624512,
     "split_small_k1": 0.621952,
     "split_small_k2": 0.760672,
     "split_large": 0.723008,
     "split_large_tma": 1.97619,
     "split_large_tma_fc1": 1.54192,
     "split_large_tma_fc2": 1.1559
    },
    "512": {
     "split_small": 0.734592,
     "split_small_k1": 0.810048,
     "split_small_k2": 0.91248,
     "split_large": 0.807136,
     "split_large_tma": 2.00202
    },
    "1024": {
     "split_small": 1.2832,
     "split_small_k1": 1.29517,
     "split_small_k2": 1.39648,
     "split_large": 0.97744,
     "split_large_tma": 2.02547,
     "split_large_tma_fc1": 1.61949,
     "split_large_tma_fc2": 1.30662
    },
    "2048": {
     "split_small": 2.36803,
     "split_small_k1": 2.24442,
     "split_small_k2": 2.36893,
     "split_large": 1.42413,
     "split_large_tma": 2.20547,
     "split_large_tma_fc1": 1.89254,
     "split_large_tma_fc2": 1.69213
    },
    "4096": {
     "split_small": 3.97968,
     "split_small_k1": 3.90637,
     "split_small_k2": 4.25155,
     "split_large": 2.2479,
     "split_large_tma": 2.78966,
     "split_large_tma_fc1": 2.60093,
     "split_large_tma_fc2": 2.41146
    },
    "8192": {
     "split_small": 8.22982,
     "split_small_k1": 8.25331,
     "split_small_k2": 8.11366,
     "split_large": 4.19827,
     "split_large_tma": 3.7351,
     "split_large_tma_fc1": 3.84026,
     "split_large_tma_fc2": 4.08365
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_bf16_bf16_mega",
   "recipe": "bf16",
   "activation": "swiglu",
   "bias": false,
   "experts": 256,
   "top_k": 8,
   "hidden": 7168,
   "intermediate": 2048,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_tma_small",
    "2": "mega_rounds",
    "8": "mega",
    "16": "mega_min8",
    "32": "mega_min16",
    "64": "mega",
    "128": "split_tma_small",
    "256": "split_tma_small",
    "512": "split_tma_small",
    "2048": "split_large_tma",
    "8192": "split_large_tma",
    "16384": "split_large_tma_fc1",
    "32768": "split_large_tma_fc1"
   },
   "measured_ms": {
    "1": {
     "mega": 0.259392,
     "mega_rounds": 0.288448,
     "mega_min8": 0.258528,
     "mega_min16": 0.258336,
     "split_swap_ab": 0.26704,
     "split_large_tile": 0.277184,
     "split_tma_small": 0.250368,
     "split_large_tma": 0.378656,
     "split_large_tma_fc1": 0.326848,
     "split_large_tma_fc2": 0.335584
    },
    "2": {
     "mega": 0.460128,
     "mega_rounds": 0.457408,
     "mega_min8": 0.459808,
     "mega_min16": 0.459872,
     "split_swap_ab": 0.488512,
     "split_large_tile": 0.51824,
     "split_tma_small": 0.46384,
     "split_large_tma": 0.574944,
     "split_large_tma_fc1": 0.554656,
     "split_large_tma_fc2": 0.54208
    },
    "8": {
     "mega": 1.63501,
     "mega_rounds": 1.63597,
     "mega_min8": 1.63542,
     "mega_min16": 1.63526,
     "split_swap_ab": 1.72474,
     "split_large_tile": 1.77837,
     "split_tma_small": 1.6479,
     "split_large_tma": 1.72774,
     "split_large_tma_fc1": 1.75936,
     "split_large_tma_fc2": 1.74774
    },
    "16": {
     "mega": 2.79453,
     "mega_rounds": 2.79482,
     "mega_min8": 2.7945,
     "mega_min16": 2.79462,
     "split_swap_ab": 2.88429,
     "split_large_tile": 2.9431,
     "split_tma_small": 2.80739,
     "split_large_tma": 2.89261,
     "split_large_tma_fc1": 2.92749,
     "split_large_tma_fc2": 2.9087
    },
    "32": {
     "mega": 4.67965,
     "mega_rounds": 4.68019,
     "mega_min8": 4.67981,
     "mega_min16": 4.67933,
     "split_swap_ab": 4.92275,
     "split_large_tile": 5.02042,
     "split_tma_small": 4.71754,
     "split_large_tma": 4.83843,
     "split_large_tma_fc1": 4.94982,
     "split_large_tma_fc2": 4.91117
    },
    "64": {
     "mega": 6.24403,
     "mega_rounds": 6.24509,
     "mega_min8": 6.24406,
     "mega_min16": 6.24432,
     "split_swap_ab": 6.58016,
     "split_large_tile": 6.7073,
     "split_tma_small": 6.28547,
     "split_large_tma": 6.41616,
     "split_large_tma_fc1": 6.57114,
     "split_large_tma_fc2": 6.55005
    },
    "128": {
     "split_swap_ab": 7.56362,
     "split_large_tile": 7.68208,
     "split_tma_small": 7.20307,
     "split_large_tma": 7.32563,
     "split_large_tma_fc1": 7.51251,
     "split_large_tma_fc2": 7.49386
    },
    "256": {
     "split_swap_ab": 7.83859,
     "split_large_tile": 7.9055,
     "split_tma_small": 7.42112,
     "split_large_tma": 7.53891,
     "split_large_tma_fc1": 7.72749,
     "split_large_tma_fc2": 7.71347
    },
    "512": {
     "split_swap_ab": 8.07197,
     "split_large_tile": 8.04736,
     "split_tma_small": 7.54086,
     "split_large_tma": 7.62531,
     "split_large_tma_fc1": 7.8288,
     "split_large_tma_fc2": 7.84333
    },
    "2048": {
     "split_swap_ab": 10.6561,
     "split_large_tile": 8.68992,
     "split_tma_small": 11.6132,
     "split_large_tma": 8.09494,
     "split_large_tma_fc1": 8.33613,
     "split_large_tma_fc2": 8.44186
    },
    "8192": {
     "split_swap_ab": 28.3037,
     "split_large_tile": 13.3625,
     "split_tma_small": 37.243,
     "split_large_tma": 12.0573,
     "split_large_tma_fc1": 12.0579,
     "split_large_tma_fc2": 13.0557
    },
    "16384": {
     "split_swap_ab": 69.3444,
     "split_large_tile": 24.5822,
     "split_tma_small": 72.9656,
     "split_large_tma": 23.1316,
     "split_large_tma_fc1": 23.0061,
     "split_large_tma_fc2": 24.497
    },
    "32768": {
     "split_swap_ab": 142.239,
     "split_large_tile": 45.4548,
     "split_tma_small": 148.068,
     "split_large_tma": 45.3087,
     "split_large_tma_fc1": 43.7989,
     "split_large_tma_fc2": 46.954
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_bf16_bf16_mega",
   "recipe": "bf16",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 4,
   "hidden": 2880,
   "intermediate": 2880,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_tma_small",
    "2": "split_tma_small",
    "4": "split_tma_small",
    "16": "mega_min16",
    "128": "split_tma_small",
    "256": "split_tma_small",
    "512": "split_tma_small",
    "1024": "split_tma_small",
    "2048": "split_large_tma",
    "8192": "split_large_tma_fc1",
    "16384": "split_large_tma",
    "32768": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.100032,
     "mega_rounds": 0.099616,
     "mega_min8": 0.099328,
     "mega_min16": 0.119328,
     "split_swap_ab": 0.105984,
     "split_large_tile": 0.121792,
     "split_tma_small": 0.0936,
     "split_large_tma": 0.173984,
     "split_large_tma_fc1": 0.153408,
     "split_large_tma_fc2": 0.14192
    },
    "2": {
     "mega": 0.150368,
     "mega_rounds": 0.157248,
     "mega_min8": 0.150112,
     "mega_min16": 0.153184,
     "split_swap_ab": 0.162592,
     "split_large_tile": 0.175488,
     "split_tma_small": 0.146688,
     "split_large_tma": 0.221696,
     "split_large_tma_fc1": 0.189152,
     "split_large_tma_fc2": 0.205536
    },
    "4": {
     "mega": 0.295392,
     "mega_rounds": 0.295808,
     "mega_min8": 0.295296,
     "mega_min16": 0.294816,
     "split_swap_ab": 0.305952,
     "split_large_tile": 0.329152,
     "split_tma_small": 0.290176,
     "split_large_tma": 0.353024,
     "split_large_tma_fc1": 0.34688,
     "split_large_tma_fc2": 0.336672
    },
    "16": {
     "mega": 0.832384,
     "mega_rounds": 0.832736,
     "mega_min8": 0.832416,
     "mega_min16": 0.83216,
     "split_swap_ab": 0.856256,
     "split_large_tile": 0.875936,
     "split_tma_small": 0.83728,
     "split_large_tma": 0.892416,
     "split_large_tma_fc1": 0.8912,
     "split_large_tma_fc2": 0.881248
    },
    "128": {
     "split_swap_ab": 2.13254,
     "split_large_tile": 2.18637,
     "split_tma_small": 2.05382,
     "split_large_tma": 2.1521,
     "split_large_tma_fc1": 2.18288,
     "split_large_tma_fc2": 2.15744
    },
    "256": {
     "split_swap_ab": 2.2193,
     "split_large_tile": 2.27315,
     "split_tma_small": 2.13974,
     "split_large_tma": 2.23459,
     "split_large_tma_fc1": 2.25846,
     "split_large_tma_fc2": 2.2503
    },
    "512": {
     "split_swap_ab": 2.2888,
     "split_large_tile": 2.31197,
     "split_tma_small": 2.17434,
     "split_large_tma": 2.25965,
     "split_large_tma_fc1": 2.28691,
     "split_large_tma_fc2": 2.28374
    },
    "1024": {
     "split_swap_ab": 2.35885,
     "split_large_tile": 2.37203,
     "split_tma_small": 2.26022,
     "split_large_tma": 2.3047,
     "split_large_tma_fc1": 2.33635,
     "split_large_tma_fc2": 2.33888
    },
    "2048": {
     "split_swap_ab": 2.91082,
     "split_large_tile": 2.76829,
     "split_tma_small": 3.33741,
     "split_large_tma": 2.37885,
     "split_large_tma_fc1": 2.44842,
     "split_large_tma_fc2": 2.71878
    },
    "8192": {
     "split_swap_ab": 7.24422,
     "split_large_tile": 3.95994,
     "split_tma_small": 10.5526,
     "split_large_tma": 3.53514,
     "split_large_tma_fc1": 3.51389,
     "split_large_tma_fc2": 3.90538
    },
    "16384": {
     "split_swap_ab": 14.3509,
     "split_large_tile": 7.50147,
     "split_tma_small": 20.2461,
     "split_large_tma": 6.43946,
     "split_large_tma_fc1": 6.73946,
     "split_large_tma_fc2": 7.12646
    },
    "32768": {
     "split_swap_ab": 31.2589,
     "split_large_tile": 14.0867,
     "split_tma_small": 40.9269,
     "split_large_tma": 12.6889,
     "split_large_tma_fc1": 12.7949,
     "split_large_tma_fc2": 14.1949
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_bf16_bf16_mega",
   "recipe": "bf16",
   "activation": "swiglu",
   "bias": false,
   "experts": 8,
   "top_k": 2,
   "hidden": 4096,
   "intermediate": 14336,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "mega_rounds",
    "4": "split_tma_small",
    "8": "split_tma_small",
    "16": "split_tma_small",
    "32": "split_tma_small",
    "64": "split_tma_small",
    "128": "split_tma_small",
    "256": "split_large_tma",
    "512": "split_large_tma_fc2",
    "1024": "split_large_tma",
    "2048": "split_large_tma_fc1",
    "4096": "split_large_tma_fc1",
    "16384": "split_large_tma_fc1",
    "32768": "split_large_tma_fc1"
   },
   "measured_ms": {
    "1": {
     "mega": 0.263776,
     "mega_rounds": 0.258208,
     "mega_min8": 0.26432,
     "mega_min16": 0.263936,
     "split_swap_ab": 0.281568,
     "split_large_tile": 0.361344,
     "split_tma_small": 0.264448,
     "split_large_tma": 0.278176,
     "split_large_tma_fc1": 0.356096,
     "split_large_tma_fc2": 0.283168
    },
    "4": {
     "mega": 0.833216,
     "mega_rounds": 0.83952,
     "mega_min8": 0.833056,
     "mega_min16": 0.833152,
     "split_swap_ab": 0.883584,
     "split_large_tile": 0.907616,
     "split_tma_small": 0.825056,
     "split_large_tma": 0.850048,
     "split_large_tma_fc1": 0.87616,
     "split_large_tma_fc2": 0.87952
    },
    "8": {
     "mega": 0.95184,
     "mega_rounds": 0.982464,
     "mega_min8": 0.951456,
     "mega_min16": 0.95136,
     "split_swap_ab": 0.993024,
     "split_large_tile": 1.02195,
     "split_tma_small": 0.941184,
     "split_large_tma": 0.961984,
     "split_large_tma_fc1": 0.984992,
     "split_large_tma_fc2": 0.999488
    },
    "16": {
     "mega": 0.929824,
     "mega_rounds": 0.976832,
     "mega_min8": 0.928352,
     "mega_min16": 0.928672,
     "split_swap_ab": 0.942528,
     "split_large_tile": 0.970688,
     "split_tma_small": 0.912672,
     "split_large_tma": 0.93648,
     "split_large_tma_fc1": 0.951104,
     "split_large_tma_fc2": 0.956128
    },
    "32": {
     "mega": 0.96336,
     "mega_rounds": 0.957952,
     "mega_min8": 0.962912,
     "mega_min16": 0.963584,
     "split_swap_ab": 0.993408,
     "split_large_tile": 1.02362,
     "split_tma_small": 0.946688,
     "split_large_tma": 0.966688,
     "split_large_tma_fc1": 0.989856,
     "split_large_tma_fc2": 1.00048
    },
    "64": {
     "mega": 1.2689,
     "mega_rounds": 1.27056,
     "mega_min8": 1.2696,
     "mega_min16": 1.27011,
     "split_swap_ab": 1.01114,
     "split_large_tile": 1.03142,
     "split_tma_small": 0.952416,
     "split_large_tma": 0.971168,
     "split_large_tma_fc1": 0.99264,
     "split_large_tma_fc2": 1.00858
    },
    "128": {
     "split_swap_ab": 1.02202,
     "split_large_tile": 1.0376,
     "split_tma_small": 0.977792,
     "split_large_tma": 0.98176,
     "split_large_tma_fc1": 1.00381,
     "split_large_tma_fc2": 1.01549
    },
    "256": {
     "split_swap_ab": 1.3825,
     "split_large_tile": 1.05427,
     "split_tma_small": 1.59664,
     "split_large_tma": 1.00426,
     "split_large_tma_fc1": 1.02387,
     "split_large_tma_fc2": 1.03331
    },
    "512": {
     "split_swap_ab": 1.5792,
     "split_large_tile": 1.13251,
     "split_tma_small": 2.33584,
     "split_large_tma": 1.09251,
     "split_large_tma_fc1": 1.14163,
     "split_large_tma_fc2": 1.07942
    },
    "1024": {
     "split_swap_ab": 2.31325,
     "split_large_tile": 1.5593,
     "split_tma_small": 4.35347,
     "split_large_tma": 1.4233,
     "split_large_tma_fc1": 1.4975,
     "split_large_tma_fc2": 1.55622
    },
    "2048": {
     "split_swap_ab": 4.59546,
     "split_large_tile": 2.7601,
     "split_tma_small": 8.67552,
     "split_large_tma": 2.7463,
     "split_large_tma_fc1": 2.67261,
     "split_large_tma_fc2": 2.94282
    },
    "4096": {
     "split_swap_ab": 8.9081,
     "split_large_tile": 5.564,
     "split_tma_small": 16.9682,
     "split_large_tma": 5.45085,
     "split_large_tma_fc1": 5.02013,
     "split_large_tma_fc2": 5.81258
    },
    "16384": {
     "split_swap_ab": 45.5525,
     "split_large_tile": 21.7004,
     "split_tma_small": 70.87,
     "split_large_tma": 20.9097,
     "split_large_tma_fc1": 19.092,
     "split_large_tma_fc2": 23.4701
    },
    "32768": {
     "split_swap_ab": 94.2762,
     "split_large_tile": 46.3844,
     "split_tma_small": 148.571,
     "split_large_tma": 41.2908,
     "split_large_tma_fc1": 38.2301,
     "split_large_tma_fc2": 49.3244
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_bf16_bf16_mega",
   "recipe": "bf16",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 8,
   "hidden": 2048,
   "intermediate": 768,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_tma_small",
    "2": "split_tma_small",
    "4": "split_tma_small",
    "16": "split_tma_small",
    "32": "split_tma_small",
    "64": "split_tma_small",
    "128": "split_tma_small",
    "256": "split_tma_small",
    "512": "split_tma_small",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile",
    "16384": "split_large_tma_fc1",
    "32768": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.058464,
     "mega_rounds": 0.059488,
     "mega_min8": 0.055872,
     "mega_min16": 0.061216,
     "split_swap_ab": 0.059904,
     "split_large_tile": 0.072576,
     "split_tma_small": 0.051904,
     "split_large_tma": 0.128896,
     "split_large_tma_fc1": 0.094688,
     "split_large_tma_fc2": 0.105568
    },
    "2": {
     "mega": 0.078336,
     "mega_rounds": 0.078432,
     "mega_min8": 0.076576,
     "mega_min16": 0.0864,
     "split_swap_ab": 0.083232,
     "split_large_tile": 0.090624,
     "split_tma_small": 0.071744,
     "split_large_tma": 0.146656,
     "split_large_tma_fc1": 0.113504,
     "split_large_tma_fc2": 0.122304
    },
    "4": {
     "mega": 0.130368,
     "mega_rounds": 0.128896,
     "mega_min8": 0.12768,
     "mega_min16": 0.127712,
     "split_swap_ab": 0.135936,
     "split_large_tile": 0.144864,
     "split_tma_small": 0.125728,
     "split_large_tma": 0.186752,
     "split_large_tma_fc1": 0.160096,
     "split_large_tma_fc2": 0.17264
    },
    "16": {
     "mega": 0.28112,
     "mega_rounds": 0.282016,
     "mega_min8": 0.280992,
     "mega_min16": 0.28096,
     "split_swap_ab": 0.30112,
     "split_large_tile": 0.307584,
     "split_tma_small": 0.280768,
     "split_large_tma": 0.329152,
     "split_large_tma_fc1": 0.314912,
     "split_large_tma_fc2": 0.324416
    },
    "32": {
     "mega": 0.381088,
     "mega_rounds": 0.38096,
     "mega_min8": 0.38128,
     "mega_min16": 0.38048,
     "split_swap_ab": 0.399712,
     "split_large_tile": 0.417216,
     "split_tma_small": 0.379968,
     "split_large_tma": 0.42352,
     "split_large_tma_fc1": 0.413408,
     "split_large_tma_fc2": 0.428064
    },
    "64": {
     "mega": 0.42464,
     "mega_rounds": 0.425312,
     "mega_min8": 0.424128,
     "mega_min16": 0.423904,
     "split_swap_ab": 0.44368,
     "split_large_tile": 0.452288,
     "split_tma_small": 0.42144,
     "split_large_tma": 0.46096,
     "split_large_tma_fc1": 0.453728,
     "split_large_tma_fc2": 0.460608
    },
    "128": {
     "split_swap_ab": 0.458048,
     "split_large_tile": 0.466336,
     "split_tma_small": 0.433248,
     "split_large_tma": 0.474048,
     "split_large_tma_fc1": 0.466048,
     "split_large_tma_fc2": 0.47536
    },
    "256": {
     "split_swap_ab": 0.473472,
     "split_large_tile": 0.476416,
     "split_tma_small": 0.44544,
     "split_large_tma": 0.483584,
     "split_large_tma_fc1": 0.475168,
     "split_large_tma_fc2": 0.486016
    },
    "512": {
     "split_swap_ab": 0.492224,
     "split_large_tile": 0.491872,
     "split_tma_small": 0.478528,
     "split_large_tma": 0.506432,
     "split_large_tma_fc1": 0.49376,
     "split_large_tma_fc2": 0.504032
    },
    "2048": {
     "split_swap_ab": 0.672416,
     "split_large_tile": 0.587968,
     "split_tma_small": 1.20214,
     "split_large_tma": 0.625792,
     "split_large_tma_fc1": 0.603232,
     "split_large_tma_fc2": 0.610464
    },
    "4096": {
     "split_swap_ab": 1.21405,
     "split_large_tile": 0.810016,
     "split_tma_small": 2.23414,
     "split_large_tma": 0.835904,
     "split_large_tma_fc1": 0.823872,
     "split_large_tma_fc2": 0.827232
    },
    "8192": {
     "split_swap_ab": 2.34086,
     "split_large_tile": 1.47549,
     "split_tma_small": 4.25949,
     "split_large_tma": 1.49734,
     "split_large_tma_fc1": 1.58458,
     "split_large_tma_fc2": 1.59261
    },
    "16384": {
     "split_swap_ab": 4.56944,
     "split_large_tile": 3.00851,
     "split_tma_small": 8.45434,
     "split_large_tma": 2.9375,
     "split_large_tma_fc1": 2.90518,
     "split_large_tma_fc2": 3.11427
    },
    "32768": {
     "split_swap_ab": 8.9727,
     "split_large_tile": 6.22938,
     "split_tma_small": 17.1942,
     "split_large_tma": 5.48557,
     "split_large_tma_fc1": 5.7159,
     "split_large_tma_fc2": 6.15482
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_fp8_fp8_bf16_mega",
   "recipe": "fp8_block",
   "activation": "swiglu",
   "bias": false,
   "experts": 256,
   "top_k": 8,
   "hidden": 7168,
   "intermediate": 2048,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "mega_rounds",
    "2": "mega_rounds",
    "4": "mega_min16",
    "8": "split_tma_small",
    "16": "split_tma_small",
    "32": "split_tma_small_act",
    "64": "split_tma_small_act",
    "128": "split_tma_act",
    "256": "split_tma_act",
    "512": "split_tma_act",
    "1024": "split_tma_act",
    "2048": "split_tma_act",
    "4096": "split_tma_act",
    "8192": "split_tma_act",
    "16384": "split_tma_act",
    "32768": "split_tma_act"
   },
   "measured_ms": {
    "1": {
     "mega": 0.16256,
     "mega_rounds": 0.149856,
     "mega_min8": 0.1616,
     "mega_min16": 0.159136,
     "split_swap_ab": 0.158592,
     "split_large_tile": 0.179424,
     "split_tma": 0.21008,
     "split_tma_act": 0.209504,
     "split_tma_act_large_fc2": 0.19456,
     "split_tma_small": 0.17248,
     "split_tma_small_act": 0.176832
    },
    "2": {
     "mega": 0.257504,
     "mega_rounds": 0.248576,
     "mega_min8": 0.25632,
     "mega_min16": 0.255904,
     "split_swap_ab": 0.261792,
     "split_large_tile": 0.302784,
     "split_tma": 0.295808,
     "split_tma_act": 0.296576,
     "split_tma_act_large_fc2": 0.29536,
     "split_tma_small": 0.2664,
     "split_tma_small_act": 0.2672
    },
    "4": {
     "mega": 0.502176,
     "mega_rounds": 0.50352,
     "mega_min8": 0.501952,
     "mega_min16": 0.50192,
     "split_swap_ab": 0.519712,
     "split_large_tile": 0.579904,
     "split_tma": 0.517472,
     "split_tma_act": 0.515328,
     "split_tma_act_large_fc2": 0.549024,
     "split_tma_small": 0.50608,
     "split_tma_small_act": 0.510368
    },
    "8": {
     "mega": 0.872256,
     "mega_rounds": 0.874688,
     "mega_min8": 0.871648,
     "mega_min16": 0.872448,
     "split_swap_ab": 0.890848,
     "split_large_tile": 0.976512,
     "split_tma": 0.87408,
     "split_tma_act": 0.870144,
     "split_tma_act_large_fc2": 0.914048,
     "split_tma_small": 0.86144,
     "split_tma_small_act": 0.862784
    },
    "16": {
     "mega": 1.5239,
     "mega_rounds": 1.52522,
     "mega_min8": 1.52486,
     "mega_min16": 1.52483,
     "split_swap_ab": 1.55392,
     "split_large_tile": 1.67286,
     "split_tma": 1.51939,
     "split_tma_act": 1.52669,
     "split_tma_act_large_fc2": 1.59018,
     "split_tma_small": 1.49638,
     "split_tma_small_act": 1.51331
    },
    "32": {
     "mega": 2.48186,
     "mega_rounds": 2.48362,
     "mega_min8": 2.48355,
     "mega_min16": 2.48307,
     "split_swap_ab": 2.52358,
     "split_large_tile": 2.66979,
     "split_tma": 2.46704,
     "split_tma_act": 2.46323,
     "split_tma_act_large_fc2": 2.51754,
     "split_tma_small": 2.42381,
     "split_tma_small_act": 2.40906
    },
    "64": {
     "mega": 3.31459,
     "mega_rounds": 3.31798,
     "mega_min8": 3.31648,
     "mega_min16": 3.31901,
     "split_swap_ab": 3.37875,
     "split_large_tile": 3.50842,
     "split_tma": 3.30442,
     "split_tma_act": 3.27437,
     "split_tma_act_large_fc2": 3.36038,
     "split_tma_small": 3.23981,
     "split_tma_small_act": 3.22768
    },
    "128": {
     "split_swap_ab": 3.89798,
     "split_large_tile": 4.01914,
     "split_tma": 3.64195,
     "split_tma_act": 3.612,
     "split_tma_act_large_fc2": 3.72797,
     "split_tma_small": 3.71021,
     "split_tma_small_act": 3.69043
    },
    "256": {
     "split_swap_ab": 4.06589,
     "split_large_tile": 4.17514,
     "split_tma": 3.77603,
     "split_tma_act": 3.71958,
     "split_tma_act_large_fc2": 3.84662,
     "split_tma_small": 3.84131,
     "split_tma_small_act": 3.79702
    },
    "512": {
     "split_swap_ab": 4.21107,
     "split_large_tile": 4.25456,
     "split_tma": 3.87283,
     "split_tma_act": 3.78195,
     "split_tma_act_large_fc2": 3.9111,
     "split_tma_small": 3.93923,
     "split_tma_small_act": 3.87574
    },
    "1024": {
     "split_swap_ab": 4.45459,
     "split_large_tile": 4.37395,
     "split_tma": 4.01453,
     "split_tma_act": 3.87446,
     "split_tma_act_large_fc2": 3.9904,
     "split_tma_small": 4.10643,
     "split_tma_small_act": 4.00778
    },
    "2048": {
     "split_swap_ab": 4.58205,
     "split_large_tile": 4.40499,
     "split_tma": 4.17421,
     "split_tma_act": 3.95466,
     "split_tma_act_large_fc2": 4.03664,
     "split_tma_small": 4.35702,
     "split_tma_small_act": 4.24531
    },
    "4096": {
     "split_swap_ab": 6.19939,
     "split_large_tile": 5.58778,
     "split_tma": 5.38131,
     "split_tma_act": 4.6607,
     "split_tma_act_large_fc2": 4.96554,
     "split_tma_small": 5.98682,
     "split_tma_small_act": 5.39491
    },
    "8192": {
     "split_swap_ab": 10.8883,
     "split_large_tile": 9.46198,
     "split_tma": 8.00006,
     "split_tma_act": 7.6287,
     "split_tma_act_large_fc2": 7.78512,
     "split_tma_small": 10.5041,
     "split_tma_small_act": 10.1889
    },
    "16384": {
     "split_swap_ab": 20.8174,
     "split_large_tile": 15.9115,
     "split_tma": 13.8292,
     "split_tma_act": 13.2303,
     "split_tma_act_large_fc2": 14.3712,
     "split_tma_small": 23.889,
     "split_tma_small_act": 25.069
    },
    "32768": {
     "split_swap_ab": 40.7109,
     "split_large_tile": 30.3282,
     "split_tma": 26.4596,
     "split_tma_act": 25.5257,
     "split_tma_act_large_fc2": 26.7225,
     "split_tma_small": 55.4992,
     "split_tma_small_act": 56.501
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_fp8_fp8_bf16_mega",
   "recipe": "fp8_block",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 4,
   "hidden": 2880,
   "intermediate": 2880,
   "driver": 0,
   "library": "*",
   "tactics": {
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "64": "split_swap_ab",
    "128": "split_tma_act",
    "256": "split_tma_act",
    "512": "split_tma_act",
    "1024": "split_tma_act",
    "2048": "split_tma_act",
    "4096": "split_tma_act_large_fc2",
    "8192": "split_tma_act_large_fc2",
    "16384": "split_tma_act_large_fc2",
    "32768": "split_tma_act_large_fc2"
   },
   "measured_ms": {
    "4": {
     "mega": 0.185664,
     "mega_rounds": 0.186592,
     "mega_min8": 0.18592,
     "mega_min16": 0.189344,
     "split_swap_ab": 0.178624,
     "split_large_tile": 0.214048,
     "split_tma": 0.184672,
     "split_tma_act": 0.189824,
     "split_tma_act_large_fc2": 0.195328,
     "split_tma_small": 0.1816,
     "split_tma_small_act": 0.196416
    },
    "8": {
     "mega": 0.328288,
     "mega_rounds": 0.328096,
     "mega_min8": 0.326784,
     "mega_min16": 0.326656,
     "split_swap_ab": 0.308128,
     "split_large_tile": 0.354784,
     "split_tma": 0.327712,
     "split_tma_act": 0.344608,
     "split_tma_act_large_fc2": 0.3568,
     "split_tma_small": 0.30816,
     "split_tma_small_act": 0.314784
    },
    "16": {
     "mega": 0.514848,
     "mega_rounds": 0.513536,
     "mega_min8": 0.512288,
     "mega_min16": 0.512352,
     "split_swap_ab": 0.480032,
     "split_large_tile": 0.53296,
     "split_tma": 0.492032,
     "split_tma_act": 0.501088,
     "split_tma_act_large_fc2": 0.518592,
     "split_tma_small": 0.481568,
     "split_tma_small_act": 0.492128
    },
    "64": {
     "mega": 1.0783,
     "mega_rounds": 1.07104,
     "mega_min8": 1.07411,
     "mega_min16": 1.0721,
     "split_swap_ab": 1.01085,
     "split_large_tile": 1.09651,
     "split_tma": 1.01302,
     "split_tma_act": 1.03411,
     "split_tma_act_large_fc2": 1.06205,
     "split_tma_small": 1.01133,
     "split_tma_small_act": 1.01616
    },
    "128": {
     "split_swap_ab": 1.14944,
     "split_large_tile": 1.21629,
     "split_tma": 1.1127,
     "split_tma_act": 1.10429,
     "split_tma_act_large_fc2": 1.13389,
     "split_tma_small": 1.14099,
     "split_tma_small_act": 1.13488
    },
    "256": {
     "split_swap_ab": 1.21424,
     "split_large_tile": 1.28765,
     "split_tma": 1.16307,
     "split_tma_act": 1.14883,
     "split_tma_act_large_fc2": 1.18518,
     "split_tma_small": 1.20458,
     "split_tma_small_act": 1.19459
    },
    "512": {
     "split_swap_ab": 1.25328,
     "split_large_tile": 1.31757,
     "split_tma": 1.19917,
     "split_tma_act": 1.16838,
     "split_tma_act_large_fc2": 1.20125,
     "split_tma_small": 1.23955,
     "split_tma_small_act": 1.21562
    },
    "1024": {
     "split_swap_ab": 1.32285,
     "split_large_tile": 1.36144,
     "split_tma": 1.25459,
     "split_tma_act": 1.20096,
     "split_tma_act_large_fc2": 1.22784,
     "split_tma_small": 1.30634,
     "split_tma_small_act": 1.25878
    },
    "2048": {
     "split_swap_ab": 1.42653,
     "split_large_tile": 1.39565,
     "split_tma": 1.33443,
     "split_tma_act": 1.22563,
     "split_tma_act_large_fc2": 1.24278,
     "split_tma_small": 1.64653,
     "split_tma_small_act": 1.51603
    },
    "4096": {
     "split_swap_ab": 2.00797,
     "split_large_tile": 1.88525,
     "split_tma": 1.78557,
     "split_tma_act": 1.54733,
     "split_tma_act_large_fc2": 1.4985,
     "split_tma_small": 2.43117,
     "split_tma_small_act": 2.11043
    },
    "8192": {
     "split_swap_ab": 3.56602,
     "split_large_tile": 3.0016,
     "split_tma": 3.03517,
     "split_tma_act": 2.4992,
     "split_tma_act_large_fc2": 2.48922,
     "split_tma_small": 4.06781,
     "split_tma_small_act": 3.6855
    },
    "16384": {
     "split_swap_ab": 6.56973,
     "split_large_tile": 5.04646,
     "split_tma": 5.72323,
     "split_tma_act": 4.37082,
     "split_tma_act_large_fc2": 4.26522,
     "split_tma_small": 8.28026,
     "split_tma_small_act": 6.96208
    },
    "32768": {
     "split_swap_ab": 12.5731,
     "split_large_tile": 10.1461,
     "split_tma": 10.1711,
     "split_tma_act": 8.28614,
     "split_tma_act_large_fc2": 8.15469,
     "split_tma_small": 16.2256,
     "split_tma_small_act": 14.1358
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_fp8_fp8_bf16_mega",
   "recipe": "fp8_block",
   "activation": "swiglu",
   "bias": false,
   "experts": 8,
   "top_k": 2,
   "hidden": 4096,
   "intermediate": 14336,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "mega_rounds",
    "4": "split_tma_small",
    "8": "split_tma_small",
    "16": "split_tma_small_act",
    "32": "split_tma_small_act",
    "64": "split_tma_small_act",
    "128": "split_tma_small_act",
    "256": "split_tma_act",
    "512": "split_tma_act",
    "1024": "split_tma_act_large_fc2",
    "2048": "split_tma_act",
    "4096": "split_tma_act",
    "8192": "split_tma_act",
    "16384": "split_tma_act",
    "32768": "split_tma_act"
   },
   "measured_ms": {
    "1": {
     "mega": 0.167392,
     "mega_rounds": 0.155584,
     "mega_min8": 0.167872,
     "mega_min16": 0.165696,
     "split_swap_ab": 0.166848,
     "split_large_tile": 0.206688,
     "split_tma": 0.166848,
     "split_tma_act": 0.1664,
     "split_tma_act_large_fc2": 0.1856,
     "split_tma_small": 0.167616,
     "split_tma_small_act": 0.168576
    },
    "4": {
     "mega": 0.459648,
     "mega_rounds": 0.469664,
     "mega_min8": 0.459168,
     "mega_min16": 0.458304,
     "split_swap_ab": 0.457568,
     "split_large_tile": 0.547744,
     "split_tma": 0.45584,
     "split_tma_act": 0.461472,
     "split_tma_act_large_fc2": 0.481824,
     "split_tma_small": 0.443392,
     "split_tma_small_act": 0.443392
    },
    "8": {
     "mega": 0.520768,
     "mega_rounds": 0.553952,
     "mega_min8": 0.521824,
     "mega_min16": 0.520992,
     "split_swap_ab": 0.519488,
     "split_large_tile": 0.594912,
     "split_tma": 0.516768,
     "split_tma_act": 0.520832,
     "split_tma_act_large_fc2": 0.544288,
     "split_tma_small": 0.501248,
     "split_tma_small_act": 0.503584
    },
    "16": {
     "mega": 0.520576,
     "mega_rounds": 0.554752,
     "mega_min8": 0.520704,
     "mega_min16": 0.52064,
     "split_swap_ab": 0.528032,
     "split_large_tile": 0.588544,
     "split_tma": 0.51168,
     "split_tma_act": 0.50656,
     "split_tma_act_large_fc2": 0.529888,
     "split_tma_small": 0.50208,
     "split_tma_small_act": 0.496864
    },
    "32": {
     "mega": 0.538208,
     "mega_rounds": 0.579648,
     "mega_min8": 0.53856,
     "mega_min16": 0.53776,
     "split_swap_ab": 0.5296,
     "split_large_tile": 0.609984,
     "split_tma": 0.50992,
     "split_tma_act": 0.499616,
     "split_tma_act_large_fc2": 0.524288,
     "split_tma_small": 0.503232,
     "split_tma_small_act": 0.498688
    },
    "64": {
     "mega": 0.696832,
     "mega_rounds": 0.69392,
     "mega_min8": 0.696032,
     "mega_min16": 0.694848,
     "split_swap_ab": 0.538752,
     "split_large_tile": 0.619776,
     "split_tma": 0.518272,
     "split_tma_act": 0.504672,
     "split_tma_act_large_fc2": 0.527424,
     "split_tma_small": 0.512288,
     "split_tma_small_act": 0.500992
    },
    "128": {
     "split_swap_ab": 0.560128,
     "split_large_tile": 0.609472,
     "split_tma": 0.532672,
     "split_tma_act": 0.50832,
     "split_tma_act_large_fc2": 0.52624,
     "split_tma_small": 0.526464,
     "split_tma_small_act": 0.505248
    },
    "256": {
     "split_swap_ab": 0.618656,
     "split_large_tile": 0.602048,
     "split_tma": 0.557088,
     "split_tma_act": 0.514464,
     "split_tma_act_large_fc2": 0.526976,
     "split_tma_small": 0.572512,
     "split_tma_small_act": 0.529024
    },
    "512": {
     "split_swap_ab": 0.744608,
     "split_large_tile": 0.76592,
     "split_tma": 0.672,
     "split_tma_act": 0.6128,
     "split_tma_act_large_fc2": 0.62016,
     "split_tma_small": 0.694592,
     "split_tma_small_act": 0.660192
    },
    "1024": {
     "split_swap_ab": 1.27114,
     "split_large_tile": 1.13024,
     "split_tma": 1.01693,
     "split_tma_act": 0.929696,
     "split_tma_act_large_fc2": 0.911616,
     "split_tma_small": 1.14474,
     "split_tma_small_act": 1.09565
    },
    "2048": {
     "split_swap_ab": 2.48518,
     "split_large_tile": 1.98998,
     "split_tma": 1.80307,
     "split_tma_act": 1.64461,
     "split_tma_act_large_fc2": 1.68211,
     "split_tma_small": 2.6097,
     "split_tma_small_act": 2.24342
    },
    "4096": {
     "split_swap_ab": 4.45014,
     "split_large_tile": 3.43379,
     "split_tma": 3.29818,
     "split_tma_act": 2.95805,
     "split_tma_act_large_fc2": 3.03981,
     "split_tma_small": 4.59242,
     "split_tma_small_act": 4.2184
    },
    "8192": {
     "split_swap_ab": 8.84925,
     "split_large_tile": 6.75322,
     "split_tma": 6.3393,
     "split_tma_act": 5.56131,
     "split_tma_act_large_fc2": 5.87504,
     "split_tma_small": 9.19568,
     "split_tma_small_act": 8.57002
    },
    "16384": {
     "split_swap_ab": 18.1747,
     "split_large_tile": 13.588,
     "split_tma": 12.6559,
     "split_tma_act": 11.4665,
     "split_tma_act_large_fc2": 11.862,
     "split_tma_small": 20.6844,
     "split_tma_small_act": 18.3675
    },
    "32768": {
     "split_swap_ab": 38.6661,
     "split_large_tile": 31.6599,
     "split_tma": 26.4199,
     "split_tma_act": 23.6754,
     "split_tma_act_large_fc2": 27.281,
     "split_tma_small": 46.8953,
     "split_tma_small_act": 39.8924
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_fp8_fp8_bf16_mega",
   "recipe": "fp8_block",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 8,
   "hidden": 2048,
   "intermediate": 768,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "mega_min8",
    "2": "mega_min16",
    "4": "mega",
    "16": "split_tma_small",
    "128": "split_tma_small_act",
    "256": "split_tma_small_act",
    "512": "split_tma_small_act",
    "1024": "split_tma_act",
    "2048": "split_tma_act",
    "4096": "split_tma_act",
    "8192": "split_tma_act",
    "16384": "split_tma_act",
    "32768": "split_tma_act"
   },
   "measured_ms": {
    "1": {
     "mega": 0.046304,
     "mega_rounds": 0.040512,
     "mega_min8": 0.039904,
     "mega_min16": 0.041984,
     "split_swap_ab": 0.048,
     "split_large_tile": 0.051328,
     "split_tma": 0.054272,
     "split_tma_act": 0.0632,
     "split_tma_act_large_fc2": 0.06144,
     "split_tma_small": 0.055072,
     "split_tma_small_act": 0.062112
    },
    "2": {
     "mega": 0.059616,
     "mega_rounds": 0.059136,
     "mega_min8": 0.05888,
     "mega_min16": 0.055872,
     "split_swap_ab": 0.060192,
     "split_large_tile": 0.068096,
     "split_tma": 0.08224,
     "split_tma_act": 0.080992,
     "split_tma_act_large_fc2": 0.07136,
     "split_tma_small": 0.061792,
     "split_tma_small_act": 0.064992
    },
    "4": {
     "mega": 0.086048,
     "mega_rounds": 0.08672,
     "mega_min8": 0.08608,
     "mega_min16": 0.086112,
     "split_swap_ab": 0.089056,
     "split_large_tile": 0.097664,
     "split_tma": 0.107552,
     "split_tma_act": 0.110336,
     "split_tma_act_large_fc2": 0.104928,
     "split_tma_small": 0.089248,
     "split_tma_small_act": 0.09056
    },
    "16": {
     "mega": 0.169728,
     "mega_rounds": 0.169952,
     "mega_min8": 0.168832,
     "mega_min16": 0.169312,
     "split_swap_ab": 0.173408,
     "split_large_tile": 0.1936,
     "split_tma": 0.166112,
     "split_tma_act": 0.170624,
     "split_tma_act_large_fc2": 0.184064,
     "split_tma_small": 0.16192,
     "split_tma_small_act": 0.164608
    },
    "128": {
     "split_swap_ab": 0.262848,
     "split_large_tile": 0.281024,
     "split_tma": 0.247008,
     "split_tma_act": 0.245344,
     "split_tma_act_large_fc2": 0.261152,
     "split_tma_small": 0.247488,
     "split_tma_small_act": 0.241568
    },
    "256": {
     "split_swap_ab": 0.27392,
     "split_large_tile": 0.290016,
     "split_tma": 0.258048,
     "split_tma_act": 0.250368,
     "split_tma_act_large_fc2": 0.264672,
     "split_tma_small": 0.258496,
     "split_tma_small_act": 0.248064
    },
    "512": {
     "split_swap_ab": 0.305024,
     "split_large_tile": 0.30816,
     "split_tma": 0.277824,
     "split_tma_act": 0.260608,
     "split_tma_act_large_fc2": 0.275648,
     "split_tma_small": 0.278688,
     "split_tma_small_act": 0.26016
    },
    "1024": {
     "split_swap_ab": 0.357376,
     "split_large_tile": 0.33808,
     "split_tma": 0.317888,
     "split_tma_act": 0.286048,
     "split_tma_act_large_fc2": 0.295232,
     "split_tma_small": 0.330368,
     "split_tma_small_act": 0.296576
    },
    "2048": {
     "split_swap_ab": 0.490144,
     "split_large_tile": 0.43152,
     "split_tma": 0.401376,
     "split_tma_act": 0.341472,
     "split_tma_act_large_fc2": 0.357056,
     "split_tma_small": 0.394144,
     "split_tma_small_act": 0.36544
    },
    "4096": {
     "split_swap_ab": 0.855936,
     "split_large_tile": 0.690656,
     "split_tma": 0.627808,
     "split_tma_act": 0.541824,
     "split_tma_act_large_fc2": 0.576544,
     "split_tma_small": 0.6984,
     "split_tma_small_act": 0.630624
    },
    "8192": {
     "split_swap_ab": 1.57542,
     "split_large_tile": 1.22742,
     "split_tma": 1.10419,
     "split_tma_act": 0.947328,
     "split_tma_act_large_fc2": 1.01382,
     "split_tma_small": 1.32461,
     "split_tma_small_act": 1.1527
    },
    "16384": {
     "split_swap_ab": 2.95149,
     "split_large_tile": 2.31872,
     "split_tma": 2.06346,
     "split_tma_act": 1.78234,
     "split_tma_act_large_fc2": 1.88304,
     "split_tma_small": 2.79418,
     "split_tma_small_act": 2.21904
    },
    "32768": {
     "split_swap_ab": 5.60995,
     "split_large_tile": 4.36032,
     "split_tma": 4.03056,
     "split_tma_act": 3.50125,
     "split_tma_act_large_fc2": 3.5793,
     "split_tma_small": 5.25776,
     "split_tma_small_act": 4.36166
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_mxfp4_bf16_mega",
   "recipe": "w4a16_mxfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 256,
   "top_k": 8,
   "hidden": 7168,
   "intermediate": 2048,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_small_k1",
    "8": "split_small",
    "128": "split_small_k1",
    "256": "split_small_k1",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.112576,
     "mega_rounds": 0.126368,
     "mega_min8": 0.106272,
     "mega_min16": 0.127808,
     "split_small": 0.102848,
     "split_small_k1": 0.098432,
     "split_small_k2": 0.109056,
     "split_large": 0.108736,
     "split_large_tma": 0.284608,
     "split_large_tma_fc1": 0.209408,
     "split_large_tma_fc2": 0.179104
    },
    "8": {
     "mega": 0.517376,
     "mega_rounds": 0.518496,
     "mega_min8": 0.516928,
     "mega_min16": 0.517696,
     "split_small": 0.474144,
     "split_small_k1": 0.474144,
     "split_small_k2": 0.519232,
     "split_large": 0.536768,
     "split_large_tma": 1.5808,
     "split_large_tma_fc1": 1.21437,
     "split_large_tma_fc2": 0.905248
    },
    "128": {
     "split_small": 2.06726,
     "split_small_k1": 2.0351,
     "split_small_k2": 2.27632,
     "split_large": 2.35974,
     "split_large_tma": 6.50826,
     "split_large_tma_fc1": 5.04464,
     "split_large_tma_fc2": 3.74576
    },
    "256": {
     "split_small": 2.22694,
     "split_small_k1": 2.15827,
     "split_small_k2": 2.43373,
     "split_large": 2.47811,
     "split_large_tma": 6.69773,
     "split_large_tma_fc1": 5.18502,
     "split_large_tma_fc2": 3.87123
    },
    "1024": {
     "split_small": 4.02992,
     "split_small_k1": 4.01578,
     "split_small_k2": 4.35437,
     "split_large": 3.2295,
     "split_large_tma": 6.8592,
     "split_large_tma_fc1": 5.54256,
     "split_large_tma_fc2": 4.34893
    },
    "2048": {
     "split_small": 6.90861,
     "split_small_k1": 6.91104,
     "split_small_k2": 7.82301,
     "split_large": 4.60435,
     "split_large_tma": 7.73718,
     "split_large_tma_fc1": 6.65638,
     "split_large_tma_fc2": 5.77968
    },
    "4096": {
     "split_small": 12.9139,
     "split_small_k1": 13.2815,
     "split_small_k2": 14.5651,
     "split_large": 7.38659,
     "split_large_tma": 9.74598,
     "split_large_tma_fc1": 8.88182,
     "split_large_tma_fc2": 8.35744
    },
    "8192": {
     "split_small": 25.0214,
     "split_small_k1": 25.7148,
     "split_small_k2": 27.8796,
     "split_large": 14.0915,
     "split_large_tma": 13.3573,
     "split_large_tma_fc1": 13.4828,
     "split_large_tma_fc2": 13.7648
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_mxfp4_bf16_mega",
   "recipe": "w4a16_mxfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 4,
   "hidden": 2880,
   "intermediate": 2880,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_small_deep",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "32": "split_small",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.064832,
     "mega_rounds": 0.05632,
     "mega_min8": 0.060928,
     "mega_min16": 0.061056,
     "split_small": 0.054816,
     "split_small_k1": 0.04976,
     "split_small_k2": 0.054784,
     "split_small_deep": 0.047552,
     "split_large": 0.054048,
     "split_large_tma": 0.121536,
     "split_large_tma_fc1": 0.09776,
     "split_large_tma_fc2": 0.077344
    },
    "2": {
     "mega": 0.079776,
     "mega_rounds": 0.082176,
     "mega_min8": 0.08512,
     "mega_min16": 0.08496,
     "split_small": 0.075648,
     "split_small_k1": 0.073984,
     "split_small_k2": 0.076064,
     "split_large": 0.075616,
     "split_large_tma": 0.185152,
     "split_large_tma_fc1": 0.136416,
     "split_large_tma_fc2": 0.121696
    },
    "4": {
     "mega": 0.12208,
     "mega_rounds": 0.123648,
     "mega_min8": 0.119744,
     "mega_min16": 0.119584,
     "split_small": 0.114944,
     "split_small_k1": 0.113696,
     "split_small_k2": 0.12928,
     "split_large": 0.120256,
     "split_large_tma": 0.30432,
     "split_large_tma_fc1": 0.236896,
     "split_large_tma_fc2": 0.183808
    },
    "32": {
     "mega": 0.458624,
     "mega_rounds": 0.459456,
     "mega_min8": 0.458784,
     "mega_min16": 0.458432,
     "split_small": 0.413344,
     "split_small_k1": 0.413472,
     "split_small_k2": 0.499424,
     "split_large": 0.43072,
     "split_large_tma": 1.23226,
     "split_large_tma_fc1": 0.958304,
     "split_large_tma_fc2": 0.707424
    },
    "512": {
     "split_small": 0.781728,
     "split_small_k1": 0.79072,
     "split_small_k2": 0.936896,
     "split_large": 0.76096,
     "split_large_tma": 1.99222,
     "split_large_tma_fc1": 1.54717,
     "split_large_tma_fc2": 1.17738
    },
    "1024": {
     "split_small": 1.22317,
     "split_small_k1": 1.25869,
     "split_small_k2": 1.43034,
     "split_large": 0.937248,
     "split_large_tma": 2.08077,
     "split_large_tma_fc1": 1.64304,
     "split_large_tma_fc2": 1.27715
    },
    "2048": {
     "split_small": 2.13203,
     "split_small_k1": 2.10656,
     "split_small_k2": 2.30957,
     "split_large": 1.38742,
     "split_large_tma": 2.30451,
     "split_large_tma_fc1": 2.0135,
     "split_large_tma_fc2": 1.67226
    },
    "4096": {
     "split_small": 3.92608,
     "split_small_k1": 3.9352,
     "split_small_k2": 4.21882,
     "split_large": 2.20429,
     "split_large_tma": 2.72995,
     "split_large_tma_fc1": 2.55482,
     "split_large_tma_fc2": 2.38243
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_mxfp4_bf16_mega",
   "recipe": "w4a16_mxfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 8,
   "top_k": 2,
   "hidden": 4096,
   "intermediate": 14336,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_small",
    "2": "split_small",
    "4": "split_small_k1",
    "8": "split_small_k1",
    "16": "split_small_k1",
    "32": "split_small_k1",
    "64": "split_small",
    "128": "split_large",
    "256": "split_large",
    "512": "split_large",
    "2048": "split_large_tma",
    "4096": "split_large_tma",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.114336,
     "mega_rounds": 0.107168,
     "mega_min8": 0.111104,
     "mega_min16": 0.116672,
     "split_small": 0.093568,
     "split_small_k1": 0.132288,
     "split_small_k2": 0.09952,
     "split_small_deep": 0.105664,
     "split_large": 0.149824,
     "split_large_tma": 0.318304,
     "split_large_tma_fc1": 0.243328,
     "split_large_tma_fc2": 0.218016
    },
    "2": {
     "mega": 0.142112,
     "mega_rounds": 0.150624,
     "mega_min8": 0.1424,
     "mega_min16": 0.147136,
     "split_small": 0.12816,
     "split_small_k1": 0.152544,
     "split_small_k2": 0.131296,
     "split_small_deep": 0.129792,
     "split_large": 0.172224,
     "split_large_tma": 0.400768,
     "split_large_tma_fc1": 0.324704,
     "split_large_tma_fc2": 0.245024
    },
    "4": {
     "mega": 0.274688,
     "mega_rounds": 0.315456,
     "mega_min8": 0.274496,
     "mega_min16": 0.27472,
     "split_small": 0.253568,
     "split_small_k1": 0.25072,
     "split_small_k2": 0.259264,
     "split_large": 0.29296,
     "split_large_tma": 0.789024,
     "split_large_tma_fc1": 0.598112,
     "split_large_tma_fc2": 0.477664
    },
    "8": {
     "mega": 0.31184,
     "mega_rounds": 0.337632,
     "mega_min8": 0.311488,
     "mega_min16": 0.311584,
     "split_small": 0.283936,
     "split_small_k1": 0.28096,
     "split_small_k2": 0.288576,
     "split_large": 0.321536,
     "split_large_tma": 0.866688,
     "split_large_tma_fc1": 0.677312,
     "split_large_tma_fc2": 0.506176
    },
    "16": {
     "mega": 0.312672,
     "mega_rounds": 0.338368,
     "mega_min8": 0.312224,
     "mega_min16": 0.312,
     "split_small": 0.285312,
     "split_small_k1": 0.284736,
     "split_small_k2": 0.293952,
     "split_large": 0.322784,
     "split_large_tma": 0.867264,
     "split_large_tma_fc1": 0.677344,
     "split_large_tma_fc2": 0.506048
    },
    "32": {
     "mega": 0.34336,
     "mega_rounds": 0.350432,
     "mega_min8": 0.343008,
     "mega_min16": 0.342816,
     "split_small": 0.290368,
     "split_small_k1": 0.287296,
     "split_small_k2": 0.305056,
     "split_large": 0.325504,
     "split_large_tma": 0.870304,
     "split_large_tma_fc1": 0.690432,
     "split_large_tma_fc2": 0.510592
    },
    "64": {
     "mega": 0.468,
     "mega_rounds": 0.46816,
     "mega_min8": 0.466656,
     "mega_min16": 0.467392,
     "split_small": 0.321728,
     "split_small_k1": 0.323424,
     "split_small_k2": 0.345472,
     "split_large": 0.341472,
     "split_large_tma": 0.88144,
     "split_large_tma_fc1": 0.705632,
     "split_large_tma_fc2": 0.520512
    },
    "128": {
     "split_small": 0.452,
     "split_small_k1": 0.483616,
     "split_small_k2": 0.4984,
     "split_large": 0.392736,
     "split_large_tma": 0.895392,
     "split_large_tma_fc1": 0.74272,
     "split_large_tma_fc2": 0.541856
    },
    "256": {
     "split_small": 0.93216,
     "split_small_k1": 0.929856,
     "split_small_k2": 0.984736,
     "split_large": 0.613696,
     "split_large_tma": 1.04886,
     "split_large_tma_fc1": 0.892416,
     "split_large_tma_fc2": 0.767264
    },
    "512": {
     "split_small": 1.61437,
     "split_small_k1": 1.59869,
     "split_small_k2": 1.70461,
     "split_large": 0.885184,
     "split_large_tma": 1.15126,
     "split_large_tma_fc1": 1.08342,
     "split_large_tma_fc2": 0.956608
    },
    "2048": {
     "split_small": 6.11754,
     "split_small_k1": 6.02518,
     "split_small_k2": 6.51098,
     "split_large": 3.17277,
     "split_large_tma": 2.9904,
     "split_large_tma_fc1": 3.05997,
     "split_large_tma_fc2": 3.09718
    },
    "4096": {
     "split_small": 11.8716,
     "split_small_k1": 12.5382,
     "split_small_k2": 13.2235,
     "split_large": 6.06086,
     "split_large_tma": 5.93776,
     "split_large_tma_fc1": 6.22944,
     "split_large_tma_fc2": 5.98387
    },
    "8192": {
     "split_small": 23.7816,
     "split_small_k1": 23.9632,
     "split_small_k2": 25.776,
     "split_large": 12.1992,
     "split_large_tma": 11.0811,
     "split_large_tma_fc1": 11.5929,
     "split_large_tma_fc2": 11.8774
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_mxfp4_bf16_mega",
   "recipe": "w4a16_mxfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 8,
   "hidden": 2048,
   "intermediate": 768,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_small_k1",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "8": "mega_min8",
    "16": "split_small_k1",
    "32": "split_small_k1",
    "128": "split_small_k1",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma_fc1",
    "8192": "split_large_tma_fc1"
   },
   "measured_ms": {
    "1": {
     "mega": 0.03552,
     "mega_rounds": 0.036416,
     "mega_min8": 0.0376,
     "mega_min16": 0.037728,
     "split_small": 0.033856,
     "split_small_k1": 0.030304,
     "split_small_k2": 0.033792,
     "split_large": 0.034624,
     "split_large_tma": 0.066272,
     "split_large_tma_fc1": 0.053632,
     "split_large_tma_fc2": 0.04704
    },
    "2": {
     "mega": 0.049248,
     "mega_rounds": 0.046944,
     "mega_min8": 0.045408,
     "mega_min16": 0.046048,
     "split_small": 0.045536,
     "split_small_k1": 0.040256,
     "split_small_k2": 0.045664,
     "split_large": 0.04176,
     "split_large_tma": 0.097504,
     "split_large_tma_fc1": 0.077696,
     "split_large_tma_fc2": 0.06192
    },
    "4": {
     "mega": 0.065088,
     "mega_rounds": 0.066496,
     "mega_min8": 0.064352,
     "mega_min16": 0.06432,
     "split_small": 0.060928,
     "split_small_k1": 0.060896,
     "split_small_k2": 0.06736,
     "split_large": 0.06336,
     "split_large_tma": 0.139392,
     "split_large_tma_fc1": 0.112544,
     "split_large_tma_fc2": 0.092224
    },
    "8": {
     "mega": 0.081056,
     "mega_rounds": 0.081664,
     "mega_min8": 0.081024,
     "mega_min16": 0.08112,
     "split_small": 0.083264,
     "split_small_k1": 0.08336,
     "split_small_k2": 0.092576,
     "split_large": 0.085344,
     "split_large_tma": 0.208032,
     "split_large_tma_fc1": 0.163904,
     "split_large_tma_fc2": 0.132256
    },
    "16": {
     "mega": 0.11504,
     "mega_rounds": 0.117024,
     "mega_min8": 0.115808,
     "mega_min16": 0.115616,
     "split_small": 0.110912,
     "split_small_k1": 0.110688,
     "split_small_k2": 0.135712,
     "split_large": 0.117408,
     "split_large_tma": 0.303456,
     "split_large_tma_fc1": 0.237664,
     "split_large_tma_fc2": 0.180064
    },
    "32": {
     "mega": 0.155808,
     "mega_rounds": 0.156576,
     "mega_min8": 0.155776,
     "mega_min16": 0.155808,
     "split_small": 0.142464,
     "split_small_k1": 0.142144,
     "split_small_k2": 0.170368,
     "split_large": 0.149632,
     "split_large_tma": 0.402464,
     "split_large_tma_fc1": 0.316608,
     "split_large_tma_fc2": 0.236992
    },
    "128": {
     "split_small": 0.16416,
     "split_small_k1": 0.163968,
     "split_small_k2": 0.204288,
     "split_large": 0.172032,
     "split_large_tma": 0.448736,
     "split_large_tma_fc1": 0.346752,
     "split_large_tma_fc2": 0.2664
    },
    "256": {
     "split_small": 0.187616,
     "split_small_k1": 0.187712,
     "split_small_k2": 0.238176,
     "split_large": 0.181568,
     "split_large_tma": 0.451104,
     "split_large_tma_fc1": 0.357536,
     "split_large_tma_fc2": 0.27728
    },
    "512": {
     "split_small": 0.27696,
     "split_small_k1": 0.276384,
     "split_small_k2": 0.352672,
     "split_large": 0.216896,
     "split_large_tma": 0.480224,
     "split_large_tma_fc1": 0.379008,
     "split_large_tma_fc2": 0.319744
    },
    "1024": {
     "split_small": 0.454144,
     "split_small_k1": 0.452512,
     "split_small_k2": 0.593984,
     "split_large": 0.333472,
     "split_large_tma": 0.549888,
     "split_large_tma_fc1": 0.45296,
     "split_large_tma_fc2": 0.420352
    },
    "2048": {
     "split_small": 0.801376,
     "split_small_k1": 0.812192,
     "split_small_k2": 1.08566,
     "split_large": 0.510592,
     "split_large_tma": 0.670336,
     "split_large_tma_fc1": 0.603904,
     "split_large_tma_fc2": 0.570304
    },
    "4096": {
     "split_small": 1.49382,
     "split_small_k1": 1.55504,
     "split_small_k2": 2.07498,
     "split_large": 0.921376,
     "split_large_tma": 0.93088,
     "split_large_tma_fc1": 0.886624,
     "split_large_tma_fc2": 0.944896
    },
    "8192": {
     "split_small": 2.99261,
     "split_small_k1": 2.99805,
     "split_small_k2": 4.0656,
     "split_large": 1.7345,
     "split_large_tma": 1.7577,
     "split_large_tma_fc1": 1.7151,
     "split_large_tma_fc2": 1.77472
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_nvfp4_bf16_mega",
   "recipe": "w4a16_nvfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 256,
   "top_k": 8,
   "hidden": 7168,
   "intermediate": 2048,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_small_k1",
    "2": "split_small_k1",
    "8": "split_small",
    "32": "split_small_k1",
    "64": "split_small_k1",
    "128": "split_small_k1",
    "256": "split_small_k1",
    "512": "split_small_k1",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.116096,
     "mega_rounds": 0.139168,
     "mega_min8": 0.114112,
     "mega_min16": 0.135776,
     "split_small": 0.107712,
     "split_small_k1": 0.102496,
     "split_small_k2": 0.112512,
     "split_large": 0.116416,
     "split_large_tma": 0.30592,
     "split_large_tma_fc1": 0.2312,
     "split_large_tma_fc2": 0.187264
    },
    "2": {
     "mega": 0.176832,
     "mega_rounds": 0.17568,
     "mega_min8": 0.17696,
     "mega_min16": 0.174176,
     "split_small": 0.163616,
     "split_small_k1": 0.163552,
     "split_small_k2": 0.17504,
     "split_large": 0.196512,
     "split_large_tma": 0.526624,
     "split_large_tma_fc1": 0.413536,
     "split_large_tma_fc2": 0.308736
    },
    "8": {
     "mega": 0.547872,
     "mega_rounds": 0.547904,
     "mega_min8": 0.548352,
     "mega_min16": 0.547392,
     "split_small": 0.502816,
     "split_small_k1": 0.502912,
     "split_small_k2": 0.542912,
     "split_large": 0.58304,
     "split_large_tma": 1.66176,
     "split_large_tma_fc1": 1.28342,
     "split_large_tma_fc2": 0.94464
    },
    "32": {
     "mega": 1.53194,
     "mega_rounds": 1.53334,
     "mega_min8": 1.53354,
     "mega_min16": 1.53779,
     "split_small": 1.49722,
     "split_small_k1": 1.4545,
     "split_small_k2": 1.59677,
     "split_large": 1.65725,
     "split_large_tma": 4.53181,
     "split_large_tma_fc1": 3.56803,
     "split_large_tma_fc2": 2.53904
    },
    "64": {
     "mega": 2.02365,
     "mega_rounds": 2.10307,
     "mega_min8": 2.12819,
     "mega_min16": 2.10262,
     "split_small": 1.90266,
     "split_small_k1": 1.89005,
     "split_small_k2": 2.0536,
     "split_large": 2.20675,
     "split_large_tma": 6.06842,
     "split_large_tma_fc1": 4.78531,
     "split_large_tma_fc2": 3.41498
    },
    "128": {
     "split_small": 2.21731,
     "split_small_k1": 2.19242,
     "split_small_k2": 2.42243,
     "split_large": 2.53347,
     "split_large_tma": 6.88272,
     "split_large_tma_fc1": 5.42022,
     "split_large_tma_fc2": 3.89834
    },
    "256": {
     "split_small": 2.34822,
     "split_small_k1": 2.30614,
     "split_small_k2": 2.56781,
     "split_large": 2.65808,
     "split_large_tma": 7.09398,
     "split_large_tma_fc1": 5.61053,
     "split_large_tma_fc2": 4.07536
    },
    "512": {
     "split_small": 2.72944,
     "split_small_k1": 2.72925,
     "split_small_k2": 3.03142,
     "split_large": 2.90026,
     "split_large_tma": 7.1296,
     "split_large_tma_fc1": 5.72749,
     "split_large_tma_fc2": 4.19952
    },
    "1024": {
     "split_small": 4.22534,
     "split_small_k1": 4.19901,
     "split_small_k2": 4.60102,
     "split_large": 3.49674,
     "split_large_tma": 7.22464,
     "split_large_tma_fc1": 5.99078,
     "split_large_tma_fc2": 4.54125
    },
    "2048": {
     "split_small": 7.28803,
     "split_small_k1": 7.292,
     "split_small_k2": 8.12413,
     "split_large": 4.77248,
     "split_large_tma": 7.89968,
     "split_large_tma_fc1": 6.89853,
     "split_large_tma_fc2": 5.81859
    },
    "4096": {
     "split_small": 13.482,
     "split_small_k1": 13.7265,
     "split_small_k2": 15.3672,
     "split_large": 7.82154,
     "split_large_tma": 9.78352,
     "split_large_tma_fc1": 9.32029,
     "split_large_tma_fc2": 8.38362
    },
    "8192": {
     "split_small": 26.0634,
     "split_small_k1": 27.1057,
     "split_small_k2": 28.9748,
     "split_large": 14.4423,
     "split_large_tma": 13.7809,
     "split_large_tma_fc1": 14.1073,
     "split_large_tma_fc2": 14.2196
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_nvfp4_bf16_mega",
   "recipe": "w4a16_nvfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 4,
   "hidden": 2880,
   "intermediate": 2880,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_small_deep",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "8": "split_small",
    "128": "split_small_k1",
    "512": "split_small",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.065696,
     "mega_rounds": 0.059264,
     "mega_min8": 0.064608,
     "mega_min16": 0.064576,
     "split_small": 0.057184,
     "split_small_k1": 0.0528,
     "split_small_k2": 0.057408,
     "split_small_deep": 0.0496,
     "split_large": 0.0576,
     "split_large_tma": 0.128544,
     "split_large_tma_fc1": 0.104096,
     "split_large_tma_fc2": 0.08208
    },
    "2": {
     "mega": 0.078272,
     "mega_rounds": 0.079776,
     "mega_min8": 0.090336,
     "mega_min16": 0.090272,
     "split_small": 0.078304,
     "split_small_k1": 0.07152,
     "split_small_k2": 0.078336,
     "split_small_deep": 0.071616,
     "split_large": 0.078784,
     "split_large_tma": 0.18928,
     "split_large_tma_fc1": 0.143264,
     "split_large_tma_fc2": 0.124288
    },
    "4": {
     "mega": 0.124736,
     "mega_rounds": 0.127136,
     "mega_min8": 0.12496,
     "mega_min16": 0.124896,
     "split_small": 0.118528,
     "split_small_k1": 0.118496,
     "split_small_k2": 0.133312,
     "split_large": 0.12752,
     "split_large_tma": 0.320928,
     "split_large_tma_fc1": 0.252768,
     "split_large_tma_fc2": 0.192192
    },
    "8": {
     "mega": 0.205248,
     "mega_rounds": 0.206144,
     "mega_min8": 0.205504,
     "mega_min16": 0.20528,
     "split_small": 0.199104,
     "split_small_k1": 0.19952,
     "split_small_k2": 0.22496,
     "split_large": 0.216288,
     "split_large_tma": 0.563968,
     "split_large_tma_fc1": 0.436896,
     "split_large_tma_fc2": 0.33968
    },
    "128": {
     "split_small": 0.680672,
     "split_small_k1": 0.680224,
     "split_small_k2": 0.808032,
     "split_large": 0.7384,
     "split_large_tma": 2.01955,
     "split_large_tma_fc1": 1.60608,
     "split_large_tma_fc2": 1.16333
    },
    "512": {
     "split_small": 0.82464,
     "split_small_k1": 0.838784,
     "split_small_k2": 0.990656,
     "split_large": 0.829984,
     "split_large_tma": 2.13427,
     "split_large_tma_fc1": 1.6913,
     "split_large_tma_fc2": 1.24845
    },
    "1024": {
     "split_small": 1.27379,
     "split_small_k1": 1.32406,
     "split_small_k2": 1.51901,
     "split_large": 1.01014,
     "split_large_tma": 2.16595,
     "split_large_tma_fc1": 1.74659,
     "split_large_tma_fc2": 1.35411
    },
    "2048": {
     "split_small": 2.22922,
     "split_small_k1": 2.21805,
     "split_small_k2": 2.43456,
     "split_large": 1.42554,
     "split_large_tma": 2.34659,
     "split_large_tma_fc1": 2.08128,
     "split_large_tma_fc2": 1.75146
    },
    "4096": {
     "split_small": 4.11875,
     "split_small_k1": 4.11562,
     "split_small_k2": 4.4352,
     "split_large": 2.28426,
     "split_large_tma": 2.83686,
     "split_large_tma_fc1": 2.65933,
     "split_large_tma_fc2": 2.45818
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_nvfp4_bf16_mega",
   "recipe": "w4a16_nvfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 8,
   "top_k": 2,
   "hidden": 4096,
   "intermediate": 14336,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_small",
    "2": "split_small",
    "4": "split_small_k1",
    "8": "split_small_k1",
    "16": "split_small_k1",
    "32": "split_small_k1",
    "128": "split_large",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large_tma",
    "2048": "split_large_tma",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.120544,
     "mega_rounds": 0.116736,
     "mega_min8": 0.123136,
     "mega_min16": 0.128448,
     "split_small": 0.099136,
     "split_small_k1": 0.140128,
     "split_small_k2": 0.104608,
     "split_small_deep": 0.111168,
     "split_large": 0.160544,
     "split_large_tma": 0.341376,
     "split_large_tma_fc1": 0.263296,
     "split_large_tma_fc2": 0.233088
    },
    "2": {
     "mega": 0.154848,
     "mega_rounds": 0.147104,
     "mega_min8": 0.15472,
     "mega_min16": 0.158496,
     "split_small": 0.137952,
     "split_small_k1": 0.165216,
     "split_small_k2": 0.1424,
     "split_small_deep": 0.137984,
     "split_large": 0.188128,
     "split_large_tma": 0.42784,
     "split_large_tma_fc1": 0.3496,
     "split_large_tma_fc2": 0.256128
    },
    "4": {
     "mega": 0.297408,
     "mega_rounds": 0.292416,
     "mega_min8": 0.298048,
     "mega_min16": 0.297376,
     "split_small": 0.269088,
     "split_small_k1": 0.266688,
     "split_small_k2": 0.275936,
     "split_large": 0.321568,
     "split_large_tma": 0.836192,
     "split_large_tma_fc1": 0.642272,
     "split_large_tma_fc2": 0.50976
    },
    "8": {
     "mega": 0.33232,
     "mega_rounds": 0.324192,
     "mega_min8": 0.332288,
     "mega_min16": 0.332544,
     "split_small": 0.3,
     "split_small_k1": 0.298432,
     "split_small_k2": 0.307872,
     "split_large": 0.351808,
     "split_large_tma": 0.923264,
     "split_large_tma_fc1": 0.729728,
     "split_large_tma_fc2": 0.5392
    },
    "16": {
     "mega": 0.33248,
     "mega_rounds": 0.332288,
     "mega_min8": 0.33264,
     "mega_min16": 0.332544,
     "split_small": 0.301248,
     "split_small_k1": 0.29824,
     "split_small_k2": 0.309472,
     "split_large": 0.352736,
     "split_large_tma": 0.922976,
     "split_large_tma_fc1": 0.72992,
     "split_large_tma_fc2": 0.540416
    },
    "32": {
     "mega": 0.360864,
     "mega_rounds": 0.364352,
     "mega_min8": 0.361216,
     "mega_min16": 0.361184,
     "split_small": 0.307744,
     "split_small_k1": 0.303616,
     "split_small_k2": 0.321088,
     "split_large": 0.355744,
     "split_large_tma": 0.925568,
     "split_large_tma_fc1": 0.740736,
     "split_large_tma_fc2": 0.543456
    },
    "128": {
     "split_small": 0.4808,
     "split_small_k1": 0.512064,
     "split_small_k2": 0.524672,
     "split_large": 0.42992,
     "split_large_tma": 0.946816,
     "split_large_tma_fc1": 0.799424,
     "split_large_tma_fc2": 0.57648
    },
    "256": {
     "split_small": 1.00358,
     "split_small_k1": 0.987776,
     "split_small_k2": 1.04262,
     "split_large": 0.630208,
     "split_large_tma": 1.05488,
     "split_large_tma_fc1": 0.919328,
     "split_large_tma_fc2": 0.748
    },
    "512": {
     "split_small": 1.69926,
     "split_small_k1": 1.69555,
     "split_small_k2": 1.78608,
     "split_large": 0.924224,
     "split_large_tma": 1.17802,
     "split_large_tma_fc1": 1.09731,
     "split_large_tma_fc2": 0.98096
    },
    "1024": {
     "split_small": 3.29923,
     "split_small_k1": 3.28125,
     "split_small_k2": 3.4231,
     "split_large": 1.75616,
     "split_large_tma": 1.63898,
     "split_large_tma_fc1": 1.67747,
     "split_large_tma_fc2": 1.65651
    },
    "2048": {
     "split_small": 6.44106,
     "split_small_k1": 6.3199,
     "split_small_k2": 6.84662,
     "split_large": 3.31267,
     "split_large_tma": 3.12419,
     "split_large_tma_fc1": 3.21565,
     "split_large_tma_fc2": 3.28192
    },
    "8192": {
     "split_small": 25.0945,
     "split_small_k1": 25.4508,
     "split_small_k2": 26.6224,
     "split_large": 12.5491,
     "split_large_tma": 11.4437,
     "split_large_tma_fc1": 12.0063,
     "split_large_tma_fc2": 12.2115
    }
   }
  },
  {
   "gpu": "NVIDIA H100 80GB HBM3",
   "sm_count": 132,
   "backend": "sm90_bf16_nvfp4_bf16_mega",
   "recipe": "w4a16_nvfp4",
   "activation": "swiglu",
   "bias": false,
   "experts": 128,
   "top_k": 8,
   "hidden": 2048,
   "intermediate": 768,
   "driver": 0,
   "library": "*",
   "tactics": {
    "1": "split_small_k1",
    "2": "split_small_k1",
    "4": "split_small_k1",
    "16": "split_small",
    "32": "split_small_k1",
    "64": "split_small",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma_fc1",
    "8192": "split_large_tma_fc1"
   },
   "measured_ms": {
    "1": {
     "mega": 0.03744,
     "mega_rounds": 0.038528,
     "mega_min8": 0.040288,
     "mega_min16": 0.040256,
     "split_small": 0.034496,
     "split_small_k1": 0.03088,
     "split_small_k2": 0.034496,
     "split_large": 0.035584,
     "split_large_tma": 0.068736,
     "split_large_tma_fc1": 0.055872,
     "split_large_tma_fc2": 0.047936
    },
    "2": {
     "mega": 0.05216,
     "mega_rounds": 0.048192,
     "mega_min8": 0.048608,
     "mega_min16": 0.049376,
     "split_small": 0.04656,
     "split_small_k1": 0.041568,
     "split_small_k2": 0.046528,
     "split_large": 0.043488,
     "split_large_tma": 0.1024,
     "split_large_tma_fc1": 0.080768,
     "split_large_tma_fc2": 0.063936
    },
    "4": {
     "mega": 0.069312,
     "mega_rounds": 0.070272,
     "mega_min8": 0.068288,
     "mega_min16": 0.068416,
     "split_small": 0.063168,
     "split_small_k1": 0.063072,
     "split_small_k2": 0.069056,
     "split_large": 0.066528,
     "split_large_tma": 0.14704,
     "split_large_tma_fc1": 0.116288,
     "split_large_tma_fc2": 0.095264
    },
    "16": {
     "mega": 0.121472,
     "mega_rounds": 0.122144,
     "mega_min8": 0.12336,
     "mega_min16": 0.123104,
     "split_small": 0.115008,
     "split_small_k1": 0.115072,
     "split_small_k2": 0.13968,
     "split_large": 0.125056,
     "split_large_tma": 0.31456,
     "split_large_tma_fc1": 0.247872,
     "split_large_tma_fc2": 0.186336
    },
    "32": {
     "mega": 0.162016,
     "mega_rounds": 0.162624,
     "mega_min8": 0.162048,
     "mega_min16": 0.161984,
     "split_small": 0.148544,
     "split_small_k1": 0.148064,
     "split_small_k2": 0.175168,
     "split_large": 0.16096,
     "split_large_tma": 0.418912,
     "split_large_tma_fc1": 0.33232,
     "split_large_tma_fc2": 0.246176
    },
    "64": {
     "mega": 0.182624,
     "mega_rounds": 0.183776,
     "mega_min8": 0.182784,
     "mega_min16": 0.182784,
     "split_small": 0.162144,
     "split_small_k1": 0.162144,
     "split_small_k2": 0.193376,
     "split_large": 0.176576,
     "split_large_tma": 0.459264,
     "split_large_tma_fc1": 0.357376,
     "split_large_tma_fc2": 0.269792
    },
    "512": {
     "split_small": 0.288352,
     "split_small_k1": 0.289216,
     "split_small_k2": 0.364704,
     "split_large": 0.230112,
     "split_large_tma": 0.496032,
     "split_large_tma_fc1": 0.399008,
     "split_large_tma_fc2": 0.329536
    },
    "1024": {
     "split_small": 0.467616,
     "split_small_k1": 0.4656,
     "split_small_k2": 0.605888,
     "split_large": 0.334656,
     "split_large_tma": 0.557056,
     "split_large_tma_fc1": 0.465536,
     "split_large_tma_fc2": 0.418304
    },
    "2048": {
     "split_small": 0.854304,
     "split_small_k1": 0.85296,
     "split_small_k2": 1.10976,
     "split_large": 0.5216,
     "split_large_tma": 0.682016,
     "split_large_tma_fc1": 0.6216,
     "split_large_tma_fc2": 0.581888
    },
    "4096": {
     "split_small": 1.5432,
     "split_small_k1": 1.6249,
     "split_small_k2": 2.13091,
     "split_large": 0.939264,
     "split_large_tma": 0.9568,
     "split_large_tma_fc1": 0.925024,
     "split_large_tma_fc2": 0.964032
    },
    "8192": {
     "split_small": 3.16634,
     "split_small_k1": 3.16883,
     "split_small_k2": 4.17283,
     "split_large": 1.88048,
     "split_large_tma": 1.8223,
     "split_large_tma_fc1": 1.77392,
     "split_large_tma_fc2": 1.81517
    }
   }
  }
 ]
})json";
}

}  // namespace megamoe
