// The tactic defaults shipped with megamoe (core/tactics.h): measured entries that
// lookup_tactics() uses when the user's cache has none for a layer on a GPU of the same name and
// SM count. Each entry comes from a benchmark job in bench/results/ (docs/BENCHMARKS.md):
//
//   bf16, the presets' shapes with plain swiglu and no biases (as `megamoe bench` runs them),
//   sm90_bf16_bf16_bf16_mega on an NVIDIA H200, T = 1..64: the `megamoe tune` run of 2026-11-30
//   with the kernel at two CTAs per SM (bench/results/2026-11-30_2f57164_tune_bf16.json,
//   docs/BENCHMARKS.md): "mega" up to T = 2 (mixtral-8x7b), 4 (deepseek-v3), 8 (gpt-oss-120b)
//   and 16 (qwen3-30b-a3b), else "split_swap_ab".
//   w4a16_mxfp4 and w4a16_nvfp4, the same presets' shapes (plain swiglu, no biases),
//   sm90_bf16_{mxfp4,nvfp4}_bf16_mega on an NVIDIA H200, T = 1..64: `megamoe tune` of
//   2026-11-30 (bench/results/2026-11-30_d7961a0_tune_w4a16.json, docs/BENCHMARKS.md "W4A16
//   Mega"): the winner of "mega", "split_small" and "split_large" per bucket.
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
    "2": "mega",
    "4": "mega",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.212544,
     "split_swap_ab": 0.223456,
     "split_large_tile": 0.24464
    },
    "2": {
     "mega": 0.362752,
     "split_swap_ab": 0.378624,
     "split_large_tile": 0.389952
    },
    "4": {
     "mega": 0.667072,
     "split_swap_ab": 0.677632,
     "split_large_tile": 0.724704
    },
    "8": {
     "mega": 1.17523,
     "split_swap_ab": 1.16746,
     "split_large_tile": 1.23469
    },
    "16": {
     "mega": 2.05126,
     "split_swap_ab": 2.03267,
     "split_large_tile": 2.16502
    },
    "32": {
     "mega": 3.32618,
     "split_swap_ab": 3.28138,
     "split_large_tile": 3.4231
    },
    "64": {
     "mega": 4.42198,
     "split_swap_ab": 4.39613,
     "split_large_tile": 4.58317
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
    "1": "mega",
    "2": "mega",
    "4": "mega",
    "8": "mega",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.092736,
     "split_swap_ab": 0.095776,
     "split_large_tile": 0.115808
    },
    "2": {
     "mega": 0.126144,
     "split_swap_ab": 0.13936,
     "split_large_tile": 0.172896
    },
    "4": {
     "mega": 0.238464,
     "split_swap_ab": 0.246144,
     "split_large_tile": 0.272608
    },
    "8": {
     "mega": 0.388352,
     "split_swap_ab": 0.39568,
     "split_large_tile": 0.445184
    },
    "16": {
     "mega": 0.620512,
     "split_swap_ab": 0.61472,
     "split_large_tile": 0.679424
    },
    "32": {
     "mega": 0.93968,
     "split_swap_ab": 0.909824,
     "split_large_tile": 0.9792
    },
    "64": {
     "mega": 1.32419,
     "split_swap_ab": 1.2953,
     "split_large_tile": 1.40618
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
    "1": "mega",
    "2": "mega",
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.2168,
     "split_swap_ab": 0.244128,
     "split_large_tile": 0.345472
    },
    "2": {
     "mega": 0.287456,
     "split_swap_ab": 0.30208,
     "split_large_tile": 0.435456
    },
    "4": {
     "mega": 0.617824,
     "split_swap_ab": 0.60896,
     "split_large_tile": 0.704864
    },
    "8": {
     "mega": 0.690656,
     "split_swap_ab": 0.680928,
     "split_large_tile": 0.792032
    },
    "16": {
     "mega": 0.69088,
     "split_swap_ab": 0.679648,
     "split_large_tile": 0.78416
    },
    "32": {
     "mega": 0.701152,
     "split_swap_ab": 0.683392,
     "split_large_tile": 0.778656
    },
    "64": {
     "mega": 0.925248,
     "split_swap_ab": 0.717664,
     "split_large_tile": 0.77312
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
    "1": "mega",
    "2": "mega",
    "4": "mega",
    "8": "mega",
    "16": "mega",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.052096,
     "split_swap_ab": 0.056256,
     "split_large_tile": 0.068608
    },
    "2": {
     "mega": 0.067168,
     "split_swap_ab": 0.07296,
     "split_large_tile": 0.078176
    },
    "4": {
     "mega": 0.108224,
     "split_swap_ab": 0.110688,
     "split_large_tile": 0.131136
    },
    "8": {
     "mega": 0.145056,
     "split_swap_ab": 0.156128,
     "split_large_tile": 0.184
    },
    "16": {
     "mega": 0.218784,
     "split_swap_ab": 0.220864,
     "split_large_tile": 0.244032
    },
    "32": {
     "mega": 0.294016,
     "split_swap_ab": 0.291744,
     "split_large_tile": 0.32528
    },
    "64": {
     "mega": 0.32864,
     "split_swap_ab": 0.323424,
     "split_large_tile": 0.345952
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
    "2": "mega",
    "4": "mega",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.128416,
     "split_small": 0.13376,
     "split_large": 0.19696
    },
    "2": {
     "mega": 0.209728,
     "split_small": 0.21744,
     "split_large": 0.360832
    },
    "4": {
     "mega": 0.397536,
     "split_small": 0.406048,
     "split_large": 0.687904
    },
    "8": {
     "mega": 0.69872,
     "split_small": 0.692064,
     "split_large": 1.20176
    },
    "16": {
     "mega": 1.21526,
     "split_small": 1.20499,
     "split_large": 2.15434
    },
    "32": {
     "mega": 1.97542,
     "split_small": 1.97155,
     "split_large": 3.42563
    },
    "64": {
     "mega": 2.62774,
     "split_small": 2.56598,
     "split_large": 4.52768
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
    "16": "split_small",
    "32": "split_small",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.063744,
     "split_small": 0.063008,
     "split_large": 0.098688
    },
    "2": {
     "mega": 0.081376,
     "split_small": 0.089568,
     "split_large": 0.143776
    },
    "4": {
     "mega": 0.141248,
     "split_small": 0.1448,
     "split_large": 0.247136
    },
    "8": {
     "mega": 0.2424,
     "split_small": 0.247072,
     "split_large": 0.418592
    },
    "16": {
     "mega": 0.391968,
     "split_small": 0.380512,
     "split_large": 0.657472
    },
    "32": {
     "mega": 0.57728,
     "split_small": 0.57472,
     "split_large": 0.968608
    },
    "64": {
     "mega": 0.827136,
     "split_small": 0.788672,
     "split_large": 1.36285
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
    "2": "mega",
    "4": "mega",
    "8": "split_small",
    "16": "split_small",
    "32": "mega",
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.125184,
     "split_small": 0.138976,
     "split_large": 0.30576
    },
    "2": {
     "mega": 0.178304,
     "split_small": 0.193536,
     "split_large": 0.368512
    },
    "4": {
     "mega": 0.356544,
     "split_small": 0.3688,
     "split_large": 0.611488
    },
    "8": {
     "mega": 0.40784,
     "split_small": 0.404928,
     "split_large": 0.6744
    },
    "16": {
     "mega": 0.407712,
     "split_small": 0.405888,
     "split_large": 0.674816
    },
    "32": {
     "mega": 0.441312,
     "split_small": 0.4512,
     "split_large": 0.674912
    },
    "64": {
     "mega": 0.628064,
     "split_small": 0.634816,
     "split_large": 0.67584
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
     "mega": 0.043968,
     "split_small": 0.040896,
     "split_large": 0.055264
    },
    "2": {
     "mega": 0.046112,
     "split_small": 0.056512,
     "split_large": 0.070624
    },
    "4": {
     "mega": 0.0704,
     "split_small": 0.074112,
     "split_large": 0.111328
    },
    "8": {
     "mega": 0.093856,
     "split_small": 0.109152,
     "split_large": 0.168992
    },
    "16": {
     "mega": 0.136608,
     "split_small": 0.156032,
     "split_large": 0.241152
    },
    "32": {
     "mega": 0.185728,
     "split_small": 0.199488,
     "split_large": 0.327776
    },
    "64": {
     "mega": 0.211072,
     "split_small": 0.218816,
     "split_large": 0.354112
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
    "8": "mega",
    "16": "mega",
    "32": "mega",
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.133632,
     "split_small": 0.141376,
     "split_large": 0.224608
    },
    "2": {
     "mega": 0.218752,
     "split_small": 0.233248,
     "split_large": 0.410464
    },
    "4": {
     "mega": 0.414944,
     "split_small": 0.436352,
     "split_large": 0.787104
    },
    "8": {
     "mega": 0.73424,
     "split_small": 0.74608,
     "split_large": 1.3689
    },
    "16": {
     "mega": 1.2783,
     "split_small": 1.30205,
     "split_large": 2.4032
    },
    "32": {
     "mega": 2.07872,
     "split_small": 2.12973,
     "split_large": 3.87536
    },
    "64": {
     "mega": 2.76202,
     "split_small": 2.77507,
     "split_large": 5.16883
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
    "4": "mega",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.063744,
     "split_small": 0.068608,
     "split_large": 0.107904
    },
    "2": {
     "mega": 0.083872,
     "split_small": 0.095008,
     "split_large": 0.158368
    },
    "4": {
     "mega": 0.147008,
     "split_small": 0.154048,
     "split_large": 0.27952
    },
    "8": {
     "mega": 0.265728,
     "split_small": 0.26544,
     "split_large": 0.46752
    },
    "16": {
     "mega": 0.415584,
     "split_small": 0.408992,
     "split_large": 0.728832
    },
    "32": {
     "mega": 0.617472,
     "split_small": 0.615264,
     "split_large": 1.08531
    },
    "64": {
     "mega": 0.871328,
     "split_small": 0.849536,
     "split_large": 1.53197
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
    "2": "mega",
    "4": "mega",
    "8": "mega",
    "16": "mega",
    "32": "mega",
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.129856,
     "split_small": 0.149344,
     "split_large": 0.336
    },
    "2": {
     "mega": 0.179776,
     "split_small": 0.206944,
     "split_large": 0.40672
    },
    "4": {
     "mega": 0.371296,
     "split_small": 0.39472,
     "split_large": 0.707552
    },
    "8": {
     "mega": 0.42976,
     "split_small": 0.434336,
     "split_large": 0.778944
    },
    "16": {
     "mega": 0.430112,
     "split_small": 0.435072,
     "split_large": 0.781248
    },
    "32": {
     "mega": 0.457088,
     "split_small": 0.484,
     "split_large": 0.784352
    },
    "64": {
     "mega": 0.645888,
     "split_small": 0.677056,
     "split_large": 0.790464
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
     "mega": 0.045248,
     "split_small": 0.041856,
     "split_large": 0.057376
    },
    "2": {
     "mega": 0.048224,
     "split_small": 0.058912,
     "split_large": 0.076736
    },
    "4": {
     "mega": 0.072096,
     "split_small": 0.078784,
     "split_large": 0.131392
    },
    "8": {
     "mega": 0.098368,
     "split_small": 0.115168,
     "split_large": 0.19312
    },
    "16": {
     "mega": 0.14128,
     "split_small": 0.164192,
     "split_large": 0.263264
    },
    "32": {
     "mega": 0.191904,
     "split_small": 0.21136,
     "split_large": 0.355808
    },
    "64": {
     "mega": 0.21872,
     "split_small": 0.232032,
     "split_large": 0.388256
    }
   }
  }
 ]
})json";
}

}  // namespace megamoe
