// `megamoe bench` (CUDA builds): latency of the layer over token counts, with the
// roofline measured in the same run. Method (docs/DESIGN.md section 5): weights generated on the
// device, far larger than L2 (and L2 flushed before every replay); forward captured in a
// CUDA graph; warm-up replays, then the median of >= 50 timed replays; floor =
// max(touched weight bytes / measured copy bandwidth, FLOPs / measured bf16 MMA rate).
#if defined(MEGAMOE_WITH_CUDA)
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>

#include "backends/sm90_common/machine_key.h"
#include "cli_common.h"
#include "core/tactics.h"
#include "core/validate.h"
#include "cuda_util.h"
#include "device_weights.h"
#include "ep/ep_backend.h"
#include "ep_launch.h"
#include "kernels/sm90/quantize/quantize_fp8.h"
#include "kernels/sm90/synthetic/synthetic_fill.h"

#include "megamoe_git_commit.h"  // MEGAMOE_GIT_COMMIT, generated at build time (cmake/git_commit.cmake)

namespace megamoe::cli {

namespace {

constexpr auto ck = cuda_check;

// Times `body` (enqueued on `s`) `iters` times after at least `warmup` runs that together take at
// least `warmup_ms` milliseconds of wall time; `before` runs untimed ahead of each (the L2 flush).
// Returns milliseconds per run.
template <class Before, class Body>
std::vector<double> time_runs(cudaStream_t s, int warmup, int iters, Before before, Body body,
                              double warmup_ms = 0.0) {
  cudaEvent_t e0, e1;
  ck(cudaEventCreate(&e0), "event");
  ck(cudaEventCreate(&e1), "event");
  std::vector<double> ms;
  const auto start = std::chrono::steady_clock::now();
  int warm = 0;
  auto warming = [&] {
    const std::chrono::duration<double, std::milli> spent = std::chrono::steady_clock::now() - start;
    return warm < warmup || spent.count() < warmup_ms;
  };
  while (int(ms.size()) < iters) {
    const bool timed = !warming();
    before();
    ck(cudaEventRecord(e0, s), "record");
    body();
    ck(cudaEventRecord(e1, s), "record");
    ck(cudaEventSynchronize(e1), "sync");
    float t = 0;
    cudaEventElapsedTime(&t, e0, e1);
    if (timed)
      ms.push_back(t);
    else
      ++warm;
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return ms;
}

struct Ceilings {
  double copy_gbps;     // device-to-device copy, bytes read + written per second / 1e9
  double bf16_tflops;   // cuBLAS bf16 GEMM 8192^3, fp32 accumulation
  double fp8_tflops;    // cuBLASLt e4m3 GEMM 8192^3 (TN), fp32 accumulation, bf16 out
  // The same GEMMs after about a second of back-to-back runs: under sustained tensor-core load
  // an H200 reaches its 700 W cap and lowers the SM clock (1.98 GHz -> ~1.4-1.6 GHz measured during
  // `megamoe bench` at T = 8192), so a large-T cell runs against this rate, not the burst one.
  double bf16_tflops_sustained;
  double fp8_tflops_sustained;
};

// Burst and sustained rate (TFLOP/s) of a GEMM of `flops` enqueued by `gemm`: the median of 20
// runs after 3 warm-ups, then the median of 50 runs after at least `sustain_ms` of back-to-back
// runs (sustain_ms <= 0: the burst rate twice).
template <class Gemm>
std::pair<double, double> gemm_rates(cudaStream_t s, double flops, Gemm gemm, double sustain_ms) {
  const double burst_ms = median(time_runs(s, 3, 20, [] {}, gemm));
  const double burst = flops / (burst_ms * 1e-3) / 1e12;
  if (sustain_ms <= 0) return {burst, burst};
  const int warm = static_cast<int>(std::min(20000.0, std::ceil(sustain_ms / std::max(burst_ms, 1e-3))));
  const double sustained_ms = median(time_runs(s, warm, 50, [] {}, gemm));
  return {burst, flops / (sustained_ms * 1e-3) / 1e12};
}

// cuBLASLt e4m3 x e4m3 -> bf16 GEMM rates (burst, sustained) on random data (n x n x n, the TN
// layout FP8 needs).
std::pair<double, double> measure_fp8_tflops(cudaStream_t s, int n, double sustain_ms) {
  DeviceBuffer src(size_t(n) * n * 2), a(size_t(n) * n), b(size_t(n) * n), d(size_t(n) * n * 2),
      scale(size_t(n) * (n / 128) * 4), ws(size_t(32) << 20);
  sm90::fill_synthetic_x_bf16(n, n, 303, src.ptr, s);
  sm90::quantize_fp8_act_1x128_gpu(src.ptr, DType::kBF16, n, n, n, static_cast<uint8_t*>(a.ptr),
                                   static_cast<float*>(scale.ptr), false, s);
  sm90::quantize_fp8_act_1x128_gpu(src.ptr, DType::kBF16, n, n, n, static_cast<uint8_t*>(b.ptr),
                                   static_cast<float*>(scale.ptr), false, s);
  cublasLtHandle_t lt;
  if (cublasLtCreate(&lt) != CUBLAS_STATUS_SUCCESS) throw CudaError("cublasLtCreate failed");
  cublasLtMatmulDesc_t desc;
  cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
  const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
  cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
  cublasLtMatrixLayout_t la, lb, ld;
  cublasLtMatrixLayoutCreate(&la, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&lb, CUDA_R_8F_E4M3, n, n, n);
  cublasLtMatrixLayoutCreate(&ld, CUDA_R_16BF, n, n, n);
  cublasLtMatmulPreference_t pref;
  cublasLtMatmulPreferenceCreate(&pref);
  const size_t ws_bytes = size_t(32) << 20;
  cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes, sizeof(ws_bytes));
  cublasLtMatmulHeuristicResult_t heur{};
  int found = 0;
  cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, ld, ld, pref, 1, &heur, &found);
  std::pair<double, double> tflops{0.0, 0.0};
  if (found > 0) {
    const float one = 1.0f, zero = 0.0f;
    tflops = gemm_rates(s, 2.0 * double(n) * n * n, [&] {
      cublasLtMatmul(lt, desc, &one, a.ptr, la, b.ptr, lb, &zero, d.ptr, ld, d.ptr, ld, &heur.algo, ws.ptr, ws_bytes, s);
    }, sustain_ms);
  }
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la);
  cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(ld);
  cublasLtMatmulDescDestroy(desc);
  cublasLtDestroy(lt);
  if (found == 0) throw CudaError("cuBLASLt found no e4m3 GEMM algorithm for the FP8 ceiling");
  return tflops;
}

// sustained: also the sustained GEMM rates (about a second each); without, they equal the burst ones.
Ceilings measure_ceilings(cudaStream_t s, bool sustained = true) {
  const double sustain_ms = sustained ? 1000.0 : 0.0;
  Ceilings c{};
  {
    const size_t bytes = size_t(2) << 30;  // 2 GiB each way: far beyond the 50-60 MB L2
    DeviceBuffer a(bytes), b(bytes);
    ck(cudaMemsetAsync(a.ptr, 1, bytes, s), "memset");
    const auto ms = time_runs(s, 3, 20, [] {}, [&] { cudaMemcpyAsync(b.ptr, a.ptr, bytes, cudaMemcpyDeviceToDevice, s); });
    c.copy_gbps = 2.0 * double(bytes) / (median(ms) * 1e-3) / 1e9;
  }
  {
    const int n = 8192;
    DeviceBuffer a(size_t(n) * n * 2), b(size_t(n) * n * 2), d(size_t(n) * n * 2);
    // Random bf16 operands (zeros run faster than real data).
    sm90::fill_synthetic_x_bf16(n, n, 101, a.ptr, s);
    sm90::fill_synthetic_x_bf16(n, n, 202, b.ptr, s);
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) throw CudaError("cublasCreate failed");
    cublasSetStream(h, s);
    const float one = 1.0f, zero = 0.0f;
    std::tie(c.bf16_tflops, c.bf16_tflops_sustained) = gemm_rates(s, 2.0 * double(n) * n * n, [&] {
      cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, a.ptr, CUDA_R_16BF, n, b.ptr, CUDA_R_16BF, n, &zero,
                   d.ptr, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    }, sustain_ms);
    cublasDestroy(h);
  }
  std::tie(c.fp8_tflops, c.fp8_tflops_sustained) = measure_fp8_tflops(s, 8192, sustain_ms);
  return c;
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) if (!item.empty()) out.push_back(item);
  return out;
}

// The options both bench modes share, read and checked once.
struct BenchSetup {
  std::vector<std::string> presets;
  std::vector<int64_t> tokens;
  int iters = 50;
  uint64_t seed = 1;
  workload::Routing routing = workload::Routing::kUniform;
  Recipe recipe = Recipe::kBF16;
  std::string commit, gpu;
};

// How each replay's L2 flush leaves L2. "memset" (the default, as the peers flush): a memset of
// the flush buffer, so L2 starts full of dirty lines that the layer's misses must write back to
// DRAM inside the timed region (a W4A16 T = 1 cell 8-12% slower on an H100, docs/BENCHMARKS.md
// session 70). "read": a read of it, so L2 starts full of clean lines, as a decode step's attention
// leaves it. Chosen by --l2-flush (bench, tune), else $MEGAMOE_BENCH_FLUSH, else memset; set once by
// set_l2_flush, before any timing. Another value is an error naming where it came from, not a silent
// memset. Returns that source's name (for the caller's own checks of the choice).
bool g_l2_flush_reads = false;
const char* set_l2_flush(const Options& opts) {
  const bool from_option = opts.has("l2-flush");
  const char* source = from_option ? "--l2-flush" : "$MEGAMOE_BENCH_FLUSH";
  const char* env = std::getenv("MEGAMOE_BENCH_FLUSH");
  const std::string v = from_option ? opts.get("l2-flush", "") : env && *env ? env : "memset";
  if (v != "memset" && v != "read") throw_invalid(source, "memset or read", "'" + v + "'");
  g_l2_flush_reads = v == "read";
  return source;
}
bool l2_flush_reads() { return g_l2_flush_reads; }
const char* l2_flush_name() { return l2_flush_reads() ? "read" : "memset"; }

// Every argument is checked here, before the caller touches a device: a bad one is reported the same
// way on a machine without a GPU (a CPU dry run of a job script) as on the GPU machine. The caller sets
// `gpu` once it has picked the device.
BenchSetup bench_setup(const Options& opts, const char* default_presets, const char* default_tokens) {
  BenchSetup b;
  b.presets = split(opts.get("presets", opts.get("preset", default_presets)));
  for (const std::string& name : b.presets) workload::find_preset(name);  // throws for an unknown name
  b.tokens = parse_token_list(opts.get("tokens", default_tokens));
  b.iters = opts.get_int32("iters", 50);
  if (b.iters < 50)
    throw_invalid("--iters", "at least 50 (the median of >= 50 replays is the method)", std::to_string(b.iters));
  b.seed = uint64_t(opts.get_int("seed", 1));
  b.routing = workload::parse_routing(opts.get("routing", "uniform"));
  b.recipe = parse_recipe(opts.get("recipe", "bf16"));
  const char* env_commit = std::getenv("MEGAMOE_COMMIT");
  b.commit = env_commit ? env_commit : MEGAMOE_GIT_COMMIT;
  return b;
}

// bench's own options, checked before any device work (also before --ep starts its workers): the
// JSON is written once every cell has run, so a path that cannot be written would lose the whole run
// at its end; --ep-style and --tactic are otherwise read only deep inside the run.
void check_bench_only_options(const Options& opts) {
  if (opts.has("json")) {
    const std::string path = opts.get("json", "");
    const auto slash = path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    struct stat st {};
    const bool is_dir = ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
    const bool writable = ::access(path.c_str(), F_OK) == 0 ? ::access(path.c_str(), W_OK) == 0
                                                           : ::access(dir.c_str(), W_OK | X_OK) == 0;
    if (path.empty() || is_dir || !writable)
      throw_invalid("--json", "a writable file path (in a folder that exists)", "'" + path + "'");
  }
  check_ep_style(opts.get("ep-style", "auto"), "--ep-style");
  if (opts.has("tactic") && opts.get("tactic", "").empty()) throw_invalid("--tactic", "a tactic name", "nothing");
  const char* flush_source = set_l2_flush(opts);
  if (l2_flush_reads() && opts.get_int32("ep", 1, 1) > 1)
    throw_invalid(flush_source, "memset with --ep (the expert-parallel bench flushes L2 by a memset on every rank)",
                  "'read'");
}

// The layer `bench` and `tune` build for a preset: plain swiglu without biases unless
// `preset_activation` (each preset's own, e.g. gpt-oss's swiglu_oai + biases), as the PyTorch
// baseline computes; the recipe, backend ("auto" or a name), device and capacity given.
MoeConfig bench_config(const std::string& preset, bool preset_activation, Recipe recipe, const std::string& backend,
                       int device, int64_t max_tokens) {
  MoeConfig c = workload::preset_config(workload::find_preset(preset));
  if (!preset_activation && c.activation == Activation::kSwiGLUOAI) {
    c.activation = Activation::kSwiGLU;
    c.has_bias = false;
  }
  c.recipe = recipe;
  c.backend = backend;
  c.device = device;
  c.max_tokens = max_tokens;
  return c;
}

// One preset's synthetic inputs on the device (x, routes, weights, out for up to max_t tokens)
// and the measurement of one cell: layer.forward captured in a CUDA graph, replayed `iters`
// times after warm-up replays (at least 5 and kCellWarmupMs), each after an L2 flush (a memset of
// `flush`, or a read of it: l2_flush_reads); the median ms.
//
// Why a warm-up by time: with 5 warm-up replays, a preset's first cell (right after its weights
// were prepared) measured slower than its second in all four runs of one 2026-12-03 job
// (qwen3-30b-a3b fp8_block T = 128: 213-253 us against 204-222 us at T = 256, which has more
// work; docs/BENCHMARKS.md), and `megamoe tune`, which times each cell many times, measured
// 192-198 us. A likely cause is the clocks ramping up after the host-side gap (not measured).
// 50 ms of replays before timing costs a fraction of a second per bench run.
constexpr double kCellWarmupMs = 50.0;
struct CellRunner {
  CellRunner(const MoeConfig& c, int64_t max_t, int device)
      : dx(size_t(max_t * c.hidden_size * 2)),
        dids(size_t(max_t * c.top_k * 4)),
        dw(size_t(max_t * c.top_k * 4)),
        dout(size_t(max_t * c.hidden_size * 2)),
        sink(16),
        dev(Device::cuda(device)),
        E(c.num_experts),
        K(c.top_k),
        H(c.hidden_size) {}

  // Fills the inputs of T tokens (routes and x from seed + T); returns the experts they touch.
  std::set<int32_t> fill(int64_t T, workload::Routing routing, uint64_t seed, cudaStream_t s) {
    const auto routes = workload::make_routes(T, E, K, routing, seed + uint64_t(T));
    sm90::fill_synthetic_x_bf16(T, H, seed + uint64_t(T), dx.ptr, s);
    ck(cudaMemcpyAsync(dids.ptr, routes.ids.data(), routes.ids.size() * 4, cudaMemcpyHostToDevice, s), "ids");
    ck(cudaMemcpyAsync(dw.ptr, routes.weights.data(), routes.weights.size() * 4, cudaMemcpyHostToDevice, s), "w");
    ck(cudaStreamSynchronize(s), "inputs");  // `routes` is freed on return
    std::set<int32_t> touched(routes.ids.begin(), routes.ids.end());
    touched.erase(-1);
    return touched;
  }

  // One forward of the filled inputs' first T tokens into dout, on s.
  void forward(MoeLayer& layer, int64_t T, cudaStream_t s) {
    layer.forward(TensorView::contiguous(dx.ptr, DType::kBF16, {T, H}, dev),
                  TensorView::contiguous(dids.ptr, DType::kI32, {T, K}, dev),
                  TensorView::contiguous(dw.ptr, DType::kF32, {T, K}, dev),
                  TensorView::contiguous(dout.ptr, DType::kBF16, {T, H}, dev), s);
  }

  double time(MoeLayer& layer, int64_t T, int iters, cudaStream_t s, DeviceBuffer& flush, int flush_byte) {
    forward(layer, T, s);
    ck(cudaStreamSynchronize(s), "forward");
    const CapturedGraph g(s, [&] { forward(layer, T, s); });
    const auto ms = time_runs(
        s, 5, iters,
        [&] {
          if (l2_flush_reads())
            sm90::read_sweep(flush.ptr, flush.bytes, static_cast<unsigned*>(sink.ptr), s);
          else
            cudaMemsetAsync(flush.ptr, flush_byte, flush.bytes, s);
        },
        [&] { cudaGraphLaunch(g.exec, s); }, kCellWarmupMs);
    ck(cudaGetLastError(), "replay");
    return median(ms);
  }

  // One forward of T tokens into a poisoned output (0xFFFF: NaN), copied back: what a tactic computes.
  std::vector<uint16_t> output(MoeLayer& layer, int64_t T, cudaStream_t s) {
    ck(cudaMemsetAsync(dout.ptr, 0xFF, size_t(T * H * 2), s), "poison out");
    forward(layer, T, s);
    std::vector<uint16_t> out(size_t(T * H));
    ck(cudaMemcpyAsync(out.data(), dout.ptr, out.size() * 2, cudaMemcpyDeviceToHost, s), "copy out");
    ck(cudaStreamSynchronize(s), "forward");
    return out;
  }

  DeviceBuffer dx, dids, dw, dout, sink;
  Device dev;
  int64_t E, K, H;
};

// `megamoe tune`'s output check for one bucket: the candidates (the tactics that can run T, two or
// more) that agree with a strict majority of them. Each candidate's output is compared with a
// reference candidate's (the heuristic's first); the first reference that a strict majority agrees
// with (rel-L2 within `limit`; NaN never agrees) decides, and the others go to `rejected`, each
// named on stderr (wrong on this GPU or shape: not timed, cannot win). Empty without a majority.
std::vector<std::string> majority_agreeing(MoeLayer& layer, CellRunner& cells, const std::vector<std::string>& candidates,
                                           const std::string& heuristic, int64_t T, cudaStream_t s, double limit,
                                           const std::string& pname, std::vector<std::string>* rejected) {
  std::vector<size_t> order(candidates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto h = std::find(candidates.begin(), candidates.end(), heuristic);
  if (h != candidates.end()) std::swap(order[0], order[size_t(h - candidates.begin())]);
  for (size_t ri : order) {
    layer.force_tactic(candidates[ri]);
    const std::vector<uint16_t> want = cells.output(layer, T, s);
    std::vector<std::string> agree, differ;
    std::vector<double> rel_of;
    for (size_t i = 0; i < candidates.size(); ++i) {
      double rel = 0.0;
      if (i != ri) {
        layer.force_tactic(candidates[i]);
        rel = rel_l2_bf16(cells.output(layer, T, s), want);
      }
      if (i == ri ? !has_nan_bf16(want) : rel <= limit) {
        agree.push_back(candidates[i]);
      } else {
        differ.push_back(candidates[i]);
        rel_of.push_back(rel);
      }
    }
    if (2 * agree.size() <= candidates.size()) continue;  // no majority with this reference
    for (size_t i = 0; i < differ.size(); ++i) {
      std::fprintf(stderr, "\n[tune] %s T=%lld: tactic %s differs from %s (and %zu more) by rel-L2 %.3e "
                           "(limit %.0e): wrong output, not timed\n",
                   pname.c_str(), (long long)T, differ[i].c_str(), candidates[ri].c_str(), agree.size() - 1,
                   rel_of[i], limit);
      rejected->push_back(differ[i]);
    }
    return agree;
  }
  return {};
}

struct Record {
  std::string model, recipe, backend, tactic, gpu, commit, routing, activation;
  int64_t tokens;
  double median_ms, floor_ms, tflops, weight_gbps, touched_weight_bytes, flops;
};

std::string json_records(const std::vector<Record>& rs, const Ceilings& c) {
  std::ostringstream o;
  o.precision(6);
  o << "[\n";
  for (size_t i = 0; i < rs.size(); ++i) {
    const Record& r = rs[i];
    o << "  {\"model\": \"" << r.model << "\", \"recipe\": \"" << r.recipe << "\", \"backend\": \"" << r.backend
      << "\", \"tactic\": \"" << r.tactic << "\", \"tokens\": " << r.tokens << ", \"routing\": \"" << r.routing << "\", \"activation\": \"" << r.activation
      << "\", \"median_ms\": " << r.median_ms
      << ", \"floor_ms\": " << r.floor_ms << ", \"pct_of_floor\": " << 100.0 * r.floor_ms / r.median_ms
      << ", \"tflops\": " << r.tflops << ", \"weight_gbps\": " << r.weight_gbps
      << ", \"touched_weight_bytes\": " << r.touched_weight_bytes << ", \"flops\": " << r.flops
      << ", \"ceiling_copy_gbps\": " << c.copy_gbps << ", \"ceiling_bf16_tflops\": " << c.bf16_tflops
      << ", \"ceiling_fp8_tflops\": " << c.fp8_tflops << ", \"ceiling_bf16_tflops_sustained\": "
      << c.bf16_tflops_sustained << ", \"ceiling_fp8_tflops_sustained\": " << c.fp8_tflops_sustained
      << ", \"l2_flush\": \"" << l2_flush_name() << "\""
      << ", \"gpu\": \"" << r.gpu << "\", \"commit\": \"" << r.commit << "\", \"baselines\": []}"
      << (i + 1 < rs.size() ? ",\n" : "\n");
  }
  o << "]\n";
  return o.str();
}


// `bench --ep N` (in each worker): per preset and T per rank, the expert-parallel layer's time
// (every rank replays its graph; all replays are enqueued before the first is waited for, so
// host jitter does not enter; each replay is bracketed by events after an L2 flush) and the
// exchange alone (the same layer with the experts skipped), with the bytes this rank moves
// off-rank. Every rank writes its own records (rank r > 0: <json>.rank<r>).
int bench_ep_worker(const Options& opts) {
  auto group = ep_worker_group();
  const int rank = group->rank(), R = group->size(), device = group->device();
  BenchSetup b = bench_setup(opts, "deepseek-v3,qwen3-30b-a3b,mixtral-8x7b,kimi-k2", "1,8,64,512,4096");
  ck(cudaSetDevice(device), "cudaSetDevice");
  b.gpu = gpu_name(device);
  const auto& [presets, tokens, iters, seed, routing, recipe, commit, gpu] = b;
  cudaStream_t s;
  ck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  const size_t flush_bytes = size_t(256) << 20;
  DeviceBuffer flush(flush_bytes);
  const Ceilings ceil = measure_ceilings(s, /*sustained=*/false);  // the copy rate: the weight-stream floor
  std::ostringstream json;
  json.precision(6);
  json << "[\n";
  bool first = true;
  if (rank == 0)
    std::printf("%-14s %6s %4s %-40s %-12s %10s %10s %10s %10s\n", "model", "T/rank", "ep", "backend", "tactic",
                "layer_ms", "floor_ms", "exch_ms", "exch_GB/s");
  for (const auto& pname : presets) {
    for (int64_t T : tokens) {
      MoeConfig c = bench_config(pname, false, recipe, opts.get("backend", "auto"), device, T);
      c.ep_group = group;
      c.ep_style = opts.get("ep-style", "auto");
      std::unique_ptr<MoeLayer> layer;
      try {
        layer = std::make_unique<MoeLayer>(c);
      } catch (const Unsupported& e) {
        if (rank == 0) std::printf("skipped %s: %s\n", pname.c_str(), e.what());
        break;
      }
      prepare_synthetic_weights(*layer, seed, s);
      const int64_t H = c.hidden_size, K = c.top_k, E = c.num_experts, E_local = E / R;
      DeviceBuffer dx(size_t(T * H * 2) + 16), dids(size_t(T * K * 4) + 16), dw(size_t(T * K * 4) + 16),
          dout(size_t(T * H * 2) + 16);
      const auto routes = workload::make_routes(T, E, K, routing, seed + uint64_t(T) + 7919u * uint64_t(rank));
      sm90::fill_synthetic_x_bf16(T, H, seed + uint64_t(T) + uint64_t(rank), dx.ptr, s);
      ck(cudaMemcpyAsync(dids.ptr, routes.ids.data(), routes.ids.size() * 4, cudaMemcpyHostToDevice, s), "ids");
      ck(cudaMemcpyAsync(dw.ptr, routes.weights.data(), routes.weights.size() * 4, cudaMemcpyHostToDevice, s), "w");
      // Bytes this rank sends off-rank: one x row per (token, other owner), one y row per route
      // to another owner coming back.
      double off_rows = 0;
      for (int64_t t = 0; t < T; ++t) {
        std::set<int64_t> owners;
        for (int64_t k = 0; k < K; ++k) {
          const int32_t id = routes.ids[size_t(t * K + k)];
          if (id >= 0 && id / E_local != rank) {
            owners.insert(id / E_local);
            off_rows += 1;
          }
        }
        off_rows += double(owners.size());
      }
      const double off_bytes = off_rows * double(H) * 2.0;
      // The weight-stream floor of this rank's experts: the distinct local experts any rank's
      // tokens route to (every rank's routes are rebuilt from their seeds), read once at the
      // measured copy rate.
      std::set<int64_t> touched_local;
      for (int r = 0; r < R; ++r) {
        const auto rr = workload::make_routes(T, E, K, routing, seed + uint64_t(T) + 7919u * uint64_t(r));
        for (int32_t id : rr.ids)
          if (id >= 0 && id / E_local == rank) touched_local.insert(id);
      }
      const double touched_bytes =
          double(touched_local.size()) * double(formats::canonical_weight_bytes(c)) / double(E);
      const double floor_ms = touched_bytes / (ceil.copy_gbps * 1e9) * 1e3;
      const Device dev = Device::cuda(device);
      const auto xv = TensorView::contiguous(dx.ptr, DType::kBF16, {T, H}, dev);
      const auto iv = TensorView::contiguous(dids.ptr, DType::kI32, {T, K}, dev);
      const auto wv = TensorView::contiguous(dw.ptr, DType::kF32, {T, K}, dev);
      const auto ov = TensorView::contiguous(dout.ptr, DType::kBF16, {T, H}, dev);
      double med[2] = {0, 0};
      for (int variant = 0; variant < 2; ++variant) {
        ep::set_exchange_only_for_benchmark(variant == 1);
        layer->forward(xv, iv, wv, ov, s);
        ck(cudaStreamSynchronize(s), "forward");
        layer->check_errors(s);
        const CapturedGraph g(s, [&] { layer->forward(xv, iv, wv, ov, s); });
        ep::set_exchange_only_for_benchmark(false);
        const int n = iters + 5;
        std::vector<cudaEvent_t> ev(size_t(2 * n));
        for (auto& e : ev) ck(cudaEventCreate(&e), "event");
        for (int i = 0; i < n; ++i) {
          cudaMemsetAsync(flush.ptr, i & 0xFF, flush_bytes, s);
          cudaEventRecord(ev[size_t(2 * i)], s);
          cudaGraphLaunch(g.exec, s);
          cudaEventRecord(ev[size_t(2 * i + 1)], s);
        }
        ck(cudaStreamSynchronize(s), "replays");
        layer->check_errors(s);
        std::vector<double> ms;
        for (int i = 5; i < n; ++i) {
          float t = 0;
          cudaEventElapsedTime(&t, ev[size_t(2 * i)], ev[size_t(2 * i + 1)]);
          ms.push_back(t);
        }
        for (auto& e : ev) cudaEventDestroy(e);
        med[variant] = median(ms);
      }
      const double gbps = off_bytes / (med[1] * 1e-3) / 1e9;
      const std::string tactic = layer->tactic_for(T);
      std::printf("%-14s %6lld %4d %-40s %-12s %10.4f %10.4f %10.4f %10.1f   (rank %d)\n", pname.c_str(),
                  (long long)T, R, layer->backend_name().c_str(), tactic.c_str(), med[0], floor_ms, med[1], gbps,
                  rank);
      std::fflush(stdout);
      json << (first ? "" : ",\n") << "  {\"model\": \"" << pname << "\", \"recipe\": \"" << recipe_name(recipe)
           << "\", \"backend\": \"" << layer->backend_name() << "\", \"ep_size\": " << R << ", \"ep_rank\": " << rank
           << ", \"tokens_per_rank\": " << T << ", \"tokens\": " << T << ", \"routing\": \""
           << workload::routing_name(routing) << "\", \"tactic\": \"" << tactic << "\", \"median_ms\": " << med[0]
           << ", \"floor_ms\": " << floor_ms << ", \"touched_weight_bytes\": " << touched_bytes
           << ", \"ceiling_copy_gbps\": " << ceil.copy_gbps
           << ", \"exchange_only_ms\": " << med[1] << ", \"off_rank_bytes\": " << off_bytes
           << ", \"exchange_gbps\": " << gbps << ", \"gpu\": \"" << gpu << "\", \"commit\": \"" << commit
           << "\", \"baselines\": []}";
      first = false;
    }
  }
  json << "\n]\n";
  if (opts.has("json")) {
    const std::string path = opts.get("json", "") + (rank == 0 ? "" : ".rank" + std::to_string(rank));
    std::ofstream f(path);
    if (!f) throw_invalid("--json", "a writable file path", "'" + path + "'");
    f << json.str();
  }
  cudaStreamDestroy(s);
  return 0;
}

}  // namespace

int cmd_bench(const Options& opts) {
  opts.allow_only(
      {"presets", "preset", "tokens", "iters", "json", "recipe", "backend", "seed", "routing", "device", "activation",
       "ep", "ep-style", "tactic", "l2-flush"});
  check_bench_only_options(opts);
  {
    int ep_rank = 0, ep_size = 1;
    if (ep_worker(&ep_rank, &ep_size)) return bench_ep_worker(opts);
    const int ep = opts.get_int32("ep", 1, 1);
    if (ep > 1) return launch_ep_workers(ep, opts.argc(), opts.argv());
  }
  // "swiglu" (default): every preset with plain swiglu and no biases, as the PyTorch baseline
  // computes; "preset": each preset's own activation and biases (gpt-oss: swiglu_oai + biases).
  const std::string act_mode = opts.get("activation", "swiglu");
  if (act_mode != "swiglu" && act_mode != "preset")
    throw_invalid("--activation", "swiglu or preset", "'" + act_mode + "'");
  BenchSetup b = bench_setup(opts, "deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b", "1-8192");
  const int device = opts.get_int32("device", 0, 0);
  if (gpu_count() == 0) throw Unsupported("bench: no CUDA device found (bench measures GPU backends)");
  ck(cudaSetDevice(device), "cudaSetDevice");
  b.gpu = gpu_name(device);
  const auto& [presets, tokens, iters, seed, routing, recipe, commit, gpu] = b;

  cudaStream_t s;
  ck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  std::fprintf(stderr, "[bench] measuring ceilings on %s (L2 flush: %s) ...\n", gpu.c_str(), l2_flush_name());
  const Ceilings ceil = measure_ceilings(s);
  std::fprintf(stderr,
               "[bench] copy %.0f GB/s, bf16 MMA %.0f TFLOP/s (sustained %.0f), fp8 MMA %.0f TFLOP/s (sustained %.0f)\n",
               ceil.copy_gbps, ceil.bf16_tflops, ceil.bf16_tflops_sustained, ceil.fp8_tflops, ceil.fp8_tflops_sustained);
  const size_t flush_bytes = size_t(256) << 20;  // > 4x the 60 MB L2
  DeviceBuffer flush(flush_bytes);

  std::vector<Record> records;
  const int64_t max_t = *std::max_element(tokens.begin(), tokens.end());
  size_t cell = 0;
  for (const auto& pname : presets) {
    const MoeConfig c = bench_config(pname, act_mode == "preset", recipe, opts.get("backend", "auto"), device, max_t);
    const int64_t E = c.local_experts(), H = c.hidden_size, I = c.intermediate_size, N13 = c.fc1_rows(),
                  K = c.top_k;
    std::unique_ptr<MoeLayer> layer_ptr;
    try {
      layer_ptr = std::make_unique<MoeLayer>(c);
    } catch (const Unsupported& e) {  // e.g. fp8_block on gpt-oss's H = 2880: say so, go on
      std::fprintf(stderr, "[bench] skipping %s: %s\n", pname.c_str(), e.what());
      std::printf("skipped %s: %s\n", pname.c_str(), e.what());
      cell += tokens.size();
      continue;
    }
    MoeLayer& layer = *layer_ptr;
    if (opts.has("tactic")) {  // e.g. the one-launch kernel at every T it can run
      const std::string want = opts.get("tactic", "");
      const auto names = layer.tactic_names();
      if (std::find(names.begin(), names.end(), want) != names.end())
        layer.force_tactic(want);
      else
        std::fprintf(stderr, "[bench] %s has no tactic '%s': its own choice runs\n", layer.backend_name().c_str(),
                     want.c_str());
    }
    prepare_synthetic_weights(layer, seed, s);
    // Real bytes of one expert in this recipe (codes + scales + biases): the weight floor.
    const double bytes_per_expert = double(formats::canonical_weight_bytes(c)) / double(E);
    const bool fp8_mma = recipe == Recipe::kFP8Block || recipe == Recipe::kMXFP8;
    const double mma_tflops = fp8_mma ? ceil.fp8_tflops : ceil.bf16_tflops;
    CellRunner cells(c, max_t, device);
    for (int64_t T : tokens) {
      ++cell;
      std::fprintf(stderr, "[bench] %zu/%zu %s T=%lld ...\n", cell, presets.size() * tokens.size(), pname.c_str(),
                   (long long)T);
      const std::set<int32_t> touched = cells.fill(T, routing, seed, s);
      const double median_ms = cells.time(layer, T, iters, s, flush, int(cell & 0xFF));
      Record r;
      r.model = pname;
      r.recipe = recipe_name(recipe);
      r.backend = layer.backend_name();
      r.gpu = gpu;
      r.commit = commit;
      r.routing = workload::routing_name(routing);
      r.activation = std::string(activation_name(c.activation)) + (c.has_bias ? "+bias" : "");
      r.tokens = T;
      r.median_ms = median_ms;
      r.tactic = layer.tactic_for(T);
      r.touched_weight_bytes = double(touched.size()) * bytes_per_expert;
      r.flops = 2.0 * double(T * K) * double(N13 * H + H * I);
      r.floor_ms = std::max(r.touched_weight_bytes / (ceil.copy_gbps * 1e9), r.flops / (mma_tflops * 1e12)) * 1e3;
      r.tflops = r.flops / (r.median_ms * 1e-3) / 1e12;
      r.weight_gbps = r.touched_weight_bytes / (r.median_ms * 1e-3) / 1e9;
      records.push_back(r);
    }
  }
  std::printf(
      "gpu %s, commit %s, ceilings: copy %.0f GB/s, bf16 MMA %.0f TFLOP/s (sustained %.0f), fp8 MMA %.0f TFLOP/s "
      "(sustained %.0f)\n",
      gpu.c_str(), commit.c_str(), ceil.copy_gbps, ceil.bf16_tflops, ceil.bf16_tflops_sustained, ceil.fp8_tflops,
      ceil.fp8_tflops_sustained);
  std::printf("%-14s %6s %10s %10s %8s %9s %9s\n", "model", "T", "ms", "floor_ms", "%floor", "TFLOP/s", "W GB/s");
  for (const auto& r : records)
    std::printf("%-14s %6lld %10.4f %10.4f %7.1f%% %9.1f %9.0f\n", r.model.c_str(), (long long)r.tokens, r.median_ms,
                r.floor_ms, 100.0 * r.floor_ms / r.median_ms, r.tflops, r.weight_gbps);
  if (opts.has("json")) {
    std::ofstream f(opts.get("json", ""));
    if (!f) throw_invalid("--json", "a writable file path", "'" + opts.get("json", "") + "'");
    f << json_records(records, ceil);
    std::fprintf(stderr, "[bench] wrote %s\n", opts.get("json", "").c_str());
  }
  cudaStreamDestroy(s);
  return 0;
}


// `megamoe tune`: for each preset and token bucket, every tactic of the layer's backend timed
// as `bench` times a cell (CUDA graph, L2 flushed, median); the fastest per bucket goes into the
// tactic cache (core/tactics.h) that layers read at construction. docs/TUNING.md. A tactic is
// timed only if its output agrees with a majority of the tactics that can run the bucket (no wrong
// kernel can win one).
int cmd_tune(const Options& opts) {
  opts.allow_only({"presets", "preset", "tokens", "iters", "rounds", "recipe", "backend", "seed", "routing", "device",
                   "activation", "cache", "l2-flush"});
  set_l2_flush(opts);
  const std::string act_mode = opts.get("activation", "swiglu");
  if (act_mode != "swiglu" && act_mode != "preset")
    throw_invalid("--activation", "swiglu or preset", "'" + act_mode + "'");
  const std::string path = opts.get("cache", default_tactic_cache_path());
  if (path.empty() || path == "off")
    throw_invalid("--cache", "a file path (no default: set $HOME, $XDG_CACHE_HOME or $MEGAMOE_TACTIC_CACHE)",
                  "'" + path + "'");
  const std::vector<std::string> presets = split(opts.get("presets", opts.get("preset", "deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b")));
  for (const std::string& name : presets) workload::find_preset(name);  // before any device call
  const std::vector<int64_t> tokens = parse_token_list(opts.get("tokens", "1-8192"));
  for (int64_t T : tokens)
    if (T < 1 || T > tactic_bucket_tokens(kTacticBuckets - 1) || tactic_bucket_tokens(tactic_bucket_index(T)) != T)
      throw_invalid("--tokens", "token buckets: powers of two 1..32768 (e.g. 1-8192 or 1,8,64)", std::to_string(T));
  const int iters = opts.get_int32("iters", 20);
  if (iters < 5) throw_invalid("--iters", "at least 5 graph replays per tactic and bucket", std::to_string(iters));
  // Each tactic is timed `rounds` times, the order rotated each round, and keeps its best median:
  // one slow measurement (a clock or power transient) then no longer decides a bucket. One round
  // timed split_tma at 4.79 ms in a bucket where the bench measured 3.63 ms (docs/TUNING.md).
  const int rounds = opts.get_int32("rounds", 2);
  if (rounds < 1 || rounds > 10) throw_invalid("--rounds", "1..10 timings per tactic and bucket", std::to_string(rounds));
  const uint64_t seed = uint64_t(opts.get_int("seed", 1));
  const workload::Routing routing = workload::parse_routing(opts.get("routing", "uniform"));
  const Recipe recipe = parse_recipe(opts.get("recipe", "bf16"));
  if (gpu_count() == 0) throw Unsupported("tune: no CUDA device found (tune times the GPU backends' tactics)");
  const int device = opts.get_int32("device", 0, 0);
  ck(cudaSetDevice(device), "cudaSetDevice");

  std::string warning;
  TacticCache cache = TacticCache::load(path, &warning);
  if (!warning.empty()) std::fprintf(stderr, "[tune] %s; starting a new cache\n", warning.c_str());
  std::fprintf(stderr, "[tune] L2 flush before each replay: %s\n", l2_flush_name());
  cudaStream_t s;
  ck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "stream");
  DeviceBuffer flush(size_t(256) << 20);  // > 4x the L2, as bench
  const int64_t max_t = *std::max_element(tokens.begin(), tokens.end());

  struct Row {
    std::string preset;
    int64_t T;
    std::vector<std::pair<std::string, double>> ms;
    std::string heuristic, best;
    std::string shipped;                // what `auto` runs without a cache: the shipped table's tactic, else the heuristic's
    std::vector<std::string> rejected;  // tactics outside the majority that agreed on the output
  };
  std::vector<Row> rows;
  for (const auto& pname : presets) {
    MoeConfig c = bench_config(pname, act_mode == "preset", recipe, opts.get("backend", "auto"), device, max_t);
    c.tactic_cache = "off";  // measure the backend itself; the heuristic is what runs without a table
    std::unique_ptr<MoeLayer> layer;
    try {
      layer = std::make_unique<MoeLayer>(c);
    } catch (const Unsupported& e) {
      std::printf("skipped %s: %s\n", pname.c_str(), e.what());
      continue;
    }
    const std::vector<std::string> names = layer->tactic_names();
    if (names.empty()) {
      std::printf("skipped %s: backend %s has no tactics to choose from\n", pname.c_str(), layer->backend_name().c_str());
      continue;
    }
    prepare_synthetic_weights(*layer, seed, s);
    TacticEntry entry;
    cuda_machine_key(device, &entry.key);
    layer_tactic_key(layer->config(), layer->backend_name(), &entry.key);
    const TacticEntry* old = cache.find(entry.key);
    // The shipped table's tactics for this layer on this GPU (before `old` replaces entry's tactics).
    const TacticTable shipped = lookup_shipped_tactics(entry.key, nullptr);
    if (old) entry = *old;  // keep buckets not re-measured
    int tuned = 0;          // buckets this run wrote
    CellRunner cells(c, max_t, device);
    size_t done = 0;
    const size_t total = tokens.size() * names.size() * size_t(rounds);
    for (int64_t T : tokens) {
      cells.fill(T, routing, seed, s);
      Row row{pname, T, {}, "", "", "", {}};
      layer->force_tactic("");
      row.heuristic = layer->tactic_for(T);
      const std::string& from_table = shipped[size_t(tactic_bucket_index(T))];
      row.shipped = std::find(names.begin(), names.end(), from_table) != names.end() ? from_table : row.heuristic;
      std::vector<std::string> candidates;  // the tactics that can run T (not e.g. the one-launch kernel above 64)
      for (const std::string& name : names) {
        layer->force_tactic(name);
        if (layer->tactic_for(T) == name) candidates.push_back(name);
      }
      // Only tactics that compute the same function are timed (majority_agreeing: rel-L2 within twice
      // the recipe's tolerance against the CPU reference). Without a majority nothing is trusted: the
      // bucket is cleared (the heuristic runs) and the user is pointed at `megamoe check`.
      const std::vector<std::string> runnable =
          candidates.size() <= 1 ? candidates
                                 : majority_agreeing(*layer, cells, candidates, row.heuristic, T, s,
                                                     2.0 * rel_l2_limit(recipe), pname, &row.rejected);
      if (runnable.empty() && !candidates.empty()) {
        std::fprintf(stderr, "\n[tune] %s T=%lld: the %zu tactics do not agree on the output (no majority): bucket "
                             "cleared, the heuristic runs; check the backend with `megamoe check`\n",
                     pname.c_str(), (long long)T, candidates.size());
        const int b = tactic_bucket_index(T);
        entry.tactic[size_t(b)].clear();
        entry.measured[size_t(b)].clear();
        ++tuned;  // the entry changed
        done += names.size() * size_t(rounds);
        layer->force_tactic("");
        rows.push_back(row);
        continue;
      }
      std::vector<double> best_ms(runnable.size(), std::numeric_limits<double>::infinity());
      for (int r = 0; r < rounds; ++r)
        for (size_t i = 0; i < runnable.size(); ++i) {
          const size_t t = (i + size_t(r)) % runnable.size();
          ++done;
          std::fprintf(stderr, "\r[tune] %-14s T=%-5lld [%-20s] %zu/%zu %-18s", pname.c_str(), (long long)T,
                       std::string(20 * done / total, '#').c_str(), done, total, runnable[t].c_str());
          layer->force_tactic(runnable[t]);
          const double ms = cells.time(*layer, T, iters, s, flush, int(done & 0xFF));
          best_ms[t] = std::min(best_ms[t], ms);
        }
      done += (names.size() - runnable.size()) * size_t(rounds);
      double best = 0.0;
      for (size_t t = 0; t < runnable.size(); ++t) {
        row.ms.emplace_back(runnable[t], best_ms[t]);
        if (row.best.empty() || best_ms[t] < best) {
          best = best_ms[t];
          row.best = runnable[t];
        }
      }
      layer->force_tactic("");
      const int b = tactic_bucket_index(T);
      entry.tactic[size_t(b)] = row.best;
      entry.measured[size_t(b)] = row.ms;
      ++tuned;
      rows.push_back(row);
    }
    std::fprintf(stderr, "\n");
    // An entry takes precedence over the shipped defaults: none is written that this run did not fill.
    if (tuned > 0 || old) cache.put(entry);
  }
  cudaStreamDestroy(s);
  cache.save(path);

  // speed-up: the winner's over the heuristic's tactic; vs shipped: over what `auto` runs without a
  // cache (the shipped table's tactic on this GPU, else the heuristic's), "-" where that was not timed.
  std::printf("%-14s %6s  %-18s %-18s %9s  %-18s %11s  %s\n", "model", "T", "winner", "heuristic", "speed-up",
              "shipped", "vs shipped", "ms per tactic");
  for (const Row& r : rows) {
    double best_ms = 0, heur_ms = 0, shipped_ms = 0;
    std::string all;
    for (const auto& [n, ms] : r.ms) {
      if (n == r.best) best_ms = ms;
      if (n == r.heuristic) heur_ms = ms;
      if (n == r.shipped) shipped_ms = ms;
      char buf[64];
      std::snprintf(buf, sizeof buf, "%s%s %.4f", all.empty() ? "" : ", ", n.c_str(), ms);
      all += buf;
    }
    for (const std::string& n : r.rejected) all += (all.empty() ? "" : ", ") + n + " wrong output";
    if (r.best.empty()) {  // no majority: nothing timed
      std::printf("%-14s %6lld  %-18s %-18s %9s  %-18s %11s  %s\n", r.preset.c_str(), (long long)r.T, "(not-tuned)",
                  r.heuristic.c_str(), "-", r.shipped.c_str(), "-", all.c_str());
      continue;
    }
    char vs_shipped[32] = "-";
    if (best_ms > 0 && shipped_ms > 0) std::snprintf(vs_shipped, sizeof vs_shipped, "%.3fx", shipped_ms / best_ms);
    std::printf("%-14s %6lld  %-18s %-18s %8.3fx  %-18s %11s  %s\n", r.preset.c_str(), (long long)r.T, r.best.c_str(),
                r.heuristic.c_str(), best_ms > 0 && heur_ms > 0 ? heur_ms / best_ms : 0.0, r.shipped.c_str(),
                vs_shipped, all.c_str());
  }
  std::printf("wrote %s\n", path.c_str());
  return 0;
}

}  // namespace megamoe::cli
#endif
