// The machine part of a tactic-cache key (core/tactics.h) for a CUDA device: GPU name, SM count
// and driver version. Used by the sm90 backends and by `megamoe tune`, so both write and read
// the same key. Throws CudaError when the device cannot be queried.
#pragma once
#include "core/tactics.h"

namespace megamoe {

void cuda_machine_key(int device, TacticKey* key);

}  // namespace megamoe
