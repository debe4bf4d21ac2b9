#!/usr/bin/env bash
# Sets up and builds imgpar on Debian/Ubuntu. Safe to run again: it installs
# only what is missing and rebuilds only what changed.
#
#   scripts/bootstrap.sh            # Release build into build/
#
# Environment:
#   IMGPAR_BUILD_DIR   build folder (default: build)
#   IMGPAR_CMAKE_ARGS  extra CMake arguments, e.g. "-DIMGPAR_CUDA=OFF" or
#                      "-DCMAKE_CUDA_ARCHITECTURES=90"
#
# The CUDA toolkit is optional and is not installed here: when nvcc is found
# (on PATH or in /usr/local/cuda) the GPU backend is built, otherwise imgpar
# builds for the CPU only.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
build_dir="${IMGPAR_BUILD_DIR:-build}"

say() { printf 'bootstrap: %s\n' "$*" >&2; }

# Debian/Ubuntu package -> a file that proves it is installed.
declare -A probes=(
    [cmake]=/usr/bin/cmake
    [g++]=/usr/bin/g++
    [make]=/usr/bin/make
    [libstb-dev]=/usr/include/stb/stb_image_write.h
    [libcxxopts-dev]=/usr/include/cxxopts.hpp
    [doctest-dev]=/usr/include/doctest/doctest.h
    [libjpeg-dev]=/usr/include/jpeglib.h
    [libpng-dev]=/usr/include/png.h
    # The CPU filters' SIMD with runtime dispatch (Google Highway).
    [libhwy-dev]=/usr/include/hwy/highway.h
    # For the tests only: every file imgpar writes must decode to the same
    # pixels in libvips (tests/cli/test_cli_vips.cpp).
    [libvips-tools]=/usr/bin/vips
    # For the tests only: integral's .npy files are read back by NumPy and
    # compared with OpenCV's cv2.integral (tests/cli/test_cli_integral.cpp).
    [python3-numpy]=/usr/lib/python3/dist-packages/numpy/__init__.py
    [python3-opencv]=/usr/lib/python3/dist-packages/cv2
    # For the tests only: array jobs under a one-node Slurm that the test
    # starts, and GNU parallel (tests/scale/).
    [slurm-wlm]=/usr/sbin/slurmd
    [munge]=/usr/sbin/munged
    [parallel]=/usr/bin/parallel
    # For the tests only: a run reads each input once (tests/cli/test_cli_reads.cpp).
    [strace]=/usr/bin/strace
)
missing=()
for pkg in cmake g++ make libstb-dev libcxxopts-dev doctest-dev libjpeg-dev libpng-dev libhwy-dev libvips-tools \
           python3-numpy python3-opencv slurm-wlm munge parallel strace; do
    [[ -e "${probes[$pkg]}" ]] || missing+=("$pkg")
done

if ((${#missing[@]})); then
    if ! scripts/install_packages.sh bootstrap "${missing[@]}"; then
        command -v apt-get >/dev/null 2>&1 ||
            say "or point CMake at the headers with -DSTB_INCLUDE_DIR=... -DCXXOPTS_INCLUDE_DIR=... -DDOCTEST_INCLUDE_DIR=..."
        exit 1
    fi
fi

cmake_version=$(cmake --version | head -n1 | awk '{print $3}')
if ! printf '3.25\n%s\n' "$cmake_version" | sort -V -C; then
    say "CMake $cmake_version is too old: imgpar needs 3.25 or newer (Debian 12, Ubuntu 24.04)"
    exit 1
fi

# shellcheck disable=SC2206
extra_args=(${IMGPAR_CMAKE_ARGS:-})
if [[ ! -f "$build_dir/CMakeCache.txt" || ${#extra_args[@]} -gt 0 ]]; then
    cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "${extra_args[@]}"
fi
cmake --build "$build_dir" -j "$(nproc)"
say "built $build_dir/imgpar ($("$build_dir/imgpar" --version | tr '\n' ' '))"
