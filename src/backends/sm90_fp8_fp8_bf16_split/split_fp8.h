// Sm90SplitFp8: the fp8_block split pipeline on Hopper (stages, numerics and weight layout
// below). Declared here so that the Mega backend of the recipe (sm90_fp8_fp8_bf16_mega) reuses
// these stages and the weights they prepare.
//
// Recipe fp8_block (DeepSeek-V3 style), split path.
// e4m3 weights with fp32 scales per 128x128 block, activations quantized on the fly to e4m3 with
// an fp32 scale per token per 128 columns (formats::quantize_fp8_act_1x128, bit for bit), FP8
// wgmma with per-128-K promotion into the fp32 accumulator (sa * sw).
//
//   route plan (routing/route_plan.cu)                 ids -> counts, offsets, row <-> (t, k) maps
//   permute+quant (kernels/sm90/moe/permute_quant_fp8.cu)  x -> xq [rows, H] e4m3 + sx (1x128 scales)
//   FC1 (kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h)    xq . W13[e]^T (blockwise) -> h [rows, N13] fp32
//   act+quant (kernels/sm90/moe/activation_fp8.cu)         a = bf16(act(h + b13)) -> aq [rows, I] e4m3 + sa
//   FC2                                                aq . W2[e]^T (blockwise) -> y [rows, H] fp32, or
//                                                      bf16 at large T without b2 (the epilogue rounds y,
//                                                      which the combine would do first anyway)
//   combine (kernels/sm90/moe/combine.cu)                  y + b2 -> bf16 -> fixed-order weighted sum -> out
//
// Knobs (read once at construction; for A/B runs and tests): MEGAMOE_SPLIT_BF16_Y=0 keeps fp32 y at
// every T (the output is bit for bit the same; Sm90BackendBase::fc2_bf16_y). MEGAMOE_SPLIT_FP8_PDL=1
// launches the route plan, permute+quant, act+quant and combine with programmatic dependent launch
// on a stream the caller created (as the bf16 and W4A16 split paths do; each of these kernels waits
// with griddepcontrol.wait before its first load, the GEMMs are launched plainly); default 0: it
// measured 1.000x over 24 cells (each glue kernel needs all of its predecessor's output, so an
// early start only moves its wait inside; docs/BENCHMARKS.md, session 35).
//
// Weights (prepare_weights, once): codes copied as they are ([E, N, K] e4m3, K-major); scales
// re-laid out from the canonical [E, ceil(N/128), ceil(K/128)] to [E, ceil(K/128), ceil(N/128)]
// (the MN-major layout of CUTLASS's Sm90 blockwise scales); biases to fp32. Activation scales are
// written by the quantize kernels directly in the layout the GEMMs read (grouped_gemm_fp8_blockwise.h,
// "SA").
//
// H and I need not be multiples of 128 (gpt-oss: H = I = 2880 = 22.5 x 128). A partial last
// 128-block is exact without any padding: the quantizers give its activation group a scale over
// its real columns (the CPU quantizer's rule) and write no codes past column H / I; the GEMMs run
// with their real K, and TMA zero-fills the columns of the last K tile past K in both operands, so
// they add exact zeros before that block is promoted with its own scales (sa * sw); a partial last
// N block (FC2's N = H, FC1's N13 = 2I or I) uses its own weight scale and its stores are clipped
// at N. What is left to require (why_not below): H and I multiples of 16, the 16-byte TMA row
// strides of e4m3 rows of H / I bytes (also enough for the quantizers' and the combine's vectors).
//
// Shared with every sm90 backend (sm90_common/sm90_backend_base.h): dimensions, device guard,
// weight upload and its one synchronisation, the forward prologue, the invalid-id word.
// Workspace (sm90_backend::SplitWorkspace with e4m3 operands and 1x128 scales: one device
// allocation, sized at construction; every buffer 256-byte aligned):
//   cap = bucket_capacity(max_tokens), R = cap * K, HB = ceil(H/128), IB = ceil(I/128)
//   plan   = route_plan_workspace_bytes(cap, K, E_local)
//   region = max(al(R H) + al(4 R HB) + al(4 R N13), al(4 R H))   xq, sx, h; y [R,H] fp32 aliases
//            the start of the region (xq, sx and h are dead once FC2 runs)
//   aq, sa = al(R I) + al(4 R IB)
// deepseek-v3 (H 7168, I 2048, E 256, K 8) at max_tokens 8192: region 1.88e9 + 0.14e9 -> ~1.9 GiB.
// gpt-oss-120b (H = I = 2880, HB = IB = 23, E 128, K 4) at max_tokens 8192: region 0.85e9 (xq + sx
// + h; y is 0.38e9) + 0.10e9 -> ~0.9 GiB.
#pragma once
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/sm90_common/sm90_backend_base.h"
#include "core/backend.h"
#include "core/env_int.h"
#include "kernels/sm90/common/cuda_helpers.h"
#include "kernels/sm90/gemm/grouped_gemm_fp8_blockwise.h"
#include "kernels/sm90/moe/moe_kernels.h"
#include "kernels/sm90/moe/moe_kernels_fp8.h"
#include "routing/route_plan.h"

namespace megamoe::sm90_backend {

constexpr int64_t kFp8ScaleBlock = 128;  // fp8_block: 128x128 weight blocks, 1x128 activation groups
// fp8_block's 128-wide scale blocks along a dimension of n, a partial last one included.
inline int64_t blocks128(int64_t n) { return cu::ceil_div(n, kFp8ScaleBlock); }

class Sm90SplitFp8 : public Sm90BackendBase {
 public:
  // `name`: the registered backend name (errors and messages carry it).
  Sm90SplitFp8(const char* name, const MoeConfig& c)
      : Sm90BackendBase(name, c, SplitActivations{/*element_bytes=*/1, kFp8ScaleBlock}),
        w13_(name, c.device),
        w2_(name, c.device),
        s13_(name, c.device),
        s2_(name, c.device),
        pdl_knob_(env_int("MEGAMOE_SPLIT_FP8_PDL", 0) != 0) {
    fc1_ = std::make_unique<sm90::GroupedGemmFp8Blockwise>(int(EL_), N13_, H_, c.device);
    fc2_ = std::make_unique<sm90::GroupedGemmFp8Blockwise>(int(EL_), H_, I_, c.device);
  }

  size_t workspace_bytes() const override {
    return Sm90BackendBase::workspace_bytes() + fc1_->workspace_bytes() + fc2_->workspace_bytes();
  }
  size_t weight_bytes() const override { return w13_.bytes + w2_.bytes + s13_.bytes + s2_.bytes + bias_bytes(); }

  // Tactics: the blockwise-scaled GEMMs' swap-AB (decode) or 128x128 (prefill) CUTLASS kernels, or
  // our own TMA kernel (128 token rows x 128 or 256 weight rows a K step), with the
  // activation-quantize kernel after FC1 or (split_tma_act) the activation and the quantization of a
  // in FC1's epilogue; split_tma_act_large_fc2 runs split_tma_act's FC1 and the CUTLASS 128x128
  // kernel's FC2 (faster than ours where N holds an odd number of 128-row blocks, e.g. gpt-oss-120b's
  // FC2 at T = 8192 on the H100; elsewhere ours has won since session 58); split_tma_small runs both GEMMs on the TMA kernel with one
  // consumer warpgroup (64 token rows x 128 weight rows, two CTAs per SM of 4 stages: for experts of few rows);
  // split_tma_small_act is split_tma_small with split_tma_act's FC1 epilogue.
  std::vector<std::string> tactic_names() const override {
    return {kSwapAB, kLargeTile, kTma, kTmaAct, kTmaActLargeFc2, kTmaSmall, kTmaSmallAct};
  }
  std::string tactic_for(int64_t T) const override {
    const char* t = chosen_tactic(T);
    // Without the activation epilogue (I not a multiple of 64) the _act tactics run their plain forms.
    if (t == kTmaAct && !fused_act(T)) return kTma;
    if (t == kTmaSmallAct && !fused_act(T)) return kTmaSmall;
    return t;
  }

 protected:
  static constexpr const char* kSwapAB = "split_swap_ab";
  static constexpr const char* kLargeTile = "split_large_tile";
  static constexpr const char* kTma = "split_tma";
  static constexpr const char* kTmaAct = "split_tma_act";
  static constexpr const char* kTmaActLargeFc2 = "split_tma_act_large_fc2";
  static constexpr const char* kTmaSmall = "split_tma_small";
  static constexpr const char* kTmaSmallAct = "split_tma_small_act";

  // The requested tactic when it is one of ours, else the heuristic: swap-AB for at most 64 rows an
  // expert on average (choose_fp8_tactic), else split_tma_act. The heuristic serves GPUs and shapes
  // without table entries; CUTLASS's 128x128 tile (choose_fp8_tactic's large-T answer) lost every
  // T = 2048..8192 bucket of session 58's H100 tune and 15 of 16 of the H200's T = 128..1024
  // buckets to split_tma_act (docs/TUNING.md).
  const char* chosen_tactic(int64_t T) const {
    const std::string& r = requested_tactic(T);
    for (const char* t : {kSwapAB, kLargeTile, kTma, kTmaAct, kTmaActLargeFc2, kTmaSmall, kTmaSmallAct})
      if (r == t) return t;
    return sm90::choose_fp8_tactic(T * K_, int(EL_)) == sm90::Fp8GemmTactic::kSwapAB ? kSwapAB : kTmaAct;
  }
  sm90::Fp8GemmTactic gemm_tactic(int64_t T) const {
    const char* t = chosen_tactic(T);
    if (t == kSwapAB) return sm90::Fp8GemmTactic::kSwapAB;
    if (t == kLargeTile) return sm90::Fp8GemmTactic::kLargeTile;
    if (t == kTmaSmall || t == kTmaSmallAct) return sm90::Fp8GemmTactic::kTmaSmall;
    return sm90::Fp8GemmTactic::kTma;  // kTma, kTmaAct, kTmaActLargeFc2
  }
  // FC2's kernel: FC1's, but the CUTLASS 128x128 kernel for split_tma_act_large_fc2.
  sm90::Fp8GemmTactic fc2_gemm_tactic(int64_t T) const {
    return chosen_tactic(T) == kTmaActLargeFc2 ? sm90::Fp8GemmTactic::kLargeTile : gemm_tactic(T);
  }

  // split_tma_act(_large_fc2), split_tma_small_act: FC1 with the activation and the quantization of
  // a in its epilogue (no h in memory), when I is a multiple of 64
  // (GroupedGemmFp8Blockwise::fused_act_supported; otherwise FC1 runs as split_tma's /
  // split_tma_small's). The output is bit for bit that of the tactic without the epilogue.
  bool fused_act(int64_t T) const {
    const char* t = chosen_tactic(T);
    return (t == kTmaAct || t == kTmaActLargeFc2 || t == kTmaSmallAct) &&
           sm90::GroupedGemmFp8Blockwise::fused_act_supported(I_);
  }

  void upload_weights(const MoeWeights& w) override {
    upload_tensor(w.w13, w13_, "w13");
    upload_tensor(w.w2, w2_, "w2");
    // Scales: canonical [E, NB, KB] -> [E, KB, NB] (MN-major), through the host (small). NB and KB
    // count a partial last block (validate_weights checked the canonical shapes against them).
    relayout_scales(w.w13_scale, blocks128(N13_), blocks128(H_), s13_, "w13_scale");
    relayout_scales(w.w2_scale, blocks128(H_), blocks128(I_), s2_, "w2_scale");
  }

  void relayout_scales(const TensorView& t, int64_t NB, int64_t KB, DeviceBuffer& dst,
                       const char* name) {
    const std::vector<float> canon = to_host_f32(t, name);
    std::vector<float> mn(canon.size());
    sm90::make_weight_scales_mn_major(canon.data(), EL_, NB, KB, mn.data());
    upload_bytes(mn.data(), mn.size() * sizeof(float), dst, name);
  }

  void run_stages(const ForwardArgs& args, const ForwardContext& f) override {
    const int64_t T = f.T, rows_bound = f.rows_bound;
    const cudaStream_t stream = f.stream;
    const routing::RoutePlanDevice& plan = sw_.plan;
    float* y = static_cast<float*>(sw_.y);
    const bool pdl = pdl_knob_ && f.created_stream;
    routing::PlanExtras ex;
    ex.pdl_first = pdl;
    routing::build_route_plan_gpu(args.topk_ids, f.dims, plan, ex, stream);
    sm90::launch_permute_quant_fp8(args.x.data, f.ldx, T, K_, H_, plan.route_to_row, plan.row_expert, plan.offsets,
                                   sw_.x_perm, sw_.x_scales, stream, pdl);
    const sm90::Fp8GemmTactic tactic = gemm_tactic(T);
    if (fused_act(T)) {
      const sm90::ActEpilogueArgs epi{act_.activation, act_.limit, act_.alpha, b13()};
      fc1_->run_act(sw_.x_perm, sw_.x_scales, w13_.ptr, s13_.as<const float>(), epi, I_, sw_.a, sw_.a_scales,
                    plan.offsets, rows_bound, stream, /*narrow=*/tactic == sm90::Fp8GemmTactic::kTmaSmall);
    } else {
      fc1_->run(sw_.x_perm, sw_.x_scales, w13_.ptr, s13_.as<const float>(), sw_.h, N13_, plan.offsets, rows_bound,
                stream, tactic);
      sm90::launch_activation_quant_fp8(sw_.h, b13(), plan.row_expert, plan.offsets, EL_, rows_bound, I_, act_,
                                        sw_.a, sw_.a_scales, stream, pdl);
    }
    const sm90::Fp8GemmTactic tactic2 = fc2_gemm_tactic(T);
    const bool y_bf16 = fc2_bf16_y(tactic2 != sm90::Fp8GemmTactic::kSwapAB);
    if (y_bf16)
      fc2_->run_bf16_out(sw_.a, sw_.a_scales, w2_.ptr, s2_.as<const float>(), y, H_, plan.offsets, rows_bound, stream,
                         tactic2);
    else
      fc2_->run(sw_.a, sw_.a_scales, w2_.ptr, s2_.as<const float>(), y, H_, plan.offsets, rows_bound, stream, tactic2);
    combine_or_route_rows(args, f, y, y_bf16, pdl);
  }

  DeviceBuffer w13_, w2_, s13_, s2_;
  bool pdl_knob_;  // MEGAMOE_SPLIT_FP8_PDL (header)
  std::unique_ptr<sm90::GroupedGemmFp8Blockwise> fc1_, fc2_;
};

}  // namespace megamoe::sm90_backend
