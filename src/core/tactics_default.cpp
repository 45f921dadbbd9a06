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
    "16": "mega",
    "32": "mega",
    "64": "mega_rounds",
    "128": "split_small",
    "256": "split_small",
    "512": "split_small",
    "1024": "split_small",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.107968,
     "mega_rounds": 0.097088,
     "split_small": 0.120736,
     "split_large": 0.189184
    },
    "2": {
     "mega": 0.164128,
     "mega_rounds": 0.154464,
     "split_small": 0.190144,
     "split_large": 0.342624
    },
    "4": {
     "mega": 0.297088,
     "mega_rounds": 0.297728,
     "split_small": 0.34048,
     "split_large": 0.656448
    },
    "8": {
     "mega": 0.518752,
     "mega_rounds": 0.518976,
     "split_small": 0.56592,
     "split_large": 1.13197
    },
    "16": {
     "mega": 0.90352,
     "mega_rounds": 0.904064,
     "split_small": 0.96624,
     "split_large": 1.97187
    },
    "32": {
     "mega": 1.4647,
     "mega_rounds": 1.46483,
     "split_small": 1.54282,
     "split_large": 3.21283
    },
    "64": {
     "mega": 1.97302,
     "mega_rounds": 1.97286,
     "split_small": 2.05542,
     "split_large": 4.27728
    },
    "128": {
     "split_small": 2.26326,
     "split_large": 4.76874,
     "split_large_tma": 6.08237
    },
    "256": {
     "split_small": 2.46621,
     "split_large": 4.95094,
     "split_large_tma": 6.26893
    },
    "512": {
     "split_small": 2.87581,
     "split_large": 4.97155,
     "split_large_tma": 6.34538
    },
    "1024": {
     "split_small": 4.55274,
     "split_large": 5.04237,
     "split_large_tma": 6.48787
    },
    "2048": {
     "split_small": 8.17926,
     "split_large": 5.36026,
     "split_large_tma": 7.052
    },
    "4096": {
     "split_small": 15.538,
     "split_large": 8.67386,
     "split_large_tma": 8.70429
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
    "16": "mega_rounds",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small",
    "256": "split_small",
    "512": "split_small",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma",
    "8192": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.037216,
     "mega_rounds": 0.036896,
     "split_small": 0.036704,
     "split_large": 0.050688
    },
    "2": {
     "mega": 0.042176,
     "mega_rounds": 0.044352,
     "split_small": 0.047584,
     "split_large": 0.065408
    },
    "4": {
     "mega": 0.062048,
     "mega_rounds": 0.062432,
     "split_small": 0.066944,
     "split_large": 0.099392
    },
    "8": {
     "mega": 0.078272,
     "mega_rounds": 0.078688,
     "split_small": 0.08688,
     "split_large": 0.15056
    },
    "16": {
     "mega": 0.113472,
     "mega_rounds": 0.11344,
     "split_small": 0.11792,
     "split_large": 0.215328
    },
    "32": {
     "mega": 0.152576,
     "mega_rounds": 0.153152,
     "split_small": 0.14864,
     "split_large": 0.290656
    },
    "64": {
     "mega": 0.176128,
     "mega_rounds": 0.177024,
     "split_small": 0.163616,
     "split_large": 0.319616
    },
    "128": {
     "split_small": 0.174816,
     "split_large": 0.322688,
     "split_large_tma": 0.420672
    },
    "256": {
     "split_small": 0.203744,
     "split_large": 0.326368,
     "split_large_tma": 0.4256
    },
    "512": {
     "split_small": 0.318304,
     "split_large": 0.334784,
     "split_large_tma": 0.447872
    },
    "1024": {
     "split_small": 0.532576,
     "split_large": 0.361632,
     "split_large_tma": 0.502464
    },
    "2048": {
     "split_small": 0.94848,
     "split_large": 0.550432,
     "split_large_tma": 0.630208
    },
    "4096": {
     "split_small": 1.77706,
     "split_large": 0.935008,
     "split_large_tma": 0.886848
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
    "64": "split_small",
    "128": "split_small",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large_tma",
    "2048": "split_large_tma",
    "4096": "split_large_tma",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.109184,
     "mega_rounds": 0.104672,
     "split_small": 0.126816,
     "split_large": 0.284
    },
    "2": {
     "mega": 0.140448,
     "mega_rounds": 0.132064,
     "split_small": 0.168128,
     "split_large": 0.343936
    },
    "4": {
     "mega": 0.27792,
     "mega_rounds": 0.271104,
     "split_small": 0.319552,
     "split_large": 0.593024
    },
    "8": {
     "mega": 0.309088,
     "mega_rounds": 0.300544,
     "split_small": 0.352096,
     "split_large": 0.651744
    },
    "16": {
     "mega": 0.310048,
     "mega_rounds": 0.301536,
     "split_small": 0.355488,
     "split_large": 0.652928
    },
    "32": {
     "mega": 0.3352,
     "mega_rounds": 0.357888,
     "split_small": 0.377312,
     "split_large": 0.653696
    },
    "64": {
     "mega": 0.468,
     "mega_rounds": 0.468576,
     "split_small": 0.424736,
     "split_large": 0.654368
    },
    "128": {
     "split_small": 0.61424,
     "split_large": 0.658528,
     "split_large_tma": 0.832064
    },
    "256": {
     "split_small": 1.1559,
     "split_large": 0.668576,
     "split_large_tma": 0.919008
    },
    "512": {
     "split_small": 1.98746,
     "split_large": 0.9944,
     "split_large_tma": 1.07187
    },
    "1024": {
     "split_small": 3.91706,
     "split_large": 1.80842,
     "split_large_tma": 1.43808
    },
    "2048": {
     "split_small": 7.8255,
     "split_large": 3.9071,
     "split_large_tma": 2.95664
    },
    "4096": {
     "split_small": 15.2488,
     "split_large": 6.79267,
     "split_large_tma": 5.73885
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
    "2": "mega",
    "4": "mega",
    "8": "mega_rounds",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small",
    "256": "split_small",
    "512": "split_small",
    "1024": "split_small",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.059232,
     "mega_rounds": 0.060928,
     "split_small": 0.054336,
     "split_large": 0.091744
    },
    "2": {
     "mega": 0.07568,
     "mega_rounds": 0.077152,
     "split_small": 0.07696,
     "split_large": 0.132864
    },
    "4": {
     "mega": 0.115104,
     "mega_rounds": 0.11568,
     "split_small": 0.122336,
     "split_large": 0.219872
    },
    "8": {
     "mega": 0.187328,
     "mega_rounds": 0.187072,
     "split_small": 0.198048,
     "split_large": 0.386304
    },
    "16": {
     "mega": 0.303712,
     "mega_rounds": 0.304096,
     "split_small": 0.29392,
     "split_large": 0.599552
    },
    "32": {
     "mega": 0.445888,
     "mega_rounds": 0.446304,
     "split_small": 0.419904,
     "split_large": 0.89264
    },
    "64": {
     "mega": 0.641568,
     "mega_rounds": 0.6416,
     "split_small": 0.583232,
     "split_large": 1.25613
    },
    "128": {
     "split_small": 0.640352,
     "split_large": 1.40525,
     "split_large_tma": 1.79811
    },
    "256": {
     "split_small": 0.721376,
     "split_large": 1.45837,
     "split_large_tma": 1.85408
    },
    "512": {
     "split_small": 0.847712,
     "split_large": 1.46592,
     "split_large_tma": 1.84842
    },
    "1024": {
     "split_small": 1.36221,
     "split_large": 1.53574,
     "split_large_tma": 1.91616
    },
    "2048": {
     "split_small": 2.34762,
     "split_large": 1.60336,
     "split_large_tma": 2.11344
    },
    "4096": {
     "split_small": 4.48989,
     "split_large": 2.46528,
     "split_large_tma": 2.5625
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
    "1": "mega_rounds",
    "2": "mega_rounds",
    "4": "mega",
    "8": "mega",
    "16": "mega",
    "32": "mega",
    "64": "mega",
    "128": "split_small",
    "256": "split_small",
    "512": "split_small",
    "1024": "split_small",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.110592,
     "mega_rounds": 0.101664,
     "split_small": 0.120544,
     "split_large": 0.191872
    },
    "2": {
     "mega": 0.16672,
     "mega_rounds": 0.161472,
     "split_small": 0.198144,
     "split_large": 0.347872
    },
    "4": {
     "mega": 0.315424,
     "mega_rounds": 0.316064,
     "split_small": 0.354368,
     "split_large": 0.665664
    },
    "8": {
     "mega": 0.543296,
     "mega_rounds": 0.543936,
     "split_small": 0.587296,
     "split_large": 1.15024
    },
    "16": {
     "mega": 0.944544,
     "mega_rounds": 0.944768,
     "split_small": 1.00477,
     "split_large": 2.01376
    },
    "32": {
     "mega": 1.53395,
     "mega_rounds": 1.53501,
     "split_small": 1.60496,
     "split_large": 3.25117
    },
    "64": {
     "mega": 2.06224,
     "mega_rounds": 2.06346,
     "split_small": 2.13827,
     "split_large": 4.35501
    },
    "128": {
     "split_small": 2.3681,
     "split_large": 4.94467,
     "split_large_tma": 6.60266
    },
    "256": {
     "split_small": 2.60733,
     "split_large": 5.09405,
     "split_large_tma": 6.76781
    },
    "512": {
     "split_small": 2.89021,
     "split_large": 5.08362,
     "split_large_tma": 6.79882
    },
    "1024": {
     "split_small": 4.76954,
     "split_large": 5.18998,
     "split_large_tma": 6.88163
    },
    "2048": {
     "split_small": 8.57446,
     "split_large": 5.60723,
     "split_large_tma": 7.4552
    },
    "4096": {
     "split_small": 16.2941,
     "split_large": 8.99578,
     "split_large_tma": 9.21248
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
    "8": "mega_rounds",
    "16": "mega",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small",
    "256": "split_small",
    "512": "split_small",
    "1024": "split_large",
    "2048": "split_large",
    "4096": "split_large_tma",
    "8192": "split_large"
   },
   "measured_ms": {
    "1": {
     "mega": 0.037088,
     "mega_rounds": 0.03824,
     "split_small": 0.037696,
     "split_large": 0.05152
    },
    "2": {
     "mega": 0.04272,
     "mega_rounds": 0.045856,
     "split_small": 0.04944,
     "split_large": 0.066144
    },
    "4": {
     "mega": 0.063136,
     "mega_rounds": 0.064288,
     "split_small": 0.069248,
     "split_large": 0.10048
    },
    "8": {
     "mega": 0.081632,
     "mega_rounds": 0.08144,
     "split_small": 0.091264,
     "split_large": 0.152512
    },
    "16": {
     "mega": 0.117024,
     "mega_rounds": 0.117248,
     "split_small": 0.123936,
     "split_large": 0.218016
    },
    "32": {
     "mega": 0.158752,
     "mega_rounds": 0.15936,
     "split_small": 0.157696,
     "split_large": 0.294144
    },
    "64": {
     "mega": 0.180672,
     "mega_rounds": 0.181632,
     "split_small": 0.172608,
     "split_large": 0.323232
    },
    "128": {
     "split_small": 0.18336,
     "split_large": 0.328416,
     "split_large_tma": 0.438688
    },
    "256": {
     "split_small": 0.211136,
     "split_large": 0.332288,
     "split_large_tma": 0.443872
    },
    "512": {
     "split_small": 0.328736,
     "split_large": 0.341376,
     "split_large_tma": 0.467744
    },
    "1024": {
     "split_small": 0.54992,
     "split_large": 0.36704,
     "split_large_tma": 0.516256
    },
    "2048": {
     "split_small": 0.978048,
     "split_large": 0.55744,
     "split_large_tma": 0.646528
    },
    "4096": {
     "split_small": 1.86304,
     "split_large": 0.983808,
     "split_large_tma": 0.938656
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
    "4": "mega",
    "8": "mega",
    "16": "mega",
    "32": "mega",
    "64": "split_small",
    "128": "split_small",
    "256": "split_large",
    "512": "split_large",
    "1024": "split_large_tma",
    "2048": "split_large_tma",
    "4096": "split_large_tma",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.110944,
     "mega_rounds": 0.112672,
     "split_small": 0.1328,
     "split_large": 0.290208
    },
    "2": {
     "mega": 0.147776,
     "mega_rounds": 0.13968,
     "split_small": 0.176576,
     "split_large": 0.351392
    },
    "4": {
     "mega": 0.275104,
     "mega_rounds": 0.28784,
     "split_small": 0.332128,
     "split_large": 0.605056
    },
    "8": {
     "mega": 0.334432,
     "mega_rounds": 0.342496,
     "split_small": 0.36576,
     "split_large": 0.664384
    },
    "16": {
     "mega": 0.3344,
     "mega_rounds": 0.343072,
     "split_small": 0.368992,
     "split_large": 0.665056
    },
    "32": {
     "mega": 0.356384,
     "mega_rounds": 0.364832,
     "split_small": 0.392128,
     "split_large": 0.666592
    },
    "64": {
     "mega": 0.509024,
     "mega_rounds": 0.510144,
     "split_small": 0.43856,
     "split_large": 0.666368
    },
    "128": {
     "split_small": 0.624672,
     "split_large": 0.678496,
     "split_large_tma": 0.883488
    },
    "256": {
     "split_small": 1.18291,
     "split_large": 0.686496,
     "split_large_tma": 0.976832
    },
    "512": {
     "split_small": 2.08362,
     "split_large": 1.01574,
     "split_large_tma": 1.1577
    },
    "1024": {
     "split_small": 4.12704,
     "split_large": 1.87293,
     "split_large_tma": 1.50733
    },
    "2048": {
     "split_small": 8.2945,
     "split_large": 4.08374,
     "split_large_tma": 3.0585
    },
    "4096": {
     "split_small": 15.8414,
     "split_large": 7.3145,
     "split_large_tma": 5.76115
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
    "2": "mega",
    "4": "mega",
    "8": "mega",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small",
    "128": "split_small",
    "256": "split_small",
    "512": "split_small",
    "1024": "split_small",
    "2048": "split_large",
    "4096": "split_large",
    "8192": "split_large_tma"
   },
   "measured_ms": {
    "1": {
     "mega": 0.062784,
     "mega_rounds": 0.06304,
     "split_small": 0.056672,
     "split_large": 0.094176
    },
    "2": {
     "mega": 0.07616,
     "mega_rounds": 0.07776,
     "split_small": 0.080768,
     "split_large": 0.135584
    },
    "4": {
     "mega": 0.120832,
     "mega_rounds": 0.121728,
     "split_small": 0.12752,
     "split_large": 0.224576
    },
    "8": {
     "mega": 0.195968,
     "mega_rounds": 0.196416,
     "split_small": 0.20832,
     "split_large": 0.394944
    },
    "16": {
     "mega": 0.32096,
     "mega_rounds": 0.322144,
     "split_small": 0.310656,
     "split_large": 0.612512
    },
    "32": {
     "mega": 0.464096,
     "mega_rounds": 0.464608,
     "split_small": 0.44496,
     "split_large": 0.912224
    },
    "64": {
     "mega": 0.6648,
     "mega_rounds": 0.665984,
     "split_small": 0.618688,
     "split_large": 1.28269
    },
    "128": {
     "split_small": 0.685504,
     "split_large": 1.4361,
     "split_large_tma": 1.91424
    },
    "256": {
     "split_small": 0.766176,
     "split_large": 1.48915,
     "split_large_tma": 1.97507
    },
    "512": {
     "split_small": 0.880256,
     "split_large": 1.48976,
     "split_large_tma": 1.9679
    },
    "1024": {
     "split_small": 1.42554,
     "split_large": 1.58998,
     "split_large_tma": 2.02602
    },
    "2048": {
     "split_small": 2.53914,
     "split_large": 1.65645,
     "split_large_tma": 2.25562
    },
    "4096": {
     "split_small": 4.69053,
     "split_large": 2.55574,
     "split_large_tma": 2.73926
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
