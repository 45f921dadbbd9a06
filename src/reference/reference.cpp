// The CPU reference MoE (docs/DESIGN.md section 1): the oracle every backend is tested against.
//
// Work is organised one expert at a time: routes are grouped by expert (in (token, k)
// order), a batch of experts is dequantized into per-slot float buffers through the
// WeightProvider, and the routes of those experts are computed in fixed chunks on all
// threads. Every route's y row is a function of its quantized input row and its expert's
// weights only (same code path, fixed summation order), and the combine is a fixed-order
// FP32 sum per token, so the output is bitwise identical for any thread count, any
// batching, and for the EP simulation versus one rank.
#include "reference/reference.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "ep/placement.h"
#include "formats/codecs.h"
#include "formats/quantize.h"
#include "megamoe/errors.h"

namespace megamoe::reference {
namespace {

using formats::bf16_bits_to_float;
using formats::float_to_bf16_bits;

// Expert weight buffers held at once are capped by this many bytes (beyond one expert),
// so full-size presets (a mixtral expert is 0.7 GB in float) stay within host memory.
constexpr int64_t kSlotBudgetBytes = int64_t(6) << 30;
// Routes computed together by one task (their FC1/FC2 share each weight row's load).
constexpr int64_t kChunkRoutes = 16;
// Tokens per task in the per-token stages (activation quantization, combine).
constexpr int64_t kTokenChunk = 16;

int resolve_threads(int n) {
  if (n > 0) return n;
  const unsigned hc = std::thread::hardware_concurrency();
  return hc ? int(hc) : 1;
}

// Runs fn(task, worker) for every task in [0, n) on up to `threads` workers, tasks handed
// out dynamically. Results must not depend on the worker (they never do here). The first
// exception thrown by a task is rethrown after every worker has stopped.
template <class F>
void parallel_for(int64_t n, int threads, F&& fn) {
  if (n <= 0) return;
  const int workers = int(std::min<int64_t>(std::max(threads, 1), n));
  if (workers == 1) {
    for (int64_t i = 0; i < n; ++i) fn(i, 0);
    return;
  }
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;
  std::mutex error_mutex;
  auto body = [&](int worker) {
    try {
      while (!failed.load(std::memory_order_relaxed)) {
        const int64_t i = next.fetch_add(1, std::memory_order_relaxed);
        if (i >= n) return;
        fn(i, worker);
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(size_t(workers - 1));
  for (int w = 1; w < workers; ++w) {
    try {
      pool.emplace_back(body, w);
    } catch (...) {
      break;  // fewer threads than asked: the running workers take every task
    }
  }
  body(0);
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

// ---- dot products ---------------------------------------------------------------------
// Eight lanes: lane l sums the products of the elements i = l (mod 8) in increasing i; the
// tail is zero-padded; the lanes are reduced in a fixed tree. A dot's value depends only on
// its two operands, never on the rows computed beside it. The lanes are held as two 4-wide
// vectors (lo = lanes 0..3, hi = 4..7) so the accumulators stay in SSE registers.
typedef float V4 __attribute__((vector_size(16)));

inline V4 load4(const float* p) {
  V4 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline V4 load4_tail(const float* p, int64_t rem) {  // elements [0, rem) of 4, rest 0
  float t[4] = {0, 0, 0, 0};
  for (int64_t l = 0; l < rem && l < 4; ++l) t[l] = p[l];
  return load4(t);
}
inline float reduce8(V4 lo, V4 hi) {
  return ((lo[0] + hi[0]) + (lo[1] + hi[1])) + ((lo[2] + hi[2]) + (lo[3] + hi[3]));
}

// out[j] = w . x[j] for j < 4 over n elements.
void dot4(const float* w, const float* const x[4], int64_t n, float out[4]) {
  V4 l0 = {}, h0 = {}, l1 = {}, h1 = {}, l2 = {}, h2 = {}, l3 = {}, h3 = {};
  const float *x0 = x[0], *x1 = x[1], *x2 = x[2], *x3 = x[3];
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const V4 wl = load4(w + i), wh = load4(w + i + 4);
    l0 += wl * load4(x0 + i);
    h0 += wh * load4(x0 + i + 4);
    l1 += wl * load4(x1 + i);
    h1 += wh * load4(x1 + i + 4);
    l2 += wl * load4(x2 + i);
    h2 += wh * load4(x2 + i + 4);
    l3 += wl * load4(x3 + i);
    h3 += wh * load4(x3 + i + 4);
  }
  if (i < n) {
    const int64_t rem = n - i, rem_hi = rem > 4 ? rem - 4 : 0;
    const V4 wl = load4_tail(w + i, rem), wh = load4_tail(w + i + 4, rem_hi);
    l0 += wl * load4_tail(x0 + i, rem);
    h0 += wh * load4_tail(x0 + i + 4, rem_hi);
    l1 += wl * load4_tail(x1 + i, rem);
    h1 += wh * load4_tail(x1 + i + 4, rem_hi);
    l2 += wl * load4_tail(x2 + i, rem);
    h2 += wh * load4_tail(x2 + i + 4, rem_hi);
    l3 += wl * load4_tail(x3 + i, rem);
    h3 += wh * load4_tail(x3 + i + 4, rem_hi);
  }
  out[0] = reduce8(l0, h0);
  out[1] = reduce8(l1, h1);
  out[2] = reduce8(l2, h2);
  out[3] = reduce8(l3, h3);
}

// ---- activations ----------------------------------------------------------------------
// NaN propagates through every clamp (std::min/std::clamp return the NaN operand here).
inline float silu(float g) { return g / (1.0f + std::exp(-g)); }

inline float gated_act(Activation act, float g, float u, float limit, float alpha) {
  switch (act) {
    case Activation::kSwiGLU:
      g = std::min(g, limit);
      u = std::clamp(u, -limit, limit);
      return silu(g) * u;
    case Activation::kSwiGLUOAI:
      g = std::min(g, limit);
      u = std::clamp(u, -limit, limit);
      return (g / (1.0f + std::exp(-alpha * g))) * (u + 1.0f);
    case Activation::kGeGLU: {
      const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
      const float inner = k0 * (g + 0.044715f * g * g * g);
      return 0.5f * g * (1.0f + std::tanh(inner)) * u;
    }
    case Activation::kReLU2:
      break;
  }
  return 0.0f;
}

inline float relu2(float h) {
  const float r = std::max(h, 0.0f);  // NaN stays NaN
  return r * r;
}

// ---- tensor access -------------------------------------------------------------------
std::string shape_of(const TensorView& t) { return t.shape_str(); }

int64_t read_id(const TensorView& ids, int64_t t, int64_t k) {
  const int64_t off = t * ids.strides[0] + k * ids.strides[1];
  return ids.dtype == DType::kI32 ? int64_t(ids.ptr<const int32_t>()[off]) : ids.ptr<const int64_t>()[off];
}
float read_weight(const TensorView& w, int64_t t, int64_t k) {
  return w.ptr<const float>()[t * w.strides[0] + k * w.strides[1]];
}

void check_2d(const TensorView& t, const std::string& name, std::initializer_list<DType> dtypes,
              const std::string& dtype_names, int64_t rows, int64_t cols, const std::string& shape_names) {
  if (t.device.type != DeviceType::kCPU)
    throw_invalid(name, "host (CPU) memory for the CPU reference", device_name(t.device));
  bool ok = false;
  for (DType d : dtypes) ok = ok || t.dtype == d;
  if (!ok) throw_invalid_dtype(name, "dtype " + dtype_names, dtype_name(t.dtype));
  if (t.ndim != 2 || t.shape[0] != rows || t.shape[1] != cols)
    throw_invalid(name, "shape " + shape_names, shape_of(t));
  if (rows > 0 && cols > 0 && t.data == nullptr) throw_invalid(name, "a non-null data pointer", "nullptr");
}

// Checks one rank's forward arguments; returns T.
int64_t check_forward_args(const MoeConfig& c, const std::string& prefix, const TensorView& x,
                           const TensorView& ids, const TensorView& tw, const TensorView& out) {
  const int64_t H = c.hidden_size, K = c.top_k;
  if (x.ndim != 2) throw_invalid(prefix + "x", "a 2-d tensor [T, " + std::to_string(H) + "]", shape_of(x));
  const int64_t T = x.shape[0];
  auto dims = [](int64_t a, int64_t b) {
    std::string s("[");
    s += std::to_string(a);
    s += ", ";
    s += std::to_string(b);
    s += "]";
    return s;
  };
  const std::string TH = dims(T, H), TK = dims(T, K);
  check_2d(x, prefix + "x", {DType::kBF16}, "bf16", T, H, TH);
  check_2d(ids, prefix + "topk_ids", {DType::kI32, DType::kI64}, "int32 or int64", T, K, TK);
  check_2d(tw, prefix + "topk_weights", {DType::kF32}, "float32", T, K, TK);
  check_2d(out, prefix + "out", {DType::kBF16}, "bf16", T, H, TH);
  return T;
}

void check_ids(const std::string& name, const TensorView& ids, int64_t T, int64_t K, int64_t E) {
  for (int64_t t = 0; t < T; ++t)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t id = read_id(ids, t, k);
      if (id != -1 && (id < 0 || id >= E))
        throw_invalid(name, "-1 (no route) or an expert id in [0, " + std::to_string(E) + ")",
                      std::to_string(id) + " at [" + std::to_string(t) + ", " + std::to_string(k) + "]");
    }
}

// Reads a bf16 row (element stride `stride`) into floats.
void read_bf16_row(const TensorView& x, int64_t t, int64_t n, float* dst) {
  const uint16_t* p = x.ptr<const uint16_t>() + t * x.strides[0];
  const int64_t s = x.strides[1];
  for (int64_t i = 0; i < n; ++i) dst[i] = bf16_bits_to_float(p[i * s]);
}

// ---- the expert engine ---------------------------------------------------------------
struct RouteJob {
  const float* xq;  // [H] quantized-dequantized input row
  uint16_t* y;      // [H] bf16 output row
};
struct ExpertJobs {
  int64_t local_expert = 0;
  std::vector<RouteJob> routes;
};

struct Scratch {
  std::vector<float> h, a;
};

void check_loaded(const MoeConfig& c, int64_t le, const ExpertWeightsF32& w) {
  const int64_t H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows();
  auto bad = [&](const char* what, size_t got, int64_t want) {
    throw Error("megamoe: reference weight provider: local expert " + std::to_string(le) + ": " + what +
                " has " + std::to_string(got) + " values, expected " + std::to_string(want));
  };
  if (int64_t(w.w13.size()) != N13 * H) bad("w13", w.w13.size(), N13 * H);
  if (int64_t(w.w2.size()) != H * I) bad("w2", w.w2.size(), H * I);
  if (!w.b13.empty() && int64_t(w.b13.size()) != N13) bad("b13", w.b13.size(), N13);
  if (!w.b2.empty() && int64_t(w.b2.size()) != H) bad("b2", w.b2.size(), H);
}

// Computes routes [begin, end) of one expert: y = bf16(alpha2*(aq . W2^T) + b2) with
// aq = roundtrip(bf16(act(alpha13*(xq . W13^T) + b13))).
void compute_chunk(const MoeConfig& c, const WeightProvider& wp, const ExpertWeightsF32& w,
                   const RouteJob* routes, int64_t m, Scratch& s) {
  const int64_t H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows();
  const bool gated = c.activation != Activation::kReLU2;
  const float limit = c.effective_limit();
  const float alpha_act = c.swiglu_alpha;
  s.h.resize(size_t(m * N13));
  s.a.resize(size_t(m * I));
  float d[4];
  const float* rows[4];

  // FC1
  const bool b13 = !w.b13.empty();
  for (int64_t n = 0; n < N13; ++n) {
    const float* wrow = w.w13.data() + n * H;
    const float bias = b13 ? w.b13[size_t(n)] : 0.0f;
    for (int64_t g = 0; g < m; g += 4) {
      for (int q = 0; q < 4; ++q) rows[q] = routes[std::min(g + q, m - 1)].xq;
      dot4(wrow, rows, H, d);
      for (int64_t q = 0; q < 4 && g + q < m; ++q) s.h[size_t((g + q) * N13 + n)] = w.alpha13 * d[q] + bias;
    }
  }
  // activation (bf16), then the recipe's FC2-input quantization
  for (int64_t j = 0; j < m; ++j) {
    const float* h = s.h.data() + j * N13;
    float* a = s.a.data() + j * I;
    if (gated) {
      for (int64_t i = 0; i < I; ++i)
        a[i] = formats::round_to_bf16(gated_act(c.activation, h[i], h[I + i], limit, alpha_act));
    } else {
      for (int64_t i = 0; i < I; ++i) a[i] = formats::round_to_bf16(relu2(h[i]));
    }
    activation_roundtrip(c.recipe, a, I, wp.fc2_input_global_scale(), a);
  }
  // FC2
  const bool b2 = !w.b2.empty();
  for (int64_t n = 0; n < H; ++n) {
    const float* wrow = w.w2.data() + n * I;
    const float bias = b2 ? w.b2[size_t(n)] : 0.0f;
    for (int64_t g = 0; g < m; g += 4) {
      for (int q = 0; q < 4; ++q) rows[q] = s.a.data() + std::min(g + q, m - 1) * I;
      dot4(wrow, rows, I, d);
      for (int64_t q = 0; q < 4 && g + q < m; ++q) routes[g + q].y[n] = float_to_bf16_bits(w.alpha2 * d[q] + bias);
    }
  }
}

void run_experts(const MoeConfig& c, const WeightProvider& wp, const std::vector<ExpertJobs>& experts,
                 int threads) {
  if (experts.empty()) return;
  const int64_t H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows();
  const int64_t expert_bytes = int64_t(sizeof(float)) * (N13 * H + H * I + N13 + H);
  int64_t slots = std::max<int64_t>(1, kSlotBudgetBytes / std::max<int64_t>(expert_bytes, 1));
  slots = std::min<int64_t>({slots, int64_t(threads), int64_t(experts.size())});
  std::vector<ExpertWeightsF32> buf(static_cast<size_t>(slots));
  std::vector<Scratch> scratch(static_cast<size_t>(threads));
  std::vector<std::pair<int64_t, int64_t>> tasks;  // (slot, first route)
  for (size_t b0 = 0; b0 < experts.size(); b0 += size_t(slots)) {
    const int64_t nb = std::min<int64_t>(slots, int64_t(experts.size() - b0));
    parallel_for(nb, threads, [&](int64_t i, int) {
      const int64_t le = experts[b0 + size_t(i)].local_expert;
      wp.load(le, &buf[size_t(i)]);
      check_loaded(c, le, buf[size_t(i)]);
    });
    tasks.clear();
    for (int64_t i = 0; i < nb; ++i) {
      const int64_t n = int64_t(experts[b0 + size_t(i)].routes.size());
      for (int64_t r = 0; r < n; r += kChunkRoutes) tasks.emplace_back(i, r);
    }
    parallel_for(int64_t(tasks.size()), threads, [&](int64_t ti, int worker) {
      const auto [slot, first] = tasks[size_t(ti)];
      const auto& routes = experts[b0 + size_t(slot)].routes;
      const int64_t m = std::min<int64_t>(kChunkRoutes, int64_t(routes.size()) - first);
      compute_chunk(c, wp, buf[size_t(slot)], routes.data() + first, m, scratch[size_t(worker)]);
    });
  }
}

// out[t] = bf16(sum over k of w[t,k] * y[t,k]) in k order, for routes whose id is valid
// and has take[id] != 0 (take has E entries); y holds bf16 rows at (t*K + k)*H.
void combine(const MoeConfig& c, int64_t T, const TensorView& ids, const TensorView& tw,
             const std::vector<uint16_t>& y, const std::vector<uint8_t>& take, const TensorView& out,
             int threads) {
  const int64_t H = c.hidden_size, K = c.top_k, E = int64_t(take.size());
  const int64_t tasks = (T + kTokenChunk - 1) / kTokenChunk;
  std::vector<std::vector<float>> acc(static_cast<size_t>(std::max(threads, 1)));
  parallel_for(tasks, threads, [&](int64_t task, int worker) {
    std::vector<float>& a = acc[size_t(worker)];
    a.resize(size_t(H));
    const int64_t t_end = std::min(T, (task + 1) * kTokenChunk);
    for (int64_t t = task * kTokenChunk; t < t_end; ++t) {
      std::fill(a.begin(), a.end(), 0.0f);
      for (int64_t k = 0; k < K; ++k) {
        const int64_t id = read_id(ids, t, k);
        if (id < 0 || id >= E || !take[size_t(id)]) continue;
        const float wk = read_weight(tw, t, k);
        const uint16_t* yr = y.data() + (t * K + k) * H;
        for (int64_t h = 0; h < H; ++h) a[size_t(h)] += wk * bf16_bits_to_float(yr[h]);
      }
      uint16_t* o = out.ptr<uint16_t>() + t * out.strides[0];
      const int64_t os = out.strides[1];
      for (int64_t h = 0; h < H; ++h) o[h * os] = float_to_bf16_bits(a[size_t(h)]);
    }
  });
}

// xq rows [n, H] from bf16 rows: the recipe's FC1-input round trip.
void quantize_inputs(const MoeConfig& c, const WeightProvider& wp, int64_t n,
                     const std::function<void(int64_t, float*)>& read_row,
                     const std::vector<uint8_t>* needed, std::vector<float>* xq, int threads) {
  const int64_t H = c.hidden_size;
  xq->assign(size_t(n * H), 0.0f);
  const float g = wp.fc1_input_global_scale();
  const int64_t tasks = (n + kTokenChunk - 1) / kTokenChunk;
  parallel_for(tasks, threads, [&](int64_t task, int) {
    const int64_t end = std::min(n, (task + 1) * kTokenChunk);
    for (int64_t r = task * kTokenChunk; r < end; ++r) {
      if (needed && !(*needed)[size_t(r)]) continue;
      float* row = xq->data() + r * H;
      read_row(r, row);
      activation_roundtrip(c.recipe, row, H, g, row);
    }
  });
}

}  // namespace

// ---- public API ----------------------------------------------------------------------

void activation_roundtrip(Recipe recipe, const float* src, int64_t n, float nvfp4_global_scale,
                          float* dst) {
  if (n <= 0) return;
  thread_local std::vector<uint8_t> codes, scales8;
  thread_local std::vector<float> scales32, tmp;
  switch (recipe) {
    case Recipe::kBF16:
    case Recipe::kW4A16MXFP4:
    case Recipe::kW4A16NVFP4:
      if (dst != src) std::memcpy(dst, src, size_t(n) * sizeof(float));
      return;
    case Recipe::kFP8Block: {
      codes.resize(size_t(n));
      scales32.resize(size_t((n + formats::kFp8BlockSize - 1) / formats::kFp8BlockSize));
      formats::quantize_fp8_act_1x128(src, 1, n, n, codes.data(), scales32.data());
      formats::dequantize_fp8_act_1x128(codes.data(), scales32.data(), 1, n, dst);
      return;
    }
    case Recipe::kMXFP8:
    case Recipe::kW4A8MXFP4: {
      if (n % formats::kMxBlockSize != 0)
        throw_invalid("activation row length", "a multiple of 32 for MX activations", std::to_string(n));
      codes.resize(size_t(n));
      scales8.resize(size_t(n / formats::kMxBlockSize));
      formats::quantize_mx(src, 1, n, n, formats::MxElem::kE4M3, codes.data(), scales8.data());
      formats::dequantize_mx(codes.data(), scales8.data(), 1, n, formats::MxElem::kE4M3, dst);
      return;
    }
    case Recipe::kNVFP4: {
      if (n % formats::kNvfp4BlockSize != 0)
        throw_invalid("activation row length", "a multiple of 16 for nvfp4 activations", std::to_string(n));
      codes.resize(size_t(n / 2));
      scales8.resize(size_t(n / formats::kNvfp4BlockSize));
      formats::quantize_nvfp4(src, 1, n, n, nvfp4_global_scale, codes.data(), scales8.data());
      formats::dequantize_nvfp4(codes.data(), scales8.data(), nvfp4_global_scale, 1, n, dst);
      return;
    }
  }
  throw_invalid("recipe", "a known recipe", std::to_string(int(recipe)));
}

void moe_forward(const MoeConfig& config, const WeightProvider& weights, const TensorView& x,
                 const TensorView& topk_ids, const TensorView& topk_weights, const TensorView& out,
                 int num_threads) {
  const MoeConfig& c = config;
  validate_config(c);
  const int64_t T = check_forward_args(c, "", x, topk_ids, topk_weights, out);
  const int64_t K = c.top_k, H = c.hidden_size, E = c.num_experts;
  check_ids("topk_ids", topk_ids, T, K, E);
  if (T == 0) return;
  const int threads = resolve_threads(num_threads);
  const int64_t E_local = c.local_experts();

  // This rank's local slot of every global expert (-1: not held here), from the placement.
  std::vector<int64_t> slot_of(static_cast<size_t>(E), -1);
  for (int64_t le = 0; le < E_local; ++le) slot_of[size_t(c.global_expert(le))] = le;
  std::vector<uint8_t> held(static_cast<size_t>(E), 0);
  for (int64_t e = 0; e < E; ++e) held[size_t(e)] = slot_of[size_t(e)] >= 0;

  // Route grouping: per local expert, its routes in (token, k) order.
  std::vector<std::vector<int64_t>> per_expert(static_cast<size_t>(E_local));
  std::vector<uint8_t> needed(size_t(T), 0);
  for (int64_t t = 0; t < T; ++t)
    for (int64_t k = 0; k < K; ++k) {
      const int64_t id = read_id(topk_ids, t, k);
      if (id < 0) continue;  // -1: no route
      const int64_t le = slot_of[size_t(id)];
      if (le < 0) continue;  // an expert this rank does not hold
      per_expert[size_t(le)].push_back(t * K + k);
      needed[size_t(t)] = 1;
    }

  std::vector<float> xq;
  quantize_inputs(c, weights, T, [&](int64_t t, float* row) { read_bf16_row(x, t, H, row); }, &needed, &xq,
                  threads);

  std::vector<uint16_t> y(size_t(T * K * H), 0);
  std::vector<ExpertJobs> jobs;
  for (int64_t le = 0; le < E_local; ++le) {
    const auto& routes = per_expert[size_t(le)];
    if (routes.empty()) continue;
    ExpertJobs ej;
    ej.local_expert = le;
    ej.routes.reserve(routes.size());
    for (int64_t r : routes) ej.routes.push_back({xq.data() + (r / K) * H, y.data() + r * H});
    jobs.push_back(std::move(ej));
  }
  run_experts(c, weights, jobs, threads);
  combine(c, T, topk_ids, topk_weights, y, held, out, threads);
}

void moe_forward_ep_simulated(const MoeConfig& config, const std::vector<EpRankIO>& ranks,
                              int num_threads, EpSimulationStats* stats) {
  const MoeConfig& c = config;
  validate_config(c);
  const int64_t R = c.ep_size, K = c.top_k, H = c.hidden_size, E = c.num_experts;
  if (int64_t(ranks.size()) != R)
    throw_invalid("ranks", std::to_string(R) + " entries (config.ep_size)", std::to_string(ranks.size()));
  const ep::PlacementTables pt = ep::make_placement_tables(c);
  const int threads = resolve_threads(num_threads);

  // Validate every rank before any work.
  std::vector<int64_t> T(static_cast<size_t>(R));
  for (int64_t r = 0; r < R; ++r) {
    const std::string p = "ranks[" + std::to_string(r) + "].";
    if (!ranks[size_t(r)].weights) throw_invalid(p + "weights", "a weight provider", "nullptr");
    const EpRankIO& io = ranks[size_t(r)];
    T[size_t(r)] = check_forward_args(c, p, io.x, io.topk_ids, io.topk_weights, io.out);
    check_ids(p + "topk_ids", io.topk_ids, T[size_t(r)], K, E);
  }
  EpSimulationStats st;
  st.unrouted_by_rank.assign(size_t(R), 0);
  st.routes.assign(size_t(R * R), 0);
  st.rows.assign(size_t(R * R), 0);

  // Dispatch, in (source rank, token, k) order: every valid route goes to the rank
  // ep::ep_route_target picks (source-local replica, else replica (t + s) mod n); a token's x
  // row travels once to each rank that receives any of its routes. Routes to an expert with
  // no holder go nowhere (counted).
  struct Row {
    int64_t src, t;  // the source rank and its token
  };
  struct Recv {
    int64_t row, route, slot;  // row in the destination's receive buffer; route = t*K + k at the source
  };
  std::vector<std::vector<Row>> rows(static_cast<size_t>(R));
  std::vector<std::vector<Recv>> recv(static_cast<size_t>(R));
  std::vector<int64_t> row_of_dest(static_cast<size_t>(R));  // this token's row on each rank, or -1
  for (int64_t s = 0; s < R; ++s) {
    const EpRankIO& io = ranks[size_t(s)];
    for (int64_t t = 0; t < T[size_t(s)]; ++t) {
      std::fill(row_of_dest.begin(), row_of_dest.end(), -1);
      for (int64_t k = 0; k < K; ++k) {
        const int64_t id = read_id(io.topk_ids, t, k);
        if (id < 0) continue;
        int32_t d = -1, slot = -1;
        if (!ep::ep_route_target(pt.replica_begin.data(), pt.replica_rank.data(), pt.replica_slot.data(),
                                 int32_t(id), int32_t(s), t, &d, &slot)) {
          ++st.unrouted_by_rank[size_t(s)];
          continue;
        }
        int64_t& row = row_of_dest[size_t(d)];
        if (row < 0) {
          row = int64_t(rows[size_t(d)].size());
          rows[size_t(d)].push_back({s, t});
          ++st.rows[size_t(s * R + d)];
        }
        recv[size_t(d)].push_back({row, t * K + k, slot});
        ++st.routes[size_t(s * R + d)];
      }
    }
  }
  for (int64_t s = 0; s < R; ++s) st.unrouted += st.unrouted_by_rank[size_t(s)];

  std::vector<std::vector<uint16_t>> y_src(static_cast<size_t>(R));
  for (int64_t s = 0; s < R; ++s) y_src[size_t(s)].assign(size_t(T[size_t(s)] * K * H), 0);

  for (int64_t d = 0; d < R; ++d) {
    const auto& rw = rows[size_t(d)];
    const auto& rv = recv[size_t(d)];
    const int64_t nrows = int64_t(rw.size()), n = int64_t(rv.size());
    if (n == 0) continue;  // a rank with no work still "takes part"; nothing to compute
    // The dispatch buffer: received bf16 rows, one per (source rank, token).
    std::vector<uint16_t> xbuf(static_cast<size_t>(nrows * H));
    for (int64_t j = 0; j < nrows; ++j) {
      const TensorView& x = ranks[size_t(rw[size_t(j)].src)].x;
      const uint16_t* p = x.ptr<const uint16_t>() + rw[size_t(j)].t * x.strides[0];
      for (int64_t h = 0; h < H; ++h) xbuf[size_t(j * H + h)] = p[h * x.strides[1]];
    }
    MoeConfig cd = c;
    cd.ep_rank = int(d);
    const WeightProvider& wp = *ranks[size_t(d)].weights;
    std::vector<float> xq;
    quantize_inputs(
        cd, wp, nrows,
        [&](int64_t j, float* row) {
          for (int64_t h = 0; h < H; ++h) row[h] = bf16_bits_to_float(xbuf[size_t(j * H + h)]);
        },
        nullptr, &xq, threads);
    std::vector<uint16_t> ybuf(size_t(n * H), 0);  // the return buffer, one row per route
    std::vector<ExpertJobs> jobs(static_cast<size_t>(pt.local_count[size_t(d)]));
    for (size_t le = 0; le < jobs.size(); ++le) jobs[le].local_expert = int64_t(le);
    for (int64_t j = 0; j < n; ++j)
      jobs[size_t(rv[size_t(j)].slot)].routes.push_back({xq.data() + rv[size_t(j)].row * H, ybuf.data() + j * H});
    jobs.erase(std::remove_if(jobs.begin(), jobs.end(), [](const ExpertJobs& e) { return e.routes.empty(); }),
               jobs.end());
    run_experts(cd, wp, jobs, threads);
    // Return: y rows go back to their source rank's (t, k) slot.
    for (int64_t j = 0; j < n; ++j) {
      const Recv& r = rv[size_t(j)];
      const int64_t src = rw[size_t(r.row)].src;
      std::memcpy(y_src[size_t(src)].data() + r.route * H, ybuf.data() + j * H, size_t(H) * sizeof(uint16_t));
    }
  }
  // Combine at each source rank, in k order, over the routes that went somewhere.
  std::vector<uint8_t> held(static_cast<size_t>(E), 0);
  for (int64_t e = 0; e < E; ++e) held[size_t(e)] = pt.replica_begin[size_t(e + 1)] > pt.replica_begin[size_t(e)];
  for (int64_t s = 0; s < R; ++s) {
    const EpRankIO& io = ranks[size_t(s)];
    combine(c, T[size_t(s)], io.topk_ids, io.topk_weights, y_src[size_t(s)], held, io.out, threads);
  }
  if (stats) *stats = std::move(st);
}

float activation_value(Activation act, float g, float u, float limit, float alpha) {
  return act == Activation::kReLU2 ? relu2(g) : gated_act(act, g, u, limit, alpha);
}

}  // namespace megamoe::reference
