// The tactic defaults shipped with megamoe (core/tactics.h): measured entries that
// lookup_tactics() uses when the user's cache has none for a layer on a GPU of the same name and
// SM count. Each entry comes from a benchmark job in bench/results/ (docs/BENCHMARKS.md):
//
//   bf16, the presets' shapes with plain swiglu and no biases (as `megamoe bench` runs them),
//   sm90_bf16_bf16_bf16_mega on an NVIDIA H200, T = 1..64: "mega" where the one-launch kernel
//   was faster than the split pipeline by the geometric mean of the two jobs
//   2026-11-30_25710f8_bf16_split_mega_vllm.json and 2026-11-30_a3fc8fa_bf16_split_mega_vllm.json,
//   else "split_swap_ab" (what the split heuristic runs at these sizes); measured_ms: the
//   a3fc8fa job. Larger T: no entry (the backend's heuristic).
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
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.2194,
     "split_swap_ab": 0.2268
    },
    "2": {
     "mega": 0.3673,
     "split_swap_ab": 0.3866
    },
    "4": {
     "mega": 0.7181,
     "split_swap_ab": 0.6813
    },
    "8": {
     "mega": 1.2522,
     "split_swap_ab": 1.1643
    },
    "16": {
     "mega": 2.1999,
     "split_swap_ab": 2.032
    },
    "32": {
     "mega": 3.5799,
     "split_swap_ab": 3.2823
    },
    "64": {
     "mega": 4.7705,
     "split_swap_ab": 4.3918
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
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.0522,
     "split_swap_ab": 0.0565
    },
    "2": {
     "mega": 0.0716,
     "split_swap_ab": 0.0756
    },
    "4": {
     "mega": 0.1102,
     "split_swap_ab": 0.1175
    },
    "8": {
     "mega": 0.1639,
     "split_swap_ab": 0.1594
    },
    "16": {
     "mega": 0.2375,
     "split_swap_ab": 0.2227
    },
    "32": {
     "mega": 0.325,
     "split_swap_ab": 0.2933
    },
    "64": {
     "mega": 0.3581,
     "split_swap_ab": 0.3233
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
    "4": "split_swap_ab",
    "8": "split_swap_ab",
    "16": "split_swap_ab",
    "32": "split_swap_ab",
    "64": "split_swap_ab"
   },
   "measured_ms": {
    "1": {
     "mega": 0.0903,
     "split_swap_ab": 0.0967
    },
    "2": {
     "mega": 0.1186,
     "split_swap_ab": 0.1323
    },
    "4": {
     "mega": 0.2336,
     "split_swap_ab": 0.2263
    },
    "8": {
     "mega": 0.4061,
     "split_swap_ab": 0.3979
    },
    "16": {
     "mega": 0.6664,
     "split_swap_ab": 0.6175
    },
    "32": {
     "mega": 0.9809,
     "split_swap_ab": 0.916
    },
    "64": {
     "mega": 1.4122,
     "split_swap_ab": 1.2945
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
     "mega": 0.203,
     "split_swap_ab": 0.2316
    },
    "2": {
     "mega": 0.3024,
     "split_swap_ab": 0.299
    },
    "4": {
     "mega": 0.6297,
     "split_swap_ab": 0.6067
    },
    "8": {
     "mega": 0.7194,
     "split_swap_ab": 0.6814
    },
    "16": {
     "mega": 0.7191,
     "split_swap_ab": 0.6793
    },
    "32": {
     "mega": 0.7176,
     "split_swap_ab": 0.6844
    },
    "64": {
     "mega": 0.7366,
     "split_swap_ab": 0.7213
    }
   }
  }
 ]
})json";
}

}  // namespace megamoe
