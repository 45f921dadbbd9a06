// MEGAMOE_HD: functions that run on the host and, compiled by nvcc, on the device too (the
// synthetic data hash, the expert placement rule): one definition both sides agree on.
#pragma once

#if defined(__CUDACC__)
#define MEGAMOE_HD __host__ __device__ __forceinline__
#else
#define MEGAMOE_HD inline
#endif
