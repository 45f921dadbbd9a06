// Internal backend interface and registry. A backend implements the whole forward
// pass for one (architecture, recipe, style); its name says which:
// sm<arch>_<act>_<weight>_<out>_<style>, or cpu_reference.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/tactics.h"
#include "megamoe/config.h"
#include "megamoe/tensor.h"
#include "megamoe/weights.h"

namespace megamoe {

// Arguments of one forward call, already validated by MoeLayer.
struct ForwardArgs {
  TensorView x, topk_ids, topk_weights, out;
  int64_t num_tokens = 0;
  void* stream = nullptr;  // cudaStream_t for GPU backends
  // Expert parallelism's owner side: when set, the backend skips the combine and writes each
  // valid route's y row, rounded to bf16 exactly as combine rounds it (b2 added first), to
  // route_out[(t*K + k) * H ...] (bf16, contiguous [T*K, H]); rows of -1/invalid routes are
  // not written. topk_weights is not read.
  void* route_out = nullptr;
};

class Backend {
 public:
  virtual ~Backend() = default;
  // Weights are validated (dtypes, shapes, devices) before this is called. `stream`: the
  // caller's cudaStream_t for device backends (nullptr: the legacy default stream); the call
  // returns with the weights in place.
  virtual void prepare_weights(const MoeWeights& weights, void* stream) = 0;
  virtual void forward(const ForwardArgs& args) = 0;
  virtual size_t workspace_bytes() const { return 0; }
  virtual size_t weight_bytes() const { return 0; }
  // Reads and resets the invalid-id counter (device backends synchronise `stream`).
  virtual int64_t invalid_id_count(void* stream) { (void)stream; return 0; }
  // Expert parallelism (see MoeLayer): throws CommError / reads the unrouted counter.
  virtual void check_errors(void* stream) { (void)stream; }
  virtual int64_t unrouted_count(void* stream) { (void)stream; return 0; }
  // Whether forward() honours ForwardArgs::route_out (the EP owner side needs it).
  virtual bool supports_route_out() const { return false; }
  // Expert parallelism in one kernel: runs this rank's whole forward -- dispatch, its experts on
  // what arrives, return and combine -- in the backend's own kernel (the Mega-EP kernel) and
  // returns true, or returns false without doing anything (the EP layer then runs the exchange
  // kernels around forward()). `local`: this rank's tokens and output; `exchange`: the layer's
  // sm90::ep::FusedExchange (kernels/sm90/ep/exchange.h). Both paths speak the same protocol, so
  // ranks need not agree on which one runs.
  virtual bool forward_ep_fused(const ForwardArgs& local, const void* exchange) {
    (void)local;
    (void)exchange;
    return false;
  }
  // The tactic an expert-parallel forward runs when this backend serves `rows` receive rows.
  virtual std::string tactic_for_ep(int64_t rows) const { return tactic_for(rows); }

  // Tactics (core/tactics.h). The names this backend can run (empty: no choice), and the one a
  // forward of T tokens runs: the forced tactic, else the table's for T's bucket, else the
  // backend's heuristic; a name that cannot run T (e.g. the one-launch kernel above its
  // limits) falls back to the heuristic. machine_key fills the machine part of a TacticKey.
  virtual std::vector<std::string> tactic_names() const { return {}; }
  virtual std::string tactic_for(int64_t T) const { (void)T; return ""; }
  virtual void machine_key(TacticKey* key) const { (void)key; }
  // The backend whose measured tactic entries this one borrows when the cache and the shipped
  // defaults hold none of its own ("" = none; core/tactics.h, lookup_donor_tactics): a split
  // backend names the Mega backend of its recipe, which runs this same split pipeline on the same
  // prepared weights above its kernel's sizes, so the timings of that backend's `megamoe tune`
  // cover these tactics too.
  virtual std::string tactic_table_donor() const { return ""; }
  // "" clears; else must be one of tactic_names() (InvalidArgument otherwise).
  virtual void force_tactic(const std::string& name);
  void set_tactic_table(const TacticTable& table) { table_ = table; }

 protected:
  // The forced tactic, else the table's entry for T ("" when neither).
  const std::string& requested_tactic(int64_t T) const {
    return forced_.empty() ? table_[size_t(tactic_bucket_index(T))] : forced_;
  }

 private:
  std::string forced_;
  TacticTable table_;
};

struct BackendInfo {
  std::string name;
  // Empty string: this backend can run `config` here; otherwise the reason it cannot.
  std::function<std::string(const MoeConfig&)> why_not;
  std::function<std::unique_ptr<Backend>(const MoeConfig&)> create;
};

// All backends in "auto" preference order (fastest first, cpu_reference last).
const std::vector<BackendInfo>& backend_registry();

}  // namespace megamoe
