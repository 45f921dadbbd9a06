// `megamoe`: run, check and benchmark the MoE layer from the command line.
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "cli_common.h"

namespace {
const char* kUsage = R"(usage: megamoe <command> [options]

commands:
  run     run one layer forward on synthetic data and compare it with the CPU reference
  check   run a GPU backend against the CPU reference over a small case matrix (self-test)
  bench   time the layer over token counts (CUDA-graph replays, median) with its roofline
  tune    time every tactic of the layer's backend per token bucket (those whose output agrees
          with the majority) and write the fastest to the tactic cache that layers read
          (docs/TUNING.md)

options several commands take (run takes all of them; check --recipe, --backend, --seed,
--threads and --device; bench and tune all but --threads, with --activation as under bench
options; a line in parentheses names the commands where fewer take it):
  --preset NAME      (run, bench, tune) model shape: tiny (default), deepseek-v3 (H 7168, I 2048,
                     E 256, K 8), qwen3-30b-a3b (2048, 768, 128, 8), gpt-oss-120b (2880, 2880,
                     128, 4, swiglu_oai, biases), mixtral-8x7b (4096, 14336, 8, 2),
                     kimi-k2 (7168, 2048, 384, 8), qwen3.5-397b (4096, 1024, 512, 10)
  --recipe NAME      weight/activation format: bf16 (default), fp8_block, w4a16_mxfp4,
                     w4a16_nvfp4, mxfp8, w4a8_mxfp4, nvfp4
  --backend NAME     a registered backend or auto (default: the fastest that supports the
                     device, recipe and shape; cpu_reference on a machine without a GPU)
  --activation NAME  (run) override the preset's activation: swiglu, swiglu_oai, geglu, relu2
  --seed N           seed of the synthetic weights, tokens and routing (default 1)
  --routing NAME     (run, bench, tune) uniform (default), zipf (s = 1.2, skewed),
                     one-hot-expert (every token's first choice is expert 0) or balanced
                     (every expert gets floor or ceil of T*K/E rows)
  --threads N        (run, check) CPU threads of the reference (default 0 = all cores)
  --device N         CUDA device ordinal (default 0 when a GPU exists)

check options:
  --ep N             run the matrix as one expert-parallel layer over N GPUs (one worker
                     process per GPU; each rank checks its own tokens); --ep-style push|pull
  --accuracy         instead of pass/fail: a table of each recipe x activation at T = 8 and
                     512: the GPU backend's rel-L2 against the same recipe's CPU reference,
                     and the recipe's rel-L2 against the bf16 reference (quantization error)

run options:
  --tokens T         tokens in the batch (default 64 for tiny, 4 for the full-size presets)
  --iters N          timed repetitions (default 20 on the GPU, 3 on the CPU)
  --no-check         skip the comparison with the CPU reference
  --tactic NAME      (GPU) force a tactic of the backend (docs/TUNING.md), e.g. split_large_tile,
                     and check it against the CPU reference (unless --no-check); a name the
                     backend lacks, or a tactic that cannot run T, is an error

bench options:
  --tokens LIST      e.g. 1,8,64 or 1-8192 (lo, 2 lo, 4 lo, ... up to hi; default 1-8192)
  --presets LIST     comma-separated presets (default: deepseek-v3,qwen3-30b-a3b,gpt-oss-120b,mixtral-8x7b)
  --iters N          graph replays per cell, median reported (default 50, at least 50)
  --activation MODE  swiglu (default: plain swiglu, no biases, as the PyTorch baseline) or
                     preset (each preset's own, e.g. gpt-oss's swiglu_oai + biases)
  --json FILE        write the records as JSON
  --ep N             expert parallelism over N GPUs: starts one worker per GPU, times the EP
                     layer and the exchange alone per preset and T per rank (default presets
                     deepseek-v3,qwen3-30b-a3b,mixtral-8x7b,kimi-k2, tokens 1,8,64,512,4096)
  --ep-style S       auto (default), push or pull
  --tactic NAME      force a tactic of the backend in every cell (docs/TUNING.md), e.g. mega
                     (a backend without it runs its own choice); records carry the tactic run
  --l2-flush MODE    how the flush before each replay leaves L2: memset (default, as the peers
                     flush: full of dirty lines, written back inside the timed region) or read
                     (clean lines, as a decode step leaves it); default $MEGAMOE_BENCH_FLUSH, else
                     memset; records carry it (l2_flush); with --ep only memset
  (bench/run_bench.py runs this and the PyTorch baseline in one job and merges them)

tune options:
  --presets LIST     as bench (default: the four bench presets); --activation as bench
  --tokens LIST      token buckets, powers of two 1..32768 (default 1-8192; a bucket past 8192
                     that the cache leaves empty runs the bucket below's tactic)
  --iters N          graph replays per tactic and bucket, median taken (default 20, at least 5)
  --rounds R         timings per tactic and bucket, the order rotated each round, the best
                     median kept (default 2, 1..10)
  --l2-flush MODE    as bench: memset (default) or read
  --cache FILE       the tactic cache to update (default: $MEGAMOE_TACTIC_CACHE, else
                     $XDG_CACHE_HOME/megamoe/tactics.json, else ~/.cache/megamoe/tactics.json)
  Before timing a bucket, each tactic that can run it runs once: only those whose output agrees
  with a majority of them (rel-L2 within twice the recipe's tolerance) are timed; the others are
  named on stderr and marked `wrong output`; without a majority the bucket is cleared (the
  heuristic runs). Prints a progress bar on stderr and a table (winner, the heuristic's choice,
  the winner's speed-up over it, the shipped table's choice on this GPU -- what `auto` runs without
  a cache -- and the winner's speed-up over that, every tactic's time) on stdout.

Run `megamoe <command> --help` for the same text.
)";
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "help")) {
    std::fputs(kUsage, stdout);
    return argc < 2 ? 2 : 0;
  }
  const std::string cmd = argv[1];
  try {
    megamoe::cli::Options opts(argc, argv, 2);
    if (opts.flag("help")) {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (cmd == "run") return megamoe::cli::cmd_run(opts);
    if (cmd == "check") return megamoe::cli::cmd_check(opts);
    if (cmd == "bench") return megamoe::cli::cmd_bench(opts);
    if (cmd == "tune") return megamoe::cli::cmd_tune(opts);
    std::fprintf(stderr, "megamoe: unknown command '%s'\n\n%s", cmd.c_str(), kUsage);
    return 2;
  } catch (const megamoe::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "megamoe: out of host memory (std::bad_alloc): try fewer --tokens or a smaller --preset\n");
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "megamoe: %s\n", e.what());
    return 1;
  }
}
