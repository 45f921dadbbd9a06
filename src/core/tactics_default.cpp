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
    "4": "mega",
    "8": "mega_rounds",
    "16": "mega_rounds",
    "32": "mega_rounds",
    "64": "split_swap_ab",
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
     "mega": 0.215104,
     "mega_rounds": 0.215616,
     "split_swap_ab": 0.227712,
     "split_large_tile": 0.246432
    },
    "2": {
     "mega": 0.368,
     "mega_rounds": 0.337024,
     "split_swap_ab": 0.355936,
     "split_large_tile": 0.39968
    },
    "4": {
     "mega": 0.67248,
     "mega_rounds": 0.674112,
     "split_swap_ab": 0.696672,
     "split_large_tile": 0.742752
    },
    "8": {
     "mega": 1.1824,
     "mega_rounds": 1.18122,
     "split_swap_ab": 1.19779,
     "split_large_tile": 1.27677
    },
    "16": {
     "mega": 2.07712,
     "mega_rounds": 2.06614,
     "split_swap_ab": 2.08336,
     "split_large_tile": 2.23446
    },
    "32": {
     "mega": 3.34845,
     "mega_rounds": 3.33866,
     "split_swap_ab": 3.35898,
     "split_large_tile": 3.60038
    },
    "64": {
     "mega": 4.74957,
     "mega_rounds": 4.52909,
     "split_swap_ab": 4.5023,
     "split_large_tile": 4.90122
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
    "1": "mega_rounds",
    "2": "mega_rounds",
    "4": "mega_rounds",
    "8": "mega",
    "16": "mega",
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
     "mega": 0.056,
     "mega_rounds": 0.055616,
     "split_swap_ab": 0.059456,
     "split_large_tile": 0.075008
    },
    "2": {
     "mega": 0.074368,
     "mega_rounds": 0.066272,
     "split_swap_ab": 0.076832,
     "split_large_tile": 0.083264
    },
    "4": {
     "mega": 0.114848,
     "mega_rounds": 0.108512,
     "split_swap_ab": 0.119328,
     "split_large_tile": 0.140128
    },
    "8": {
     "mega": 0.145312,
     "mega_rounds": 0.146496,
     "split_swap_ab": 0.159008,
     "split_large_tile": 0.190784
    },
    "16": {
     "mega": 0.223168,
     "mega_rounds": 0.223584,
     "split_swap_ab": 0.22624,
     "split_large_tile": 0.24784
    },
    "32": {
     "mega": 0.299136,
     "mega_rounds": 0.301632,
     "split_swap_ab": 0.297088,
     "split_large_tile": 0.333536
    },
    "64": {
     "mega": 0.331008,
     "mega_rounds": 0.330976,
     "split_swap_ab": 0.328448,
     "split_large_tile": 0.351968
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
    "2": "mega",
    "4": "mega",
    "8": "mega",
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
     "mega": 0.218272,
     "mega_rounds": 0.208,
     "split_swap_ab": 0.226048,
     "split_large_tile": 0.348416
    },
    "2": {
     "mega": 0.28976,
     "mega_rounds": 0.29824,
     "split_swap_ab": 0.300736,
     "split_large_tile": 0.424256
    },
    "4": {
     "mega": 0.623552,
     "mega_rounds": 0.682464,
     "split_swap_ab": 0.624096,
     "split_large_tile": 0.709088
    },
    "8": {
     "mega": 0.694624,
     "mega_rounds": 0.783168,
     "split_swap_ab": 0.698208,
     "split_large_tile": 0.791072
    },
    "16": {
     "mega": 0.696192,
     "mega_rounds": 0.781056,
     "split_swap_ab": 0.692544,
     "split_large_tile": 0.79184
    },
    "32": {
     "mega": 0.70368,
     "mega_rounds": 0.80208,
     "split_swap_ab": 0.699104,
     "split_large_tile": 0.779904
    },
    "64": {
     "mega": 0.930688,
     "mega_rounds": 0.930208,
     "split_swap_ab": 0.732352,
     "split_large_tile": 0.778752
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
    "1": "mega_rounds",
    "2": "mega",
    "4": "mega",
    "8": "mega_rounds",
    "16": "mega",
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
     "mega": 0.08976,
     "mega_rounds": 0.086592,
     "split_swap_ab": 0.095296,
     "split_large_tile": 0.110016
    },
    "2": {
     "mega": 0.118496,
     "mega_rounds": 0.125088,
     "split_swap_ab": 0.129632,
     "split_large_tile": 0.162816
    },
    "4": {
     "mega": 0.225248,
     "mega_rounds": 0.226016,
     "split_swap_ab": 0.227744,
     "split_large_tile": 0.26672
    },
    "8": {
     "mega": 0.3904,
     "mega_rounds": 0.389888,
     "split_swap_ab": 0.403392,
     "split_large_tile": 0.446176
    },
    "16": {
     "mega": 0.624224,
     "mega_rounds": 0.625248,
     "split_swap_ab": 0.627552,
     "split_large_tile": 0.68608
    },
    "32": {
     "mega": 0.94832,
     "mega_rounds": 0.949216,
     "split_swap_ab": 0.93936,
     "split_large_tile": 1.0007
    },
    "64": {
     "mega": 1.33638,
     "mega_rounds": 1.33773,
     "split_swap_ab": 1.32899,
     "split_large_tile": 1.43178
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
    "1": "split_swap_ab",
    "2": "mega_rounds",
    "4": "split_swap_ab",
    "8": "split_swap_ab",
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
     "mega": 0.138304,
     "mega_rounds": 0.129632,
     "split_swap_ab": 0.127808,
     "split_large_tile": 0.174368
    },
    "2": {
     "mega": 0.205344,
     "mega_rounds": 0.195648,
     "split_swap_ab": 0.199712,
     "split_large_tile": 0.289984
    },
    "4": {
     "mega": 0.381376,
     "mega_rounds": 0.380192,
     "split_swap_ab": 0.37008,
     "split_large_tile": 0.552096
    },
    "8": {
     "mega": 0.687232,
     "mega_rounds": 0.648352,
     "split_swap_ab": 0.613504,
     "split_large_tile": 0.909536
    },
    "16": {
     "mega": 1.12838,
     "mega_rounds": 1.12854,
     "split_swap_ab": 1.05731,
     "split_large_tile": 1.54422
    },
    "32": {
     "mega": 1.83222,
     "mega_rounds": 1.83488,
     "split_swap_ab": 1.70845,
     "split_large_tile": 2.40586
    },
    "64": {
     "mega": 2.44592,
     "mega_rounds": 2.44518,
     "split_swap_ab": 2.27952,
     "split_large_tile": 3.15574
    },
    "128": {
     "split_swap_ab": 2.63027,
     "split_large_tile": 3.62291
    },
    "256": {
     "split_swap_ab": 2.74829,
     "split_large_tile": 3.66835
    },
    "512": {
     "split_swap_ab": 2.83923,
     "split_large_tile": 3.65443
    },
    "1024": {
     "split_swap_ab": 3.02125,
     "split_large_tile": 3.73635
    },
    "2048": {
     "split_swap_ab": 3.94749,
     "split_large_tile": 3.83514
    },
    "4096": {
     "split_swap_ab": 6.77904,
     "split_large_tile": 5.69827
    },
    "8192": {
     "split_swap_ab": 10.6113,
     "split_large_tile": 9.35107
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
    "1": "mega_rounds",
    "2": "mega",
    "4": "mega",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab",
    "128": "split_swap_ab",
    "256": "split_swap_ab",
    "512": "split_swap_ab",
    "1024": "split_large_tile",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile"
   },
   "measured_ms": {
    "1": {
     "mega": 0.047072,
     "mega_rounds": 0.04528,
     "split_swap_ab": 0.048416,
     "split_large_tile": 0.051584
    },
    "2": {
     "mega": 0.054368,
     "mega_rounds": 0.054816,
     "split_swap_ab": 0.05648,
     "split_large_tile": 0.0664
    },
    "4": {
     "mega": 0.076832,
     "mega_rounds": 0.077472,
     "split_swap_ab": 0.07792,
     "split_large_tile": 0.093024
    },
    "8": {
     "mega": 0.110848,
     "mega_rounds": 0.110976,
     "split_swap_ab": 0.107744,
     "split_large_tile": 0.136416
    },
    "16": {
     "mega": 0.154816,
     "mega_rounds": 0.145984,
     "split_swap_ab": 0.139648,
     "split_large_tile": 0.184864
    },
    "32": {
     "mega": 0.192,
     "mega_rounds": 0.19216,
     "split_swap_ab": 0.174464,
     "split_large_tile": 0.232992
    },
    "64": {
     "mega": 0.218208,
     "mega_rounds": 0.219168,
     "split_swap_ab": 0.19312,
     "split_large_tile": 0.250112
    },
    "128": {
     "split_swap_ab": 0.203424,
     "split_large_tile": 0.256096
    },
    "256": {
     "split_swap_ab": 0.21184,
     "split_large_tile": 0.26048
    },
    "512": {
     "split_swap_ab": 0.237312,
     "split_large_tile": 0.267744
    },
    "1024": {
     "split_swap_ab": 0.299488,
     "split_large_tile": 0.28688
    },
    "2048": {
     "split_swap_ab": 0.459456,
     "split_large_tile": 0.396704
    },
    "4096": {
     "split_swap_ab": 0.80288,
     "split_large_tile": 0.65248
    },
    "8192": {
     "split_swap_ab": 1.52998,
     "split_large_tile": 1.18912
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
    "2": "mega",
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab",
    "128": "split_swap_ab",
    "256": "split_large_tile",
    "512": "split_swap_ab",
    "1024": "split_large_tile",
    "2048": "split_large_tile",
    "4096": "split_large_tile",
    "8192": "split_large_tile"
   },
   "measured_ms": {
    "1": {
     "mega": 0.138816,
     "mega_rounds": 0.126304,
     "split_swap_ab": 0.13632,
     "split_large_tile": 0.205312
    },
    "2": {
     "mega": 0.168672,
     "mega_rounds": 0.183424,
     "split_swap_ab": 0.172832,
     "split_large_tile": 0.268064
    },
    "4": {
     "mega": 0.347168,
     "mega_rounds": 0.35856,
     "split_swap_ab": 0.33392,
     "split_large_tile": 0.53888
    },
    "8": {
     "mega": 0.400256,
     "mega_rounds": 0.439392,
     "split_swap_ab": 0.363232,
     "split_large_tile": 0.577984
    },
    "16": {
     "mega": 0.398656,
     "mega_rounds": 0.438816,
     "split_swap_ab": 0.366336,
     "split_large_tile": 0.575232
    },
    "32": {
     "mega": 0.426816,
     "mega_rounds": 0.470912,
     "split_swap_ab": 0.372864,
     "split_large_tile": 0.577408
    },
    "64": {
     "mega": 0.585888,
     "mega_rounds": 0.584384,
     "split_swap_ab": 0.381952,
     "split_large_tile": 0.583392
    },
    "128": {
     "split_swap_ab": 0.401728,
     "split_large_tile": 0.560576
    },
    "256": {
     "split_swap_ab": 0.531744,
     "split_large_tile": 0.521696
    },
    "512": {
     "split_swap_ab": 0.67216,
     "split_large_tile": 0.677664
    },
    "1024": {
     "split_swap_ab": 1.19293,
     "split_large_tile": 1.04861
    },
    "2048": {
     "split_swap_ab": 2.48029,
     "split_large_tile": 2.01306
    },
    "4096": {
     "split_swap_ab": 4.9313,
     "split_large_tile": 3.55782
    },
    "8192": {
     "split_swap_ab": 8.75091,
     "split_large_tile": 7.3287
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
    "2": "split_swap_ab",
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab",
    "128": "split_swap_ab",
    "256": "split_swap_ab",
    "512": "split_swap_ab",
    "1024": "split_swap_ab",
    "2048": "split_swap_ab",
    "4096": "split_large_tile",
    "8192": "split_large_tile"
   },
   "measured_ms": {
    "1": {
     "mega": 0.071872,
     "mega_rounds": 0.064832,
     "split_swap_ab": 0.070112,
     "split_large_tile": 0.087776
    },
    "2": {
     "mega": 0.09056,
     "mega_rounds": 0.09136,
     "split_swap_ab": 0.090272,
     "split_large_tile": 0.11536
    },
    "4": {
     "mega": 0.1464,
     "mega_rounds": 0.14688,
     "split_swap_ab": 0.140928,
     "split_large_tile": 0.222528
    },
    "8": {
     "mega": 0.248256,
     "mega_rounds": 0.24832,
     "split_swap_ab": 0.226208,
     "split_large_tile": 0.35248
    },
    "16": {
     "mega": 0.383616,
     "mega_rounds": 0.38336,
     "split_swap_ab": 0.3392,
     "split_large_tile": 0.52176
    },
    "32": {
     "mega": 0.562688,
     "mega_rounds": 0.564,
     "split_swap_ab": 0.492,
     "split_large_tile": 0.742816
    },
    "64": {
     "mega": 0.796736,
     "mega_rounds": 0.796416,
     "split_swap_ab": 0.699904,
     "split_large_tile": 1.03658
    },
    "128": {
     "split_swap_ab": 0.783424,
     "split_large_tile": 1.12762
    },
    "256": {
     "split_swap_ab": 0.83296,
     "split_large_tile": 1.15056
    },
    "512": {
     "split_swap_ab": 0.8648,
     "split_large_tile": 1.16237
    },
    "1024": {
     "split_swap_ab": 0.926656,
     "split_large_tile": 1.17603
    },
    "2048": {
     "split_swap_ab": 1.20237,
     "split_large_tile": 1.25664
    },
    "4096": {
     "split_swap_ab": 2.05075,
     "split_large_tile": 1.84454
    },
    "8192": {
     "split_swap_ab": 3.67866,
     "split_large_tile": 3.31478
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
    "1": "mega_rounds",
    "2": "mega_rounds",
    "4": "mega",
    "8": "mega",
    "16": "split_small",
    "32": "split_small",
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
     "mega": 0.10784,
     "mega_rounds": 0.096704,
     "split_small": 0.110656,
     "split_large": 0.108128,
     "split_large_tma": 0.26608
    },
    "2": {
     "mega": 0.163008,
     "mega_rounds": 0.15664,
     "split_small": 0.173856,
     "split_large": 0.196864,
     "split_large_tma": 0.45808
    },
    "4": {
     "mega": 0.301952,
     "mega_rounds": 0.30208,
     "split_small": 0.313024,
     "split_large": 0.322336,
     "split_large_tma": 0.854784
    },
    "8": {
     "mega": 0.514304,
     "mega_rounds": 0.514688,
     "split_small": 0.51856,
     "split_large": 0.534944,
     "split_large_tma": 1.44157
    },
    "16": {
     "mega": 0.889216,
     "mega_rounds": 0.889408,
     "split_small": 0.881568,
     "split_large": 0.911936,
     "split_large_tma": 2.49968
    },
    "32": {
     "mega": 1.44333,
     "mega_rounds": 1.44403,
     "split_small": 1.41104,
     "split_large": 1.45658,
     "split_large_tma": 3.99597
    },
    "64": {
     "mega": 1.92762,
     "mega_rounds": 1.92886,
     "split_small": 1.86826,
     "split_large": 1.93091,
     "split_large_tma": 5.35974
    },
    "128": {
     "split_small": 2.15578,
     "split_large": 2.23498,
     "split_large_tma": 6.12093
    },
    "256": {
     "split_small": 2.36022,
     "split_large": 2.3839,
     "split_large_tma": 6.29914
    },
    "512": {
     "split_small": 2.54355,
     "split_large": 2.55686,
     "split_large_tma": 6.37808
    },
    "1024": {
     "split_small": 4.25562,
     "split_large": 3.05766,
     "split_large_tma": 6.49088
    },
    "2048": {
     "split_small": 7.48909,
     "split_large": 4.76352,
     "split_large_tma": 7.05667
    },
    "4096": {
     "split_small": 14.341,
     "split_large": 7.75574,
     "split_large_tma": 8.52256
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
    "1": "mega",
    "2": "mega",
    "4": "mega",
    "8": "mega",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small",
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
     "mega": 0.033664,
     "mega_rounds": 0.03424,
     "split_small": 0.036224,
     "split_large": 0.0352,
     "split_large_tma": 0.064544
    },
    "2": {
     "mega": 0.042592,
     "mega_rounds": 0.04528,
     "split_small": 0.046464,
     "split_large": 0.04352,
     "split_large_tma": 0.093344
    },
    "4": {
     "mega": 0.061408,
     "mega_rounds": 0.062336,
     "split_small": 0.061824,
     "split_large": 0.063264,
     "split_large_tma": 0.130816
    },
    "8": {
     "mega": 0.07824,
     "mega_rounds": 0.078368,
     "split_small": 0.082528,
     "split_large": 0.084928,
     "split_large_tma": 0.19552
    },
    "16": {
     "mega": 0.112576,
     "mega_rounds": 0.112896,
     "split_small": 0.110208,
     "split_large": 0.114112,
     "split_large_tma": 0.27936
    },
    "32": {
     "mega": 0.152128,
     "mega_rounds": 0.152096,
     "split_small": 0.139584,
     "split_large": 0.145696,
     "split_large_tma": 0.369664
    },
    "64": {
     "mega": 0.17584,
     "mega_rounds": 0.176288,
     "split_small": 0.152512,
     "split_large": 0.160032,
     "split_large_tma": 0.416928
    },
    "128": {
     "split_small": 0.163296,
     "split_large": 0.165696,
     "split_large_tma": 0.417536
    },
    "256": {
     "split_small": 0.186048,
     "split_large": 0.177216,
     "split_large_tma": 0.422688
    },
    "512": {
     "split_small": 0.29088,
     "split_large": 0.214528,
     "split_large_tma": 0.444832
    },
    "1024": {
     "split_small": 0.479264,
     "split_large": 0.325344,
     "split_large_tma": 0.499776
    },
    "2048": {
     "split_small": 0.849952,
     "split_large": 0.504992,
     "split_large_tma": 0.634848
    },
    "4096": {
     "split_small": 1.60742,
     "split_large": 0.92368,
     "split_large_tma": 0.902496
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
    "1": "mega_rounds",
    "2": "mega_rounds",
    "4": "mega_rounds",
    "8": "mega_rounds",
    "16": "mega_rounds",
    "32": "mega",
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
     "mega": 0.108352,
     "mega_rounds": 0.104032,
     "split_small": 0.11168,
     "split_large": 0.15696,
     "split_large_tma": 0.304576
    },
    "2": {
     "mega": 0.139328,
     "mega_rounds": 0.131328,
     "split_small": 0.15392,
     "split_large": 0.180608,
     "split_large_tma": 0.379072
    },
    "4": {
     "mega": 0.27472,
     "mega_rounds": 0.266656,
     "split_small": 0.289408,
     "split_large": 0.295584,
     "split_large_tma": 0.734336
    },
    "8": {
     "mega": 0.304256,
     "mega_rounds": 0.296096,
     "split_small": 0.320608,
     "split_large": 0.326976,
     "split_large_tma": 0.807872
    },
    "16": {
     "mega": 0.305376,
     "mega_rounds": 0.297504,
     "split_small": 0.323776,
     "split_large": 0.329984,
     "split_large_tma": 0.806624
    },
    "32": {
     "mega": 0.33456,
     "mega_rounds": 0.35872,
     "split_small": 0.33584,
     "split_large": 0.3352,
     "split_large_tma": 0.80768
    },
    "64": {
     "mega": 0.46864,
     "mega_rounds": 0.468736,
     "split_small": 0.362912,
     "split_large": 0.348512,
     "split_large_tma": 0.814368
    },
    "128": {
     "split_small": 0.537184,
     "split_large": 0.392768,
     "split_large_tma": 0.825056
    },
    "256": {
     "split_small": 1.0119,
     "split_large": 0.602528,
     "split_large_tma": 0.930944
    },
    "512": {
     "split_small": 1.79072,
     "split_large": 0.871424,
     "split_large_tma": 1.088
    },
    "1024": {
     "split_small": 3.46618,
     "split_large": 1.62643,
     "split_large_tma": 1.45763
    },
    "2048": {
     "split_small": 7.18163,
     "split_large": 3.51536,
     "split_large_tma": 3.00672
    },
    "4096": {
     "split_small": 13.6476,
     "split_large": 6.35978,
     "split_large_tma": 5.7169
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
    "1": "split_small",
    "2": "split_small",
    "4": "split_small",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.059008,
     "mega_rounds": 0.054496,
     "split_small": 0.051648,
     "split_large": 0.055392,
     "split_large_tma": 0.120736
    },
    "2": {
     "mega": 0.075456,
     "mega_rounds": 0.076544,
     "split_small": 0.072448,
     "split_large": 0.075584,
     "split_large_tma": 0.172064
    },
    "4": {
     "mega": 0.114016,
     "mega_rounds": 0.114784,
     "split_small": 0.112992,
     "split_large": 0.115616,
     "split_large_tma": 0.285024
    },
    "8": {
     "mega": 0.18576,
     "mega_rounds": 0.185952,
     "split_small": 0.181632,
     "split_large": 0.187936,
     "split_large_tma": 0.499008
    },
    "16": {
     "mega": 0.299104,
     "mega_rounds": 0.299488,
     "split_small": 0.268384,
     "split_large": 0.27824,
     "split_large_tma": 0.76464
    },
    "32": {
     "mega": 0.439136,
     "mega_rounds": 0.43936,
     "split_small": 0.384544,
     "split_large": 0.40032,
     "split_large_tma": 1.1384
    },
    "64": {
     "mega": 0.631872,
     "mega_rounds": 0.631456,
     "split_small": 0.532288,
     "split_large": 0.554432,
     "split_large_tma": 1.58899
    },
    "128": {
     "split_small": 0.598816,
     "split_large": 0.622304,
     "split_large_tma": 1.77827
    },
    "256": {
     "split_small": 0.659136,
     "split_large": 0.657632,
     "split_large_tma": 1.85392
    },
    "512": {
     "split_small": 0.741248,
     "split_large": 0.739584,
     "split_large_tma": 1.94842
    },
    "1024": {
     "split_small": 1.22883,
     "split_large": 0.906144,
     "split_large_tma": 1.95456
    },
    "2048": {
     "split_small": 2.19456,
     "split_large": 1.43386,
     "split_large_tma": 2.13507
    },
    "4096": {
     "split_small": 4.1441,
     "split_large": 2.20189,
     "split_large_tma": 2.60794
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
    "1": "split_large",
    "2": "mega_rounds",
    "4": "mega",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
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
     "mega": 0.112192,
     "mega_rounds": 0.13536,
     "split_small": 0.11424,
     "split_large": 0.112,
     "split_large_tma": 0.280544
    },
    "2": {
     "mega": 0.169824,
     "mega_rounds": 0.167648,
     "split_small": 0.180832,
     "split_large": 0.205088,
     "split_large_tma": 0.484
    },
    "4": {
     "mega": 0.313856,
     "mega_rounds": 0.3144,
     "split_small": 0.325568,
     "split_large": 0.336256,
     "split_large_tma": 0.922272
    },
    "8": {
     "mega": 0.546976,
     "mega_rounds": 0.5472,
     "split_small": 0.541792,
     "split_large": 0.559424,
     "split_large_tma": 1.5641
    },
    "16": {
     "mega": 0.95152,
     "mega_rounds": 0.946624,
     "split_small": 0.917536,
     "split_large": 0.9472,
     "split_large_tma": 2.67827
    },
    "32": {
     "mega": 1.53392,
     "mega_rounds": 1.53546,
     "split_small": 1.46707,
     "split_large": 1.51424,
     "split_large_tma": 4.31638
    },
    "64": {
     "mega": 2.06659,
     "mega_rounds": 2.04774,
     "split_small": 1.95898,
     "split_large": 2.02362,
     "split_large_tma": 5.7807
    },
    "128": {
     "split_small": 2.24659,
     "split_large": 2.36931,
     "split_large_tma": 6.55997
    },
    "256": {
     "split_small": 2.43805,
     "split_large": 2.46416,
     "split_large_tma": 6.7559
    },
    "512": {
     "split_small": 2.62486,
     "split_large": 2.68278,
     "split_large_tma": 6.80032
    },
    "1024": {
     "split_small": 4.41866,
     "split_large": 3.25882,
     "split_large_tma": 6.89062
    },
    "2048": {
     "split_small": 7.87533,
     "split_large": 4.87821,
     "split_large_tma": 7.44659
    },
    "4096": {
     "split_small": 15.1247,
     "split_large": 7.95645,
     "split_large_tma": 9.13901
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
    "1": "mega",
    "2": "split_large",
    "4": "split_small",
    "8": "mega",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small",
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
     "mega": 0.03472,
     "mega_rounds": 0.03568,
     "split_small": 0.03728,
     "split_large": 0.03616,
     "split_large_tma": 0.066592
    },
    "2": {
     "mega": 0.044544,
     "mega_rounds": 0.04736,
     "split_small": 0.04832,
     "split_large": 0.044512,
     "split_large_tma": 0.097728
    },
    "4": {
     "mega": 0.063808,
     "mega_rounds": 0.064736,
     "split_small": 0.063584,
     "split_large": 0.065632,
     "split_large_tma": 0.137888
    },
    "8": {
     "mega": 0.082208,
     "mega_rounds": 0.082656,
     "split_small": 0.086368,
     "split_large": 0.088128,
     "split_large_tma": 0.203776
    },
    "16": {
     "mega": 0.118304,
     "mega_rounds": 0.118912,
     "split_small": 0.115488,
     "split_large": 0.118976,
     "split_large_tma": 0.292352
    },
    "32": {
     "mega": 0.158944,
     "mega_rounds": 0.159424,
     "split_small": 0.147456,
     "split_large": 0.152512,
     "split_large_tma": 0.39664
    },
    "64": {
     "mega": 0.182912,
     "mega_rounds": 0.182912,
     "split_small": 0.161504,
     "split_large": 0.16656,
     "split_large_tma": 0.43088
    },
    "128": {
     "split_small": 0.170848,
     "split_large": 0.17376,
     "split_large_tma": 0.43648
    },
    "256": {
     "split_small": 0.19264,
     "split_large": 0.184704,
     "split_large_tma": 0.44064
    },
    "512": {
     "split_small": 0.302048,
     "split_large": 0.223616,
     "split_large_tma": 0.463232
    },
    "1024": {
     "split_small": 0.494336,
     "split_large": 0.331968,
     "split_large_tma": 0.515648
    },
    "2048": {
     "split_small": 0.879168,
     "split_large": 0.515168,
     "split_large_tma": 0.656128
    },
    "4096": {
     "split_small": 1.65229,
     "split_large": 0.944832,
     "split_large_tma": 0.940672
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
    "4": "mega_rounds",
    "8": "mega_rounds",
    "16": "mega_rounds",
    "32": "split_large",
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
     "mega": 0.107424,
     "mega_rounds": 0.111872,
     "split_small": 0.117088,
     "split_large": 0.161536,
     "split_large_tma": 0.323936
    },
    "2": {
     "mega": 0.148608,
     "mega_rounds": 0.139488,
     "split_small": 0.161344,
     "split_large": 0.18608,
     "split_large_tma": 0.40208
    },
    "4": {
     "mega": 0.29136,
     "mega_rounds": 0.285728,
     "split_small": 0.3016,
     "split_large": 0.307008,
     "split_large_tma": 0.78128
    },
    "8": {
     "mega": 0.325728,
     "mega_rounds": 0.3216,
     "split_small": 0.333632,
     "split_large": 0.33808,
     "split_large_tma": 0.862624
    },
    "16": {
     "mega": 0.32752,
     "mega_rounds": 0.3232,
     "split_small": 0.33728,
     "split_large": 0.3416,
     "split_large_tma": 0.863168
    },
    "32": {
     "mega": 0.355744,
     "mega_rounds": 0.35264,
     "split_small": 0.347712,
     "split_large": 0.346624,
     "split_large_tma": 0.863072
    },
    "64": {
     "mega": 0.506528,
     "mega_rounds": 0.507616,
     "split_small": 0.376192,
     "split_large": 0.364704,
     "split_large_tma": 0.870272
    },
    "128": {
     "split_small": 0.558752,
     "split_large": 0.419552,
     "split_large_tma": 0.876384
    },
    "256": {
     "split_small": 1.05229,
     "split_large": 0.620832,
     "split_large_tma": 1.00829
    },
    "512": {
     "split_small": 1.79866,
     "split_large": 0.904352,
     "split_large_tma": 1.16614
    },
    "1024": {
     "split_small": 3.63395,
     "split_large": 1.65933,
     "split_large_tma": 1.56829
    },
    "2048": {
     "split_small": 7.53789,
     "split_large": 3.68582,
     "split_large_tma": 3.10624
    },
    "4096": {
     "split_small": 14.3284,
     "split_large": 6.78714,
     "split_large_tma": 5.85264
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
    "1": "split_small",
    "2": "split_small",
    "4": "split_small",
    "8": "split_small",
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
     "mega": 0.061248,
     "mega_rounds": 0.056832,
     "split_small": 0.054272,
     "split_large": 0.0576,
     "split_large_tma": 0.128
    },
    "2": {
     "mega": 0.076672,
     "mega_rounds": 0.078112,
     "split_small": 0.076,
     "split_large": 0.079264,
     "split_large_tma": 0.183584
    },
    "4": {
     "mega": 0.121184,
     "mega_rounds": 0.12176,
     "split_small": 0.1184,
     "split_large": 0.12208,
     "split_large_tma": 0.304512
    },
    "8": {
     "mega": 0.197184,
     "mega_rounds": 0.197472,
     "split_small": 0.192416,
     "split_large": 0.199648,
     "split_large_tma": 0.528
    },
    "16": {
     "mega": 0.322016,
     "mega_rounds": 0.322432,
     "split_small": 0.28528,
     "split_large": 0.29488,
     "split_large_tma": 0.820064
    },
    "32": {
     "mega": 0.467168,
     "mega_rounds": 0.4672,
     "split_small": 0.406432,
     "split_large": 0.425472,
     "split_large_tma": 1.21213
    },
    "64": {
     "mega": 0.66672,
     "mega_rounds": 0.667008,
     "split_small": 0.561984,
     "split_large": 0.588864,
     "split_large_tma": 1.69347
    },
    "128": {
     "split_small": 0.630976,
     "split_large": 0.659712,
     "split_large_tma": 1.89046
    },
    "256": {
     "split_small": 0.694592,
     "split_large": 0.695456,
     "split_large_tma": 1.98067
    },
    "512": {
     "split_small": 0.779648,
     "split_large": 0.74496,
     "split_large_tma": 2.01728
    },
    "1024": {
     "split_small": 1.27021,
     "split_large": 0.97184,
     "split_large_tma": 2.10643
    },
    "2048": {
     "split_small": 2.30038,
     "split_large": 1.44163,
     "split_large_tma": 2.24707
    },
    "4096": {
     "split_small": 4.31411,
     "split_large": 2.41498,
     "split_large_tma": 2.68813
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
