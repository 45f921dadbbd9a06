// `--ep N` for `megamoe check` and `megamoe bench`: the command starts one worker process per
// GPU itself (rank r on device r), hands them an NCCL id through a file, and waits for them.
#pragma once
#include <memory>

#include "megamoe/ep.h"

namespace megamoe::cli {

// In the command's process (no MEGAMOE_EP_RANK in the environment): re-executes this program
// `ranks` times with the same arguments and returns 0 when every worker exited 0. Throws
// Unsupported with fewer GPUs than ranks or without NCCL.
int launch_ep_workers(int ranks, int argc, char** argv);
// True inside a worker; *rank / *size are set.
bool ep_worker(int* rank, int* size);
// A worker's group (collective over the workers; rank r uses device r).
std::shared_ptr<EpGroup> ep_worker_group();

}  // namespace megamoe::cli
