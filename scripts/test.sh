#!/usr/bin/env bash
# Installs what the tests use beside imgpar (scripts/install_packages.sh
# --list test: libvips' tools, NumPy, OpenCV and scikit-image for Python,
# Slurm and munge, GNU parallel, strace, groff, zsh, fish) where missing,
# builds imgpar if needed (scripts/bootstrap.sh, which installs the build
# packages), and runs every test suite with CTest: unit, CLI end-to-end, the
# README's task index, Slurm and GNU parallel, and GPU (reported as skipped,
# not passed, on a machine without a usable GPU).
#
#   scripts/test.sh [CTEST ARGS...]      e.g. scripts/test.sh -R cli
#
# Installing needs root, or sudo without a password. Where neither is there,
# the script prints the apt-get line and goes on: the checks that need a
# missing tool say so and are skipped. IMGPAR_BUILD_DIR and IMGPAR_CMAKE_ARGS
# are bootstrap.sh's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Build and test packages in one apt-get run where both are missing.
if ! scripts/install_packages.sh test --group build test; then
    printf 'test: going on without them: the checks that need them are skipped\n' >&2
fi
scripts/bootstrap.sh
ctest --test-dir "${IMGPAR_BUILD_DIR:-build}" --output-on-failure "$@"
