// Sm90SplitW4A16<F>: the W4A16 split pipeline on Hopper (stages, numerics and weight layout
// below). Declared here so that the Mega backends of the same formats
// (sm90_bf16_fp4_bf16_mega) reuse these stages and the weights they prepare.
//
// One implementation templated on the FP4 scale format (e8m0 per 32 / e4m3 per 16 + fp32
// per-expert global scale alpha, applied after accumulation, never folded into block scales).
//
//   route plan (routing/route_plan.cu)         ids -> counts, offsets, row <-> (t, k) maps
//   permute (kernels/sm90/moe/permute.cu)          x -> x_perm [rows, H] bf16, expert order
//   FC1 W4A16 GEMM (grouped_gemm_w4a16.h)      alpha13 * (x_perm . dq(W13[e])^T) -> h [rows, N13] fp32
//   activation (kernels/sm90/moe/activation.cu)    h + b13 -> act -> a [rows, I] bf16
//                                              (the large tactics, and the small one where it runs
//                                              K whole, apply it in FC1's epilogue instead, the same
//                                              float operations, and write no h; only the small
//                                              tactic with K in two halves writes h)
//   FC2 W4A16 GEMM                             alpha2 * (a . dq(W2[e])^T) -> y [rows, H] fp32 (bf16
//                                              from the large tactic when there is no b2; the
//                                              combine rounds y first anyway; MEGAMOE_SPLIT_BF16_Y=0
//                                              keeps fp32)
//   combine (kernels/sm90/moe/combine.cu)          y + b2 -> bf16 -> fixed-order weighted sum -> out
// Numerics equal the CPU reference's: h = alpha13*acc + b13 (the GEMM writes alpha13*acc, the
// activation adds b13), y = bf16(alpha2*acc2 + b2) (combine adds b2 and rounds).
// Weights: packed codes copied ([E, N, K/2]) and put in the GEMM's fragment order (with the
// register decode's bit placement) on the device; scales regrouped once into "scale tiles" of
// factor bytes, with a per-expert alpha (nvfp4's global scale x 2^9; mxfp4 1 unless an expert's
// codes exceed 128; grouped_gemm_w4a16.h, w4a16_prepare_scales). The GEMM picks its tactic
// (mma.sync for decode-like T, wgmma for prefill-like T) from T*K and the expert count.
// Shared with every sm90 backend (sm90_common/sm90_backend_base.h): dimensions, device guard,
// workspace (SplitWorkspace: plan + max(x_perm + h, y) + a), weight upload and its one
// synchronisation, the forward prologue, the invalid-id word. Nothing is allocated in forward, no
// host synchronisation, graph-capturable.
#pragma once
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "backends/sm90_common/sm90_backend_base.h"
#include "core/backend.h"
#include "core/env_int.h"
#include "kernels/sm90/gemm/grouped_gemm_w4a16.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "routing/route_plan.h"

namespace megamoe::sm90_backend {

using sm90::Fp4Scale;

// The registered names and the recipe of the W4A16 backends of scale format F.
template <Fp4Scale F>
struct Names {
  static constexpr const char* kSplit =
      F == Fp4Scale::kMxfp4 ? "sm90_bf16_mxfp4_bf16_split" : "sm90_bf16_nvfp4_bf16_split";
  static constexpr const char* kMega =
      F == Fp4Scale::kMxfp4 ? "sm90_bf16_mxfp4_bf16_mega" : "sm90_bf16_nvfp4_bf16_mega";
  static constexpr Recipe kRecipe = F == Fp4Scale::kMxfp4 ? Recipe::kW4A16MXFP4 : Recipe::kW4A16NVFP4;
};

template <Fp4Scale F>
class Sm90SplitW4A16 : public Sm90BackendBase {
 public:
  // `name`: the registered backend name (errors and messages carry it).
  Sm90SplitW4A16(const char* name, const MoeConfig& c)
      : Sm90BackendBase(name, c),
        w13_(name, c.device),
        w2_(name, c.device),
        s13_(name, c.device),
        s2_(name, c.device),
        g13_(name, c.device),
        g2_(name, c.device) {}

  size_t weight_bytes() const override {
    return w13_.bytes + w2_.bytes + s13_.bytes + s2_.bytes + g13_.bytes + g2_.bytes + bias_bytes();
  }

  // Tactics: the W4A16 GEMM's mma.sync (decode) or wgmma (prefill) kernel; the mma.sync one also
  // with its K split fixed (k1: whole K per CTA, k2: two halves), which of the two is faster
  // depends on the shape more than on the grid's size (docs/BENCHMARKS.md). `split_small_deep`:
  // split_small_k1 with FC2 on the kernel's deep ring (W4A16GemmArgs::small_deep 1: one CTA per SM
  // with four stages in flight where FC2's grid fits one CTA per SM; on an H100 1.07x at gpt-oss-120b
  // T = 1, 0.99x at mixtral-8x7b T = 1: a tactic for the table, not a rule).
  // The two large tactics per GEMM: `split_large_tma_fc1` runs FC1 on the TMA tactic and FC2 on
  // the wgmma one, `split_large_tma_fc2` the reverse (the GEMMs' shapes differ: FC1 N = 2I, K = H;
  // FC2 N = H, K = I).
  std::vector<std::string> tactic_names() const override {
    return {kSmall, kSmallK1, kSmallK2, kSmallDeep, kLarge, kLargeTma, kLargeTmaFc1, kLargeTmaFc2};
  }
  std::string tactic_for(int64_t T) const override {
    const std::string& r = requested_tactic(T);
    if (r == kSmallK1 || r == kSmallK2 || r == kSmallDeep || r == kLargeTmaFc1 || r == kLargeTmaFc2) return r;
    switch (gemm_tactic(T)) {
      case sm90::W4A16Tactic::kSmall: return kSmall;
      case sm90::W4A16Tactic::kLargeTma: return kLargeTma;
      default: return kLarge;
    }
  }

  static constexpr const char* kSmall = "split_small";
  static constexpr const char* kSmallK1 = "split_small_k1";
  static constexpr const char* kSmallK2 = "split_small_k2";
  static constexpr const char* kSmallDeep = "split_small_deep";
  static constexpr const char* kLarge = "split_large";
  static constexpr const char* kLargeTma = "split_large_tma";
  static constexpr const char* kLargeTmaFc1 = "split_large_tma_fc1";
  static constexpr const char* kLargeTmaFc2 = "split_large_tma_fc2";

 protected:

  // The requested tactic when it is one of ours, else w4a16_pick_tactic's heuristic.
  sm90::W4A16Tactic gemm_tactic(int64_t T) const {
    const std::string& r = requested_tactic(T);
    if (r == kSmall || r == kSmallK1 || r == kSmallK2 || r == kSmallDeep) return sm90::W4A16Tactic::kSmall;
    if (r == kLarge) return sm90::W4A16Tactic::kLarge;
    if (r == kLargeTma || r == kLargeTmaFc1) return sm90::W4A16Tactic::kLargeTma;
    if (r == kLargeTmaFc2) return sm90::W4A16Tactic::kLarge;
    return sm90::w4a16_pick_tactic(T * K_, int(EL_));
  }
  // FC2's tactic: FC1's, except for the two mixed tactics.
  sm90::W4A16Tactic fc2_tactic(int64_t T) const {
    const std::string& r = requested_tactic(T);
    if (r == kLargeTmaFc1) return sm90::W4A16Tactic::kLarge;
    if (r == kLargeTmaFc2) return sm90::W4A16Tactic::kLargeTma;
    return gemm_tactic(T);
  }
  // The small tactic's K split the requested tactic fixes (0: the kernel's rule).
  int small_splits(int64_t T) const {
    const std::string& r = requested_tactic(T);
    return r == kSmallK1 || r == kSmallDeep ? 1 : r == kSmallK2 ? 2 : 0;
  }

  void upload_weights(const MoeWeights& w) override {
    upload_matrix(w.w13, w.w13_scale, w.w13_global_scale, N13_, H_, w13_, s13_, g13_, "w13");
    upload_matrix(w.w2, w.w2_scale, w.w2_global_scale, H_, I_, w2_, s2_, g2_, "w2");
  }

  // One weight matrix [EL, N, K]: the scales become factor bytes and alpha
  // (w4a16_prepare_scales); the packed codes are copied (through the host only when a block
  // scale is NaN, or an nvfp4 one zero or negative: w4a16_fix_codes) and prepared in place on
  // our copy.
  void upload_matrix(const TensorView& codes, const TensorView& scales, const TensorView& global, int64_t N,
                     int64_t K, DeviceBuffer& wdst, DeviceBuffer& sdst, DeviceBuffer& adst, const std::string& name) {
    const std::string sname = name + "_scale";
    const std::vector<uint8_t> canon = stage_to_host(scales, sname);
    std::vector<float> gs;
    if constexpr (F == Fp4Scale::kNvfp4) gs = to_host_f32(global, name + "_global_scale");
    const sm90::W4A16Scales ps =
        sm90::w4a16_prepare_scales(canon.data(), gs.empty() ? nullptr : gs.data(), EL_, N, K, F, sname.c_str());
    if (ps.fix_codes) {
      std::vector<uint8_t> host = stage_to_host(codes, name);
      sm90::w4a16_fix_codes(host.data(), canon.data(), EL_, N, K, F);
      upload_bytes(host.data(), host.size(), wdst, name);
    } else {
      upload_tensor(codes, wdst, name);
    }
    sm90::w4a16_prepare_weights(wdst.as<uint8_t>(), wdst.bytes, upload_stream());
    upload_bytes(ps.tiles.data(), ps.tiles.size(), sdst, sname);
    if (ps.alpha_is_one)
      adst.release();  // the kernels read a null alpha as 1
    else
      upload_bytes(ps.alpha.data(), ps.alpha.size() * sizeof(float), adst, name + " alpha");
  }

  void run_stages(const ForwardArgs& args, const ForwardContext& f) override {
    const int64_t T = f.T, rows_bound = f.rows_bound;
    const cudaStream_t stream = f.stream;
    const bool pdl = f.created_stream;
    // The route plan's single-block kernel gathers x itself (no permute launch) when the rows' bf16
    // bytes are at most MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES (the bf16 split backend's knob, read once;
    // default 0: never). Measured for bf16 at T = 8..128: 0.61-0.99x (one block gathers every row);
    // at decode sizes it saves a launch (~1.5 us at T = 1 in session 41's timelines): to be measured.
    static const int64_t plan_permute_bytes = env_int("MEGAMOE_SPLIT_PLAN_PERMUTE_BYTES", 0);
    routing::PlanExtras ex;
    ex.permute = routing::plan_permute_within(args.x.data, f.ldx, H_, sw_.x_perm, rows_bound, plan_permute_bytes);
    routing::build_route_plan_gpu(args.topk_ids, f.dims, sw_.plan, ex, stream);
    if (ex.permute.x == nullptr)
      sm90::launch_permute(args.x.data, f.ldx, T, K_, H_, sw_.plan.route_to_row, sw_.x_perm, stream, pdl);
    sm90::W4A16GemmArgs g1;
    g1.A = sw_.x_perm;
    g1.W = w13_.as<const uint8_t>();
    g1.scales = s13_.as<const uint8_t>();
    g1.alpha = g13_.as<const float>();
    g1.offsets = sw_.plan.offsets;
    g1.D = sw_.h;
    g1.N = N13_;
    g1.K = H_;
    g1.num_groups = int(EL_);
    g1.tactic = gemm_tactic(T);
    g1.small_splits = small_splits(T);
    // The plan's offsets are two kernels back when permute runs (W4A16GemmArgs::pdl); when the plan
    // gathers x itself it is FC1's predecessor.
    g1.pdl = pdl && ex.permute.x == nullptr;
    // The activation in FC1's epilogue (the large tactics; the small one where it runs K whole):
    // no fp32 h and no activation kernel. MEGAMOE_W4A16_LARGE_ACT=0 / MEGAMOE_W4A16_SMALL_ACT=0 keep
    // the wgmma / the small tactic's fp32 h and the activation kernel (A/B knobs, read once).
    static const bool large_act = env_int("MEGAMOE_W4A16_LARGE_ACT", 1) != 0;
    static const bool small_act = env_int("MEGAMOE_W4A16_SMALL_ACT", 1) != 0;
    const bool fused_act = g1.tactic == sm90::W4A16Tactic::kLargeTma ||
                           (large_act && g1.tactic == sm90::W4A16Tactic::kLarge) ||
                           (small_act && g1.tactic == sm90::W4A16Tactic::kSmall &&
                            sm90::w4a16_small_act_epilogue(g1, rows_bound));
    if (fused_act) {
      g1.D = nullptr;
      g1.act_out = sw_.a;
      g1.act.activation = act_.activation;
      g1.act.limit = act_.limit;
      g1.act.alpha = act_.alpha;
      g1.act.b13 = b13();
    }
    sm90::launch_grouped_gemm_w4a16(g1, F, rows_bound, stream);
    if (!fused_act)
      sm90::launch_activation(sw_.h, b13(), sw_.plan.row_expert, sw_.plan.offsets + EL_, rows_bound, I_, act_,
                              sw_.a, stream, pdl);
    sm90::W4A16GemmArgs g2 = g1;
    g2.act_out = nullptr;
    g2.A = sw_.a;
    g2.W = w2_.as<const uint8_t>();
    g2.scales = s2_.as<const uint8_t>();
    g2.alpha = g2_.as<const float>();
    g2.tactic = fc2_tactic(T);
    g2.small_deep = requested_tactic(T) == kSmallDeep ? 1 : 0;
    g2.pdl = pdl;  // FC1 (or the activation kernel) precedes it: the plan is further back
    const bool y_bf16 = fc2_bf16_y(g2.tactic != sm90::W4A16Tactic::kSmall);
    g2.D = y_bf16 ? nullptr : static_cast<float*>(sw_.y);
    g2.D16 = y_bf16 ? sw_.y : nullptr;
    g2.N = H_;
    g2.K = I_;
    sm90::launch_grouped_gemm_w4a16(g2, F, rows_bound, stream);
    combine_or_route_rows(args, f, sw_.y, y_bf16, pdl);
  }

  // Packed codes in fragment order [E_local, N, K/2], scale tiles of factor bytes, alpha f32
  // [E_local] (empty when every alpha is 1).
  DeviceBuffer w13_, w2_, s13_, s2_, g13_, g2_;
};

}  // namespace megamoe::sm90_backend
