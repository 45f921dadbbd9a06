// A CPU emulation of the arithmetic of the sm90_fp8_fp8_bf16_split backend (recipe fp8_block),
// step by step as the kernels do it, next to the CPU reference's own arithmetic, so the distance
// between the GPU output and the oracle can be taken apart (docs/FORMATS.md section 6).
//
// What the GPU pipeline computes, per route (token t, expert e), read from the kernels:
//   permute_quant_fp8.cu   xq, sx = quantize_fp8_act_1x128(bf16 x row)        bit for bit the CPU rule
//   FC1 (grouped_gemm_fp8_blockwise*, CUTLASS KernelPtrArrayTmaWarpSpecializedCooperativeFP8BlockScaledAccum):
//       for each 128-wide K block kb (a partial last block is zero-filled by TMA):
//         t = 0; for each of its 4 k32 chunks: t = wgmma_e4m3(xq chunk, w chunk, t)   (Hopper FP8 MMA)
//         acc = fmaf(t, sx[kb] * sw[n/128][kb], acc)      (fp32; nvcc contracts `accum += temp * scale`)
//       h = acc                                             (fp32 D, stored)
//   activation_fp8.cu      a = bf16(act(h + b13))  (fp32 add, then the same formulas as the reference,
//                          with CUDA's expf/tanhf), then aq, sa = quantize_fp8_act_1x128(a)  bit for bit
//   FC2                    y = the same GEMM on aq, sa and W2
//   combine.cu             out = bf16(sum_k w_k * bf16(y + b2)), __fadd_rn/__fmul_rn in k order
// The CPU reference (src/reference/reference.cpp) computes h = (dequantized xq) . (dequantized W13
// row) as an fp32 dot with 8 partial sums, then the same bias add, activation (std::exp), bf16
// rounding, quantizer, FC2 and combine. So the pipelines differ only in (1) how the two GEMMs
// accumulate and (2) the libm of the activation; everything else is the same operation on the
// same operands.
//
// Hopper's FP8 MMA (wgmma ... .e4m3.e4m3, k = 32) is modelled after MMA-Sim (Xie et al., "MMA-Sim:
// Bit-Accurate Reference Model of Tensor Cores and Matrix Cores", arXiv 2511.10909; github
// microsoft/MMA-Sim, mmasim/simulator/nv.py WGMMASim + functions.py nv_fused_dot_add, which the
// authors validated bit for bit on H100): the 32 exact products and the accumulator C are aligned
// to the largest exponent among them, each is truncated (toward zero) to 13 fraction bits of that
// exponent, the truncated terms are summed exactly, and the sum is normalised and truncated
// (toward zero) to 13 fraction bits ("f32_e8m13"). Switches below replace it by exact block sums.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "common/bf16_metrics.h"
#include "core/synthetic.h"
#include "formats/canonical_weights.h"
#include "formats/codecs.h"
#include "formats/quantize.h"
#include "megamoe/config.h"
#include "reference/reference.h"

namespace megamoe::fp8emu {

constexpr int64_t kBlock = 128;      // fp8_block scale block (1x128 activations, 128x128 weights)
constexpr int64_t kMmaK = 32;        // K of one wgmma e4m3 instruction
constexpr int kMmaFractionBits = 13;  // Hopper FP8 MMA: alignment and result precision (MMA-Sim)

// ---- the Hopper FP8 MMA model --------------------------------------------------------------

// e4m3 code (finite) -> value = m * 2^(e - 3), m a signed integer (|m| <= 15), e the exponent
// MMA-Sim uses for the alignment (the normalised exponent; -6 for subnormals).
struct E4m3Parts {
  int32_t m;
  int e;
};
inline E4m3Parts e4m3_parts(uint8_t c) {
  const int32_t s = (c & 0x80) ? -1 : 1;
  const int ef = (c >> 3) & 0xF, mf = c & 7;
  if (ef == 0) return {s * mf, -6};
  return {s * (8 + mf), ef - 7};
}

// One wgmma e4m3 x e4m3 -> f32 step for one output element: returns sum_i a[i]*b[i] + c over
// n <= 32 products (missing products are zeros) as Hopper computes it (see the top of the file).
inline float wgmma_e4m3_dot_add(const uint8_t* a, const uint8_t* b, int64_t n, float c, int frac_bits) {
  int32_t pm[kMmaK];
  int pe[kMmaK];
  int np = 0;
  int E = std::numeric_limits<int>::min();
  static const std::vector<E4m3Parts> table = [] {
    std::vector<E4m3Parts> v(256);
    for (int i = 0; i < 256; ++i) v[size_t(i)] = e4m3_parts(uint8_t(i));
    return v;
  }();
  for (int64_t i = 0; i < n; ++i) {
    const E4m3Parts x = table[a[i]], y = table[b[i]];
    if (x.m == 0 || y.m == 0) continue;  // a zero product: no term, no exponent
    pm[np] = x.m * y.m;                  // significand product in units of 2^-6
    pe[np] = x.e + y.e;
    E = std::max(E, pe[np]);
    ++np;
  }
  int ec = 0;
  int64_t cm = 0;  // c's 24-bit significand (units 2^-23), signed
  if (c != 0.0f) {
    int ex = 0;
    const double fr = std::frexp(double(c), &ex);  // c = fr * 2^ex, 0.5 <= |fr| < 1
    ec = ex - 1;
    cm = int64_t(std::ldexp(fr, 24));  // exact: c is a float
    E = std::max(E, ec);
  }
  if (np == 0 && cm == 0) return 0.0f;
  // Terms in units of 2^(E - frac_bits), each truncated toward zero.
  auto trunc_shift = [](int64_t v, int sh) -> int64_t {  // trunc(v * 2^sh)
    if (sh >= 0) return v * (int64_t(1) << sh);
    if (sh <= -62) return 0;
    const int64_t mag = (v < 0 ? -v : v) >> (-sh);
    return v < 0 ? -mag : mag;
  };
  int64_t S = 0;
  for (int i = 0; i < np; ++i) S += trunc_shift(pm[i], frac_bits - 6 + pe[i] - E);
  if (cm != 0) S += trunc_shift(cm, frac_bits - 23 + ec - E);
  if (S == 0) return 0.0f;
  // Normalise and truncate to frac_bits fraction bits (RZ).
  int64_t mag = S < 0 ? -S : S;
  int len = 0;
  for (int64_t v = mag; v; v >>= 1) ++len;
  if (len > frac_bits + 1) mag = (mag >> (len - frac_bits - 1)) << (len - frac_bits - 1);
  return float(std::ldexp(double(S < 0 ? -mag : mag), E - frac_bits));
}

// ---- options --------------------------------------------------------------------------------

// How one GEMM accumulates a dot product.
enum class Accum : uint8_t {
  kReference,   // the CPU reference: fp32 dot of the dequantized operands, 8 partial sums
  kExactBlocks, // the GPU's structure (per-128 block sums, promotion with sa*sw) with exact block sums
  kWgmma,       // the GPU's structure with Hopper's FP8 MMA (13 fraction bits, truncation)
};

struct Options {
  Accum fc1 = Accum::kWgmma;
  Accum fc2 = Accum::kWgmma;
  bool fma_promotion = true;  // acc = fmaf(t, sa*sw, acc) (else acc + round(t * (sa*sw)))
  int frac_bits = kMmaFractionBits;
  // A kernel variant (not what CUTLASS's blockwise mainloop does): promote every k32 MMA into the
  // fp32 accumulator (each MMA starts from C = 0) instead of every 4 (one 128-wide K block).
  bool promote_every_mma = false;
  // Activation libm: the GPU's exponentials are not correctly rounded (tanhf: documented max error
  // 2 ulp; the sigmoid's e^-|z| since session 61: ~10 ulp where |z| <= 5, activation_math.cuh); the
  // emulation can move every exp()/tanh() result by a hash-chosen d ulps, |d| <= libm_ulps.
  int libm_ulps = 0;
  uint64_t libm_seed = 0;
  bool geglu_fma = false;  // geglu's g + 0.044715*g^3 as nvcc contracts it: fmaf(0.044715*g*g, g, g)
  // Isolation switches (GPU path): take from the reference path ...
  bool a_from_reference = false;      // ... the whole quantized FC2 input (codes and scales)
  bool a_scale_from_reference = false;  // ... only the 1x128 scales of a (codes re-encoded with them)
};

// What changed between the reference path and the emulated GPU path (summed over routes).
struct Stats {
  int64_t routes = 0;
  double h_err2 = 0, h_ref2 = 0;              // FC1 output h (before b13)
  int64_t a_elems = 0, a_bf16_diff = 0;       // bf16 a
  int64_t a_blocks = 0, a_scale_diff = 0;     // 1x128 blocks of a whose scale differs
  int64_t a_code_diff = 0;                    // e4m3 codes of a that differ
  int64_t a_code_diff_same_scale = 0;         // ... in blocks whose scale is the same
  double aq_err2 = 0, aq_ref2 = 0;            // dequantized a
  double y_err2 = 0, y_ref2 = 0;              // bf16 y rows
  int64_t clamped = 0;                        // elements of a whose g or u the limit clamps (reference path)
  void add(const Stats& o) {
    routes += o.routes;
    clamped += o.clamped;
    h_err2 += o.h_err2, h_ref2 += o.h_ref2;
    a_elems += o.a_elems, a_bf16_diff += o.a_bf16_diff;
    a_blocks += o.a_blocks, a_scale_diff += o.a_scale_diff;
    a_code_diff += o.a_code_diff, a_code_diff_same_scale += o.a_code_diff_same_scale;
    aq_err2 += o.aq_err2, aq_ref2 += o.aq_ref2;
    y_err2 += o.y_err2, y_ref2 += o.y_ref2;
  }
  double h_rel() const { return h_ref2 > 0 ? std::sqrt(h_err2 / h_ref2) : 0; }
  double aq_rel() const { return aq_ref2 > 0 ? std::sqrt(aq_err2 / aq_ref2) : 0; }
  double y_rel() const { return y_ref2 > 0 ? std::sqrt(y_err2 / y_ref2) : 0; }
};

// ---- the pipelines --------------------------------------------------------------------------

// The reference's dot (reference.cpp dot4): lane l (0..7) sums w[i]*x[i] for i = l mod 8 in
// increasing i (plain fp32 multiply and add), then ((l0+l4)+(l1+l5)) + ((l2+l6)+(l3+l7)).
inline float reference_dot(const float* w, const float* x, int64_t n) {
  float lane[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int64_t i = 0; i < n; ++i) {
    const float p = w[i] * x[i];
    lane[i & 7] = lane[i & 7] + p;
  }
  return ((lane[0] + lane[4]) + (lane[1] + lane[5])) + ((lane[2] + lane[6]) + (lane[3] + lane[7]));
}

// The GPU GEMM's value for one output element: codes a [K] with 1x128 scales sa [KB], weight row
// codes w [K] with that row's 128x128 block scales sw [KB].
inline float gpu_dot(const uint8_t* a, const float* sa, const uint8_t* w, const float* sw, int64_t K,
                     const Options& o, Accum mode) {
  float acc = 0.0f;
  for (int64_t k0 = 0, kb = 0; k0 < K; k0 += kBlock, ++kb) {
    const int64_t kn = std::min(kBlock, K - k0);
    float t = 0.0f;
    const float scale = sa[kb] * sw[kb];
    if (mode == Accum::kWgmma && o.promote_every_mma) {  // each k32 MMA from C = 0, promoted at once
      for (int64_t c0 = 0; c0 < kn; c0 += kMmaK) {
        t = wgmma_e4m3_dot_add(a + k0 + c0, w + k0 + c0, std::min(kMmaK, kn - c0), 0.0f, o.frac_bits);
        acc = o.fma_promotion ? std::fmaf(t, scale, acc) : acc + t * scale;
      }
      continue;
    }
    if (mode == Accum::kWgmma) {
      for (int64_t c0 = 0; c0 < kn; c0 += kMmaK)
        t = wgmma_e4m3_dot_add(a + k0 + c0, w + k0 + c0, std::min(kMmaK, kn - c0), t, o.frac_bits);
    } else {
      double s = 0;
      for (int64_t i = 0; i < kn; ++i)
        s += double(formats::e4m3_to_float(a[k0 + i])) * double(formats::e4m3_to_float(w[k0 + i]));
      t = float(s);
    }
    acc = o.fma_promotion ? std::fmaf(t, scale, acc) : acc + t * scale;
  }
  return acc;
}

inline uint64_t mix(uint64_t a, uint64_t b) { return synthetic::mix64(a ^ synthetic::mix64(b)); }

// exp()/tanh() result moved by d ulps, d in [-n, n] from a hash of (seed, key).
inline float libm_perturb(float v, int n, uint64_t seed, uint64_t key) {
  if (n <= 0 || !std::isfinite(v) || v == 0.0f) return v;
  const int d = int(mix(seed, key) % uint64_t(2 * n + 1)) - n;
  for (int i = 0; i < (d < 0 ? -d : d); ++i) v = std::nextafter(v, d < 0 ? -INFINITY : INFINITY);
  return v;
}

// The activation of one element. `gpu` selects the GPU's variant (libm perturbation, contraction).
inline float act_value(const MoeConfig& c, float g, float u, bool gpu, const Options& o, uint64_t key) {
  const float L = c.effective_limit(), alpha = c.swiglu_alpha;
  auto ex = [&](float x) { return gpu ? libm_perturb(std::exp(x), o.libm_ulps, o.libm_seed, key) : std::exp(x); };
  switch (c.activation) {
    case Activation::kSwiGLU:
      g = std::min(g, L);
      u = std::clamp(u, -L, L);
      return (g / (1.0f + ex(-g))) * u;
    case Activation::kSwiGLUOAI:
      g = std::min(g, L);
      u = std::clamp(u, -L, L);
      return (g / (1.0f + ex(-alpha * g))) * (u + 1.0f);
    case Activation::kGeGLU: {
      const float k0 = 0.7978845608028654f;
      const float cube = (gpu && o.geglu_fma) ? std::fmaf(0.044715f * g * g, g, g) : g + 0.044715f * g * g * g;
      const float inner = k0 * cube;
      const float th = gpu ? libm_perturb(std::tanh(inner), o.libm_ulps, o.libm_seed, key) : std::tanh(inner);
      return 0.5f * g * (1.0f + th) * u;
    }
    case Activation::kReLU2: {
      const float r = std::max(g, 0.0f);
      return r * r;
    }
  }
  return 0.0f;
}

// One problem: x [T, H] bf16 bits, ids [T, K] (-1: no route), router weights [T, K].
struct Problem {
  int64_t T = 0;
  std::vector<uint16_t> x;
  std::vector<int64_t> ids;
  std::vector<float> w;
};

struct Result {
  std::vector<uint16_t> out_ref;  // the reference path (equals reference::moe_forward bit for bit)
  std::vector<uint16_t> out_gpu;  // the emulated GPU path
  Stats stats;
};

// Runs both paths. `cw` are the canonical fp8_block weights (codes + scales), `wp` the reference's
// provider over the same weights (copy_canonical_weights), c.recipe == kFP8Block.
inline Result run(const MoeConfig& c, const formats::CanonicalWeights& cw, const reference::WeightProvider& wp,
                  const Problem& p, const Options& o) {
  const int64_t H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows(), K = c.top_k, T = p.T;
  const int64_t HB = (H + kBlock - 1) / kBlock, IB = (I + kBlock - 1) / kBlock, NB13 = (N13 + kBlock - 1) / kBlock;
  const bool gated = c.activation != Activation::kReLU2;
  const int64_t E = c.local_experts();
  Result r;
  r.out_ref.assign(size_t(T * H), 0);
  r.out_gpu.assign(size_t(T * H), 0);
  // Input rows: codes + scales (the GPU's), and their dequantized floats (the reference's).
  std::vector<uint8_t> xq(static_cast<size_t>(T * H));
  std::vector<float> sx(static_cast<size_t>(T * HB)), xf(static_cast<size_t>(T * H)), xd(static_cast<size_t>(T * H));
  for (int64_t i = 0; i < T * H; ++i) xf[size_t(i)] = formats::bf16_bits_to_float(p.x[size_t(i)]);
  if (T > 0) {
    formats::quantize_fp8_act_1x128(xf.data(), T, H, H, xq.data(), sx.data());
    formats::dequantize_fp8_act_1x128(xq.data(), sx.data(), T, H, xd.data());
  }
  std::vector<reference::ExpertWeightsF32> wf(static_cast<size_t>(E));
  std::vector<uint8_t> loaded(static_cast<size_t>(E), 0);
  const uint8_t* w13 = cw.w13.data();
  const uint8_t* w2 = cw.w2.data();
  const float* s13 = reinterpret_cast<const float*>(cw.w13_scale.data());
  const float* s2 = reinterpret_cast<const float*>(cw.w2_scale.data());
  std::vector<float> h_ref(static_cast<size_t>(N13)), h_gpu(static_cast<size_t>(N13)), a_ref(static_cast<size_t>(I)), a_gpu(static_cast<size_t>(I));
  std::vector<float> aq_ref(static_cast<size_t>(I)), aq_gpu(static_cast<size_t>(I)), sa_ref(static_cast<size_t>(IB)), sa_gpu(static_cast<size_t>(IB)), swrow(static_cast<size_t>(HB));
  std::vector<uint8_t> ac_ref(static_cast<size_t>(I)), ac_gpu(static_cast<size_t>(I));
  std::vector<float> y_ref(static_cast<size_t>(K * H)), y_gpu(static_cast<size_t>(K * H)), sw2row(static_cast<size_t>(IB));
  std::vector<uint8_t> valid(static_cast<size_t>(K));
  for (int64_t t = 0; t < T; ++t) {
    for (int64_t k = 0; k < K; ++k) {
      const int64_t e = p.ids[size_t(t * K + k)];
      valid[size_t(k)] = e >= 0 && e < E;
      if (!valid[size_t(k)]) continue;
      if (!loaded[size_t(e)]) {
        wp.load(e, &wf[size_t(e)]);
        loaded[size_t(e)] = 1;
      }
      const reference::ExpertWeightsF32& W = wf[size_t(e)];
      Stats st;
      st.routes = 1;
      // FC1 (+ b13)
      for (int64_t n = 0; n < N13; ++n) {
        const float bias = W.b13.empty() ? 0.0f : W.b13[size_t(n)];
        const float d_ref = reference_dot(W.w13.data() + n * H, xd.data() + t * H, H);
        float d_gpu = d_ref;
        if (o.fc1 != Accum::kReference) {
          for (int64_t kb = 0; kb < HB; ++kb) swrow[size_t(kb)] = s13[(e * NB13 + n / kBlock) * HB + kb];
          d_gpu = gpu_dot(xq.data() + t * H, sx.data() + t * HB, w13 + (e * N13 + n) * H, swrow.data(), H, o, o.fc1);
        }
        st.h_err2 += double(d_gpu - d_ref) * double(d_gpu - d_ref);
        st.h_ref2 += double(d_ref) * double(d_ref);
        h_ref[size_t(n)] = W.alpha13 * d_ref + bias;
        h_gpu[size_t(n)] = d_gpu + bias;
      }
      // activation, bf16
      const float lim = c.effective_limit();
      for (int64_t i = 0; i < I; ++i) {
        const uint64_t key = uint64_t((t * K + k) * I + i);
        if (gated) st.clamped += h_ref[size_t(i)] > lim || std::fabs(h_ref[size_t(I + i)]) > lim;
        a_ref[size_t(i)] = formats::round_to_bf16(
            act_value(c, h_ref[size_t(i)], gated ? h_ref[size_t(I + i)] : 0.0f, false, o, key));
        a_gpu[size_t(i)] = formats::round_to_bf16(
            act_value(c, h_gpu[size_t(i)], gated ? h_gpu[size_t(I + i)] : 0.0f, true, o, key));
      }
      // 1x128 quantization of a
      formats::quantize_fp8_act_1x128(a_ref.data(), 1, I, I, ac_ref.data(), sa_ref.data());
      if (o.a_from_reference) {
        ac_gpu = ac_ref;
        sa_gpu = sa_ref;
      } else {
        formats::quantize_fp8_act_1x128(a_gpu.data(), 1, I, I, ac_gpu.data(), sa_gpu.data());
        if (o.a_scale_from_reference) {  // the GPU's bf16 a, encoded with the reference's scales
          sa_gpu = sa_ref;
          for (int64_t i = 0; i < I; ++i)
            ac_gpu[size_t(i)] = formats::float_to_e4m3(a_gpu[size_t(i)] / sa_gpu[size_t(i / kBlock)], true);
        }
      }
      formats::dequantize_fp8_act_1x128(ac_ref.data(), sa_ref.data(), 1, I, aq_ref.data());
      formats::dequantize_fp8_act_1x128(ac_gpu.data(), sa_gpu.data(), 1, I, aq_gpu.data());
      for (int64_t i = 0; i < I; ++i) {
        ++st.a_elems;
        st.a_bf16_diff += a_ref[size_t(i)] != a_gpu[size_t(i)];
        const bool cd = ac_ref[size_t(i)] != ac_gpu[size_t(i)];
        st.a_code_diff += cd;
        st.a_code_diff_same_scale += cd && sa_ref[size_t(i / kBlock)] == sa_gpu[size_t(i / kBlock)];
        const double d = double(aq_gpu[size_t(i)]) - double(aq_ref[size_t(i)]);
        st.aq_err2 += d * d;
        st.aq_ref2 += double(aq_ref[size_t(i)]) * double(aq_ref[size_t(i)]);
      }
      for (int64_t b = 0; b < IB; ++b) {
        ++st.a_blocks;
        st.a_scale_diff += sa_ref[size_t(b)] != sa_gpu[size_t(b)];
      }
      // FC2 (+ b2), bf16 y
      for (int64_t n = 0; n < H; ++n) {
        const float bias = W.b2.empty() ? 0.0f : W.b2[size_t(n)];
        const float d_ref = reference_dot(W.w2.data() + n * I, aq_ref.data(), I);
        float d_gpu;
        if (o.fc2 == Accum::kReference) {
          d_gpu = reference_dot(W.w2.data() + n * I, aq_gpu.data(), I);
        } else {
          for (int64_t kb = 0; kb < IB; ++kb) sw2row[size_t(kb)] = s2[(e * HB + n / kBlock) * IB + kb];
          d_gpu = gpu_dot(ac_gpu.data(), sa_gpu.data(), w2 + (e * H + n) * I, sw2row.data(), I, o, o.fc2);
        }
        const float yr = formats::round_to_bf16(W.alpha2 * d_ref + bias);
        const float yg = formats::round_to_bf16(d_gpu + bias);
        y_ref[size_t(k * H + n)] = yr;
        y_gpu[size_t(k * H + n)] = yg;
        st.y_err2 += double(yg - yr) * double(yg - yr);
        st.y_ref2 += double(yr) * double(yr);
      }
      r.stats.add(st);
    }
    // combine, k order, fp32 multiply and add (no FMA), one bf16 rounding
    for (int64_t n = 0; n < H; ++n) {
      float acc_r = 0.0f, acc_g = 0.0f;
      for (int64_t k = 0; k < K; ++k) {
        if (!valid[size_t(k)]) continue;
        const float wk = p.w[size_t(t * K + k)];
        const float pr = wk * y_ref[size_t(k * H + n)], pg = wk * y_gpu[size_t(k * H + n)];
        acc_r = acc_r + pr;
        acc_g = acc_g + pg;
      }
      r.out_ref[size_t(t * H + n)] = formats::float_to_bf16_bits(acc_r);
      r.out_gpu[size_t(t * H + n)] = formats::float_to_bf16_bits(acc_g);
    }
  }
  return r;
}

using testutil::rel_l2;

}  // namespace megamoe::fp8emu
