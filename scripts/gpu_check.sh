#!/usr/bin/env bash
# On a GPU machine: build for the local GPU, run every test suite (the GPU
# suite must run, not skip), then the benchmark. Logs go to LOG_DIR.
#
#   scripts/gpu_check.sh [LOG_DIR] [extra cmake args...]
#
# e.g. on an offline node with copied stb headers:
#   scripts/gpu_check.sh logs -DSTB_INCLUDE_DIR=$PWD/headers/stb
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
log_dir="${1:-gpu-logs}"
shift || true
mkdir -p "$log_dir"
build_dir="${IMGPAR_BUILD_DIR:-build-gpu}"
arch="${IMGPAR_CUDA_ARCH:-native}"

step() { printf '\n=== %s\n' "$*" | tee -a "$log_dir/summary.txt"; }

step "configure (CUDA architectures: $arch)"
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release -DIMGPAR_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES="$arch" "$@" \
    >"$log_dir/configure.log" 2>&1 || { tail -30 "$log_dir/configure.log"; exit 1; }
step "build"
cmake --build "$build_dir" -j "$(nproc)" >"$log_dir/build.log" 2>&1 || { grep -E -A5 "error" "$log_dir/build.log" | head -60; exit 1; }
grep -E "warning" "$log_dir/build.log" | head -20 | tee -a "$log_dir/summary.txt"

step "devices"
"$build_dir/imgpar" devices 2>&1 | tee -a "$log_dir/summary.txt"

step "tests"
ctest --test-dir "$build_dir" --output-on-failure >"$log_dir/ctest.log" 2>&1
ctest_rc=$?
tail -12 "$log_dir/ctest.log" | tee -a "$log_dir/summary.txt"
for suite in imgpar_tests imgpar_cli_tests imgpar_gpu_tests; do
    "$build_dir/tests/$suite" >"$log_dir/$suite.log" 2>&1
    echo "$suite: exit $? | $(grep -E '^\[doctest\] test cases' "$log_dir/$suite.log")" | tee -a "$log_dir/summary.txt"
done
grep -E "^\[imgpar\]" "$log_dir/imgpar_gpu_tests.log" | tee -a "$log_dir/summary.txt"
grep -E -B2 -A8 "ERROR|FATAL" "$log_dir/imgpar_gpu_tests.log" | head -80 >"$log_dir/gpu_failures.txt"

if [[ "${IMGPAR_SKIP_BENCH:-0}" != 1 ]]; then
    step "benchmark"
    "$build_dir/bench/imgpar_bench" ${IMGPAR_BENCH_ARGS:-} >"$log_dir/bench.md" 2>"$log_dir/bench.err"
    echo "bench exit $?" | tee -a "$log_dir/summary.txt"
    cat "$log_dir/bench.md" | tee -a "$log_dir/summary.txt"
    tail -5 "$log_dir/bench.err"
fi
exit $ctest_rc
