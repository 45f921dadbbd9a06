// The per-layer values of FC1's activation epilogue (act_epilogue.cuh), in a header without
// CUTLASS so that host code (the dispatchers, the backends) can pass them.
#pragma once
#include <cmath>

#include "megamoe/config.h"

namespace megamoe::sm90 {

struct ActEpilogueArgs {
  Activation activation = Activation::kSwiGLU;
  float limit = INFINITY;      // +inf for no clamp (MoeConfig::effective_limit())
  float alpha = 1.702f;        // swiglu_oai's sigmoid slope
  const float* b13 = nullptr;  // [G, N13] fp32 in canonical order (gate 0..I-1, up I..2I-1), or null
};

}  // namespace megamoe::sm90
