// The tactic defaults shipped with megamoe (core/tactics.h): measured entries that
// lookup_tactics() uses when the user's cache has none for a layer on a GPU of the same name and
// SM count. Each entry comes from a benchmark job in bench/results/ (docs/BENCHMARKS.md):
//
//   bf16, fp8_block, w4a16_mxfp4 and w4a16_nvfp4, the presets' shapes with plain swiglu and no
//   biases (as `megamoe bench` runs them), the mega backends of each recipe on an NVIDIA H200,
//   T = 1..64: the `megamoe tune` runs of 2026-11-30 (bench/results/2026-11-30_2cc67cf_tune_*,
//   docs/BENCHMARKS.md "Tactic tables"): per bucket the winner of "mega", "mega_rounds" and the
//   split pipeline's tactics. Larger T uses each backend's heuristic.
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
    "4": "mega",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.131648,
     "mega_rounds": 0.123296,
     "split_small": 0.129312,
     "split_large": 0.196032
    },
    "2": {
     "mega": 0.210304,
     "mega_rounds": 0.2008,
     "split_small": 0.21536,
     "split_large": 0.357728
    },
    "4": {
     "mega": 0.395488,
     "mega_rounds": 0.396032,
     "split_small": 0.403328,
     "split_large": 0.68304
    },
    "8": {
     "mega": 0.696896,
     "mega_rounds": 0.698944,
     "split_small": 0.692928,
     "split_large": 1.20432
    },
    "16": {
     "mega": 1.22205,
     "mega_rounds": 1.21984,
     "split_small": 1.2047,
     "split_large": 2.15907
    },
    "32": {
     "mega": 1.98195,
     "mega_rounds": 1.97786,
     "split_small": 1.97152,
     "split_large": 3.40797
    },
    "64": {
     "mega": 2.6152,
     "mega_rounds": 2.6201,
     "split_small": 2.55018,
     "split_large": 4.5272
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
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.043296,
     "mega_rounds": 0.044064,
     "split_small": 0.040512,
     "split_large": 0.055168
    },
    "2": {
     "mega": 0.045632,
     "mega_rounds": 0.052736,
     "split_small": 0.055904,
     "split_large": 0.069824
    },
    "4": {
     "mega": 0.071104,
     "mega_rounds": 0.07216,
     "split_small": 0.073792,
     "split_large": 0.1104
    },
    "8": {
     "mega": 0.09504,
     "mega_rounds": 0.09568,
     "split_small": 0.109376,
     "split_large": 0.168576
    },
    "16": {
     "mega": 0.1368,
     "mega_rounds": 0.137376,
     "split_small": 0.155712,
     "split_large": 0.24
    },
    "32": {
     "mega": 0.188416,
     "mega_rounds": 0.189216,
     "split_small": 0.198432,
     "split_large": 0.326688
    },
    "64": {
     "mega": 0.214688,
     "mega_rounds": 0.21552,
     "split_small": 0.218528,
     "split_large": 0.352032
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
    "1": "mega",
    "2": "mega_rounds",
    "4": "mega",
    "8": "mega_rounds",
    "16": "mega_rounds",
    "32": "mega",
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.12864,
     "mega_rounds": 0.135072,
     "split_small": 0.138688,
     "split_large": 0.304128
    },
    "2": {
     "mega": 0.174464,
     "mega_rounds": 0.17232,
     "split_small": 0.19456,
     "split_large": 0.368992
    },
    "4": {
     "mega": 0.358464,
     "mega_rounds": 0.42816,
     "split_small": 0.368224,
     "split_large": 0.61168
    },
    "8": {
     "mega": 0.409888,
     "mega_rounds": 0.401056,
     "split_small": 0.40624,
     "split_large": 0.676064
    },
    "16": {
     "mega": 0.410816,
     "mega_rounds": 0.404224,
     "split_small": 0.407136,
     "split_large": 0.676512
    },
    "32": {
     "mega": 0.44112,
     "mega_rounds": 0.476256,
     "split_small": 0.448864,
     "split_large": 0.67008
    },
    "64": {
     "mega": 0.603744,
     "mega_rounds": 0.605344,
     "split_small": 0.628864,
     "split_large": 0.6712
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
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.065376,
     "mega_rounds": 0.076,
     "split_small": 0.063904,
     "split_large": 0.098624
    },
    "2": {
     "mega": 0.084416,
     "mega_rounds": 0.087072,
     "split_small": 0.089536,
     "split_large": 0.14352
    },
    "4": {
     "mega": 0.143616,
     "mega_rounds": 0.144128,
     "split_small": 0.143776,
     "split_large": 0.247616
    },
    "8": {
     "mega": 0.254208,
     "mega_rounds": 0.254144,
     "split_small": 0.24608,
     "split_large": 0.41696
    },
    "16": {
     "mega": 0.404928,
     "mega_rounds": 0.404448,
     "split_small": 0.377952,
     "split_large": 0.652224
    },
    "32": {
     "mega": 0.578272,
     "mega_rounds": 0.584608,
     "split_small": 0.571008,
     "split_large": 0.964544
    },
    "64": {
     "mega": 0.83408,
     "mega_rounds": 0.834368,
     "split_small": 0.784384,
     "split_large": 1.35619
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
    "4": "mega_rounds",
    "8": "mega_rounds",
    "16": "mega_rounds",
    "32": "mega_rounds",
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.132064,
     "mega_rounds": 0.12752,
     "split_small": 0.137568,
     "split_large": 0.22544
    },
    "2": {
     "mega": 0.216096,
     "mega_rounds": 0.208128,
     "split_small": 0.232448,
     "split_large": 0.411072
    },
    "4": {
     "mega": 0.410592,
     "mega_rounds": 0.410528,
     "split_small": 0.435456,
     "split_large": 0.78736
    },
    "8": {
     "mega": 0.72704,
     "mega_rounds": 0.726688,
     "split_small": 0.745792,
     "split_large": 1.3688
    },
    "16": {
     "mega": 1.26384,
     "mega_rounds": 1.26378,
     "split_small": 1.30157,
     "split_large": 2.4023
    },
    "32": {
     "mega": 2.04006,
     "mega_rounds": 2.03917,
     "split_small": 2.1113,
     "split_large": 3.85507
    },
    "64": {
     "mega": 2.71002,
     "mega_rounds": 2.71181,
     "split_small": 2.75869,
     "split_large": 5.1224
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
    "2": "mega",
    "4": "mega",
    "8": "mega",
    "16": "mega",
    "32": "mega",
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.044288,
     "mega_rounds": 0.04448,
     "split_small": 0.041376,
     "split_large": 0.0568
    },
    "2": {
     "mega": 0.04592,
     "mega_rounds": 0.054208,
     "split_small": 0.058048,
     "split_large": 0.075712
    },
    "4": {
     "mega": 0.070624,
     "mega_rounds": 0.071136,
     "split_small": 0.082432,
     "split_large": 0.130144
    },
    "8": {
     "mega": 0.096896,
     "mega_rounds": 0.097408,
     "split_small": 0.114592,
     "split_large": 0.192736
    },
    "16": {
     "mega": 0.13904,
     "mega_rounds": 0.13952,
     "split_small": 0.16368,
     "split_large": 0.262208
    },
    "32": {
     "mega": 0.190464,
     "mega_rounds": 0.19168,
     "split_small": 0.211072,
     "split_large": 0.354208
    },
    "64": {
     "mega": 0.217952,
     "mega_rounds": 0.218496,
     "split_small": 0.231392,
     "split_large": 0.386784
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
     "mega": 0.128864,
     "mega_rounds": 0.136448,
     "split_small": 0.14912,
     "split_large": 0.336
    },
    "2": {
     "mega": 0.177568,
     "mega_rounds": 0.176288,
     "split_small": 0.20768,
     "split_large": 0.407264
    },
    "4": {
     "mega": 0.366752,
     "mega_rounds": 0.447296,
     "split_small": 0.395136,
     "split_large": 0.708256
    },
    "8": {
     "mega": 0.424896,
     "mega_rounds": 0.473408,
     "split_small": 0.433856,
     "split_large": 0.77984
    },
    "16": {
     "mega": 0.425888,
     "mega_rounds": 0.482208,
     "split_small": 0.436192,
     "split_large": 0.782976
    },
    "32": {
     "mega": 0.45728,
     "mega_rounds": 0.5048,
     "split_small": 0.483456,
     "split_large": 0.778592
    },
    "64": {
     "mega": 0.633888,
     "mega_rounds": 0.634944,
     "split_small": 0.672544,
     "split_large": 0.783712
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
    "1": "mega",
    "2": "mega",
    "4": "mega_rounds",
    "8": "mega_rounds",
    "16": "split_small",
    "32": "mega",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.065472,
     "mega_rounds": 0.076672,
     "split_small": 0.067904,
     "split_large": 0.10784
    },
    "2": {
     "mega": 0.083456,
     "mega_rounds": 0.086272,
     "split_small": 0.095072,
     "split_large": 0.158592
    },
    "4": {
     "mega": 0.146912,
     "mega_rounds": 0.146784,
     "split_small": 0.154752,
     "split_large": 0.28
    },
    "8": {
     "mega": 0.263232,
     "mega_rounds": 0.262944,
     "split_small": 0.265088,
     "split_large": 0.468128
    },
    "16": {
     "mega": 0.411104,
     "mega_rounds": 0.411552,
     "split_small": 0.409056,
     "split_large": 0.731264
    },
    "32": {
     "mega": 0.611232,
     "mega_rounds": 0.613248,
     "split_small": 0.616768,
     "split_large": 1.088
    },
    "64": {
     "mega": 0.863744,
     "mega_rounds": 0.863936,
     "split_small": 0.849376,
     "split_large": 1.52125
    }
   }
  }
 ]
})json";
}

}  // namespace megamoe
