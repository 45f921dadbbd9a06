// Expert placement for expert parallelism: which ranks hold which experts, and the one rule
// that picks the replica a route goes to. The CPU reference's EP simulation and the GPU
// exchange kernels both use ep_route_target(), so they send every route to the same rank.
#pragma once
#include <cstdint>
#include <vector>

#include "megamoe/config.h"

#include "core/host_device.h"

namespace megamoe::ep {

// Flat tables of a placement (config.expert_placement, or contiguous blocks when it is empty).
// The replicas of global expert e are entries [replica_begin[e], replica_begin[e+1]) of
// replica_rank / replica_slot, in ascending rank order.
struct PlacementTables {
  int32_t ranks = 0, experts = 0;
  std::vector<int32_t> replica_begin;  // [E + 1]
  std::vector<int32_t> replica_rank;   // [total replicas]
  std::vector<int32_t> replica_slot;   // [total replicas]: local slot on that rank
  std::vector<int32_t> local_count;    // [R]: experts held by each rank
};

// Validates the placement against config.num_experts and config.ep_size (every entry in
// [0, E), no expert twice on one rank, one list per rank, every rank holds at least one
// expert) and builds the tables; throws InvalidArgument naming expert_placement[r][i].
PlacementTables make_placement_tables(const MoeConfig& config);

// The replica index a route (source rank `src`, source token `t`) takes among the n >= 1
// holders of its expert: the holder equal to `src` when there is one (no link traffic), else
// (t + src) mod n. Choosing by token (not by k) keeps a token's routes to replicated experts
// on one rank where the replica sets coincide, so the token crosses the link once.
MEGAMOE_HD int32_t ep_replica_index(const int32_t* holder_rank, int32_t n, int32_t src, int64_t t) {
  for (int32_t i = 0; i < n; ++i)
    if (holder_rank[i] == src) return i;
  return int32_t((t + src) % n);
}

// Target of route (src, t) to global expert e: writes the owning rank and its local slot and
// returns true; false when e has no holder (a lost rank's expert: "no route", counted).
MEGAMOE_HD bool ep_route_target(const int32_t* replica_begin, const int32_t* replica_rank,
                                const int32_t* replica_slot, int32_t e, int32_t src, int64_t t,
                                int32_t* rank, int32_t* slot) {
  const int32_t b = replica_begin[e], n = replica_begin[e + 1] - b;
  if (n <= 0) return false;
  const int32_t i = b + ep_replica_index(replica_rank + b, n, src, t);
  *rank = replica_rank[i];
  *slot = replica_slot[i];
  return true;
}

}  // namespace megamoe::ep
