// The tactic defaults shipped with megamoe (core/tactics.h): measured entries that
// lookup_tactics() uses when the user's cache has none for a layer on a GPU of the same name and
// SM count. Each entry comes from a benchmark job in bench/results/ (docs/BENCHMARKS.md):
//
//   bf16, fp8_block, w4a16_mxfp4 and w4a16_nvfp4, the presets' shapes with plain swiglu and no
//   biases (as `megamoe bench` runs them), the mega backends of each recipe on an NVIDIA H200,
//   T = 1..64: the `megamoe tune` runs of 2026-11-30 (bench/results/2026-11-30_9b05e3c-wip_tune_*,
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
    "1": "mega_rounds",
    "2": "mega_rounds",
    "4": "mega",
    "8": "mega_rounds",
    "16": "mega",
    "32": "mega_rounds",
    "64": "mega_rounds"
   },
   "measured_ms": {
    "1": {
     "mega": 0.215328,
     "mega_rounds": 0.21376,
     "split_swap_ab": 0.227584,
     "split_large_tile": 0.249056
    },
    "2": {
     "mega": 0.368096,
     "mega_rounds": 0.338752,
     "split_swap_ab": 0.357696,
     "split_large_tile": 0.394912
    },
    "4": {
     "mega": 0.671264,
     "mega_rounds": 0.672864,
     "split_swap_ab": 0.696096,
     "split_large_tile": 0.741888
    },
    "8": {
     "mega": 1.1776,
     "mega_rounds": 1.17565,
     "split_swap_ab": 1.19568,
     "split_large_tile": 1.27251
    },
    "16": {
     "mega": 2.06515,
     "mega_rounds": 2.06944,
     "split_swap_ab": 2.08045,
     "split_large_tile": 2.23392
    },
    "32": {
     "mega": 3.34461,
     "mega_rounds": 3.32733,
     "split_swap_ab": 3.36352,
     "split_large_tile": 3.58397
    },
    "64": {
     "mega": 4.55168,
     "mega_rounds": 4.49021,
     "split_swap_ab": 4.49642,
     "split_large_tile": 4.82294
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
    "2": "mega_rounds",
    "4": "mega_rounds",
    "8": "mega",
    "16": "mega",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.059136,
     "mega_rounds": 0.059616,
     "split_swap_ab": 0.062304,
     "split_large_tile": 0.074592
    },
    "2": {
     "mega": 0.074112,
     "mega_rounds": 0.069536,
     "split_swap_ab": 0.0784,
     "split_large_tile": 0.08512
    },
    "4": {
     "mega": 0.1144,
     "mega_rounds": 0.10928,
     "split_swap_ab": 0.120128,
     "split_large_tile": 0.13728
    },
    "8": {
     "mega": 0.14544,
     "mega_rounds": 0.145792,
     "split_swap_ab": 0.158112,
     "split_large_tile": 0.189472
    },
    "16": {
     "mega": 0.22192,
     "mega_rounds": 0.22256,
     "split_swap_ab": 0.225952,
     "split_large_tile": 0.247296
    },
    "32": {
     "mega": 0.299456,
     "mega_rounds": 0.300032,
     "split_swap_ab": 0.297088,
     "split_large_tile": 0.334464
    },
    "64": {
     "mega": 0.3296,
     "mega_rounds": 0.330048,
     "split_swap_ab": 0.328608,
     "split_large_tile": 0.352384
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
     "mega": 0.218464,
     "mega_rounds": 0.212832,
     "split_swap_ab": 0.232768,
     "split_large_tile": 0.344032
    },
    "2": {
     "mega": 0.291264,
     "mega_rounds": 0.298528,
     "split_swap_ab": 0.304704,
     "split_large_tile": 0.43936
    },
    "4": {
     "mega": 0.622592,
     "mega_rounds": 0.668576,
     "split_swap_ab": 0.625216,
     "split_large_tile": 0.712256
    },
    "8": {
     "mega": 0.693696,
     "mega_rounds": 0.780704,
     "split_swap_ab": 0.694176,
     "split_large_tile": 0.799936
    },
    "16": {
     "mega": 0.69504,
     "mega_rounds": 0.781792,
     "split_swap_ab": 0.694112,
     "split_large_tile": 0.794336
    },
    "32": {
     "mega": 0.705056,
     "mega_rounds": 0.799232,
     "split_swap_ab": 0.698272,
     "split_large_tile": 0.788672
    },
    "64": {
     "mega": 0.931136,
     "mega_rounds": 0.928384,
     "split_swap_ab": 0.733216,
     "split_large_tile": 0.788704
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
     "mega": 0.090464,
     "mega_rounds": 0.086144,
     "split_swap_ab": 0.095136,
     "split_large_tile": 0.11232
    },
    "2": {
     "mega": 0.118944,
     "mega_rounds": 0.126176,
     "split_swap_ab": 0.1304,
     "split_large_tile": 0.160704
    },
    "4": {
     "mega": 0.225856,
     "mega_rounds": 0.226432,
     "split_swap_ab": 0.229536,
     "split_large_tile": 0.269056
    },
    "8": {
     "mega": 0.390656,
     "mega_rounds": 0.390592,
     "split_swap_ab": 0.40272,
     "split_large_tile": 0.450592
    },
    "16": {
     "mega": 0.624608,
     "mega_rounds": 0.624736,
     "split_swap_ab": 0.627136,
     "split_large_tile": 0.687872
    },
    "32": {
     "mega": 0.947936,
     "mega_rounds": 0.948416,
     "split_swap_ab": 0.936256,
     "split_large_tile": 1.00368
    },
    "64": {
     "mega": 1.33443,
     "mega_rounds": 1.33462,
     "split_swap_ab": 1.32566,
     "split_large_tile": 1.43101
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
    "4": "mega_rounds",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.137984,
     "mega_rounds": 0.128864,
     "split_swap_ab": 0.142848,
     "split_large_tile": 0.17952
    },
    "2": {
     "mega": 0.20752,
     "mega_rounds": 0.196,
     "split_swap_ab": 0.22496,
     "split_large_tile": 0.31136
    },
    "4": {
     "mega": 0.388224,
     "mega_rounds": 0.387104,
     "split_swap_ab": 0.406304,
     "split_large_tile": 0.57696
    },
    "8": {
     "mega": 0.667936,
     "mega_rounds": 0.66832,
     "split_swap_ab": 0.664608,
     "split_large_tile": 0.94992
    },
    "16": {
     "mega": 1.15741,
     "mega_rounds": 1.15062,
     "split_swap_ab": 1.11888,
     "split_large_tile": 1.57946
    },
    "32": {
     "mega": 1.86739,
     "mega_rounds": 1.86944,
     "split_swap_ab": 1.77357,
     "split_large_tile": 2.47379
    },
    "64": {
     "mega": 2.49782,
     "mega_rounds": 2.49626,
     "split_swap_ab": 2.35213,
     "split_large_tile": 3.25363
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
    "2": "mega_rounds",
    "4": "mega",
    "8": "mega",
    "16": "mega",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.048064,
     "mega_rounds": 0.047264,
     "split_swap_ab": 0.051712,
     "split_large_tile": 0.055552
    },
    "2": {
     "mega": 0.057376,
     "mega_rounds": 0.056224,
     "split_swap_ab": 0.06144,
     "split_large_tile": 0.0704
    },
    "4": {
     "mega": 0.077472,
     "mega_rounds": 0.078496,
     "split_swap_ab": 0.083776,
     "split_large_tile": 0.098272
    },
    "8": {
     "mega": 0.099712,
     "mega_rounds": 0.100448,
     "split_swap_ab": 0.112864,
     "split_large_tile": 0.137504
    },
    "16": {
     "mega": 0.14336,
     "mega_rounds": 0.14432,
     "split_swap_ab": 0.151968,
     "split_large_tile": 0.191808
    },
    "32": {
     "mega": 0.192352,
     "mega_rounds": 0.19264,
     "split_swap_ab": 0.1888,
     "split_large_tile": 0.246176
    },
    "64": {
     "mega": 0.219392,
     "mega_rounds": 0.219744,
     "split_swap_ab": 0.206784,
     "split_large_tile": 0.266496
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
     "mega": 0.139456,
     "mega_rounds": 0.128544,
     "split_swap_ab": 0.155328,
     "split_large_tile": 0.215424
    },
    "2": {
     "mega": 0.16976,
     "mega_rounds": 0.18512,
     "split_swap_ab": 0.189728,
     "split_large_tile": 0.268096
    },
    "4": {
     "mega": 0.349824,
     "mega_rounds": 0.368544,
     "split_swap_ab": 0.380544,
     "split_large_tile": 0.556224
    },
    "8": {
     "mega": 0.40912,
     "mega_rounds": 0.440448,
     "split_swap_ab": 0.40912,
     "split_large_tile": 0.593568
    },
    "16": {
     "mega": 0.40848,
     "mega_rounds": 0.44,
     "split_swap_ab": 0.408576,
     "split_large_tile": 0.600736
    },
    "32": {
     "mega": 0.428448,
     "mega_rounds": 0.468704,
     "split_swap_ab": 0.40736,
     "split_large_tile": 0.596864
    },
    "64": {
     "mega": 0.581472,
     "mega_rounds": 0.581728,
     "split_swap_ab": 0.403424,
     "split_large_tile": 0.597216
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
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.072576,
     "mega_rounds": 0.06608,
     "split_swap_ab": 0.073344,
     "split_large_tile": 0.088064
    },
    "2": {
     "mega": 0.090272,
     "mega_rounds": 0.090304,
     "split_swap_ab": 0.097344,
     "split_large_tile": 0.11584
    },
    "4": {
     "mega": 0.147328,
     "mega_rounds": 0.147712,
     "split_swap_ab": 0.153536,
     "split_large_tile": 0.20176
    },
    "8": {
     "mega": 0.255296,
     "mega_rounds": 0.256544,
     "split_swap_ab": 0.254528,
     "split_large_tile": 0.355584
    },
    "16": {
     "mega": 0.391712,
     "mega_rounds": 0.392864,
     "split_swap_ab": 0.377056,
     "split_large_tile": 0.53408
    },
    "32": {
     "mega": 0.575552,
     "mega_rounds": 0.575552,
     "split_swap_ab": 0.537408,
     "split_large_tile": 0.760608
    },
    "64": {
     "mega": 0.814144,
     "mega_rounds": 0.814112,
     "split_swap_ab": 0.739584,
     "split_large_tile": 1.04285
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
    "4": "split_small",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.141472,
     "mega_rounds": 0.128352,
     "split_small": 0.129536,
     "split_large": 0.197056
    },
    "2": {
     "mega": 0.218464,
     "mega_rounds": 0.208608,
     "split_small": 0.216736,
     "split_large": 0.360576
    },
    "4": {
     "mega": 0.413504,
     "mega_rounds": 0.41408,
     "split_small": 0.40688,
     "split_large": 0.688608
    },
    "8": {
     "mega": 0.724672,
     "mega_rounds": 0.725792,
     "split_small": 0.691744,
     "split_large": 1.20067
    },
    "16": {
     "mega": 1.2695,
     "mega_rounds": 1.2712,
     "split_small": 1.20566,
     "split_large": 2.1561
    },
    "32": {
     "mega": 2.05952,
     "mega_rounds": 2.06112,
     "split_small": 1.972,
     "split_large": 3.42464
    },
    "64": {
     "mega": 2.74502,
     "mega_rounds": 2.74566,
     "split_small": 2.56528,
     "split_large": 4.53194
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
    "32": "split_small",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.044544,
     "mega_rounds": 0.045888,
     "split_small": 0.040192,
     "split_large": 0.054752
    },
    "2": {
     "mega": 0.050656,
     "mega_rounds": 0.054592,
     "split_small": 0.055616,
     "split_large": 0.06976
    },
    "4": {
     "mega": 0.077568,
     "mega_rounds": 0.077952,
     "split_small": 0.0784,
     "split_large": 0.110208
    },
    "8": {
     "mega": 0.10272,
     "mega_rounds": 0.103552,
     "split_small": 0.108192,
     "split_large": 0.167808
    },
    "16": {
     "mega": 0.14848,
     "mega_rounds": 0.14912,
     "split_small": 0.155264,
     "split_large": 0.238656
    },
    "32": {
     "mega": 0.201824,
     "mega_rounds": 0.202848,
     "split_small": 0.198112,
     "split_large": 0.32448
    },
    "64": {
     "mega": 0.230624,
     "mega_rounds": 0.230144,
     "split_small": 0.217632,
     "split_large": 0.351712
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
    "4": "split_small",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.136736,
     "mega_rounds": 0.137024,
     "split_small": 0.138624,
     "split_large": 0.305504
    },
    "2": {
     "mega": 0.17984,
     "mega_rounds": 0.177408,
     "split_small": 0.194176,
     "split_large": 0.368672
    },
    "4": {
     "mega": 0.369088,
     "mega_rounds": 0.439264,
     "split_small": 0.368448,
     "split_large": 0.611008
    },
    "8": {
     "mega": 0.427744,
     "mega_rounds": 0.479776,
     "split_small": 0.405056,
     "split_large": 0.673888
    },
    "16": {
     "mega": 0.428,
     "mega_rounds": 0.479552,
     "split_small": 0.40672,
     "split_large": 0.676128
    },
    "32": {
     "mega": 0.457792,
     "mega_rounds": 0.508896,
     "split_small": 0.452,
     "split_large": 0.674464
    },
    "64": {
     "mega": 0.64096,
     "mega_rounds": 0.64272,
     "split_small": 0.630784,
     "split_large": 0.674624
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
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.068128,
     "mega_rounds": 0.079168,
     "split_small": 0.064032,
     "split_large": 0.098944
    },
    "2": {
     "mega": 0.090528,
     "mega_rounds": 0.09232,
     "split_small": 0.08928,
     "split_large": 0.143808
    },
    "4": {
     "mega": 0.154304,
     "mega_rounds": 0.154016,
     "split_small": 0.14432,
     "split_large": 0.247936
    },
    "8": {
     "mega": 0.267168,
     "mega_rounds": 0.268,
     "split_small": 0.24672,
     "split_large": 0.418304
    },
    "16": {
     "mega": 0.418688,
     "mega_rounds": 0.41936,
     "split_small": 0.380544,
     "split_large": 0.658208
    },
    "32": {
     "mega": 0.616832,
     "mega_rounds": 0.61696,
     "split_small": 0.575392,
     "split_large": 0.969056
    },
    "64": {
     "mega": 0.884736,
     "mega_rounds": 0.884576,
     "split_small": 0.78832,
     "split_large": 1.36173
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
    "8": "mega",
    "16": "split_small",
    "32": "mega",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.141728,
     "mega_rounds": 0.131296,
     "split_small": 0.137152,
     "split_large": 0.224928
    },
    "2": {
     "mega": 0.22464,
     "mega_rounds": 0.2128,
     "split_small": 0.233472,
     "split_large": 0.410816
    },
    "4": {
     "mega": 0.423136,
     "mega_rounds": 0.422976,
     "split_small": 0.43552,
     "split_large": 0.78768
    },
    "8": {
     "mega": 0.743296,
     "mega_rounds": 0.743296,
     "split_small": 0.746016,
     "split_large": 1.36237
    },
    "16": {
     "mega": 1.29238,
     "mega_rounds": 1.29254,
     "split_small": 1.29178,
     "split_large": 2.38499
    },
    "32": {
     "mega": 2.09821,
     "mega_rounds": 2.09821,
     "split_small": 2.11085,
     "split_large": 3.85222
    },
    "64": {
     "mega": 2.79168,
     "mega_rounds": 2.79309,
     "split_small": 2.75581,
     "split_large": 5.12077
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
     "mega": 0.044992,
     "mega_rounds": 0.046176,
     "split_small": 0.04144,
     "split_large": 0.056736
    },
    "2": {
     "mega": 0.050144,
     "mega_rounds": 0.056032,
     "split_small": 0.058304,
     "split_large": 0.076192
    },
    "4": {
     "mega": 0.076224,
     "mega_rounds": 0.077088,
     "split_small": 0.08272,
     "split_large": 0.130016
    },
    "8": {
     "mega": 0.103232,
     "mega_rounds": 0.10336,
     "split_small": 0.119264,
     "split_large": 0.193344
    },
    "16": {
     "mega": 0.14912,
     "mega_rounds": 0.149184,
     "split_small": 0.164256,
     "split_large": 0.263296
    },
    "32": {
     "mega": 0.202592,
     "mega_rounds": 0.202848,
     "split_small": 0.211616,
     "split_large": 0.356416
    },
    "64": {
     "mega": 0.230944,
     "mega_rounds": 0.23152,
     "split_small": 0.23216,
     "split_large": 0.389056
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
    "8": "split_small",
    "16": "split_small",
    "32": "mega",
    "64": "mega"
   },
   "measured_ms": {
    "1": {
     "mega": 0.136192,
     "mega_rounds": 0.140128,
     "split_small": 0.14896,
     "split_large": 0.335264
    },
    "2": {
     "mega": 0.182816,
     "mega_rounds": 0.180512,
     "split_small": 0.207232,
     "split_large": 0.407008
    },
    "4": {
     "mega": 0.377312,
     "mega_rounds": 0.452064,
     "split_small": 0.39456,
     "split_large": 0.708064
    },
    "8": {
     "mega": 0.43616,
     "mega_rounds": 0.48064,
     "split_small": 0.433984,
     "split_large": 0.77872
    },
    "16": {
     "mega": 0.435648,
     "mega_rounds": 0.48112,
     "split_small": 0.435552,
     "split_large": 0.781024
    },
    "32": {
     "mega": 0.4688,
     "mega_rounds": 0.513696,
     "split_small": 0.48416,
     "split_large": 0.784064
    },
    "64": {
     "mega": 0.648352,
     "mega_rounds": 0.65072,
     "split_small": 0.678208,
     "split_large": 0.790496
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
    "4": "split_small",
    "8": "split_small",
    "16": "split_small",
    "32": "split_small",
    "64": "split_small"
   },
   "measured_ms": {
    "1": {
     "mega": 0.067776,
     "mega_rounds": 0.079968,
     "split_small": 0.067712,
     "split_large": 0.107936
    },
    "2": {
     "mega": 0.089888,
     "mega_rounds": 0.0904,
     "split_small": 0.094944,
     "split_large": 0.158432
    },
    "4": {
     "mega": 0.154528,
     "mega_rounds": 0.154816,
     "split_small": 0.154432,
     "split_large": 0.27984
    },
    "8": {
     "mega": 0.271936,
     "mega_rounds": 0.27216,
     "split_small": 0.265184,
     "split_large": 0.467712
    },
    "16": {
     "mega": 0.427008,
     "mega_rounds": 0.426208,
     "split_small": 0.408768,
     "split_large": 0.730304
    },
    "32": {
     "mega": 0.63344,
     "mega_rounds": 0.633664,
     "split_small": 0.615872,
     "split_large": 1.08579
    },
    "64": {
     "mega": 0.896672,
     "mega_rounds": 0.89696,
     "split_small": 0.84864,
     "split_large": 1.53328
    }
   }
  }
 ]
})json";
}

}  // namespace megamoe
