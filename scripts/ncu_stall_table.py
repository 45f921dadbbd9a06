#!/usr/bin/env python3
"""One line per kernel from an ncu raw-page CSV: its duration, its DRAM bytes read (when the CSV has
dram__bytes_read.sum), its six largest warp stall reasons (smsp__warp_issue_stalled_*_per_warp_active.pct,
% of warp-active cycles) and any other metric in the CSV (name=value).

    ncu --import R.ncu-rep --page raw --csv --metrics gpu__time_duration.sum,<stall metrics> > R.csv
    python3 scripts/ncu_stall_table.py R.csv
    python3 scripts/ncu_stall_table.py --stall-metrics   # the stall metrics, comma-separated, for ncu
"""
import csv
import sys

# Warp stall reasons (smsp__warp_issue_stalled_<reason>_per_warp_active.pct) the prepared ncu jobs ask for.
STALL_REASONS = ("long_scoreboard short_scoreboard barrier membar mio_throttle lg_throttle math_pipe_throttle "
                 "tex_throttle wait not_selected selected no_instruction branch_resolving dispatch_stall drain "
                 "imc_miss sleeping misc").split()


def main(path):
    rows = list(csv.reader(open(path)))
    hdr = next((i for i, r in enumerate(rows) if "gpu__time_duration.sum" in r), None)
    if hdr is None:
        sys.exit("  no stall table: " + " | ".join(",".join(r) for r in rows[:3])[:300])
    names = rows[hdr]
    for r in rows[hdr + 2:]:  # after the header and the units row
        stalls = []
        for name, v in zip(names, r):
            if "_issue_stalled_" in name:
                try:
                    stalls.append((float(v.replace(",", "")), name.split("_issue_stalled_")[1].split("_per_warp")[0]))
                except ValueError:
                    pass
        dur = r[names.index("gpu__time_duration.sum")]
        rd = r[names.index("dram__bytes_read.sum")] if "dram__bytes_read.sum" in names else "?"
        # Any other metric the CSV was asked for (e.g. shared-memory wavefronts, issue-slot use).
        extra = [f"{n.split('.')[0]}={v}" for n, v in zip(names, r)
                 if "__" in n and "_issue_stalled_" not in n and n not in ("gpu__time_duration.sum", "dram__bytes_read.sum")]
        print("  kernel", dur, "read", rd, "top stalls (% of warp-active cycles):",
              ", ".join(f"{k} {v:.1f}" for v, k in sorted(stalls, reverse=True)[:6]), *(["|"] + extra if extra else []))


if __name__ == "__main__":
    if sys.argv[1:] == ["--stall-metrics"]:
        print(",".join(f"smsp__warp_issue_stalled_{r}_per_warp_active.pct" for r in STALL_REASONS))
    else:
        main(sys.argv[1])
