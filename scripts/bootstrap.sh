#!/usr/bin/env bash
# Sets up and builds imgpar on Debian/Ubuntu: installs the packages that
# building and running need (only those that are missing; as root, or with
# sudo) and builds. Safe to run again: it rebuilds only what changed.
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

# What building and running need, where missing: the compiler, CMake, the
# stb, cxxopts and doctest headers, libjpeg-turbo, libpng, zlib and Highway
# (scripts/install_packages.sh --list build). The test-only packages are
# scripts/test.sh's to install.
if ! scripts/install_packages.sh bootstrap --group build; then
    command -v apt-get >/dev/null 2>&1 ||
        say "or point CMake at the headers with -DSTB_INCLUDE_DIR=... -DCXXOPTS_INCLUDE_DIR=... -DDOCTEST_INCLUDE_DIR=..."
    exit 1
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
