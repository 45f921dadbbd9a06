// Expert parallelism on several GPUs (ctest label `multigpu`). One process per GPU: run without
// MEGAMOE_EP_RANK, this program is the launcher: it re-executes itself once per rank (rank r on
// device r), passes the NCCL id through a file and fails when any rank fails. Every test runs on
// every rank in lockstep (layer construction and forward are collective). On one GPU: a group of
// one rank (every exchange and Mega-EP path, to itself; no fault tests). Exit code 77 (ctest
// SKIP_RETURN_CODE) without a GPU or without NCCL.
//
// Each rank checks its own output against the CPU reference on its own tokens with all experts
// (the reference's EP simulation equals that bit for bit, tests/cpu/test_reference_ep.cpp).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "gpu/split_test_util.h"
#include "megamoe/ep.h"

namespace megamoe::gputest {
namespace {

int g_rank = 0, g_size = 1;
std::shared_ptr<EpGroup> g_group;

// Every rank's inputs are derived from (case seed, rank), so any rank can rebuild another's.
HostInputs rank_inputs(const MoeConfig& c, int64_t T, uint64_t seed, int rank, RouteKind kind = RouteKind::kUniform,
                       double neg = 0.0, double bad = 0.0) {
  return make_inputs(c, T, kind, seed * 1000003ull + uint64_t(rank), neg, bad, rank % 2 == 1);
}

MoeConfig ep_config(int64_t E, int64_t K, int64_t H, int64_t I, int64_t max_tokens, Recipe recipe,
                    const std::string& style) {
  MoeConfig c;
  c.num_experts = E;
  c.top_k = K;
  c.hidden_size = H;
  c.intermediate_size = I;
  c.recipe = recipe;
  c.max_tokens = max_tokens;
  c.device = g_group->device();
  c.ep_group = g_group;
  c.ep_style = style;
  c.ep_timeout_s = 20.0;
  return c;
}

// This rank's layer: canonical weights of its experts (synthetic, by global expert id).
struct EpLayer {
  MoeConfig cfg;  // as resolved by the layer (ep_size / ep_rank from the group)
  formats::CanonicalWeights weights;
  std::unique_ptr<MoeLayer> layer;
  explicit EpLayer(const MoeConfig& c, uint64_t seed) {
    layer = std::make_unique<MoeLayer>(c);
    cfg = layer->config();
    weights = reference::synthetic_canonical_weights(cpu_twin(cfg), seed);
    layer->prepare_weights(weights.view(cfg));
  }
};

// The reference on `in` with every expert (ep_size 1), ids in `drop` replaced by -1.
std::vector<uint16_t> reference_all(const MoeConfig& c, uint64_t seed, HostInputs in,
                                    const std::vector<int64_t>& drop = {}) {
  MoeConfig rc = cpu_twin(c);
  rc.ep_size = 1;
  rc.ep_rank = 0;
  rc.ep_group = nullptr;
  rc.expert_placement.clear();
  for (auto& v : in.ids)
    for (int64_t d : drop)
      if (v == d) v = -1;
  auto wp = reference::synthetic_weights(rc, seed);
  return run_reference(rc, *wp, in);
}

std::vector<uint16_t> run(MoeLayer& layer, DeviceInputs& d, cudaStream_t s = nullptr) {
  std::vector<uint16_t> out = run_layer(layer, d, s);
  layer.check_errors(s);
  return out;
}

void expect_close(const std::vector<uint16_t>& out, const std::vector<uint16_t>& ref, double tol,
                  const std::string& what) {
  EXPECT_EQ(count_nan(out), 0) << what;
  const double e = rel_l2(out, ref);
  std::printf("[rank %d] %s: rel-L2 %.3e\n", g_rank, what.c_str(), e);
  EXPECT_LE(e, tol) << what;
}

class EpStyles : public ::testing::TestWithParam<const char*> {};

TEST_P(EpStyles, Bf16MatchesReferenceWithUnevenTokens) {
  const uint64_t seed = case_seed("ep_bf16");
  MoeConfig c = ep_config(16, 4, 256, 128, 64, Recipe::kBF16, GetParam());
  EpLayer l(c, seed);
  EXPECT_NE(l.layer->backend_name().find(std::string("_") + GetParam()), std::string::npos) << l.layer->backend_name();
  const int64_t T = g_rank == 0 ? 37 : 50 + g_rank;
  HostInputs in = rank_inputs(l.cfg, T, seed, g_rank, RouteKind::kZipf, 0.1, 0.05);
  DeviceInputs d(in);
  d.device = l.cfg.device;
  const auto out = run(*l.layer, d);
  expect_close(out, reference_all(l.cfg, seed, in), 5e-3, std::string("bf16 ") + GetParam());
  EXPECT_EQ(l.layer->invalid_id_count(), in.invalid);
  EXPECT_EQ(l.layer->unrouted_count(), 0);
  // Bitwise repeatable.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(run(*l.layer, d), out) << "repeat " << i;
}

TEST_P(EpStyles, Fp8BlockMatchesReference) {
  const uint64_t seed = case_seed("ep_fp8");
  // T > 128 rows per rank: the unfused dispatch (plan, then a copy grid) in both styles.
  MoeConfig c = ep_config(16, 8, 512, 256, 256, Recipe::kFP8Block, GetParam());
  EpLayer l(c, seed);
  HostInputs in = rank_inputs(l.cfg, 150 + 9 * g_rank, seed, g_rank);
  DeviceInputs d(in);
  d.device = l.cfg.device;
  expect_close(run(*l.layer, d), reference_all(l.cfg, seed, in), 1e-2, std::string("fp8_block ") + GetParam());
}

// T = 0 on one rank; every route on rank 0's experts; no route on rank 0's experts (small
// batches: the fused plan+dispatch and return+combine kernels).
TEST_P(EpStyles, ZeroTokensAndSkewedRouting) {
  const uint64_t seed = case_seed("ep_skew");
  MoeConfig c = ep_config(8, 2, 256, 128, 32, Recipe::kBF16, GetParam());
  EpLayer l(c, seed);
  const int64_t E_local = l.cfg.num_experts / l.cfg.ep_size;
  for (int variant = 0; variant < 3; ++variant) {
    const int64_t T = variant == 0 && g_rank == g_size - 1 ? 0 : 29;
    HostInputs in = rank_inputs(l.cfg, T, seed + variant, g_rank);
    for (auto& v : in.ids) {
      if (variant == 1) v = v % E_local;                           // all on rank 0
      if (variant == 2 && g_size > 1) v = E_local + v % (l.cfg.num_experts - E_local);  // none on rank 0
    }
    DeviceInputs d(in);
    d.device = l.cfg.device;
    const auto out = run(*l.layer, d);
    if (T > 0) expect_close(out, reference_all(l.cfg, seed, in), 5e-3, "variant " + std::to_string(variant));
  }
}

// A placement that is not contiguous, with experts 0 and 5 on every rank (replicas); then a
// placement missing experts 3 and 7: their routes are "no route" and counted.
TEST_P(EpStyles, PlacementWithReplicasAndMissingExperts) {
  if (g_size != 2) GTEST_SKIP() << "placements written for 2 ranks";
  const uint64_t seed = case_seed("ep_place");
  MoeConfig c = ep_config(8, 3, 256, 128, 64, Recipe::kBF16, GetParam());
  c.expert_placement = {{5, 1, 6, 2, 0}, {0, 3, 4, 7, 5}};
  {
    EpLayer l(c, seed);
    HostInputs in = rank_inputs(l.cfg, 61, seed, g_rank);
    DeviceInputs d(in);
    d.device = l.cfg.device;
    expect_close(run(*l.layer, d), reference_all(l.cfg, seed, in), 5e-3, "replicas");
    EXPECT_EQ(l.layer->unrouted_count(), 0);
  }
  c.expert_placement = {{2, 0, 1}, {6, 4, 5}};
  EpLayer l(c, seed);
  HostInputs in = rank_inputs(l.cfg, 45, seed + 1, g_rank);
  int64_t missing = 0;
  for (int64_t v : in.ids) missing += v == 3 || v == 7;
  DeviceInputs d(in);
  d.device = l.cfg.device;
  expect_close(run(*l.layer, d), reference_all(l.cfg, seed, in, {3, 7}), 5e-3, "missing experts");
  EXPECT_EQ(l.layer->unrouted_count(), missing);
}

// CUDA graphs: every rank captures its forward and replays it in lockstep with fresh inputs.
TEST_P(EpStyles, GraphReplayEqualsEager) {
  const uint64_t seed = case_seed("ep_graph");
  MoeConfig c = ep_config(16, 4, 256, 128, 16, Recipe::kBF16, GetParam());
  EpLayer l(c, seed);
  Stream s;
  HostInputs in = rank_inputs(l.cfg, 16, seed, g_rank);
  DeviceInputs d(in);
  d.device = l.cfg.device;
  CapturedForward g(*l.layer, d, s.s);
  for (int i = 0; i < 4; ++i) {
    HostInputs fresh = rank_inputs(l.cfg, 16, seed + 10 + i, g_rank);
    in.x = fresh.x;
    in.ids = fresh.ids;
    in.w = fresh.w;
    d.x.upload(in.x);
    if (in.int64_ids) d.ids64.upload(in.ids); else { std::vector<int32_t> v(in.ids.begin(), in.ids.end()); d.ids32.upload(v); }
    d.w.upload(in.w);
    const auto replayed = g.replay(d, s.s);
    l.layer->check_errors(s.s);
    expect_close(replayed, reference_all(l.cfg, seed, in), 5e-3, "replay " + std::to_string(i));
    EXPECT_EQ(run(*l.layer, d, s.s), replayed) << "eager differs from replay " << i;
  }
}

// With the same inner batch bound (T per rank = max_tokens, a power of two) the owner runs the
// same kernels on the same rows as one GPU on all tokens: EP output = EP 1 output, bit for bit.
TEST_P(EpStyles, BitwiseEqualToOneGpu) {
  const uint64_t seed = case_seed("ep_bitwise");
  const int64_t T = 32;
  MoeConfig c = ep_config(16, 4, 256, 128, T, Recipe::kBF16, GetParam());
  c.backend = "sm90_bf16_bf16_bf16_split";
  EpLayer l(c, seed);
  HostInputs all;
  std::vector<HostInputs> parts;
  for (int r = 0; r < g_size; ++r) parts.push_back(rank_inputs(l.cfg, T, seed, r));
  all = parts[0];
  all.int64_ids = false;
  for (int r = 1; r < g_size; ++r) {
    all.T += T;
    all.x.insert(all.x.end(), parts[size_t(r)].x.begin(), parts[size_t(r)].x.end());
    all.ids.insert(all.ids.end(), parts[size_t(r)].ids.begin(), parts[size_t(r)].ids.end());
    all.w.insert(all.w.end(), parts[size_t(r)].w.begin(), parts[size_t(r)].w.end());
  }
  DeviceInputs d(parts[size_t(g_rank)]);
  d.device = l.cfg.device;
  const auto out = run(*l.layer, d);
  MoeConfig one = cpu_twin(l.cfg);
  one.device = l.cfg.device;
  one.backend = c.backend;
  one.ep_size = 1;
  one.ep_rank = 0;
  one.ep_group = nullptr;
  one.max_tokens = T * g_size;
  MoeLayer single(one);
  const auto w1 = reference::synthetic_canonical_weights(cpu_twin(one), seed);
  single.prepare_weights(w1.view(one));
  DeviceInputs da(all);
  da.device = one.device;
  const auto ref = run_layer(single, da);
  const std::vector<uint16_t> mine(ref.begin() + int64_t(g_rank) * T * c.hidden_size,
                                   ref.begin() + int64_t(g_rank + 1) * T * c.hidden_size);
  EXPECT_EQ(out, mine) << "EP output differs from the one-GPU backend on the concatenated tokens";
}

// The Mega-EP kernel (one launch per rank: dispatch, experts, return, combine) for every format
// it has: a receive buffer of R x 8 rows fits it, so the mega backends take it by default.
// Uneven T per rank, -1 and invalid ids, bitwise repeatable, graph replay equals eager.
TEST_P(EpStyles, MegaEpKernelMatchesReference) {
  struct Case {
    Recipe recipe;
    int64_t K;
    double tol;
    const char* name;
  };
  const Case cases[] = {{Recipe::kBF16, 4, 5e-3, "bf16"},
                        {Recipe::kFP8Block, 8, 1e-2, "fp8_block"},
                        {Recipe::kW4A16MXFP4, 4, 5e-3, "w4a16_mxfp4"}};
  for (const Case& k : cases) {
    const uint64_t seed = case_seed(std::string("ep_mega_") + k.name);
    MoeConfig c = ep_config(16, k.K, 512, 256, 8, k.recipe, GetParam());
    EpLayer l(c, seed);
    const std::string what = std::string(k.name) + " " + GetParam();
    EXPECT_NE(l.layer->backend_name().find("_mega+ep"), std::string::npos) << l.layer->backend_name();
    const std::string tactic = l.layer->tactic_for(8);
    EXPECT_TRUE(tactic == "mega" || tactic == "mega_rounds" || tactic == "mega_min8" || tactic == "mega_min16")
        << what << ": tactic " << tactic << " (one of the kernel's)";
    const int64_t T = g_rank == 0 ? 5 : 8;
    HostInputs in = rank_inputs(l.cfg, T, seed, g_rank, RouteKind::kZipf, 0.1, 0.05);
    DeviceInputs d(in);
    d.device = l.cfg.device;
    const auto out = run(*l.layer, d);
    expect_close(out, reference_all(l.cfg, seed, in), k.tol, what);
    EXPECT_EQ(l.layer->invalid_id_count(), in.invalid) << what;
    for (int i = 0; i < 2; ++i) EXPECT_EQ(run(*l.layer, d), out) << what << ": repeat " << i;
    Stream s;
    CapturedForward g(*l.layer, d, s.s);
    for (int i = 0; i < 2; ++i) {
      const auto replayed = g.replay(d, s.s);
      l.layer->check_errors(s.s);
      EXPECT_EQ(replayed, out) << what << ": graph replay " << i;
    }
  }
}

// The Mega-EP kernel and the exchange kernels speak one protocol: rank 0 runs the kernel, the
// others the exchange kernels around their split stages (MEGAMOE_EP_FUSED=0), in both orders.
TEST_P(EpStyles, MegaEpKernelAndExchangeKernelsInterwork) {
  const uint64_t seed = case_seed("ep_mixed");
  for (int fused_rank = 0; fused_rank < 2; ++fused_rank) {
    setenv("MEGAMOE_EP_FUSED", g_rank == fused_rank ? "1" : "0", 1);
    MoeConfig c = ep_config(16, 4, 256, 128, 16, Recipe::kBF16, GetParam());
    EpLayer l(c, seed);
    unsetenv("MEGAMOE_EP_FUSED");
    const int64_t T = 9 + 3 * g_rank;
    HostInputs in = rank_inputs(l.cfg, T, seed + uint64_t(fused_rank), g_rank, RouteKind::kZipf);
    DeviceInputs d(in);
    d.device = l.cfg.device;
    for (int i = 0; i < 2; ++i)
      expect_close(run(*l.layer, d), reference_all(l.cfg, seed, in), 5e-3,
                   "fused on rank " + std::to_string(fused_rank) + ", forward " + std::to_string(i));
  }
}

INSTANTIATE_TEST_SUITE_P(Ep, EpStyles, ::testing::Values("push", "pull"),
                         [](const auto& info) { return std::string(info.param); });

// What must agree across ranks (the symmetric window's capacity, the model) is compared at
// construction: a mismatch is InvalidArgument on every rank, not a hang.
TEST(EpConfig, MismatchedMaxTokensIsAnErrorOnEveryRank) {
  if (g_size < 2) GTEST_SKIP() << "needs two ranks";
  MoeConfig c = ep_config(8, 2, 256, 128, int64_t(16) << g_rank, Recipe::kBF16, "push");
  try {
    MoeLayer l(c);
    ADD_FAILURE() << "constructed a layer whose max_tokens differs between ranks";
  } catch (const InvalidArgument& e) {
    EXPECT_NE(std::string(e.what()).find("max_tokens"), std::string::npos) << e.what();
  }
}

// A rank that raises before the exchange (bad input on that rank): the others' forward reports
// CommError after the timeout instead of hanging.
TEST(EpFault, RankRaisingBeforeTheExchangeIsReported) {
  const uint64_t seed = case_seed("ep_raise");
  MoeConfig c = ep_config(8, 2, 256, 128, 32, Recipe::kBF16, "push");
  c.ep_timeout_s = 1.0;
  EpLayer l(c, seed);
  EXPECT_EQ(l.layer->tactic_for(20), "mega") << "the fault cases are meant to cover the Mega-EP kernel";
  HostInputs in = rank_inputs(l.cfg, 20, seed, g_rank);
  DeviceInputs d(in);
  d.device = l.cfg.device;
  if (g_rank == g_size - 1) {
    const TensorView bad_w = TensorView::contiguous(d.w.p, DType::kF32, {in.T, in.K + 1}, Device::cuda(d.device));
    EXPECT_THROW(l.layer->forward(d.xv(), d.idv(), bad_w, d.outv()), InvalidArgument);
  } else {
    l.layer->forward(d.xv(), d.idv(), d.wv(), d.outv());
    EXPECT_THROW(l.layer->check_errors(), CommError);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
}

// A rank dies mid-run: the survivors' forward reports CommError within the timeout (no hang),
// then they shrink the group and keep serving with their own experts; routes to the lost
// experts are "no route" and counted. Run by the launcher as a separate launch (last rank dies).
TEST(EpFault, KilledRankIsReportedThenSurvivorsShrink) {
  const uint64_t seed = case_seed("ep_kill");
  MoeConfig c = ep_config(8, 2, 256, 128, 32, Recipe::kBF16, "auto");
  c.ep_timeout_s = 2.0;
  auto l = std::make_unique<EpLayer>(c, seed);
  EXPECT_EQ(l->layer->tactic_for(24), "mega") << "the fault cases are meant to cover the Mega-EP kernel";
  HostInputs in = rank_inputs(l->cfg, 24, seed, g_rank);
  DeviceInputs d(in);
  d.device = l->cfg.device;
  expect_close(run(*l->layer, d), reference_all(l->cfg, seed, in), 5e-3, "before the kill");
  const int victim = g_size - 1;
  if (g_rank == victim) {
    std::printf("[rank %d] exiting on purpose (the killed rank)\n", g_rank);
    std::fflush(stdout);
    std::_Exit(0);
  }
  const auto t0 = std::chrono::steady_clock::now();
  d.poison(nullptr);
  l->layer->forward(d.xv(), d.idv(), d.wv(), d.outv());
  bool raised = false;
  try {
    l->layer->check_errors();
  } catch (const CommError& e) {
    raised = true;
    std::printf("[rank %d] CommError after %.2f s: %s\n", g_rank,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), e.what());
  }
  EXPECT_TRUE(raised);
  EXPECT_EQ(count_nan(d.result()), int64_t(in.T * in.H)) << "a failed exchange must leave NaN, not stale data";
  g_group->abort();
  l.reset();  // the aborted group's window is freed locally (no collective deregistration)
  std::vector<int> gone{victim};
  auto survivors = g_group->shrink(gone);
  ASSERT_EQ(survivors->size(), g_size - 1);
  MoeConfig c2 = c;
  c2.ep_group = survivors;
  c2.ep_size = 1;
  c2.ep_rank = 0;
  const int64_t E_local = c.num_experts / g_size;
  c2.expert_placement.assign(size_t(g_size - 1), {});
  for (int r = 0; r < g_size - 1; ++r)
    for (int64_t e = 0; e < E_local; ++e) c2.expert_placement[size_t(r)].push_back(int32_t(r * E_local + e));
  EpLayer l2(c2, seed);
  std::vector<int64_t> lost;
  int64_t n_lost = 0;
  for (int64_t e = victim * E_local; e < (victim + 1) * E_local; ++e) lost.push_back(e);
  for (int64_t v : in.ids) n_lost += v >= victim * E_local && v < (victim + 1) * E_local;
  expect_close(run(*l2.layer, d), reference_all(l2.cfg, seed, in, lost), 5e-3, "after the shrink");
  EXPECT_EQ(l2.layer->unrouted_count(), n_lost);
}

// ---- launcher ----------------------------------------------------------------------------

int probe_gpus() {
  const pid_t pid = fork();
  if (pid == 0) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
    std::_Exit(n > 100 ? 100 : n);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 0;
}

// Runs `argv` once per rank with MEGAMOE_EP_* set; true when every rank exits 0.
bool launch(int argc, char** argv, int R, const std::string& filter) {
  char tmpl[] = "/tmp/megamoe_ep_id_XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd >= 0) close(fd);
  std::remove(tmpl);
  std::vector<pid_t> pids;
  for (int r = 0; r < R; ++r) {
    const pid_t pid = fork();
    if (pid == 0) {
      setenv("MEGAMOE_EP_RANK", std::to_string(r).c_str(), 1);
      setenv("MEGAMOE_EP_SIZE", std::to_string(R).c_str(), 1);
      setenv("MEGAMOE_EP_ID_FILE", tmpl, 1);
      std::vector<std::string> args(argv, argv + argc);
      args.push_back("--gtest_filter=" + filter);
      std::vector<char*> cargs;
      for (auto& a : args) cargs.push_back(a.data());
      cargs.push_back(nullptr);
      execv("/proc/self/exe", cargs.data());
      std::_Exit(127);
    }
    pids.push_back(pid);
  }
  bool ok = true;
  for (int r = 0; r < R; ++r) {
    int st = 0;
    waitpid(pids[size_t(r)], &st, 0);
    const bool good = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    if (!good) std::printf("launcher: rank %d failed (status %d)\n", r, st);
    ok = ok && good;
  }
  std::remove(tmpl);
  return ok;
}

std::vector<uint8_t> shared_id(const std::string& path) {
  if (g_rank == 0) {
    const auto id = EpGroup::new_unique_id();
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char*>(id.data()), std::streamsize(id.size()));
    std::rename(tmp.c_str(), path.c_str());
    return id;
  }
  for (int i = 0; i < 6000; ++i) {
    std::ifstream f(path, std::ios::binary);
    std::vector<uint8_t> id(EpGroup::kUniqueIdBytes);
    if (f && f.read(reinterpret_cast<char*>(id.data()), std::streamsize(id.size()))) return id;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  throw std::runtime_error("no NCCL id from rank 0 in " + path);
}

}  // namespace
}  // namespace megamoe::gputest

int main(int argc, char** argv) {
  using namespace megamoe::gputest;
  const char* rank = std::getenv("MEGAMOE_EP_RANK");
  if (rank == nullptr) {  // the launcher
    if (!megamoe::EpGroup::available()) {
      std::printf("SKIPPED: this build has no NCCL\n");
      return 77;
    }
    const int gpus = probe_gpus();
    int R = gpus;
    if (const char* r = std::getenv("MEGAMOE_EP_RANKS")) R = std::atoi(r);
    // One GPU: an EP group of one rank still runs every exchange and Mega-EP path (to itself);
    // the fault tests and 2-rank placements need two.
    if (gpus < 1 || R < 1 || R > gpus) {
      std::printf("SKIPPED: expert-parallel tests need a GPU per rank (found %d, ranks %d)\n", gpus, R);
      return 77;
    }
    std::string filter = "*";
    for (int i = 1; i < argc; ++i)
      if (std::string(argv[i]).rfind("--gtest_filter=", 0) == 0) filter = std::string(argv[i]).substr(15);
    // Every rank must draw the same weights: one seed for all of them.
    if (std::getenv("MEGAMOE_TEST_SEED") == nullptr)
      setenv("MEGAMOE_TEST_SEED", std::to_string(base_seed()).c_str(), 1);
    std::printf("launcher: %d ranks on %d GPUs, MEGAMOE_TEST_SEED=%s\n", R, gpus, std::getenv("MEGAMOE_TEST_SEED"));
    bool ok = true;
    if (filter.find("EpFault") == std::string::npos || filter == "*")
      ok = launch(argc, argv, R, filter == "*" ? "-EpFault.*" : filter) && ok;
    if (R >= 2 && (filter == "*" || filter.find("EpFault") != std::string::npos))
      ok = launch(argc, argv, R, "EpFault.*") && ok;
    return ok ? 0 : 1;
  }
  g_rank = std::atoi(rank);
  g_size = std::atoi(std::getenv("MEGAMOE_EP_SIZE"));
  ::testing::InitGoogleTest(&argc, argv);
  g_group = megamoe::EpGroup::create(shared_id(std::getenv("MEGAMOE_EP_ID_FILE")), g_rank, g_size, g_rank);
  std::printf("[rank %d] EP group of %d ranks on device %d\n", g_rank, g_group->size(), g_group->device());
  const int rc = RUN_ALL_TESTS();
  std::fflush(stdout);
  // The group's communicator is torn down explicitly (after every layer is gone).
  if (::testing::UnitTest::GetInstance()->current_test_info() == nullptr) g_group.reset();
  return rc;
}
