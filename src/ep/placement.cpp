#include "ep/placement.h"

#include <string>

#include "megamoe/errors.h"

namespace megamoe::ep {

PlacementTables make_placement_tables(const MoeConfig& c) {
  const int64_t E = c.num_experts, R = c.ep_size;
  PlacementTables p;
  p.ranks = int32_t(R);
  p.experts = int32_t(E);
  std::vector<std::vector<int32_t>> lists;
  if (c.expert_placement.empty()) {
    if (R <= 0 || E % R != 0)
      throw_invalid("num_experts", "a multiple of ep_size=" + std::to_string(R) + " (contiguous placement)",
                    std::to_string(E));
    for (int64_t r = 0; r < R; ++r) {
      std::vector<int32_t> l;
      for (int64_t e = r * (E / R); e < (r + 1) * (E / R); ++e) l.push_back(int32_t(e));
      lists.push_back(std::move(l));
    }
  } else {
    if (int64_t(c.expert_placement.size()) != R)
      throw_invalid("expert_placement", std::to_string(R) + " lists (one per rank, ep_size)",
                    std::to_string(c.expert_placement.size()));
    lists = c.expert_placement;
  }
  std::vector<std::vector<std::pair<int32_t, int32_t>>> holders(static_cast<size_t>(E));
  p.local_count.assign(size_t(R), 0);
  for (int64_t r = 0; r < R; ++r) {
    const auto& l = lists[size_t(r)];
    if (l.empty())
      throw_invalid("expert_placement[" + std::to_string(r) + "]", "at least one expert", "an empty list");
    std::vector<char> seen(static_cast<size_t>(E), 0);
    for (size_t i = 0; i < l.size(); ++i) {
      const std::string name = "expert_placement[" + std::to_string(r) + "][" + std::to_string(i) + "]";
      if (l[i] < 0 || l[i] >= E) throw_invalid(name, "an expert in [0, " + std::to_string(E) + ")", std::to_string(l[i]));
      if (seen[size_t(l[i])]) throw_invalid(name, "an expert not already on rank " + std::to_string(r), std::to_string(l[i]));
      seen[size_t(l[i])] = 1;
      holders[size_t(l[i])].push_back({int32_t(r), int32_t(i)});
    }
    p.local_count[size_t(r)] = int32_t(l.size());
  }
  p.replica_begin.assign(size_t(E + 1), 0);
  for (int64_t e = 0; e < E; ++e) {
    p.replica_begin[size_t(e)] = int32_t(p.replica_rank.size());
    for (const auto& [r, s] : holders[size_t(e)]) {  // ranks ascend: lists were walked in rank order
      p.replica_rank.push_back(r);
      p.replica_slot.push_back(s);
    }
  }
  p.replica_begin[size_t(E)] = int32_t(p.replica_rank.size());
  return p;
}

}  // namespace megamoe::ep
