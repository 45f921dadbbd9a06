// NCCL's host API, loaded at run time (dlopen) the first time expert parallelism needs it.
// megamoe compiles against NCCL's headers but does not link libnccl: `import megamoe` and every
// program that never builds an EpGroup work without NCCL installed, and the library that NCCL
// users already have loaded (e.g. the one PyTorch brought in) is the one megamoe uses.
// Search order: $MEGAMOE_NCCL_LIBRARY (a path), then "libnccl.so.2" through the loader (an
// already loaded copy, LD_LIBRARY_PATH, the system paths). NCCL >= 2.28 is required (symmetric
// windows, the device API).
#pragma once
#if defined(MEGAMOE_WITH_NCCL)
#include <cuda_runtime.h>
#include <nccl.h>
#include <nccl_device.h>

#include <string>

namespace megamoe::ep {

constexpr int kMinNcclVersion = 22800;

struct NcclApi {
  decltype(&::ncclGetVersion) GetVersion = nullptr;
  decltype(&::ncclGetErrorString) GetErrorString = nullptr;
  decltype(&::ncclGetUniqueId) GetUniqueId = nullptr;
  decltype(&::ncclCommInitRank) CommInitRank = nullptr;
  decltype(&::ncclCommUserRank) CommUserRank = nullptr;
  decltype(&::ncclCommCount) CommCount = nullptr;
  decltype(&::ncclCommCuDevice) CommCuDevice = nullptr;
  ncclTeam_t (*TeamLsa)(ncclComm_t) = nullptr;
  decltype(&::ncclCommDestroy) CommDestroy = nullptr;
  decltype(&::ncclCommAbort) CommAbort = nullptr;
  decltype(&::ncclCommShrink) CommShrink = nullptr;
  ncclResult_t (*CommRevoke)(ncclComm_t, int) = nullptr;  // optional: not in every 2.28.x
  decltype(&::ncclMemAlloc) MemAlloc = nullptr;
  decltype(&::ncclMemFree) MemFree = nullptr;
  decltype(&::ncclCommWindowRegister) CommWindowRegister = nullptr;
  decltype(&::ncclCommWindowDeregister) CommWindowDeregister = nullptr;
  decltype(&::ncclAllReduce) AllReduce = nullptr;
  int version = 0;       // ncclGetVersion of the loaded library
  std::string path;      // what was loaded (the name or path given to dlopen)
};

struct NcclLoad {
  NcclApi api;
  std::string error;  // empty when api is complete and the version is new enough
};

// Loads NCCL from `path` (a file, or a soname for the loader) and resolves every function.
// Never cached: for tests. nccl_api() is the process-wide, load-once entry point.
NcclLoad load_nccl(const std::string& path);
// The process-wide API: nullptr when NCCL cannot be loaded (nccl_load_error() says why).
const NcclApi* nccl_api();
const std::string& nccl_load_error();
// nccl_api(), or Unsupported with the reason.
const NcclApi& nccl_or_throw();

}  // namespace megamoe::ep
#endif
