// Expert parallelism: the communicator a layer exchanges tokens over (docs/EP.md).
//
//   // one rank makes the id, every rank receives its 128 bytes (MPI, torch.distributed, a file)
//   std::vector<uint8_t> id = megamoe::EpGroup::new_unique_id();
//   auto group = megamoe::EpGroup::create(id, rank, world, /*device=*/local_gpu);  // collective
//   megamoe::MoeConfig cfg; ...; cfg.device = local_gpu; cfg.ep_group = group;
//   megamoe::MoeLayer layer(cfg);   // collective: allocates this layer's symmetric windows
//
// or from a communicator the engine already owns: EpGroup::from_comm(comm, device) (borrowed:
// never destroyed by megamoe). Every rank must construct, prepare, run and destroy its layers in
// the same order: construction and destruction register/deregister NCCL windows (collective).
// Built without NCCL headers, or when libnccl.so.2 cannot be loaded at run time, every
// constructor throws Unsupported (available() / unavailable_reason()).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

struct ncclComm;
typedef struct ncclComm* ncclComm_t;

namespace megamoe {

class EpGroup {
 public:
  // Size in bytes of the id every rank passes to create() (NCCL's ncclUniqueId).
  static constexpr size_t kUniqueIdBytes = 128;
  // A fresh id (ncclGetUniqueId); call on one rank and share the bytes with the others.
  static std::vector<uint8_t> new_unique_id();
  // Collective over `size` ranks: this process becomes `rank`, on CUDA device `device`.
  static std::shared_ptr<EpGroup> create(const std::vector<uint8_t>& unique_id, int rank, int size, int device);
  // Wraps an initialised communicator the caller owns (it must outlive every layer using it);
  // `device` is the CUDA device the communicator was created on.
  static std::shared_ptr<EpGroup> from_comm(ncclComm_t comm, int device);
  // True when this build has NCCL's headers and libnccl.so.2 (NCCL >= 2.28) can be loaded at
  // run time (it is not linked: $MEGAMOE_NCCL_LIBRARY, else the loader's search for
  // libnccl.so.2); unavailable_reason() says why not ("" when available).
  static bool available();
  static std::string unavailable_reason();

  ~EpGroup();
  EpGroup(const EpGroup&) = delete;
  EpGroup& operator=(const EpGroup&) = delete;

  int rank() const;
  int size() const;
  int device() const;
  ncclComm_t comm() const;
  bool owns_comm() const;

  // Releases every kernel of this group's layers that waits on a peer (they record a
  // CommError and return), then aborts the communicator (ncclCommAbort; only when owned).
  // Safe to call from another thread while a forward is in flight.
  void abort();
  bool aborted() const;

  // Collective among the surviving ranks: a new group without `exclude_ranks`
  // (ncclCommShrink with NCCL_SHRINK_ABORT). Ranks are renumbered densely in order; layers
  // must be rebuilt on the new group with a placement of the surviving ranks.
  std::shared_ptr<EpGroup> shrink(const std::vector<int>& exclude_ranks);

  // Device address of the host-mapped abort word (kernels poll it); internal.
  const volatile int* device_abort_word() const;

  struct Impl;
  explicit EpGroup(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace megamoe
