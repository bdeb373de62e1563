#!/usr/bin/env bash
# Configure, build and run the whole test suite. Usage: tests/run-all.sh [BUILD_DIR]
# Extra CMake arguments may be passed in CMAKE_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
# shellcheck disable=SC2086
cmake -S . -B "$build" ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j 2 -LE bench
