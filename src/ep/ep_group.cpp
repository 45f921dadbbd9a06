// EpGroup (include/megamoe/ep.h): the NCCL communicator of an expert-parallel group, and the
// host-mapped abort word every exchange kernel of the group polls while it waits on a peer.
#include "megamoe/ep.h"

#include <string>

#include "megamoe/errors.h"

#if defined(MEGAMOE_WITH_NCCL)
#include <cuda_runtime.h>

#include "ep/nccl_api.h"
#endif

namespace megamoe {

#if defined(MEGAMOE_WITH_NCCL)

namespace {
const ep::NcclApi& nccl() { return ep::nccl_or_throw(); }
void nccl_check(ncclResult_t r, const std::string& what) {
  if (r != ncclSuccess && r != ncclInProgress)
    throw CommError(what + " failed: " + nccl().GetErrorString(r) + " (" + std::to_string(int(r)) + ")");
}
void cuda_check(cudaError_t e, const std::string& what) {
  if (e != cudaSuccess) throw CudaError(what + ": " + cudaGetErrorString(e));
}
}  // namespace

struct EpGroup::Impl {
  ncclComm_t comm = nullptr;
  bool owned = false;
  int rank = 0, size = 1, device = 0;
  volatile int* abort_host = nullptr;  // pinned, mapped: written by abort(), polled by kernels
  int* abort_device = nullptr;
  bool aborted = false;

  void init_common() {
    nccl_check(nccl().CommUserRank(comm, &rank), "ncclCommUserRank");
    nccl_check(nccl().CommCount(comm, &size), "ncclCommCount");
    // Dispatch and return are loads/stores to peer memory (LSA): every rank must be reachable
    // that way (one NVLink domain). Across nodes NCCL's GIN would be needed (docs/EP.md).
    const ncclTeam_t lsa = nccl().TeamLsa(comm);
    if (lsa.nRanks != size)
      throw Unsupported("expert parallelism over " + std::to_string(size) + " ranks: only " +
                        std::to_string(lsa.nRanks) +
                        " share load/store memory access with this rank (multi-node exchange over NCCL GIN is "
                        "not implemented)");
    int dev = -1;
    cuda_check(cudaGetDevice(&dev), "cudaGetDevice");
    void* p = nullptr;
    cuda_check(cudaHostAlloc(&p, sizeof(int), cudaHostAllocMapped | cudaHostAllocPortable), "abort word");
    abort_host = static_cast<volatile int*>(p);
    *abort_host = 0;
    void* d = nullptr;
    cuda_check(cudaHostGetDevicePointer(&d, p, 0), "abort word device pointer");
    abort_device = static_cast<int*>(d);
  }
};

std::vector<uint8_t> EpGroup::new_unique_id() {
  ncclUniqueId id;
  nccl_check(nccl().GetUniqueId(&id), "ncclGetUniqueId");
  static_assert(sizeof(ncclUniqueId) == kUniqueIdBytes, "ncclUniqueId size");
  return std::vector<uint8_t>(reinterpret_cast<const uint8_t*>(&id), reinterpret_cast<const uint8_t*>(&id) + sizeof id);
}

std::shared_ptr<EpGroup> EpGroup::create(const std::vector<uint8_t>& unique_id, int rank, int size, int device) {
  if (unique_id.size() != kUniqueIdBytes)
    throw_invalid("unique_id", std::to_string(kUniqueIdBytes) + " bytes (EpGroup::new_unique_id())",
                  std::to_string(unique_id.size()) + " bytes");
  if (size < 1) throw_invalid("size", "a positive number of ranks", std::to_string(size));
  if (rank < 0 || rank >= size)
    throw_invalid("rank", "a value in [0, size=" + std::to_string(size) + ")", std::to_string(rank));
  int count = 0;
  cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
  if (device < 0 || device >= count)
    throw_invalid("device", "a CUDA device ordinal in [0, " + std::to_string(count) + ")", std::to_string(device));
  cuda_check(cudaSetDevice(device), "cudaSetDevice");
  auto impl = std::make_unique<Impl>();
  ncclUniqueId id;
  std::copy(unique_id.begin(), unique_id.end(), reinterpret_cast<uint8_t*>(&id));
  nccl_check(nccl().CommInitRank(&impl->comm, size, id, rank), "ncclCommInitRank");
  impl->owned = true;
  impl->device = device;
  impl->init_common();
  return std::make_shared<EpGroup>(std::move(impl));
}

std::shared_ptr<EpGroup> EpGroup::from_comm(ncclComm_t comm, int device) {
  if (comm == nullptr) throw_invalid("comm", "an initialised ncclComm_t", "nullptr");
  int cdev = -1;
  nccl_check(nccl().CommCuDevice(comm, &cdev), "ncclCommCuDevice");
  if (cdev != device)
    throw_invalid("device", "the communicator's device " + std::to_string(cdev), std::to_string(device));
  cuda_check(cudaSetDevice(device), "cudaSetDevice");
  auto impl = std::make_unique<Impl>();
  impl->comm = comm;
  impl->device = device;
  impl->init_common();
  return std::make_shared<EpGroup>(std::move(impl));
}

bool EpGroup::available() { return ep::nccl_api() != nullptr; }
std::string EpGroup::unavailable_reason() { return available() ? std::string() : ep::nccl_load_error(); }

EpGroup::EpGroup(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

EpGroup::~EpGroup() {
  if (!impl_) return;
  cudaSetDevice(impl_->device);
  if (impl_->owned && impl_->comm) {
    // A destroy after an abort (or with a dead peer) could wait forever: abort instead.
    if (impl_->aborted) nccl().CommAbort(impl_->comm);
    else nccl().CommDestroy(impl_->comm);
  }
  if (impl_->abort_host) cudaFreeHost(const_cast<int*>(impl_->abort_host));
}

int EpGroup::rank() const { return impl_->rank; }
int EpGroup::size() const { return impl_->size; }
int EpGroup::device() const { return impl_->device; }
ncclComm_t EpGroup::comm() const { return impl_->comm; }
bool EpGroup::owns_comm() const { return impl_->owned; }
bool EpGroup::aborted() const { return impl_->aborted; }
const volatile int* EpGroup::device_abort_word() const { return impl_->abort_device; }

void EpGroup::abort() {
  // The word first: waiting kernels see it within microseconds and return with an error; the
  // communicator itself is aborted when the group is destroyed (after those kernels are gone).
  impl_->aborted = true;
  *impl_->abort_host = 1;
  // ncclCommRevoke is not in every NCCL 2.28.x (resolved as optional); 0 = NCCL_REVOKE_DEFAULT.
  if (impl_->comm && nccl().CommRevoke) nccl().CommRevoke(impl_->comm, 0);
}

std::shared_ptr<EpGroup> EpGroup::shrink(const std::vector<int>& exclude_ranks) {
  for (size_t i = 0; i < exclude_ranks.size(); ++i)
    if (exclude_ranks[i] < 0 || exclude_ranks[i] >= impl_->size)
      throw_invalid("exclude_ranks[" + std::to_string(i) + "]", "a rank in [0, " + std::to_string(impl_->size) + ")",
                    std::to_string(exclude_ranks[i]));
  cuda_check(cudaSetDevice(impl_->device), "cudaSetDevice");
  std::vector<int> ex = exclude_ranks;
  auto impl = std::make_unique<Impl>();
  nccl_check(nccl().CommShrink(impl_->comm, ex.data(), int(ex.size()), &impl->comm, nullptr, NCCL_SHRINK_ABORT),
             "ncclCommShrink");
  impl->owned = true;
  impl->device = impl_->device;
  impl->init_common();
  return std::make_shared<EpGroup>(std::move(impl));
}

#else  // built without NCCL

struct EpGroup::Impl {};
namespace {
[[noreturn]] void no_nccl() {
  throw Unsupported("expert parallelism on GPUs needs NCCL; this megamoe build has none (built without CUDA/NCCL)");
}
}  // namespace
std::vector<uint8_t> EpGroup::new_unique_id() { no_nccl(); }
std::shared_ptr<EpGroup> EpGroup::create(const std::vector<uint8_t>&, int, int, int) { no_nccl(); }
std::shared_ptr<EpGroup> EpGroup::from_comm(ncclComm_t, int) { no_nccl(); }
bool EpGroup::available() { return false; }
std::string EpGroup::unavailable_reason() {
  return "this megamoe build has no NCCL (built without CUDA or without NCCL's headers)";
}
EpGroup::EpGroup(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
EpGroup::~EpGroup() = default;
int EpGroup::rank() const { return 0; }
int EpGroup::size() const { return 1; }
int EpGroup::device() const { return -1; }
ncclComm_t EpGroup::comm() const { return nullptr; }
bool EpGroup::owns_comm() const { return false; }
bool EpGroup::aborted() const { return false; }
const volatile int* EpGroup::device_abort_word() const { return nullptr; }
void EpGroup::abort() {}
std::shared_ptr<EpGroup> EpGroup::shrink(const std::vector<int>&) { no_nccl(); }

#endif

}  // namespace megamoe
