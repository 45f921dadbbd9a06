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
//   w4a16_mxfp4 and w4a16_nvfp4, T = 1..1024, re-measured after the small tactic's per-tile-count K
//   loop (1e5e670, 1.02-1.14x faster than 69a0f61's): `megamoe tune --recipe <r> --presets (the four)
//   --tokens 1-1024 --iters 30` of 2026-12-02 (bench/results/2026-12-02_1e5e670_tune_w4a16_1-1024.*);
//   then T = 16..4096 again after the large tactic's 64-token passes (6257458, `--tokens 16-4096`,
//   bench/results/2026-12-02_6257458_tune_w4a16_16-4096.*): split_large from a mean of 16-32 rows
//   per expert, split_large_tma from 128 on deepseek-v3 and gpt-oss-120b.
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
    "8": "mega",
    "16": "mega",
    "32": "mega",
    "64": "mega_rounds",
    "128": "split_small",
    "256": "split_small",
    "512": "split_small",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.107552,
     "mega_rounds": 0.14112,
     "split_small": 0.11264,
     "split_large": 0.189824,
     "split_large_tma": 0.266272
    },
    "2": {
     "mega": 0.162976,
     "mega_rounds": 0.161952,
     "split_small": 0.178016,
     "split_large": 0.343232,
     "split_large_tma": 0.45616
    },
    "4": {
     "mega": 0.300896,
     "mega_rounds": 0.301728,
     "split_small": 0.32528,
     "split_large": 0.651904,
     "split_large_tma": 0.846464
    },
    "8": {
     "mega": 0.51024,
     "mega_rounds": 0.51088,
     "split_small": 0.543712,
     "split_large": 1.12675,
     "split_large_tma": 1.44246
    },
    "16": {
     "mega": 0.89648,
     "mega_rounds": 0.897152,
     "split_small": 0.928896,
     "split_large": 1.39952,
     "split_large_tma": 2.53117
    },
    "32": {
     "mega": 1.45677,
     "mega_rounds": 1.45677,
     "split_small": 1.48586,
     "split_large": 2.25475,
     "split_large_tma": 4.0601
    },
    "64": {
     "mega": 1.94909,
     "mega_rounds": 1.94528,
     "split_small": 1.97043,
     "split_large": 3.02528,
     "split_large_tma": 5.44963
    },
    "128": {
     "split_small": 2.28048,
     "split_large": 3.42925,
     "split_large_tma": 6.16717
    },
    "256": {
     "split_small": 2.47677,
     "split_large": 3.56365,
     "split_large_tma": 6.2999
    },
    "512": {
     "split_small": 2.77965,
     "split_large": 3.62083,
     "split_large_tma": 6.35197
    },
    "1024": {
     "split_small": 4.42147,
     "split_large": 3.91798,
     "split_large_tma": 6.48509
    },
    "2048": {
     "split_small": 7.97344,
     "split_large": 5.47965,
     "split_large_tma": 7.04294
    },
    "4096": {
     "split_small": 15.2673,
     "split_large": 8.75949,
     "split_large_tma": 8.68477
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
    "1": "split_small",
    "2": "mega",
    "4": "mega",
    "8": "mega",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small",
    "256": "split_small",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma",
    "8192": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.04064,
     "mega_rounds": 0.04112,
     "split_small": 0.03552,
     "split_large": 0.050432,
     "split_large_tma": 0.064288
    },
    "2": {
     "mega": 0.045664,
     "mega_rounds": 0.05184,
     "split_small": 0.045856,
     "split_large": 0.064928,
     "split_large_tma": 0.09248
    },
    "4": {
     "mega": 0.061088,
     "mega_rounds": 0.06192,
     "split_small": 0.062784,
     "split_large": 0.098368,
     "split_large_tma": 0.129408
    },
    "8": {
     "mega": 0.0776,
     "mega_rounds": 0.077888,
     "split_small": 0.083264,
     "split_large": 0.149216,
     "split_large_tma": 0.193824
    },
    "16": {
     "mega": 0.114144,
     "mega_rounds": 0.113472,
     "split_small": 0.111872,
     "split_large": 0.15744,
     "split_large_tma": 0.285952
    },
    "32": {
     "mega": 0.151712,
     "mega_rounds": 0.152,
     "split_small": 0.141952,
     "split_large": 0.207456,
     "split_large_tma": 0.378944
    },
    "64": {
     "mega": 0.175008,
     "mega_rounds": 0.175456,
     "split_small": 0.154432,
     "split_large": 0.229504,
     "split_large_tma": 0.416608
    },
    "128": {
     "split_small": 0.165664,
     "split_large": 0.234784,
     "split_large_tma": 0.421504
    },
    "256": {
     "split_small": 0.188224,
     "split_large": 0.2384,
     "split_large_tma": 0.426144
    },
    "512": {
     "split_small": 0.292736,
     "split_large": 0.24992,
     "split_large_tma": 0.44784
    },
    "1024": {
     "split_small": 0.48192,
     "split_large": 0.360544,
     "split_large_tma": 0.500576
    },
    "2048": {
     "split_small": 0.856192,
     "split_large": 0.560576,
     "split_large_tma": 0.64256
    },
    "4096": {
     "split_small": 1.69472,
     "split_large": 1.0032,
     "split_large_tma": 0.924512
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
    "8": "mega",
    "16": "mega_rounds",
    "32": "mega",
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
     "mega": 0.107328,
     "mega_rounds": 0.104608,
     "split_small": 0.113824,
     "split_large": 0.282592,
     "split_large_tma": 0.302016
    },
    "2": {
     "mega": 0.138752,
     "mega_rounds": 0.13024,
     "split_small": 0.157152,
     "split_large": 0.341184,
     "split_large_tma": 0.376544
    },
    "4": {
     "mega": 0.273792,
     "mega_rounds": 0.266304,
     "split_small": 0.302656,
     "split_large": 0.589952,
     "split_large_tma": 0.735392
    },
    "8": {
     "mega": 0.304512,
     "mega_rounds": 0.327328,
     "split_small": 0.334976,
     "split_large": 0.646784,
     "split_large_tma": 0.808192
    },
    "16": {
     "mega": 0.309696,
     "mega_rounds": 0.300992,
     "split_small": 0.341952,
     "split_large": 0.491552,
     "split_large_tma": 0.818848
    },
    "32": {
     "mega": 0.338272,
     "mega_rounds": 0.363904,
     "split_small": 0.360576,
     "split_large": 0.48928,
     "split_large_tma": 0.81344
    },
    "64": {
     "mega": 0.47312,
     "mega_rounds": 0.474272,
     "split_small": 0.383136,
     "split_large": 0.492384,
     "split_large_tma": 0.819808
    },
    "128": {
     "split_small": 0.54656,
     "split_large": 0.49728,
     "split_large_tma": 0.826752
    },
    "256": {
     "split_small": 1.03446,
     "split_large": 0.695104,
     "split_large_tma": 0.945312
    },
    "512": {
     "split_small": 1.83354,
     "split_large": 1.05808,
     "split_large_tma": 1.07878
    },
    "1024": {
     "split_small": 3.58624,
     "split_large": 1.92931,
     "split_large_tma": 1.45216
    },
    "2048": {
     "split_small": 7.85546,
     "split_large": 3.82627,
     "split_large_tma": 2.90608
    },
    "4096": {
     "split_small": 14.1547,
     "split_large": 7.1632,
     "split_large_tma": 5.55392
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
    "4096": "split_large_tma",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.05824,
     "mega_rounds": 0.072416,
     "split_small": 0.052096,
     "split_large": 0.09184,
     "split_large_tma": 0.121632
    },
    "2": {
     "mega": 0.075424,
     "mega_rounds": 0.077152,
     "split_small": 0.073472,
     "split_large": 0.132288,
     "split_large_tma": 0.171328
    },
    "4": {
     "mega": 0.113664,
     "mega_rounds": 0.114528,
     "split_small": 0.11728,
     "split_large": 0.21856,
     "split_large_tma": 0.284
    },
    "8": {
     "mega": 0.185792,
     "mega_rounds": 0.18624,
     "split_small": 0.189504,
     "split_large": 0.38432,
     "split_large_tma": 0.499488
    },
    "16": {
     "mega": 0.301472,
     "mega_rounds": 0.302432,
     "split_small": 0.279392,
     "split_large": 0.429504,
     "split_large_tma": 0.773632
    },
    "32": {
     "mega": 0.442656,
     "mega_rounds": 0.442976,
     "split_small": 0.40192,
     "split_large": 0.636896,
     "split_large_tma": 1.14784
    },
    "64": {
     "mega": 0.636128,
     "mega_rounds": 0.637088,
     "split_small": 0.557024,
     "split_large": 0.89248,
     "split_large_tma": 1.60269
    },
    "128": {
     "split_small": 0.627584,
     "split_large": 0.998976,
     "split_large_tma": 1.79587
    },
    "256": {
     "split_small": 0.693088,
     "split_large": 1.03725,
     "split_large_tma": 1.84685
    },
    "512": {
     "split_small": 0.749216,
     "split_large": 1.0488,
     "split_large_tma": 1.86758
    },
    "1024": {
     "split_small": 1.26413,
     "split_large": 1.18486,
     "split_large_tma": 1.95306
    },
    "2048": {
     "split_small": 2.28054,
     "split_large": 1.71635,
     "split_large_tma": 2.14995
    },
    "4096": {
     "split_small": 4.3681,
     "split_large": 2.65984,
     "split_large_tma": 2.59251
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
    "2": "mega",
    "4": "mega",
    "8": "mega_rounds",
    "16": "mega_rounds",
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
     "mega": 0.11136,
     "mega_rounds": 0.150592,
     "split_small": 0.116,
     "split_large": 0.192768,
     "split_large_tma": 0.278592
    },
    "2": {
     "mega": 0.168448,
     "mega_rounds": 0.171616,
     "split_small": 0.185408,
     "split_large": 0.34816,
     "split_large_tma": 0.479328
    },
    "4": {
     "mega": 0.312192,
     "mega_rounds": 0.312352,
     "split_small": 0.337152,
     "split_large": 0.665632,
     "split_large_tma": 0.91456
    },
    "8": {
     "mega": 0.543328,
     "mega_rounds": 0.542976,
     "split_small": 0.561152,
     "split_large": 1.1481,
     "split_large_tma": 1.55424
    },
    "16": {
     "mega": 0.954784,
     "mega_rounds": 0.954592,
     "split_small": 0.95952,
     "split_large": 1.45693,
     "split_large_tma": 2.70995
    },
    "32": {
     "mega": 1.54723,
     "mega_rounds": 1.54704,
     "split_small": 1.53888,
     "split_large": 2.36429,
     "split_large_tma": 4.3535
    },
    "64": {
     "mega": 2.08022,
     "mega_rounds": 2.07005,
     "split_small": 2.05306,
     "split_large": 3.15306,
     "split_large_tma": 5.82256
    },
    "128": {
     "split_small": 2.4048,
     "split_large": 3.57242,
     "split_large_tma": 6.61098
    },
    "256": {
     "split_small": 2.55536,
     "split_large": 3.71523,
     "split_large_tma": 6.80368
    },
    "512": {
     "split_small": 2.95565,
     "split_large": 3.77306,
     "split_large_tma": 6.85994
    },
    "1024": {
     "split_small": 4.60115,
     "split_large": 4.1168,
     "split_large_tma": 6.93763
    },
    "2048": {
     "split_small": 8.31562,
     "split_large": 5.69843,
     "split_large_tma": 7.52198
    },
    "4096": {
     "split_small": 16.0408,
     "split_large": 9.0968,
     "split_large_tma": 9.39075
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
    "1": "split_small",
    "2": "split_small",
    "4": "mega",
    "8": "mega",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small",
    "256": "split_small",
    "512": "split_large",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma",
    "8192": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.042304,
     "mega_rounds": 0.042688,
     "split_small": 0.036832,
     "split_large": 0.051552,
     "split_large_tma": 0.066304
    },
    "2": {
     "mega": 0.048192,
     "mega_rounds": 0.054592,
     "split_small": 0.047648,
     "split_large": 0.06624,
     "split_large_tma": 0.096672
    },
    "4": {
     "mega": 0.063264,
     "mega_rounds": 0.064192,
     "split_small": 0.064384,
     "split_large": 0.10032,
     "split_large_tma": 0.134816
    },
    "8": {
     "mega": 0.081696,
     "mega_rounds": 0.082144,
     "split_small": 0.0872,
     "split_large": 0.151648,
     "split_large_tma": 0.203616
    },
    "16": {
     "mega": 0.119136,
     "mega_rounds": 0.119424,
     "split_small": 0.117216,
     "split_large": 0.16368,
     "split_large_tma": 0.298624
    },
    "32": {
     "mega": 0.159968,
     "mega_rounds": 0.160544,
     "split_small": 0.149632,
     "split_large": 0.216352,
     "split_large_tma": 0.397344
    },
    "64": {
     "mega": 0.183424,
     "mega_rounds": 0.183968,
     "split_small": 0.163616,
     "split_large": 0.239712,
     "split_large_tma": 0.436864
    },
    "128": {
     "split_small": 0.173792,
     "split_large": 0.24416,
     "split_large_tma": 0.440192
    },
    "256": {
     "split_small": 0.194688,
     "split_large": 0.245536,
     "split_large_tma": 0.442848
    },
    "512": {
     "split_small": 0.304288,
     "split_large": 0.256672,
     "split_large_tma": 0.465568
    },
    "1024": {
     "split_small": 0.49744,
     "split_large": 0.367968,
     "split_large_tma": 0.519136
    },
    "2048": {
     "split_small": 0.887712,
     "split_large": 0.576,
     "split_large_tma": 0.666848
    },
    "4096": {
     "split_small": 1.6911,
     "split_large": 1.01622,
     "split_large_tma": 0.949152
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
     "mega": 0.1072,
     "mega_rounds": 0.112096,
     "split_small": 0.119296,
     "split_large": 0.28864,
     "split_large_tma": 0.321664
    },
    "2": {
     "mega": 0.148,
     "mega_rounds": 0.139104,
     "split_small": 0.164448,
     "split_large": 0.349184,
     "split_large_tma": 0.4024
    },
    "4": {
     "mega": 0.291648,
     "mega_rounds": 0.285632,
     "split_small": 0.31408,
     "split_large": 0.600448,
     "split_large_tma": 0.781408
    },
    "8": {
     "mega": 0.327904,
     "mega_rounds": 0.324064,
     "split_small": 0.347456,
     "split_large": 0.660736,
     "split_large_tma": 0.862976
    },
    "16": {
     "mega": 0.332064,
     "mega_rounds": 0.32752,
     "split_small": 0.351488,
     "split_large": 0.505792,
     "split_large_tma": 0.868736
    },
    "32": {
     "mega": 0.358208,
     "mega_rounds": 0.356384,
     "split_small": 0.362624,
     "split_large": 0.507104,
     "split_large_tma": 0.871712
    },
    "64": {
     "mega": 0.511456,
     "mega_rounds": 0.512192,
     "split_small": 0.38816,
     "split_large": 0.508608,
     "split_large_tma": 0.87488
    },
    "128": {
     "split_small": 0.568096,
     "split_large": 0.51632,
     "split_large_tma": 0.88288
    },
    "256": {
     "split_small": 1.07104,
     "split_large": 0.733344,
     "split_large_tma": 1.03677
    },
    "512": {
     "split_small": 1.91667,
     "split_large": 1.11741,
     "split_large_tma": 1.17181
    },
    "1024": {
     "split_small": 3.76774,
     "split_large": 1.96912,
     "split_large_tma": 1.52762
    },
    "2048": {
     "split_small": 8.18544,
     "split_large": 3.79984,
     "split_large_tma": 3.01626
    },
    "4096": {
     "split_small": 14.8783,
     "split_large": 7.34886,
     "split_large_tma": 5.7904
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
     "mega": 0.059552,
     "mega_rounds": 0.075744,
     "split_small": 0.054592,
     "split_large": 0.09376,
     "split_large_tma": 0.127168
    },
    "2": {
     "mega": 0.077408,
     "mega_rounds": 0.078368,
     "split_small": 0.0768,
     "split_large": 0.135488,
     "split_large_tma": 0.184544
    },
    "4": {
     "mega": 0.120192,
     "mega_rounds": 0.120832,
     "split_small": 0.121952,
     "split_large": 0.223968,
     "split_large_tma": 0.301472
    },
    "8": {
     "mega": 0.194976,
     "mega_rounds": 0.195456,
     "split_small": 0.197824,
     "split_large": 0.392192,
     "split_large_tma": 0.528128
    },
    "16": {
     "mega": 0.32112,
     "mega_rounds": 0.321632,
     "split_small": 0.2912,
     "split_large": 0.446496,
     "split_large_tma": 0.820224
    },
    "32": {
     "mega": 0.46672,
     "mega_rounds": 0.467424,
     "split_small": 0.417856,
     "split_large": 0.661888,
     "split_large_tma": 1.2199
    },
    "64": {
     "mega": 0.671712,
     "mega_rounds": 0.67248,
     "split_small": 0.579872,
     "split_large": 0.927968,
     "split_large_tma": 1.70534
    },
    "128": {
     "split_small": 0.650304,
     "split_large": 1.05485,
     "split_large_tma": 1.92512
    },
    "256": {
     "split_small": 0.72192,
     "split_large": 1.08803,
     "split_large_tma": 1.98806
    },
    "512": {
     "split_small": 0.789504,
     "split_large": 1.09654,
     "split_large_tma": 2.00371
    },
    "1024": {
     "split_small": 1.31421,
     "split_large": 1.27421,
     "split_large_tma": 2.07373
    },
    "2048": {
     "split_small": 2.39814,
     "split_large": 1.7199,
     "split_large_tma": 2.27395
    },
    "4096": {
     "split_small": 4.5887,
     "split_large": 2.6792,
     "split_large_tma": 2.82502
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
