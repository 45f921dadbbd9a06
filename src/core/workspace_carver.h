// One way to lay buffers out in a device workspace: one after another, each on a 256-byte
// boundary (cudaMalloc's own alignment, so TMA and 16-byte vector accesses stay aligned whatever
// the buffer sizes are). With a null base the carver only counts, so the same code gives a
// layout's size (at construction, to allocate) and its pointers (into the allocation): the two
// cannot drift apart. CUDA-free: host code of the CPU build (the route plan) uses it too.
#pragma once
#include <cstddef>

namespace megamoe {

constexpr size_t kWorkspaceAlign = 256;

class WorkspaceCarver {
 public:
  explicit WorkspaceCarver(void* base = nullptr) : base_(static_cast<char*>(base)) {}
  // The next `bytes` bytes (nullptr when only counting).
  template <class T = char>
  T* take(size_t bytes) {
    char* p = base_ ? base_ + offset_ : nullptr;
    offset_ += (bytes + kWorkspaceAlign - 1) / kWorkspaceAlign * kWorkspaceAlign;
    return reinterpret_cast<T*>(p);
  }
  // Bytes taken so far (a multiple of kWorkspaceAlign).
  size_t bytes() const { return offset_; }

 private:
  char* base_;
  size_t offset_ = 0;
};

}  // namespace megamoe
