// The tactic defaults shipped with megamoe (core/tactics.h): measured entries that
// lookup_tactics() uses when the user's cache has none for a layer on a GPU of the same name and
// SM count. Each entry comes from a benchmark job in bench/results/ (docs/BENCHMARKS.md):
//
//   bf16, fp8_block, w4a16_mxfp4 and w4a16_nvfp4, the presets' shapes with plain swiglu and no
//   biases (as `megamoe bench` runs them), the mega backends of each recipe on an NVIDIA H200,
//   T = 1..64: the `megamoe tune` runs of 2026-11-30 (bench/results/2026-11-30_2cc67cf_tune_*,
//   docs/BENCHMARKS.md "Tactic tables"): per bucket the winner of "mega", "mega_rounds" and the
//   split pipeline's tactics. The w4a16_mxfp4 / w4a16_nvfp4 entries were re-measured on
//   2026-12-01 after the register decode (bench/results/2026-12-01_56c4379_tune_w4a16_*).
//   Larger T uses each backend's heuristic.
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
    "64": "split_swap_ab"
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
    "64": "split_swap_ab"
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
    "64": "split_swap_ab"
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
    "64": "split_swap_ab"
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
    "4": "mega",
    "8": "mega",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.139392,
     "mega_rounds": 0.129664,
     "split_swap_ab": 0.142368,
     "split_large_tile": 0.177984
    },
    "2": {
     "mega": 0.205472,
     "mega_rounds": 0.195264,
     "split_swap_ab": 0.22048,
     "split_large_tile": 0.298656
    },
    "4": {
     "mega": 0.382752,
     "mega_rounds": 0.383232,
     "split_swap_ab": 0.403712,
     "split_large_tile": 0.57104
    },
    "8": {
     "mega": 0.654528,
     "mega_rounds": 0.656416,
     "split_swap_ab": 0.6616,
     "split_large_tile": 0.9368
    },
    "16": {
     "mega": 1.13002,
     "mega_rounds": 1.13232,
     "split_swap_ab": 1.1169,
     "split_large_tile": 1.57216
    },
    "32": {
     "mega": 1.84886,
     "mega_rounds": 1.85507,
     "split_swap_ab": 1.77664,
     "split_large_tile": 2.47149
    },
    "64": {
     "mega": 2.47725,
     "mega_rounds": 2.46899,
     "split_swap_ab": 2.35987,
     "split_large_tile": 3.24656
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
    "8": "mega",
    "16": "mega",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.049984,
     "mega_rounds": 0.049632,
     "split_swap_ab": 0.052704,
     "split_large_tile": 0.056448
    },
    "2": {
     "mega": 0.057984,
     "mega_rounds": 0.058176,
     "split_swap_ab": 0.062912,
     "split_large_tile": 0.07152
    },
    "4": {
     "mega": 0.078016,
     "mega_rounds": 0.078752,
     "split_swap_ab": 0.084672,
     "split_large_tile": 0.09872
    },
    "8": {
     "mega": 0.10016,
     "mega_rounds": 0.100192,
     "split_swap_ab": 0.113184,
     "split_large_tile": 0.138656
    },
    "16": {
     "mega": 0.143488,
     "mega_rounds": 0.143904,
     "split_swap_ab": 0.150176,
     "split_large_tile": 0.19024
    },
    "32": {
     "mega": 0.191264,
     "mega_rounds": 0.192192,
     "split_swap_ab": 0.188512,
     "split_large_tile": 0.2464
    },
    "64": {
     "mega": 0.219104,
     "mega_rounds": 0.2192,
     "split_swap_ab": 0.206496,
     "split_large_tile": 0.267168
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
    "4": "mega",
    "8": "mega",
    "16": "mega",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.14048,
     "mega_rounds": 0.127424,
     "split_swap_ab": 0.155136,
     "split_large_tile": 0.212256
    },
    "2": {
     "mega": 0.169248,
     "mega_rounds": 0.18464,
     "split_swap_ab": 0.19088,
     "split_large_tile": 0.269664
    },
    "4": {
     "mega": 0.350432,
     "mega_rounds": 0.358976,
     "split_swap_ab": 0.37808,
     "split_large_tile": 0.554496
    },
    "8": {
     "mega": 0.400576,
     "mega_rounds": 0.443232,
     "split_swap_ab": 0.408256,
     "split_large_tile": 0.5952
    },
    "16": {
     "mega": 0.401728,
     "mega_rounds": 0.441984,
     "split_swap_ab": 0.408192,
     "split_large_tile": 0.598976
    },
    "32": {
     "mega": 0.426656,
     "mega_rounds": 0.470336,
     "split_swap_ab": 0.404288,
     "split_large_tile": 0.593408
    },
    "64": {
     "mega": 0.582016,
     "mega_rounds": 0.582336,
     "split_swap_ab": 0.403328,
     "split_large_tile": 0.592096
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
    "2": "mega",
    "4": "mega",
    "8": "mega",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.072608,
     "mega_rounds": 0.06608,
     "split_swap_ab": 0.073504,
     "split_large_tile": 0.08656
    },
    "2": {
     "mega": 0.090208,
     "mega_rounds": 0.091456,
     "split_swap_ab": 0.096896,
     "split_large_tile": 0.112832
    },
    "4": {
     "mega": 0.146592,
     "mega_rounds": 0.147136,
     "split_swap_ab": 0.154912,
     "split_large_tile": 0.2032
    },
    "8": {
     "mega": 0.249312,
     "mega_rounds": 0.249792,
     "split_swap_ab": 0.251648,
     "split_large_tile": 0.351488
    },
    "16": {
     "mega": 0.387552,
     "mega_rounds": 0.38784,
     "split_swap_ab": 0.374208,
     "split_large_tile": 0.527904
    },
    "32": {
     "mega": 0.56992,
     "mega_rounds": 0.57024,
     "split_swap_ab": 0.533728,
     "split_large_tile": 0.755808
    },
    "64": {
     "mega": 0.805856,
     "mega_rounds": 0.806784,
     "split_swap_ab": 0.736288,
     "split_large_tile": 1.02602
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
    "4": "mega_rounds",
    "8": "mega_rounds",
    "16": "mega_rounds",
    "32": "mega",
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.108096,
     "mega_rounds": 0.096832,
     "split_small": 0.119264,
     "split_large": 0.189568
    },
    "2": {
     "mega": 0.165056,
     "mega_rounds": 0.154624,
     "split_small": 0.196416,
     "split_large": 0.342624
    },
    "4": {
     "mega": 0.299136,
     "mega_rounds": 0.297824,
     "split_small": 0.351904,
     "split_large": 0.65648
    },
    "8": {
     "mega": 0.519104,
     "mega_rounds": 0.519008,
     "split_small": 0.584192,
     "split_large": 1.13248
    },
    "16": {
     "mega": 0.904384,
     "mega_rounds": 0.898144,
     "split_small": 0.993504,
     "split_large": 1.95677
    },
    "32": {
     "mega": 1.4544,
     "mega_rounds": 1.45642,
     "split_small": 1.58957,
     "split_large": 3.18803
    },
    "64": {
     "mega": 1.97181,
     "mega_rounds": 1.97552,
     "split_small": 2.12045,
     "split_large": 4.26704
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
    "16": "mega",
    "32": "mega",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.037536,
     "mega_rounds": 0.037312,
     "split_small": 0.037184,
     "split_large": 0.050976
    },
    "2": {
     "mega": 0.042304,
     "mega_rounds": 0.044768,
     "split_small": 0.048672,
     "split_large": 0.06592
    },
    "4": {
     "mega": 0.062176,
     "mega_rounds": 0.062528,
     "split_small": 0.066912,
     "split_large": 0.099392
    },
    "8": {
     "mega": 0.07872,
     "mega_rounds": 0.078816,
     "split_small": 0.0904,
     "split_large": 0.150528
    },
    "16": {
     "mega": 0.113504,
     "mega_rounds": 0.113664,
     "split_small": 0.123072,
     "split_large": 0.215232
    },
    "32": {
     "mega": 0.152544,
     "mega_rounds": 0.153088,
     "split_small": 0.156192,
     "split_large": 0.290208
    },
    "64": {
     "mega": 0.174432,
     "mega_rounds": 0.174752,
     "split_small": 0.170336,
     "split_large": 0.3144
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
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.108768,
     "mega_rounds": 0.104128,
     "split_small": 0.128992,
     "split_large": 0.28192
    },
    "2": {
     "mega": 0.139776,
     "mega_rounds": 0.131264,
     "split_small": 0.17472,
     "split_large": 0.341536
    },
    "4": {
     "mega": 0.276256,
     "mega_rounds": 0.26944,
     "split_small": 0.327488,
     "split_large": 0.58848
    },
    "8": {
     "mega": 0.306432,
     "mega_rounds": 0.298272,
     "split_small": 0.360608,
     "split_large": 0.647072
    },
    "16": {
     "mega": 0.30768,
     "mega_rounds": 0.29904,
     "split_small": 0.363808,
     "split_large": 0.648064
    },
    "32": {
     "mega": 0.332768,
     "mega_rounds": 0.356032,
     "split_small": 0.390368,
     "split_large": 0.6472
    },
    "64": {
     "mega": 0.463968,
     "mega_rounds": 0.464768,
     "split_small": 0.556704,
     "split_large": 0.648736
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
    "8": "mega",
    "16": "mega",
    "32": "mega",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.059072,
     "mega_rounds": 0.061376,
     "split_small": 0.055808,
     "split_large": 0.09136
    },
    "2": {
     "mega": 0.075648,
     "mega_rounds": 0.077056,
     "split_small": 0.07936,
     "split_large": 0.132096
    },
    "4": {
     "mega": 0.114336,
     "mega_rounds": 0.115104,
     "split_small": 0.125824,
     "split_large": 0.218432
    },
    "8": {
     "mega": 0.185856,
     "mega_rounds": 0.186144,
     "split_small": 0.2064,
     "split_large": 0.38336
    },
    "16": {
     "mega": 0.301792,
     "mega_rounds": 0.301888,
     "split_small": 0.309216,
     "split_large": 0.595168
    },
    "32": {
     "mega": 0.44304,
     "mega_rounds": 0.44352,
     "split_small": 0.444448,
     "split_large": 0.88592
    },
    "64": {
     "mega": 0.637664,
     "mega_rounds": 0.63808,
     "split_small": 0.620224,
     "split_large": 1.2463
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
    "16": "mega_rounds",
    "32": "mega",
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.111072,
     "mega_rounds": 0.102272,
     "split_small": 0.123552,
     "split_large": 0.193344
    },
    "2": {
     "mega": 0.167616,
     "mega_rounds": 0.163488,
     "split_small": 0.20352,
     "split_large": 0.35024
    },
    "4": {
     "mega": 0.317632,
     "mega_rounds": 0.31824,
     "split_small": 0.366112,
     "split_large": 0.67024
    },
    "8": {
     "mega": 0.546656,
     "mega_rounds": 0.547392,
     "split_small": 0.6096,
     "split_large": 1.15757
    },
    "16": {
     "mega": 0.937472,
     "mega_rounds": 0.937344,
     "split_small": 1.03229,
     "split_large": 1.99606
    },
    "32": {
     "mega": 1.52176,
     "mega_rounds": 1.52246,
     "split_small": 1.6511,
     "split_large": 3.26141
    },
    "64": {
     "mega": 2.0625,
     "mega_rounds": 2.0665,
     "split_small": 2.20592,
     "split_large": 4.31907
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
    "16": "mega",
    "32": "mega",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.037856,
     "mega_rounds": 0.037952,
     "split_small": 0.038272,
     "split_large": 0.051488
    },
    "2": {
     "mega": 0.043008,
     "mega_rounds": 0.045536,
     "split_small": 0.049792,
     "split_large": 0.0656
    },
    "4": {
     "mega": 0.062976,
     "mega_rounds": 0.063808,
     "split_small": 0.068928,
     "split_large": 0.099968
    },
    "8": {
     "mega": 0.081184,
     "mega_rounds": 0.081408,
     "split_small": 0.093664,
     "split_large": 0.151232
    },
    "16": {
     "mega": 0.116576,
     "mega_rounds": 0.1168,
     "split_small": 0.127328,
     "split_large": 0.216416
    },
    "32": {
     "mega": 0.157664,
     "mega_rounds": 0.157856,
     "split_small": 0.162496,
     "split_large": 0.29168
    },
    "64": {
     "mega": 0.179936,
     "mega_rounds": 0.18016,
     "split_small": 0.178784,
     "split_large": 0.320768
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
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.110368,
     "mega_rounds": 0.111744,
     "split_small": 0.133472,
     "split_large": 0.288064
    },
    "2": {
     "mega": 0.148448,
     "mega_rounds": 0.138144,
     "split_small": 0.18256,
     "split_large": 0.348672
    },
    "4": {
     "mega": 0.272576,
     "mega_rounds": 0.285632,
     "split_small": 0.339744,
     "split_large": 0.600832
    },
    "8": {
     "mega": 0.327232,
     "mega_rounds": 0.340832,
     "split_small": 0.374144,
     "split_large": 0.660032
    },
    "16": {
     "mega": 0.332832,
     "mega_rounds": 0.341408,
     "split_small": 0.376672,
     "split_large": 0.660096
    },
    "32": {
     "mega": 0.354272,
     "mega_rounds": 0.36032,
     "split_small": 0.4048,
     "split_large": 0.661056
    },
    "64": {
     "mega": 0.504704,
     "mega_rounds": 0.505984,
     "split_small": 0.583168,
     "split_large": 0.66416
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
    "8": "mega_rounds",
    "16": "mega_rounds",
    "32": "mega_rounds",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.06288,
     "mega_rounds": 0.06256,
     "split_small": 0.05776,
     "split_large": 0.09344
    },
    "2": {
     "mega": 0.075968,
     "mega_rounds": 0.077088,
     "split_small": 0.082496,
     "split_large": 0.134784
    },
    "4": {
     "mega": 0.119808,
     "mega_rounds": 0.119904,
     "split_small": 0.131168,
     "split_large": 0.22352
    },
    "8": {
     "mega": 0.195616,
     "mega_rounds": 0.195552,
     "split_small": 0.216992,
     "split_large": 0.39216
    },
    "16": {
     "mega": 0.323968,
     "mega_rounds": 0.320192,
     "split_small": 0.325504,
     "split_large": 0.608288
    },
    "32": {
     "mega": 0.46128,
     "mega_rounds": 0.460832,
     "split_small": 0.470176,
     "split_large": 0.904928
    },
    "64": {
     "mega": 0.660064,
     "mega_rounds": 0.66048,
     "split_small": 0.656224,
     "split_large": 1.27418
    }
   }
  }
 ]
})json";
}

}  // namespace megamoe
