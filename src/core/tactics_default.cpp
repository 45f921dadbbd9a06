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
//   2ede7f1 (bench/results/2026-12-02_2ede7f1_tune_w4a16_1-4096.*). T = 8192 keeps the 7e376a5 tune.
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
    "1": "mega",
    "2": "mega_rounds",
    "4": "mega",
    "8": "mega_rounds",
    "16": "mega_rounds",
    "32": "mega",
    "64": "mega_rounds",
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
     "mega": 0.107552,
     "mega_rounds": 0.12656,
     "split_small": 0.112928,
     "split_large": 0.116992,
     "split_large_tma": 0.265472
    },
    "2": {
     "mega": 0.163232,
     "mega_rounds": 0.157408,
     "split_small": 0.179392,
     "split_large": 0.213344,
     "split_large_tma": 0.456576
    },
    "4": {
     "mega": 0.301696,
     "mega_rounds": 0.301792,
     "split_small": 0.325696,
     "split_large": 0.345312,
     "split_large_tma": 0.852192
    },
    "8": {
     "mega": 0.514176,
     "mega_rounds": 0.510592,
     "split_small": 0.542848,
     "split_large": 0.574496,
     "split_large_tma": 1.44458
    },
    "16": {
     "mega": 0.890144,
     "mega_rounds": 0.889664,
     "split_small": 0.92704,
     "split_large": 0.984704,
     "split_large_tma": 2.51274
    },
    "32": {
     "mega": 1.4432,
     "mega_rounds": 1.44461,
     "split_small": 1.48352,
     "split_large": 1.57123,
     "split_large_tma": 4.03357
    },
    "64": {
     "mega": 1.94621,
     "mega_rounds": 1.94528,
     "split_small": 1.96918,
     "split_large": 2.09856,
     "split_large_tma": 5.4089
    },
    "128": {
     "split_small": 2.27952,
     "split_large": 2.41318,
     "split_large_tma": 6.13158
    },
    "256": {
     "split_small": 2.44838,
     "split_large": 2.56342,
     "split_large_tma": 6.29699
    },
    "512": {
     "split_small": 2.72694,
     "split_large": 2.73574,
     "split_large_tma": 6.38157
    },
    "1024": {
     "split_small": 4.33162,
     "split_large": 3.53773,
     "split_large_tma": 6.48189
    },
    "2048": {
     "split_small": 7.74458,
     "split_large": 5.14547,
     "split_large_tma": 7.04531
    },
    "4096": {
     "split_small": 14.8434,
     "split_large": 8.26746,
     "split_large_tma": 8.69446
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
     "mega": 0.03328,
     "mega_rounds": 0.034208,
     "split_small": 0.035872,
     "split_large": 0.036768,
     "split_large_tma": 0.064192
    },
    "2": {
     "mega": 0.0424,
     "mega_rounds": 0.045696,
     "split_small": 0.0464,
     "split_large": 0.045376,
     "split_large_tma": 0.093216
    },
    "4": {
     "mega": 0.061312,
     "mega_rounds": 0.06224,
     "split_small": 0.062816,
     "split_large": 0.064832,
     "split_large_tma": 0.130944
    },
    "8": {
     "mega": 0.07808,
     "mega_rounds": 0.078496,
     "split_small": 0.083808,
     "split_large": 0.088832,
     "split_large_tma": 0.195552
    },
    "16": {
     "mega": 0.112704,
     "mega_rounds": 0.11296,
     "split_small": 0.112064,
     "split_large": 0.119808,
     "split_large_tma": 0.278336
    },
    "32": {
     "mega": 0.151616,
     "mega_rounds": 0.152032,
     "split_small": 0.141696,
     "split_large": 0.152352,
     "split_large_tma": 0.369088
    },
    "64": {
     "mega": 0.17536,
     "mega_rounds": 0.175648,
     "split_small": 0.154464,
     "split_large": 0.167776,
     "split_large_tma": 0.416384
    },
    "128": {
     "split_small": 0.164704,
     "split_large": 0.173536,
     "split_large_tma": 0.417088
    },
    "256": {
     "split_small": 0.18752,
     "split_large": 0.18336,
     "split_large_tma": 0.422752
    },
    "512": {
     "split_small": 0.291488,
     "split_large": 0.241856,
     "split_large_tma": 0.44336
    },
    "1024": {
     "split_small": 0.479616,
     "split_large": 0.341696,
     "split_large_tma": 0.4984
    },
    "2048": {
     "split_small": 0.854208,
     "split_large": 0.525728,
     "split_large_tma": 0.637184
    },
    "4096": {
     "split_small": 1.61878,
     "split_large": 0.976608,
     "split_large_tma": 0.930528
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
     "mega": 0.107744,
     "mega_rounds": 0.1048,
     "split_small": 0.114016,
     "split_large": 0.166784,
     "split_large_tma": 0.30512
    },
    "2": {
     "mega": 0.14032,
     "mega_rounds": 0.131712,
     "split_small": 0.158432,
     "split_large": 0.19264,
     "split_large_tma": 0.37616
    },
    "4": {
     "mega": 0.273792,
     "mega_rounds": 0.2664,
     "split_small": 0.303648,
     "split_large": 0.323872,
     "split_large_tma": 0.733184
    },
    "8": {
     "mega": 0.305024,
     "mega_rounds": 0.297952,
     "split_small": 0.337184,
     "split_large": 0.35536,
     "split_large_tma": 0.809792
    },
    "16": {
     "mega": 0.305696,
     "mega_rounds": 0.298176,
     "split_small": 0.340832,
     "split_large": 0.358432,
     "split_large_tma": 0.80576
    },
    "32": {
     "mega": 0.334208,
     "mega_rounds": 0.359072,
     "split_small": 0.352512,
     "split_large": 0.363968,
     "split_large_tma": 0.807616
    },
    "64": {
     "mega": 0.468704,
     "mega_rounds": 0.470048,
     "split_small": 0.384384,
     "split_large": 0.375488,
     "split_large_tma": 0.813792
    },
    "128": {
     "split_small": 0.545376,
     "split_large": 0.465824,
     "split_large_tma": 0.823936
    },
    "256": {
     "split_small": 1.03152,
     "split_large": 0.667328,
     "split_large_tma": 0.965216
    },
    "512": {
     "split_small": 1.78387,
     "split_large": 0.940512,
     "split_large_tma": 1.10038
    },
    "1024": {
     "split_small": 3.57392,
     "split_large": 1.75075,
     "split_large_tma": 1.47306
    },
    "2048": {
     "split_small": 7.53789,
     "split_large": 3.68288,
     "split_large_tma": 2.95309
    },
    "4096": {
     "split_small": 14.0397,
     "split_large": 7.05872,
     "split_large_tma": 5.6712
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
     "mega": 0.058752,
     "mega_rounds": 0.0536,
     "split_small": 0.051968,
     "split_large": 0.05952,
     "split_large_tma": 0.11856
    },
    "2": {
     "mega": 0.075424,
     "mega_rounds": 0.076736,
     "split_small": 0.073824,
     "split_large": 0.07696,
     "split_large_tma": 0.17184
    },
    "4": {
     "mega": 0.11408,
     "mega_rounds": 0.114944,
     "split_small": 0.11712,
     "split_large": 0.121568,
     "split_large_tma": 0.283648
    },
    "8": {
     "mega": 0.18544,
     "mega_rounds": 0.185728,
     "split_small": 0.188768,
     "split_large": 0.20224,
     "split_large_tma": 0.497312
    },
    "16": {
     "mega": 0.299392,
     "mega_rounds": 0.299776,
     "split_small": 0.278592,
     "split_large": 0.300704,
     "split_large_tma": 0.767232
    },
    "32": {
     "mega": 0.439712,
     "mega_rounds": 0.440064,
     "split_small": 0.400576,
     "split_large": 0.437984,
     "split_large_tma": 1.13664
    },
    "64": {
     "mega": 0.630496,
     "mega_rounds": 0.631904,
     "split_small": 0.556,
     "split_large": 0.60944,
     "split_large_tma": 1.59229
    },
    "128": {
     "split_small": 0.626048,
     "split_large": 0.680288,
     "split_large_tma": 1.78246
    },
    "256": {
     "split_small": 0.692032,
     "split_large": 0.731456,
     "split_large_tma": 1.85277
    },
    "512": {
     "split_small": 0.752096,
     "split_large": 0.79856,
     "split_large_tma": 1.89718
    },
    "1024": {
     "split_small": 1.26064,
     "split_large": 1.04509,
     "split_large_tma": 1.92707
    },
    "2048": {
     "split_small": 2.2663,
     "split_large": 1.54192,
     "split_large_tma": 2.14333
    },
    "4096": {
     "split_small": 4.28886,
     "split_large": 2.40611,
     "split_large_tma": 2.56336
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
    "1": "mega",
    "2": "mega_rounds",
    "4": "mega",
    "8": "mega",
    "16": "mega_rounds",
    "32": "mega",
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
     "mega": 0.111808,
     "mega_rounds": 0.135168,
     "split_small": 0.11744,
     "split_large": 0.11904,
     "split_large_tma": 0.27936
    },
    "2": {
     "mega": 0.169792,
     "mega_rounds": 0.167744,
     "split_small": 0.185632,
     "split_large": 0.218912,
     "split_large_tma": 0.484256
    },
    "4": {
     "mega": 0.31408,
     "mega_rounds": 0.314496,
     "split_small": 0.338592,
     "split_large": 0.356192,
     "split_large_tma": 0.920288
    },
    "8": {
     "mega": 0.5464,
     "mega_rounds": 0.54688,
     "split_small": 0.563648,
     "split_large": 0.596768,
     "split_large_tma": 1.5543
    },
    "16": {
     "mega": 0.948,
     "mega_rounds": 0.947136,
     "split_small": 0.957408,
     "split_large": 1.01555,
     "split_large_tma": 2.6808
    },
    "32": {
     "mega": 1.53594,
     "mega_rounds": 1.53667,
     "split_small": 1.53798,
     "split_large": 1.66208,
     "split_large_tma": 4.32717
    },
    "64": {
     "mega": 2.06835,
     "mega_rounds": 2.06051,
     "split_small": 2.0545,
     "split_large": 2.19184,
     "split_large_tma": 5.78752
    },
    "128": {
     "split_small": 2.35251,
     "split_large": 2.53878,
     "split_large_tma": 6.55133
    },
    "256": {
     "split_small": 2.55066,
     "split_large": 2.66982,
     "split_large_tma": 6.75405
    },
    "512": {
     "split_small": 2.85005,
     "split_large": 2.84611,
     "split_large_tma": 6.82608
    },
    "1024": {
     "split_small": 4.59587,
     "split_large": 3.73587,
     "split_large_tma": 6.8919
    },
    "2048": {
     "split_small": 8.2153,
     "split_large": 5.19267,
     "split_large_tma": 7.44413
    },
    "4096": {
     "split_small": 15.7355,
     "split_large": 8.49594,
     "split_large_tma": 9.21635
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
     "mega": 0.034592,
     "mega_rounds": 0.035488,
     "split_small": 0.037024,
     "split_large": 0.03728,
     "split_large_tma": 0.066048
    },
    "2": {
     "mega": 0.044704,
     "mega_rounds": 0.047808,
     "split_small": 0.048288,
     "split_large": 0.045952,
     "split_large_tma": 0.096928
    },
    "4": {
     "mega": 0.063776,
     "mega_rounds": 0.06464,
     "split_small": 0.064512,
     "split_large": 0.065184,
     "split_large_tma": 0.137408
    },
    "8": {
     "mega": 0.082208,
     "mega_rounds": 0.0824,
     "split_small": 0.087616,
     "split_large": 0.09136,
     "split_large_tma": 0.2032
    },
    "16": {
     "mega": 0.118848,
     "mega_rounds": 0.118752,
     "split_small": 0.117024,
     "split_large": 0.123488,
     "split_large_tma": 0.296768
    },
    "32": {
     "mega": 0.158976,
     "mega_rounds": 0.159616,
     "split_small": 0.149248,
     "split_large": 0.157728,
     "split_large_tma": 0.395136
    },
    "64": {
     "mega": 0.182976,
     "mega_rounds": 0.18336,
     "split_small": 0.163552,
     "split_large": 0.174304,
     "split_large_tma": 0.431936
    },
    "128": {
     "split_small": 0.173088,
     "split_large": 0.180512,
     "split_large_tma": 0.435744
    },
    "256": {
     "split_small": 0.19424,
     "split_large": 0.189536,
     "split_large_tma": 0.439776
    },
    "512": {
     "split_small": 0.302112,
     "split_large": 0.250496,
     "split_large_tma": 0.462656
    },
    "1024": {
     "split_small": 0.49616,
     "split_large": 0.348992,
     "split_large_tma": 0.516576
    },
    "2048": {
     "split_small": 0.884544,
     "split_large": 0.53184,
     "split_large_tma": 0.649312
    },
    "4096": {
     "split_small": 1.73376,
     "split_large": 0.98768,
     "split_large_tma": 0.962816
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
    "32": "mega_rounds",
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
     "mega": 0.107392,
     "mega_rounds": 0.112192,
     "split_small": 0.119008,
     "split_large": 0.170976,
     "split_large_tma": 0.324352
    },
    "2": {
     "mega": 0.149152,
     "mega_rounds": 0.14048,
     "split_small": 0.165408,
     "split_large": 0.19792,
     "split_large_tma": 0.404704
    },
    "4": {
     "mega": 0.291616,
     "mega_rounds": 0.285632,
     "split_small": 0.314144,
     "split_large": 0.332352,
     "split_large_tma": 0.78112
    },
    "8": {
     "mega": 0.326528,
     "mega_rounds": 0.322112,
     "split_small": 0.348608,
     "split_large": 0.365056,
     "split_large_tma": 0.861536
    },
    "16": {
     "mega": 0.327424,
     "mega_rounds": 0.322336,
     "split_small": 0.351552,
     "split_large": 0.367904,
     "split_large_tma": 0.863104
    },
    "32": {
     "mega": 0.35616,
     "mega_rounds": 0.35472,
     "split_small": 0.362624,
     "split_large": 0.373312,
     "split_large_tma": 0.862048
    },
    "64": {
     "mega": 0.505344,
     "mega_rounds": 0.507008,
     "split_small": 0.387872,
     "split_large": 0.386304,
     "split_large_tma": 0.867872
    },
    "128": {
     "split_small": 0.56688,
     "split_large": 0.486656,
     "split_large_tma": 0.876096
    },
    "256": {
     "split_small": 1.06528,
     "split_large": 0.665504,
     "split_large_tma": 0.990048
    },
    "512": {
     "split_small": 1.89338,
     "split_large": 0.962112,
     "split_large_tma": 1.18998
    },
    "1024": {
     "split_small": 3.69683,
     "split_large": 1.79907,
     "split_large_tma": 1.58365
    },
    "2048": {
     "split_small": 7.95549,
     "split_large": 3.78864,
     "split_large_tma": 3.05347
    },
    "4096": {
     "split_small": 14.6355,
     "split_large": 7.39981,
     "split_large_tma": 5.8103
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
     "mega": 0.061792,
     "mega_rounds": 0.055584,
     "split_small": 0.054304,
     "split_large": 0.060448,
     "split_large_tma": 0.126592
    },
    "2": {
     "mega": 0.077664,
     "mega_rounds": 0.078848,
     "split_small": 0.076864,
     "split_large": 0.079008,
     "split_large_tma": 0.183296
    },
    "4": {
     "mega": 0.120384,
     "mega_rounds": 0.121536,
     "split_small": 0.122208,
     "split_large": 0.125824,
     "split_large_tma": 0.302048
    },
    "8": {
     "mega": 0.19536,
     "mega_rounds": 0.19584,
     "split_small": 0.19648,
     "split_large": 0.209888,
     "split_large_tma": 0.529568
    },
    "16": {
     "mega": 0.318496,
     "mega_rounds": 0.319424,
     "split_small": 0.290432,
     "split_large": 0.312928,
     "split_large_tma": 0.811776
    },
    "32": {
     "mega": 0.463136,
     "mega_rounds": 0.464032,
     "split_small": 0.416736,
     "split_large": 0.456,
     "split_large_tma": 1.21331
    },
    "64": {
     "mega": 0.666112,
     "mega_rounds": 0.666624,
     "split_small": 0.576416,
     "split_large": 0.634304,
     "split_large_tma": 1.69606
    },
    "128": {
     "split_small": 0.649472,
     "split_large": 0.70832,
     "split_large_tma": 1.88957
    },
    "256": {
     "split_small": 0.718368,
     "split_large": 0.758976,
     "split_large_tma": 2.00618
    },
    "512": {
     "split_small": 0.788736,
     "split_large": 0.826848,
     "split_large_tma": 2.02653
    },
    "1024": {
     "split_small": 1.3632,
     "split_large": 1.15683,
     "split_large_tma": 2.05981
    },
    "2048": {
     "split_small": 2.31968,
     "split_large": 1.61306,
     "split_large_tma": 2.24861
    },
    "4096": {
     "split_small": 4.5049,
     "split_large": 2.48294,
     "split_large_tma": 2.77379
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
