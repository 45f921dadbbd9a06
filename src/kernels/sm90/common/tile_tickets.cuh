// A launch-wide tile counter for persistent GEMM kernels that hand out their tiles dynamically: a
// CTA's drawing thread takes the next tile index ("ticket") with an atomic when it is ready for one,
// so a CTA whose tiles ran short takes more and consecutive tiles start close together in time
// (which a fixed stride loses once tiles of different lengths have run).
//
// The counter is 4 ints in device memory, zero before the first launch: [0] the next ticket, [1] the
// CTAs that drew their last ticket, [2] the tiles run, [3] the last launch's tile count (tests read
// it). The last CTA to finish checks that the launch ran every tile once and resets [0..2] for the
// next launch, so a CUDA graph can replay the kernel. Two launches running at once on one counter
// would share the tickets: draw() traps when a CTA's tickets go backwards, finish() when the tile
// count is wrong (a trap, not a silently wrong product).
#pragma once

namespace megamoe::sm90 {

struct TileTickets {
  int* counter;
  int last = -1;  // this CTA's previous ticket
  int run = 0;    // this CTA's tiles (tickets below the launch's tile count)

  __device__ explicit TileTickets(int* c) : counter(c) {}
  __device__ int draw() {
    const int t = atomicAdd(counter, 1);
    if (t <= last) __trap();  // a counter shared by two running launches
    last = t;
    return t;
  }
  // After the CTA's last (past-the-end) draw, with `tiles` the launch's tile count. The fences order
  // each CTA's draws and count before its arrival, and the arrivals before the check and the reset.
  __device__ void finish(int tiles) {
    atomicAdd(counter + 2, run);
    __threadfence();
    if (atomicAdd(counter + 1, 1) == int(gridDim.x) - 1) {
      __threadfence();
      const int ran = atomicExch(counter + 2, 0);
      atomicExch(counter, 0);
      atomicExch(counter + 1, 0);
      atomicExch(counter + 3, ran);
      if (ran != tiles) __trap();
    }
  }
};

}  // namespace megamoe::sm90
