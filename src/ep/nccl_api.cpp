#include "ep/nccl_api.h"

#if defined(MEGAMOE_WITH_NCCL)
#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "megamoe/errors.h"

namespace megamoe::ep {

NcclLoad load_nccl(const std::string& path) {
  NcclLoad r;
  void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* e = dlerror();
    r.error = "cannot load " + path + (e ? std::string(": ") + e : std::string());
    return r;
  }
  std::string missing;
  auto get = [&](auto& fn, const char* name, bool required = true) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(h, name));
    if (fn == nullptr && required) missing += missing.empty() ? name : std::string(", ") + name;
  };
  NcclApi& a = r.api;
  get(a.GetVersion, "ncclGetVersion");
  get(a.GetErrorString, "ncclGetErrorString");
  get(a.GetUniqueId, "ncclGetUniqueId");
  get(a.CommInitRank, "ncclCommInitRank");
  get(a.CommUserRank, "ncclCommUserRank");
  get(a.CommCount, "ncclCommCount");
  get(a.CommCuDevice, "ncclCommCuDevice");
  get(a.TeamLsa, "ncclTeamLsa");
  get(a.CommDestroy, "ncclCommDestroy");
  get(a.CommAbort, "ncclCommAbort");
  get(a.CommShrink, "ncclCommShrink");
  get(a.CommRevoke, "ncclCommRevoke", /*required=*/false);
  get(a.MemAlloc, "ncclMemAlloc");
  get(a.MemFree, "ncclMemFree");
  get(a.CommWindowRegister, "ncclCommWindowRegister");
  get(a.CommWindowDeregister, "ncclCommWindowDeregister");
  get(a.AllReduce, "ncclAllReduce");
  a.path = path;
  if (a.GetVersion) a.GetVersion(&a.version);
  if (!missing.empty()) {
    r.error = path + " (NCCL version code " + std::to_string(a.version) + ") lacks " + missing;
  } else if (a.version < kMinNcclVersion) {
    r.error = path + " is NCCL version code " + std::to_string(a.version) + "; expert parallelism needs >= " +
              std::to_string(kMinNcclVersion) + " (symmetric windows and the device API)";
  }
  if (!r.error.empty()) dlclose(h);  // on success the library stays loaded for the process
  return r;
}

namespace {
struct Loaded {
  NcclLoad load;
  bool ok = false;
};
const Loaded& loaded() {
  static Loaded l = [] {
    Loaded x;
    const char* env = std::getenv("MEGAMOE_NCCL_LIBRARY");
    x.load = load_nccl(env && *env ? std::string(env) : std::string("libnccl.so.2"));
    if (!x.load.error.empty() && !(env && *env))
      x.load.error += " (set MEGAMOE_NCCL_LIBRARY to the path of libnccl.so.2, e.g. the one of the nvidia-nccl-cu13 "
                      "pip package, or add its folder to LD_LIBRARY_PATH)";
    x.ok = x.load.error.empty();
    return x;
  }();
  return l;
}
}  // namespace

const NcclApi* nccl_api() { return loaded().ok ? &loaded().load.api : nullptr; }
const std::string& nccl_load_error() { return loaded().load.error; }
const NcclApi& nccl_or_throw() {
  if (const NcclApi* a = nccl_api()) return *a;
  throw Unsupported("expert parallelism needs NCCL at run time: " + nccl_load_error());
}

}  // namespace megamoe::ep
#endif
