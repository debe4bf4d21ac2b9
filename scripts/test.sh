#!/usr/bin/env bash
# Builds imgpar if needed (scripts/bootstrap.sh) and runs every test suite
# with CTest: unit, CLI end-to-end, and GPU (reported as skipped, not passed,
# on a machine without a usable GPU).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/bootstrap.sh
ctest --test-dir "${IMGPAR_BUILD_DIR:-build}" --output-on-failure "$@"
