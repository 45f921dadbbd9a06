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
     "mega": 0.107232,
     "mega_rounds": 0.125408,
     "split_small": 0.09648,
     "split_large": 0.100416,
     "split_large_tma": 0.264
    },
    "2": {
     "mega": 0.162112,
     "mega_rounds": 0.156224,
     "split_small": 0.155616,
     "split_large": 0.167072,
     "split_large_tma": 0.4544
    },
    "4": {
     "mega": 0.300096,
     "mega_rounds": 0.300384,
     "split_small": 0.276672,
     "split_large": 0.29536,
     "split_large_tma": 0.848032
    },
    "8": {
     "mega": 0.51008,
     "mega_rounds": 0.510208,
     "split_small": 0.458176,
     "split_large": 0.491712,
     "split_large_tma": 1.44397
    },
    "16": {
     "mega": 0.889728,
     "mega_rounds": 0.890208,
     "split_small": 0.782848,
     "split_large": 0.844352,
     "split_large_tma": 2.49482
    },
    "32": {
     "mega": 1.44515,
     "mega_rounds": 1.44547,
     "split_small": 1.25354,
     "split_large": 1.42243,
     "split_large_tma": 4.02435
    },
    "64": {
     "mega": 1.94384,
     "mega_rounds": 1.94419,
     "split_small": 1.70522,
     "split_large": 1.84621,
     "split_large_tma": 5.39955
    },
    "128": {
     "split_small": 1.92371,
     "split_large": 2.15686,
     "split_large_tma": 6.12842
    },
    "256": {
     "split_small": 2.12349,
     "split_large": 2.31354,
     "split_large_tma": 6.32208
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
    "1": "mega",
    "2": "split_large",
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
    "4096": "split_large_tma",
    "8192": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.033536,
     "mega_rounds": 0.034432,
     "split_small": 0.03504,
     "split_large": 0.034688,
     "split_large_tma": 0.06496
    },
    "2": {
     "mega": 0.042528,
     "mega_rounds": 0.045632,
     "split_small": 0.044064,
     "split_large": 0.041664,
     "split_large_tma": 0.093344
    },
    "4": {
     "mega": 0.061344,
     "mega_rounds": 0.06224,
     "split_small": 0.057536,
     "split_large": 0.057568,
     "split_large_tma": 0.13008
    },
    "8": {
     "mega": 0.078208,
     "mega_rounds": 0.07856,
     "split_small": 0.077568,
     "split_large": 0.080096,
     "split_large_tma": 0.19536
    },
    "16": {
     "mega": 0.11216,
     "mega_rounds": 0.1128,
     "split_small": 0.104608,
     "split_large": 0.10896,
     "split_large_tma": 0.2784
    },
    "32": {
     "mega": 0.151776,
     "mega_rounds": 0.152032,
     "split_small": 0.134624,
     "split_large": 0.140768,
     "split_large_tma": 0.369248
    },
    "64": {
     "mega": 0.17568,
     "mega_rounds": 0.175616,
     "split_small": 0.148064,
     "split_large": 0.155872,
     "split_large_tma": 0.417376
    },
    "128": {
     "split_small": 0.1584,
     "split_large": 0.163872,
     "split_large_tma": 0.423168
    },
    "256": {
     "split_small": 0.1824,
     "split_large": 0.173152,
     "split_large_tma": 0.42256
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
    "1": "split_small",
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
     "mega": 0.107936,
     "mega_rounds": 0.105088,
     "split_small": 0.104768,
     "split_large": 0.149184,
     "split_large_tma": 0.30432
    },
    "2": {
     "mega": 0.139392,
     "mega_rounds": 0.131584,
     "split_small": 0.145024,
     "split_large": 0.173216,
     "split_large_tma": 0.379552
    },
    "4": {
     "mega": 0.275744,
     "mega_rounds": 0.268576,
     "split_small": 0.256928,
     "split_large": 0.278496,
     "split_large_tma": 0.73744
    },
    "8": {
     "mega": 0.304928,
     "mega_rounds": 0.297632,
     "split_small": 0.28096,
     "split_large": 0.304288,
     "split_large_tma": 0.807808
    },
    "16": {
     "mega": 0.304928,
     "mega_rounds": 0.2968,
     "split_small": 0.281728,
     "split_large": 0.303744,
     "split_large_tma": 0.807584
    },
    "32": {
     "mega": 0.33472,
     "mega_rounds": 0.3592,
     "split_small": 0.294304,
     "split_large": 0.308352,
     "split_large_tma": 0.809856
    },
    "64": {
     "mega": 0.469216,
     "mega_rounds": 0.469472,
     "split_small": 0.33184,
     "split_large": 0.324224,
     "split_large_tma": 0.86848
    },
    "128": {
     "split_small": 0.528448,
     "split_large": 0.381376,
     "split_large_tma": 0.83136
    },
    "256": {
     "split_small": 0.975904,
     "split_large": 0.589888,
     "split_large_tma": 0.954208
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
     "mega": 0.059072,
     "mega_rounds": 0.054368,
     "split_small": 0.050112,
     "split_large": 0.055008,
     "split_large_tma": 0.12192
    },
    "2": {
     "mega": 0.075904,
     "mega_rounds": 0.076704,
     "split_small": 0.067648,
     "split_large": 0.071584,
     "split_large_tma": 0.172288
    },
    "4": {
     "mega": 0.114016,
     "mega_rounds": 0.115456,
     "split_small": 0.10528,
     "split_large": 0.109152,
     "split_large_tma": 0.285248
    },
    "8": {
     "mega": 0.18656,
     "mega_rounds": 0.186848,
     "split_small": 0.171968,
     "split_large": 0.17936,
     "split_large_tma": 0.499552
    },
    "16": {
     "mega": 0.3,
     "mega_rounds": 0.299968,
     "split_small": 0.256,
     "split_large": 0.268288,
     "split_large_tma": 0.765952
    },
    "32": {
     "mega": 0.439584,
     "mega_rounds": 0.43968,
     "split_small": 0.373504,
     "split_large": 0.392032,
     "split_large_tma": 1.12381
    },
    "64": {
     "mega": 0.630944,
     "mega_rounds": 0.631168,
     "split_small": 0.51824,
     "split_large": 0.544768,
     "split_large_tma": 1.59254
    },
    "128": {
     "split_small": 0.580832,
     "split_large": 0.612768,
     "split_large_tma": 1.77869
    },
    "256": {
     "split_small": 0.628416,
     "split_large": 0.669504,
     "split_large_tma": 1.88285
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
     "mega": 0.1112,
     "mega_rounds": 0.133472,
     "split_small": 0.101632,
     "split_large": 0.10496,
     "split_large_tma": 0.278976
    },
    "2": {
     "mega": 0.16912,
     "mega_rounds": 0.16528,
     "split_small": 0.164512,
     "split_large": 0.175392,
     "split_large_tma": 0.481216
    },
    "4": {
     "mega": 0.311776,
     "mega_rounds": 0.311968,
     "split_small": 0.293152,
     "split_large": 0.313152,
     "split_large_tma": 0.901312
    },
    "8": {
     "mega": 0.5416,
     "mega_rounds": 0.542656,
     "split_small": 0.489408,
     "split_large": 0.524512,
     "split_large_tma": 1.55565
    },
    "16": {
     "mega": 0.94688,
     "mega_rounds": 0.94768,
     "split_small": 0.836224,
     "split_large": 0.901632,
     "split_large_tma": 2.67571
    },
    "32": {
     "mega": 1.53706,
     "mega_rounds": 1.53789,
     "split_small": 1.33066,
     "split_large": 1.49046,
     "split_large_tma": 4.30592
    },
    "64": {
     "mega": 2.06474,
     "mega_rounds": 2.06525,
     "split_small": 1.84957,
     "split_large": 1.97373,
     "split_large_tma": 5.77034
    },
    "128": {
     "split_small": 2.1329,
     "split_large": 2.3103,
     "split_large_tma": 6.54922
    },
    "256": {
     "split_small": 2.39587,
     "split_large": 2.39235,
     "split_large_tma": 6.74531
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
    "1": "mega",
    "2": "split_large",
    "4": "split_large",
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
    "8192": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.03472,
     "mega_rounds": 0.035424,
     "split_small": 0.035968,
     "split_large": 0.035616,
     "split_large_tma": 0.06624
    },
    "2": {
     "mega": 0.04528,
     "mega_rounds": 0.04736,
     "split_small": 0.045664,
     "split_large": 0.043424,
     "split_large_tma": 0.097312
    },
    "4": {
     "mega": 0.063904,
     "mega_rounds": 0.064512,
     "split_small": 0.059744,
     "split_large": 0.059488,
     "split_large_tma": 0.136608
    },
    "8": {
     "mega": 0.082144,
     "mega_rounds": 0.082656,
     "split_small": 0.082048,
     "split_large": 0.083456,
     "split_large_tma": 0.204288
    },
    "16": {
     "mega": 0.118432,
     "mega_rounds": 0.118976,
     "split_small": 0.111328,
     "split_large": 0.114656,
     "split_large_tma": 0.292832
    },
    "32": {
     "mega": 0.15936,
     "mega_rounds": 0.160224,
     "split_small": 0.14352,
     "split_large": 0.147616,
     "split_large_tma": 0.395328
    },
    "64": {
     "mega": 0.182688,
     "mega_rounds": 0.181472,
     "split_small": 0.155744,
     "split_large": 0.162208,
     "split_large_tma": 0.430592
    },
    "128": {
     "split_small": 0.165856,
     "split_large": 0.169344,
     "split_large_tma": 0.435776
    },
    "256": {
     "split_small": 0.189152,
     "split_large": 0.18144,
     "split_large_tma": 0.442912
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
     "mega": 0.107776,
     "mega_rounds": 0.112064,
     "split_small": 0.111136,
     "split_large": 0.15408,
     "split_large_tma": 0.32336
    },
    "2": {
     "mega": 0.14736,
     "mega_rounds": 0.139232,
     "split_small": 0.153344,
     "split_large": 0.179456,
     "split_large_tma": 0.40288
    },
    "4": {
     "mega": 0.29184,
     "mega_rounds": 0.285856,
     "split_small": 0.273696,
     "split_large": 0.293408,
     "split_large_tma": 0.7832
    },
    "8": {
     "mega": 0.326816,
     "mega_rounds": 0.32224,
     "split_small": 0.2992,
     "split_large": 0.320928,
     "split_large_tma": 0.864096
    },
    "16": {
     "mega": 0.327072,
     "mega_rounds": 0.321984,
     "split_small": 0.30016,
     "split_large": 0.321664,
     "split_large_tma": 0.862656
    },
    "32": {
     "mega": 0.356608,
     "mega_rounds": 0.353792,
     "split_small": 0.313472,
     "split_large": 0.325504,
     "split_large_tma": 0.865312
    },
    "64": {
     "mega": 0.504512,
     "mega_rounds": 0.507136,
     "split_small": 0.34992,
     "split_large": 0.347296,
     "split_large_tma": 0.868992
    },
    "128": {
     "split_small": 0.544224,
     "split_large": 0.411296,
     "split_large_tma": 0.878784
    },
    "256": {
     "split_small": 1.01741,
     "split_large": 0.630304,
     "split_large_tma": 1.01766
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
    "1": "split_small",
    "2": "split_small",
    "4": "split_small",
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
     "mega": 0.063936,
     "mega_rounds": 0.05664,
     "split_small": 0.052384,
     "split_large": 0.056928,
     "split_large_tma": 0.127584
    },
    "2": {
     "mega": 0.077664,
     "mega_rounds": 0.078688,
     "split_small": 0.07088,
     "split_large": 0.074816,
     "split_large_tma": 0.1816
    },
    "4": {
     "mega": 0.120384,
     "mega_rounds": 0.121856,
     "split_small": 0.11088,
     "split_large": 0.115264,
     "split_large_tma": 0.3016
    },
    "8": {
     "mega": 0.195392,
     "mega_rounds": 0.19664,
     "split_small": 0.18336,
     "split_large": 0.190848,
     "split_large_tma": 0.529824
    },
    "16": {
     "mega": 0.320224,
     "mega_rounds": 0.3216,
     "split_small": 0.274304,
     "split_large": 0.285664,
     "split_large_tma": 0.813312
    },
    "32": {
     "mega": 0.463168,
     "mega_rounds": 0.463552,
     "split_small": 0.396352,
     "split_large": 0.417248,
     "split_large_tma": 1.2129
    },
    "64": {
     "mega": 0.667232,
     "mega_rounds": 0.6672,
     "split_small": 0.552352,
     "split_large": 0.580032,
     "split_large_tma": 1.69091
    },
    "128": {
     "split_small": 0.620192,
     "split_large": 0.653248,
     "split_large_tma": 1.90899
    },
    "256": {
     "split_small": 0.684544,
     "split_large": 0.691488,
     "split_large_tma": 1.9695
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
