#include "ep_launch.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "cli_common.h"
#include "megamoe/errors.h"

namespace megamoe::cli {

namespace {
// CUDA must not be initialised in the launcher before fork(): count GPUs in a child.
int probe_gpu_count();
}  // namespace


bool ep_worker(int* rank, int* size) {
  const char* r = std::getenv("MEGAMOE_EP_RANK");
  const char* s = std::getenv("MEGAMOE_EP_SIZE");
  if (!r || !s) return false;
  *rank = std::atoi(r);
  *size = std::atoi(s);
  return true;
}

int launch_ep_workers(int ranks, int argc, char** argv) {
  if (!EpGroup::available()) throw Unsupported("--ep: this megamoe build has no NCCL");
  const int gpus = probe_gpu_count();
  if (ranks < 1 || ranks > gpus)
    throw_invalid("--ep", "a rank count in [1, " + std::to_string(gpus) + "] (one GPU per rank)", std::to_string(ranks));
  char tmpl[] = "/tmp/megamoe_ep_id_XXXXXX";
  const int fd = mkstemp(tmpl);
  if (fd >= 0) close(fd);
  std::remove(tmpl);
  std::vector<pid_t> pids;
  for (int r = 0; r < ranks; ++r) {
    const pid_t pid = fork();
    if (pid == 0) {
      setenv("MEGAMOE_EP_RANK", std::to_string(r).c_str(), 1);
      setenv("MEGAMOE_EP_SIZE", std::to_string(ranks).c_str(), 1);
      setenv("MEGAMOE_EP_ID_FILE", tmpl, 1);
      std::vector<char*> args(argv, argv + argc);
      args.push_back(nullptr);
      execv("/proc/self/exe", args.data());
      std::_Exit(127);
    }
    pids.push_back(pid);
  }
  int failed = 0;
  for (int r = 0; r < ranks; ++r) {
    int st = 0;
    waitpid(pids[size_t(r)], &st, 0);
    if (!(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
      ++failed;
      std::fprintf(stderr, "megamoe: EP worker rank %d failed (status %d)\n", r, st);
    }
  }
  std::remove(tmpl);
  return failed ? 1 : 0;
}

std::shared_ptr<EpGroup> ep_worker_group() {
  int rank = 0, size = 1;
  if (!ep_worker(&rank, &size)) throw Error("megamoe: ep_worker_group() outside an EP worker");
  const std::string path = std::getenv("MEGAMOE_EP_ID_FILE");
  std::vector<uint8_t> id;
  if (rank == 0) {
    id = EpGroup::new_unique_id();
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char*>(id.data()), std::streamsize(id.size()));
    std::rename(tmp.c_str(), path.c_str());
  } else {
    for (int i = 0; i < 6000 && id.empty(); ++i) {
      std::ifstream f(path, std::ios::binary);
      std::vector<uint8_t> v(EpGroup::kUniqueIdBytes);
      if (f && f.read(reinterpret_cast<char*>(v.data()), std::streamsize(v.size()))) id = v;
      else std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (id.empty()) throw Error("megamoe: EP worker " + std::to_string(rank) + ": no NCCL id from rank 0 in 60 s");
  }
  return EpGroup::create(id, rank, size, rank);
}

namespace {
int probe_gpu_count() {
  const pid_t pid = fork();
  if (pid == 0) std::_Exit(std::min(gpu_count(), 100));
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 0;
}
}  // namespace

}  // namespace megamoe::cli
