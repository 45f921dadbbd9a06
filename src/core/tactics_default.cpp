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
//   SM: bench/results/2026-12-04_fp8_tma_small_two_ctas/run2/, 4 buckets) are listed in docs/TUNING.md.
//
// Regenerate with `megamoe tune` on the GPU and copy the entries here (driver 0 and library "*":
// any driver and version).
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
    "4": "mega_rounds",
    "8": "mega_min16",
    "16": "mega",
    "32": "mega_min16",
    "64": "mega",
    "128": "split_swap_ab",
    "256": "split_swap_ab",
    "512": "split_large_tile",
    "1024": "split_large_tile",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile"
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
     "mega": 0.671104,
     "mega_rounds": 0.66992,
     "mega_min8": 0.67072,
     "mega_min16": 0.670624,
     "split_swap_ab": 0.689216,
     "split_large_tile": 0.720704
    },
    "8": {
     "mega": 1.17258,
     "mega_rounds": 1.17338,
     "mega_min8": 1.17238,
     "mega_min16": 1.17206,
     "split_swap_ab": 1.1879,
     "split_large_tile": 1.2343
    },
    "16": {
     "mega": 2.05555,
     "mega_rounds": 2.056,
     "mega_min8": 2.05856,
     "mega_min16": 2.05642,
     "split_swap_ab": 2.07229,
     "split_large_tile": 2.18534
    },
    "32": {
     "mega": 3.4073,
     "mega_rounds": 3.38422,
     "mega_min8": 3.36109,
     "mega_min16": 3.3456,
     "split_swap_ab": 3.34998,
     "split_large_tile": 3.45107
    },
    "64": {
     "mega": 4.45939,
     "mega_rounds": 4.5152,
     "mega_min8": 4.50803,
     "mega_min16": 4.4832,
     "split_swap_ab": 4.47786,
     "split_large_tile": 4.62461
    },
    "128": {
     "split_swap_ab": 5.01133,
     "split_large_tile": 5.0512
    },
    "256": {
     "split_swap_ab": 5.18307,
     "split_large_tile": 5.2103
    },
    "512": {
     "split_swap_ab": 5.34896,
     "split_large_tile": 5.32054
    },
    "1024": {
     "split_swap_ab": 5.54573,
     "split_large_tile": 5.4841
    },
    "2048": {
     "split_swap_ab": 6.28269,
     "split_large_tile": 5.7823
    },
    "4096": {
     "split_swap_ab": 10.1663,
     "split_large_tile": 7.14755
    },
    "8192": {
     "split_swap_ab": 19.571,
     "split_large_tile": 11.6844
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
    "4": "mega_min16",
    "8": "mega_min16",
    "16": "mega_min8",
    "32": "mega_min8",
    "64": "split_swap_ab",
    "128": "split_swap_ab",
    "256": "split_large_tile",
    "512": "split_large_tile",
    "1024": "split_large_tile",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile"
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
     "mega": 0.107808,
     "mega_rounds": 0.101728,
     "mega_min8": 0.100288,
     "mega_min16": 0.100192,
     "split_swap_ab": 0.108096,
     "split_large_tile": 0.119008
    },
    "8": {
     "mega": 0.144768,
     "mega_rounds": 0.145536,
     "mega_min8": 0.144416,
     "mega_min16": 0.143712,
     "split_swap_ab": 0.153568,
     "split_large_tile": 0.166688
    },
    "16": {
     "mega": 0.218272,
     "mega_rounds": 0.219328,
     "mega_min8": 0.218016,
     "mega_min16": 0.218624,
     "split_swap_ab": 0.22096,
     "split_large_tile": 0.2272
    },
    "32": {
     "mega": 0.29232,
     "mega_rounds": 0.29312,
     "mega_min8": 0.292096,
     "mega_min16": 0.292736,
     "split_swap_ab": 0.292256,
     "split_large_tile": 0.303552
    },
    "64": {
     "mega": 0.324384,
     "mega_rounds": 0.325888,
     "mega_min8": 0.325088,
     "mega_min16": 0.325248,
     "split_swap_ab": 0.320928,
     "split_large_tile": 0.3288
    },
    "128": {
     "split_swap_ab": 0.36016,
     "split_large_tile": 0.362464
    },
    "256": {
     "split_swap_ab": 0.359424,
     "split_large_tile": 0.337824
    },
    "512": {
     "split_swap_ab": 0.351456,
     "split_large_tile": 0.347424
    },
    "1024": {
     "split_swap_ab": 0.402912,
     "split_large_tile": 0.379392
    },
    "2048": {
     "split_swap_ab": 0.592064,
     "split_large_tile": 0.457248
    },
    "4096": {
     "split_swap_ab": 1.06838,
     "split_large_tile": 0.713824
    },
    "8192": {
     "split_swap_ab": 1.9969,
     "split_large_tile": 1.26874
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
    "64": "split_swap_ab",
    "128": "split_swap_ab",
    "256": "split_large_tile",
    "512": "split_large_tile",
    "1024": "split_large_tile",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile"
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
     "mega": 0.62144,
     "mega_rounds": 0.69776,
     "mega_min8": 0.621216,
     "mega_min16": 0.620096,
     "split_swap_ab": 0.597152,
     "split_large_tile": 0.634752
    },
    "8": {
     "mega": 0.693088,
     "mega_rounds": 0.78016,
     "mega_min8": 0.691424,
     "mega_min16": 0.69216,
     "split_swap_ab": 0.688096,
     "split_large_tile": 0.727008
    },
    "16": {
     "mega": 0.692288,
     "mega_rounds": 0.781312,
     "mega_min8": 0.6928,
     "mega_min16": 0.6928,
     "split_swap_ab": 0.682784,
     "split_large_tile": 0.722176
    },
    "32": {
     "mega": 0.702176,
     "mega_rounds": 0.798208,
     "mega_min8": 0.703584,
     "mega_min16": 0.702592,
     "split_swap_ab": 0.688448,
     "split_large_tile": 0.723008
    },
    "64": {
     "mega": 0.920416,
     "mega_rounds": 0.920672,
     "mega_min8": 0.920768,
     "mega_min16": 0.919104,
     "split_swap_ab": 0.716992,
     "split_large_tile": 0.726016
    },
    "128": {
     "split_swap_ab": 0.706752,
     "split_large_tile": 0.709024
    },
    "256": {
     "split_swap_ab": 0.893376,
     "split_large_tile": 0.732288
    },
    "512": {
     "split_swap_ab": 1.15059,
     "split_large_tile": 0.896416
    },
    "1024": {
     "split_swap_ab": 2.00051,
     "split_large_tile": 1.43965
    },
    "2048": {
     "split_swap_ab": 4.48138,
     "split_large_tile": 2.52477
    },
    "4096": {
     "split_swap_ab": 7.58352,
     "split_large_tile": 4.62618
    },
    "8192": {
     "split_swap_ab": 16.4973,
     "split_large_tile": 9.0167
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
    "4": "mega_min8",
    "8": "mega",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab",
    "128": "split_swap_ab",
    "256": "split_swap_ab",
    "512": "split_swap_ab",
    "1024": "split_swap_ab",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile"
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
     "mega": 0.224608,
     "mega_rounds": 0.225248,
     "mega_min8": 0.224064,
     "mega_min16": 0.224256,
     "split_swap_ab": 0.22432,
     "split_large_tile": 0.25264
    },
    "8": {
     "mega": 0.388448,
     "mega_rounds": 0.388896,
     "mega_min8": 0.388704,
     "mega_min16": 0.389088,
     "split_swap_ab": 0.395584,
     "split_large_tile": 0.424224
    },
    "16": {
     "mega": 0.622752,
     "mega_rounds": 0.6232,
     "mega_min8": 0.62304,
     "mega_min16": 0.62304,
     "split_swap_ab": 0.621056,
     "split_large_tile": 0.652736
    },
    "32": {
     "mega": 0.944768,
     "mega_rounds": 0.94544,
     "mega_min8": 0.944128,
     "mega_min16": 0.94368,
     "split_swap_ab": 0.918976,
     "split_large_tile": 0.956
    },
    "64": {
     "mega": 1.32931,
     "mega_rounds": 1.33069,
     "mega_min8": 1.32912,
     "mega_min16": 1.3279,
     "split_swap_ab": 1.30653,
     "split_large_tile": 1.3728
    },
    "128": {
     "split_swap_ab": 1.45264,
     "split_large_tile": 1.48128
    },
    "256": {
     "split_swap_ab": 1.50826,
     "split_large_tile": 1.53248
    },
    "512": {
     "split_swap_ab": 1.54045,
     "split_large_tile": 1.55754
    },
    "1024": {
     "split_swap_ab": 1.58851,
     "split_large_tile": 1.59885
    },
    "2048": {
     "split_swap_ab": 1.99552,
     "split_large_tile": 1.78768
    },
    "4096": {
     "split_swap_ab": 3.18384,
     "split_large_tile": 2.30378
    },
    "8192": {
     "split_swap_ab": 5.3679,
     "split_large_tile": 3.7335
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
    "4096": "split_large_tile",
    "8192": "split_large_tile"
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
     "split_swap_ab": 6.37194,
     "split_large_tile": 5.5487,
     "split_tma": 6.17395,
     "split_tma_act": 6.1567,
     "split_tma_act_large_fc2": 5.79248,
     "split_tma_small": 6.70797
    },
    "8192": {
     "split_swap_ab": 11.2347,
     "split_large_tile": 9.0015,
     "split_tma": 10.7143,
     "split_tma_act": 9.87338,
     "split_tma_act_large_fc2": 9.23344,
     "split_tma_small": 11.6732
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
    "2048": "split_tma_act_large_fc2",
    "4096": "split_tma_act_large_fc2",
    "8192": "split_tma_act_large_fc2"
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
     "split_swap_ab": 0.45776,
     "split_large_tile": 0.397408,
     "split_tma": 0.436736,
     "split_tma_act": 0.412,
     "split_tma_act_large_fc2": 0.384224,
     "split_tma_small": 0.46384
    },
    "4096": {
     "split_swap_ab": 0.829472,
     "split_large_tile": 0.65936,
     "split_tma": 0.714656,
     "split_tma_act": 0.688096,
     "split_tma_act_large_fc2": 0.643136,
     "split_tma_small": 0.830048
    },
    "8192": {
     "split_swap_ab": 1.50931,
     "split_large_tile": 1.20368,
     "split_tma": 1.29981,
     "split_tma_act": 1.204,
     "split_tma_act_large_fc2": 1.12323,
     "split_tma_small": 1.46074
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
    "8192": "split_tma_act_large_fc2"
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
     "split_swap_ab": 2.33197,
     "split_large_tile": 1.97142,
     "split_tma": 2.09325,
     "split_tma_act": 1.93734,
     "split_tma_act_large_fc2": 1.88326,
     "split_tma_small": 2.46416
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
     "split_swap_ab": 9.05427,
     "split_large_tile": 7.01021,
     "split_tma": 7.50458,
     "split_tma_act": 6.99222,
     "split_tma_act_large_fc2": 6.63184,
     "split_tma_small": 9.1649
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
    "2048": "split_tma",
    "4096": "split_tma_act_large_fc2",
    "8192": "split_tma_act_large_fc2"
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
     "split_swap_ab": 1.24931,
     "split_large_tile": 1.24755,
     "split_tma": 1.12128,
     "split_tma_act": 1.20867,
     "split_tma_act_large_fc2": 1.17043,
     "split_tma_small": 1.2264
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
     "split_swap_ab": 3.48899,
     "split_large_tile": 3.10797,
     "split_tma": 3.21283,
     "split_tma_act": 2.91354,
     "split_tma_act_large_fc2": 2.76976,
     "split_tma_small": 3.47978
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
    "4": "split_small",
    "8": "split_small",
    "16": "split_small_k1",
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
     "mega": 0.105152,
     "mega_rounds": 0.127264,
     "mega_min8": 0.100352,
     "mega_min16": 0.128384,
     "split_small": 0.09664,
     "split_small_k1": 0.095584,
     "split_small_k2": 0.0968,
     "split_large": 0.10112,
     "split_large_tma": 0.265632
    },
    "2": {
     "mega": 0.160864,
     "mega_rounds": 0.157632,
     "mega_min8": 0.160704,
     "mega_min16": 0.156992,
     "split_small": 0.15584,
     "split_small_k1": 0.155808,
     "split_small_k2": 0.156768,
     "split_large": 0.167168,
     "split_large_tma": 0.455072
    },
    "4": {
     "mega": 0.299904,
     "mega_rounds": 0.300224,
     "mega_min8": 0.297824,
     "mega_min16": 0.297728,
     "split_small": 0.276672,
     "split_small_k1": 0.276704,
     "split_small_k2": 0.287872,
     "split_large": 0.295072,
     "split_large_tma": 0.84896
    },
    "8": {
     "mega": 0.506336,
     "mega_rounds": 0.506688,
     "mega_min8": 0.506112,
     "mega_min16": 0.506368,
     "split_small": 0.458368,
     "split_small_k1": 0.458976,
     "split_small_k2": 0.483776,
     "split_large": 0.492928,
     "split_large_tma": 1.45459
    },
    "16": {
     "mega": 0.883392,
     "mega_rounds": 0.884064,
     "mega_min8": 0.884224,
     "mega_min16": 0.884032,
     "split_small": 0.783616,
     "split_small_k1": 0.781568,
     "split_small_k2": 0.829312,
     "split_large": 0.84144,
     "split_large_tma": 2.51078
    },
    "32": {
     "mega": 1.43299,
     "mega_rounds": 1.43363,
     "mega_min8": 1.43408,
     "mega_min16": 1.43366,
     "split_small": 1.2503,
     "split_small_k1": 1.26557,
     "split_small_k2": 1.36646,
     "split_large": 1.3504,
     "split_large_tma": 4.02726
    },
    "64": {
     "mega": 1.92986,
     "mega_rounds": 1.91885,
     "mega_min8": 1.91389,
     "mega_min16": 1.91747,
     "split_small": 1.67469,
     "split_small_k1": 1.71859,
     "split_small_k2": 1.80147,
     "split_large": 1.82602,
     "split_large_tma": 5.39981
    },
    "128": {
     "split_small": 2.07482,
     "split_small_k1": 2.11341,
     "split_small_k2": 2.25766,
     "split_large": 2.3249,
     "split_large_tma": 6.15114
    },
    "256": {
     "split_small": 2.06224,
     "split_small_k1": 2.3169,
     "split_small_k2": 2.60368,
     "split_large": 2.55542,
     "split_large_tma": 6.28982
    },
    "512": {
     "split_small": 2.65606,
     "split_large": 2.47898,
     "split_large_tma": 6.38627
    },
    "1024": {
     "split_small": 4.20778,
     "split_large": 3.03267,
     "split_large_tma": 6.48851
    },
    "2048": {
     "split_small": 7.50698,
     "split_large": 4.87747,
     "split_large_tma": 7.05069
    },
    "4096": {
     "split_small": 14.2891,
     "split_large": 7.75424,
     "split_large_tma": 8.64074
    },
    "8192": {
     "split_small": 30.5514,
     "split_large": 15.0013,
     "split_large_tma": 12.2985
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
    "2": "split_large",
    "4": "split_small",
    "8": "mega_min16",
    "16": "split_small_k1",
    "32": "split_small_k1",
    "64": "split_small_k1",
    "128": "split_small",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma",
    "8192": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.033152,
     "mega_rounds": 0.034016,
     "mega_min8": 0.036864,
     "mega_min16": 0.036896,
     "split_small": 0.034304,
     "split_small_k1": 0.032128,
     "split_small_k2": 0.034208,
     "split_large": 0.034304,
     "split_large_tma": 0.063904
    },
    "2": {
     "mega": 0.041472,
     "mega_rounds": 0.045824,
     "mega_min8": 0.044896,
     "mega_min16": 0.044832,
     "split_small": 0.04352,
     "split_small_k1": 0.041696,
     "split_small_k2": 0.043488,
     "split_large": 0.041344,
     "split_large_tma": 0.092672
    },
    "4": {
     "mega": 0.060352,
     "mega_rounds": 0.060768,
     "mega_min8": 0.060128,
     "mega_min16": 0.05968,
     "split_small": 0.057248,
     "split_small_k1": 0.057536,
     "split_small_k2": 0.060416,
     "split_large": 0.057408,
     "split_large_tma": 0.130432
    },
    "8": {
     "mega": 0.076736,
     "mega_rounds": 0.077024,
     "mega_min8": 0.076704,
     "mega_min16": 0.076416,
     "split_small": 0.076896,
     "split_small_k1": 0.076672,
     "split_small_k2": 0.08272,
     "split_large": 0.078656,
     "split_large_tma": 0.194176
    },
    "16": {
     "mega": 0.110528,
     "mega_rounds": 0.110592,
     "mega_min8": 0.110016,
     "mega_min16": 0.110304,
     "split_small": 0.104384,
     "split_small_k1": 0.10416,
     "split_small_k2": 0.116672,
     "split_large": 0.108416,
     "split_large_tma": 0.277216
    },
    "32": {
     "mega": 0.148352,
     "mega_rounds": 0.148608,
     "mega_min8": 0.147968,
     "mega_min16": 0.148064,
     "split_small": 0.134016,
     "split_small_k1": 0.133888,
     "split_small_k2": 0.149728,
     "split_large": 0.140128,
     "split_large_tma": 0.366528
    },
    "64": {
     "mega": 0.171936,
     "mega_rounds": 0.172704,
     "mega_min8": 0.171776,
     "mega_min16": 0.171712,
     "split_small": 0.146944,
     "split_small_k1": 0.146848,
     "split_small_k2": 0.164544,
     "split_large": 0.154848,
     "split_large_tma": 0.412704
    },
    "128": {
     "split_small": 0.157696,
     "split_small_k1": 0.157728,
     "split_small_k2": 0.179456,
     "split_large": 0.162208,
     "split_large_tma": 0.419648
    },
    "256": {
     "split_small": 0.181824,
     "split_small_k1": 0.181856,
     "split_small_k2": 0.210208,
     "split_large": 0.173312,
     "split_large_tma": 0.4248
    },
    "512": {
     "split_small": 0.28544,
     "split_large": 0.2112,
     "split_large_tma": 0.444512
    },
    "1024": {
     "split_small": 0.470272,
     "split_large": 0.324448,
     "split_large_tma": 0.500864
    },
    "2048": {
     "split_small": 0.84096,
     "split_large": 0.50128,
     "split_large_tma": 0.636032
    },
    "4096": {
     "split_small": 1.6303,
     "split_large": 0.932288,
     "split_large_tma": 0.911392
    },
    "8192": {
     "split_small": 3.50659,
     "split_large": 1.76403,
     "split_large_tma": 1.79715
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
    "1": "mega_min16",
    "2": "mega_rounds",
    "4": "split_small",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
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
     "mega": 0.10064,
     "mega_rounds": 0.1024,
     "mega_min8": 0.102688,
     "mega_min16": 0.09888,
     "split_small": 0.104544,
     "split_small_k1": 0.130848,
     "split_small_k2": 0.100064,
     "split_large": 0.148544,
     "split_large_tma": 0.302336
    },
    "2": {
     "mega": 0.137504,
     "mega_rounds": 0.129632,
     "mega_min8": 0.137568,
     "mega_min16": 0.1384,
     "split_small": 0.14448,
     "split_small_k1": 0.152288,
     "split_small_k2": 0.141984,
     "split_large": 0.172768,
     "split_large_tma": 0.377184
    },
    "4": {
     "mega": 0.272192,
     "mega_rounds": 0.265152,
     "mega_min8": 0.272288,
     "mega_min16": 0.272128,
     "split_small": 0.257088,
     "split_small_k1": 0.26224,
     "split_small_k2": 0.262624,
     "split_large": 0.278528,
     "split_large_tma": 0.733344
    },
    "8": {
     "mega": 0.301984,
     "mega_rounds": 0.29376,
     "mega_min8": 0.301824,
     "mega_min16": 0.301856,
     "split_small": 0.28032,
     "split_small_k1": 0.28576,
     "split_small_k2": 0.287232,
     "split_large": 0.303616,
     "split_large_tma": 0.808896
    },
    "16": {
     "mega": 0.3032,
     "mega_rounds": 0.294656,
     "mega_min8": 0.302976,
     "mega_min16": 0.302624,
     "split_small": 0.281568,
     "split_small_k1": 0.286432,
     "split_small_k2": 0.288352,
     "split_large": 0.303968,
     "split_large_tma": 0.805952
    },
    "32": {
     "mega": 0.332224,
     "mega_rounds": 0.357696,
     "mega_min8": 0.332096,
     "mega_min16": 0.332128,
     "split_small": 0.293824,
     "split_small_k1": 0.298176,
     "split_small_k2": 0.301312,
     "split_large": 0.308032,
     "split_large_tma": 0.807904
    },
    "64": {
     "mega": 0.466368,
     "mega_rounds": 0.467872,
     "mega_min8": 0.466592,
     "mega_min16": 0.466656,
     "split_small": 0.3312,
     "split_small_k1": 0.33552,
     "split_small_k2": 0.343872,
     "split_large": 0.33408,
     "split_large_tma": 0.846784
    },
    "128": {
     "split_small": 0.52256,
     "split_small_k1": 0.55344,
     "split_small_k2": 0.53888,
     "split_large": 0.388928,
     "split_large_tma": 0.839264
    },
    "256": {
     "split_small": 0.983712,
     "split_small_k1": 1.04678,
     "split_small_k2": 1.07478,
     "split_large": 0.63776,
     "split_large_tma": 0.949632
    },
    "512": {
     "split_small": 1.71936,
     "split_large": 0.876064,
     "split_large_tma": 1.0993
    },
    "1024": {
     "split_small": 3.4296,
     "split_large": 1.64224,
     "split_large_tma": 1.48022
    },
    "2048": {
     "split_small": 7.26797,
     "split_large": 3.42246,
     "split_large_tma": 3.02682
    },
    "4096": {
     "split_small": 13.5064,
     "split_large": 6.61734,
     "split_large_tma": 5.76253
    },
    "8192": {
     "split_small": 30.4942,
     "split_large": 12.9636,
     "split_large_tma": 10.5137
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
    "1": "split_small_k2",
    "2": "split_small_k2",
    "4": "split_small",
    "8": "split_small_k1",
    "16": "split_small_k1",
    "32": "split_small_k1",
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
     "mega": 0.057376,
     "mega_rounds": 0.053344,
     "mega_min8": 0.060288,
     "mega_min16": 0.060384,
     "split_small": 0.050432,
     "split_small_k1": 0.051552,
     "split_small_k2": 0.050368,
     "split_large": 0.055296,
     "split_large_tma": 0.121504
    },
    "2": {
     "mega": 0.069888,
     "mega_rounds": 0.07088,
     "mega_min8": 0.079808,
     "mega_min16": 0.080512,
     "split_small": 0.067776,
     "split_small_k1": 0.070784,
     "split_small_k2": 0.064832,
     "split_large": 0.071264,
     "split_large_tma": 0.173184
    },
    "4": {
     "mega": 0.1144,
     "mega_rounds": 0.114848,
     "mega_min8": 0.110944,
     "mega_min16": 0.110752,
     "split_small": 0.105056,
     "split_small_k1": 0.105376,
     "split_small_k2": 0.107392,
     "split_large": 0.10944,
     "split_large_tma": 0.287296
    },
    "8": {
     "mega": 0.1856,
     "mega_rounds": 0.185472,
     "mega_min8": 0.185152,
     "mega_min16": 0.185056,
     "split_small": 0.1736,
     "split_small_k1": 0.173152,
     "split_small_k2": 0.177696,
     "split_large": 0.180416,
     "split_large_tma": 0.499104
    },
    "16": {
     "mega": 0.297184,
     "mega_rounds": 0.29728,
     "mega_min8": 0.296512,
     "mega_min16": 0.297024,
     "split_small": 0.25616,
     "split_small_k1": 0.255872,
     "split_small_k2": 0.27248,
     "split_large": 0.26832,
     "split_large_tma": 0.766848
    },
    "32": {
     "mega": 0.435712,
     "mega_rounds": 0.436576,
     "mega_min8": 0.435584,
     "mega_min16": 0.43616,
     "split_small": 0.373856,
     "split_small_k1": 0.373184,
     "split_small_k2": 0.4024,
     "split_large": 0.392256,
     "split_large_tma": 1.13917
    },
    "64": {
     "mega": 0.62576,
     "mega_rounds": 0.626752,
     "mega_min8": 0.626336,
     "mega_min16": 0.626432,
     "split_small": 0.519424,
     "split_small_k1": 0.520224,
     "split_small_k2": 0.555712,
     "split_large": 0.544512,
     "split_large_tma": 1.59062
    },
    "128": {
     "split_small": 0.588128,
     "split_small_k1": 0.592096,
     "split_small_k2": 0.64816,
     "split_large": 0.648416,
     "split_large_tma": 1.81949
    },
    "256": {
     "split_small": 0.637056,
     "split_small_k1": 0.63808,
     "split_small_k2": 0.756608,
     "split_large": 0.702208,
     "split_large_tma": 1.88342
    },
    "512": {
     "split_small": 0.723136,
     "split_large": 0.690592,
     "split_large_tma": 1.89696
    },
    "1024": {
     "split_small": 1.20045,
     "split_large": 0.898976,
     "split_large_tma": 1.94573
    },
    "2048": {
     "split_small": 2.18275,
     "split_large": 1.444,
     "split_large_tma": 2.1368
    },
    "4096": {
     "split_small": 4.16064,
     "split_large": 2.20851,
     "split_large_tma": 2.68077
    },
    "8192": {
     "split_small": 9.48486,
     "split_large": 4.52675,
     "split_large_tma": 3.64186
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
    "2": "mega_min16",
    "4": "split_small",
    "8": "split_small",
    "16": "split_small_k1",
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
     "mega": 0.109696,
     "mega_rounds": 0.136896,
     "mega_min8": 0.106496,
     "mega_min16": 0.136704,
     "split_small": 0.1024,
     "split_small_k1": 0.10064,
     "split_small_k2": 0.102272,
     "split_large": 0.105184,
     "split_large_tma": 0.280704
    },
    "2": {
     "mega": 0.167296,
     "mega_rounds": 0.165312,
     "mega_min8": 0.167264,
     "mega_min16": 0.164256,
     "split_small": 0.165312,
     "split_small_k1": 0.165344,
     "split_small_k2": 0.167104,
     "split_large": 0.175648,
     "split_large_tma": 0.483168
    },
    "4": {
     "mega": 0.311392,
     "mega_rounds": 0.31184,
     "mega_min8": 0.311456,
     "mega_min16": 0.31136,
     "split_small": 0.292704,
     "split_small_k1": 0.294272,
     "split_small_k2": 0.306624,
     "split_large": 0.313824,
     "split_large_tma": 0.904064
    },
    "8": {
     "mega": 0.537632,
     "mega_rounds": 0.537664,
     "mega_min8": 0.537248,
     "mega_min16": 0.537152,
     "split_small": 0.487136,
     "split_small_k1": 0.487936,
     "split_small_k2": 0.5152,
     "split_large": 0.525024,
     "split_large_tma": 1.54442
    },
    "16": {
     "mega": 0.937024,
     "mega_rounds": 0.937248,
     "mega_min8": 0.9368,
     "mega_min16": 0.937568,
     "split_small": 0.834656,
     "split_small_k1": 0.8336,
     "split_small_k2": 0.884352,
     "split_large": 0.898592,
     "split_large_tma": 2.67398
    },
    "32": {
     "mega": 1.52054,
     "mega_rounds": 1.52086,
     "mega_min8": 1.52189,
     "mega_min16": 1.52214,
     "split_small": 1.33107,
     "split_small_k1": 1.35357,
     "split_small_k2": 1.44653,
     "split_large": 1.44362,
     "split_large_tma": 4.31392
    },
    "64": {
     "mega": 2.03667,
     "mega_rounds": 2.03254,
     "mega_min8": 2.03219,
     "mega_min16": 2.03648,
     "split_small": 1.77949,
     "split_small_k1": 1.83386,
     "split_small_k2": 1.93328,
     "split_large": 1.95654,
     "split_large_tma": 5.77475
    },
    "128": {
     "split_small": 2.20214,
     "split_small_k1": 2.23962,
     "split_small_k2": 2.39523,
     "split_large": 2.42688,
     "split_large_tma": 6.58771
    },
    "256": {
     "split_small": 2.25325,
     "split_small_k1": 2.50355,
     "split_small_k2": 2.7625,
     "split_large": 2.58058,
     "split_large_tma": 6.7353
    },
    "512": {
     "split_small": 2.7591,
     "split_large": 2.63149,
     "split_large_tma": 6.79638
    },
    "1024": {
     "split_small": 4.41216,
     "split_large": 3.2432,
     "split_large_tma": 6.87558
    },
    "2048": {
     "split_small": 7.85299,
     "split_large": 4.91389,
     "split_large_tma": 7.45123
    },
    "4096": {
     "split_small": 14.9442,
     "split_large": 7.96781,
     "split_large_tma": 9.28266
    },
    "8192": {
     "split_small": 32.2892,
     "split_large": 15.7964,
     "split_large_tma": 12.6599
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
    "2": "split_large",
    "4": "split_large",
    "8": "mega_min16",
    "16": "split_small_k1",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.034016,
     "mega_rounds": 0.03472,
     "mega_min8": 0.038112,
     "mega_min16": 0.038496,
     "split_small": 0.03568,
     "split_small_k1": 0.033088,
     "split_small_k2": 0.03568,
     "split_large": 0.03552,
     "split_large_tma": 0.065984
    },
    "2": {
     "mega": 0.043712,
     "mega_rounds": 0.047392,
     "mega_min8": 0.046656,
     "mega_min16": 0.046656,
     "split_small": 0.045088,
     "split_small_k1": 0.043712,
     "split_small_k2": 0.045152,
     "split_large": 0.0432,
     "split_large_tma": 0.096672
    },
    "4": {
     "mega": 0.062496,
     "mega_rounds": 0.0632,
     "mega_min8": 0.062816,
     "mega_min16": 0.062688,
     "split_small": 0.060096,
     "split_small_k1": 0.060192,
     "split_small_k2": 0.063552,
     "split_large": 0.059328,
     "split_large_tma": 0.136512
    },
    "8": {
     "mega": 0.080704,
     "mega_rounds": 0.079936,
     "mega_min8": 0.07984,
     "mega_min16": 0.079168,
     "split_small": 0.080928,
     "split_small_k1": 0.08144,
     "split_small_k2": 0.087232,
     "split_large": 0.0824,
     "split_large_tma": 0.202496
    },
    "16": {
     "mega": 0.115904,
     "mega_rounds": 0.115904,
     "mega_min8": 0.115488,
     "mega_min16": 0.1152,
     "split_small": 0.110976,
     "split_small_k1": 0.11056,
     "split_small_k2": 0.123872,
     "split_large": 0.113856,
     "split_large_tma": 0.289792
    },
    "32": {
     "mega": 0.155392,
     "mega_rounds": 0.156128,
     "mega_min8": 0.155712,
     "mega_min16": 0.155296,
     "split_small": 0.141632,
     "split_small_k1": 0.141664,
     "split_small_k2": 0.158432,
     "split_large": 0.146944,
     "split_large_tma": 0.392192
    },
    "64": {
     "mega": 0.178528,
     "mega_rounds": 0.179072,
     "mega_min8": 0.178368,
     "mega_min16": 0.179072,
     "split_small": 0.156416,
     "split_small_k1": 0.156608,
     "split_small_k2": 0.17488,
     "split_large": 0.162848,
     "split_large_tma": 0.4296
    },
    "128": {
     "split_small": 0.1664,
     "split_small_k1": 0.1664,
     "split_small_k2": 0.189408,
     "split_large": 0.169632,
     "split_large_tma": 0.4344
    },
    "256": {
     "split_small": 0.1888,
     "split_small_k1": 0.18848,
     "split_small_k2": 0.216544,
     "split_large": 0.18112,
     "split_large_tma": 0.440352
    },
    "512": {
     "split_small": 0.299264,
     "split_large": 0.221856,
     "split_large_tma": 0.4648
    },
    "1024": {
     "split_small": 0.490048,
     "split_large": 0.33248,
     "split_large_tma": 0.516416
    },
    "2048": {
     "split_small": 0.870208,
     "split_large": 0.516288,
     "split_large_tma": 0.662912
    },
    "4096": {
     "split_small": 1.65539,
     "split_large": 0.948256,
     "split_large_tma": 0.956352
    },
    "8192": {
     "split_small": 3.67875,
     "split_large": 1.83606,
     "split_large_tma": 1.8697
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
    "1": "mega",
    "2": "mega_rounds",
    "4": "split_small",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_large",
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
     "mega": 0.103648,
     "mega_rounds": 0.111232,
     "mega_min8": 0.106784,
     "mega_min16": 0.105504,
     "split_small": 0.110784,
     "split_small_k1": 0.137952,
     "split_small_k2": 0.10576,
     "split_large": 0.152608,
     "split_large_tma": 0.321376
    },
    "2": {
     "mega": 0.145984,
     "mega_rounds": 0.137856,
     "mega_min8": 0.145952,
     "mega_min16": 0.1496,
     "split_small": 0.152896,
     "split_small_k1": 0.162368,
     "split_small_k2": 0.149888,
     "split_large": 0.17808,
     "split_large_tma": 0.402208
    },
    "4": {
     "mega": 0.288256,
     "mega_rounds": 0.283104,
     "mega_min8": 0.288,
     "mega_min16": 0.288128,
     "split_small": 0.273984,
     "split_small_k1": 0.278464,
     "split_small_k2": 0.279616,
     "split_large": 0.293952,
     "split_large_tma": 0.783424
    },
    "8": {
     "mega": 0.32368,
     "mega_rounds": 0.33936,
     "mega_min8": 0.323296,
     "mega_min16": 0.32304,
     "split_small": 0.298592,
     "split_small_k1": 0.302816,
     "split_small_k2": 0.304352,
     "split_large": 0.320128,
     "split_large_tma": 0.864096
    },
    "16": {
     "mega": 0.324864,
     "mega_rounds": 0.322304,
     "mega_min8": 0.32432,
     "mega_min16": 0.32464,
     "split_small": 0.300704,
     "split_small_k1": 0.304,
     "split_small_k2": 0.306464,
     "split_large": 0.321568,
     "split_large_tma": 0.862016
    },
    "32": {
     "mega": 0.35136,
     "mega_rounds": 0.351744,
     "mega_min8": 0.350784,
     "mega_min16": 0.350816,
     "split_small": 0.312576,
     "split_small_k1": 0.320704,
     "split_small_k2": 0.320608,
     "split_large": 0.324704,
     "split_large_tma": 0.863808
    },
    "64": {
     "mega": 0.501952,
     "mega_rounds": 0.5024,
     "mega_min8": 0.502304,
     "mega_min16": 0.501952,
     "split_small": 0.34992,
     "split_small_k1": 0.35392,
     "split_small_k2": 0.363904,
     "split_large": 0.34912,
     "split_large_tma": 0.875744
    },
    "128": {
     "split_small": 0.549664,
     "split_small_k1": 0.583168,
     "split_small_k2": 0.567424,
     "split_large": 0.420128,
     "split_large_tma": 0.90256
    },
    "256": {
     "split_small": 1.04611,
     "split_small_k1": 1.12102,
     "split_small_k2": 1.12458,
     "split_large": 0.63824,
     "split_large_tma": 0.997664
    },
    "512": {
     "split_small": 1.83466,
     "split_large": 0.91056,
     "split_large_tma": 1.16627
    },
    "1024": {
     "split_small": 3.32784,
     "split_large": 1.69184,
     "split_large_tma": 1.57744
    },
    "2048": {
     "split_small": 7.67754,
     "split_large": 3.64051,
     "split_large_tma": 3.12618
    },
    "4096": {
     "split_small": 14.0485,
     "split_large": 6.90454,
     "split_large_tma": 5.88278
    },
    "8192": {
     "split_small": 32.2924,
     "split_large": 13.4085,
     "split_large_tma": 10.9513
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
    "1": "split_small_k2",
    "2": "split_small_k2",
    "4": "split_small_k1",
    "8": "split_small_k1",
    "16": "split_small_k1",
    "32": "split_small_k1",
    "64": "split_small",
    "128": "split_small",
    "256": "split_small",
    "512": "split_small",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.058528,
     "mega_rounds": 0.05504,
     "mega_min8": 0.062656,
     "mega_min16": 0.062592,
     "split_small": 0.052704,
     "split_small_k1": 0.053728,
     "split_small_k2": 0.052384,
     "split_large": 0.057024,
     "split_large_tma": 0.126912
    },
    "2": {
     "mega": 0.070912,
     "mega_rounds": 0.072256,
     "mega_min8": 0.083232,
     "mega_min16": 0.083136,
     "split_small": 0.070752,
     "split_small_k1": 0.07408,
     "split_small_k2": 0.06816,
     "split_large": 0.074368,
     "split_large_tma": 0.183584
    },
    "4": {
     "mega": 0.119712,
     "mega_rounds": 0.11968,
     "mega_min8": 0.116192,
     "mega_min16": 0.116288,
     "split_small": 0.110912,
     "split_small_k1": 0.11088,
     "split_small_k2": 0.11328,
     "split_large": 0.115744,
     "split_large_tma": 0.301376
    },
    "8": {
     "mega": 0.193664,
     "mega_rounds": 0.194208,
     "mega_min8": 0.194048,
     "mega_min16": 0.193888,
     "split_small": 0.183392,
     "split_small_k1": 0.183008,
     "split_small_k2": 0.187744,
     "split_large": 0.190528,
     "split_large_tma": 0.5296
    },
    "16": {
     "mega": 0.315776,
     "mega_rounds": 0.31664,
     "mega_min8": 0.316032,
     "mega_min16": 0.316224,
     "split_small": 0.273152,
     "split_small_k1": 0.27312,
     "split_small_k2": 0.291456,
     "split_large": 0.286272,
     "split_large_tma": 0.814464
    },
    "32": {
     "mega": 0.459072,
     "mega_rounds": 0.458624,
     "mega_min8": 0.458432,
     "mega_min16": 0.458368,
     "split_small": 0.397088,
     "split_small_k1": 0.396864,
     "split_small_k2": 0.430944,
     "split_large": 0.417312,
     "split_large_tma": 1.21331
    },
    "64": {
     "mega": 0.661984,
     "mega_rounds": 0.66192,
     "mega_min8": 0.661408,
     "mega_min16": 0.660992,
     "split_small": 0.552384,
     "split_small_k1": 0.554368,
     "split_small_k2": 0.596,
     "split_large": 0.581664,
     "split_large_tma": 1.69299
    },
    "128": {
     "split_small": 0.626816,
     "split_small_k1": 0.629472,
     "split_small_k2": 0.71344,
     "split_large": 0.70448,
     "split_large_tma": 1.93242
    },
    "256": {
     "split_small": 0.688448,
     "split_small_k1": 0.722176,
     "split_small_k2": 0.81472,
     "split_large": 0.751616,
     "split_large_tma": 1.98624
    },
    "512": {
     "split_small": 0.765792,
     "split_large": 0.785344,
     "split_large_tma": 2.00563
    },
    "1024": {
     "split_small": 1.3289,
     "split_large": 0.967872,
     "split_large_tma": 2.06074
    },
    "2048": {
     "split_small": 2.27235,
     "split_large": 1.49597,
     "split_large_tma": 2.28339
    },
    "4096": {
     "split_small": 4.30288,
     "split_large": 2.35242,
     "split_large_tma": 2.73306
    },
    "8192": {
     "split_small": 9.8697,
     "split_large": 4.7417,
     "split_large_tma": 3.79638
    }
   }
  }
 ]
})json";
}

}  // namespace megamoe
