#!/usr/bin/env bash
# Nsight Compute's view of one kernel of imgpar_bench: where its time goes
# (speed of light, warp stall reasons, scheduler issue rate, memory traffic,
# occupancy), for the tuning notes in bench/TUNING.md. The clocks are left as
# they are (--clock-control none), as the benchmark runs them.
#
#   bench/profile_kernel.sh BENCH KERNEL_REGEX [IMGPAR_BENCH_ARGS...]
#
# e.g. IMGPAR_EDGES_ROWS=1 bench/profile_kernel.sh build-gpu/bench/imgpar_bench rows_kernel \
#          --only operations --operations edges
# Prints the report of the first launch whose name matches KERNEL_REGEX.
set -euo pipefail
(($# >= 2)) || { sed -n '2,12p' "$0" >&2; exit 2; }
bench=$1
regex=$2
shift 2
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1 || true)
[[ -n $ncu ]] || { echo "profile_kernel.sh: Nsight Compute (ncu) is not installed here" >&2; exit 2; }
exec "$ncu" --clock-control none --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
    --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats -k "regex:$regex" -c 1 \
    "$bench" --no-cpu --quick "$@"
