#!/usr/bin/env bash
# Fuzz the workload loaders: each libFuzzer target of BUILD_DIR (configured with
# -DLOADGEN_FUZZ=ON and clang) runs for SECONDS, starting from a fresh corpus made of
# every committed input (loadfiles/, tests/data/: YAML, dbench, hostile cases).
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS
# Exits non-zero if any target found a crash, leak, timeout or memory blow-up; the input
# that did it is kept in BUILD_DIR/fuzz-artifacts/TARGET/ and its path is printed.
# Reproduce with: BUILD_DIR/tests/fuzz/TARGET PATH
set -uo pipefail
if [ $# -ne 2 ] || ! [[ $2 =~ ^[0-9]+$ ]] || [ "$2" -lt 1 ]; then
  echo "usage: $0 BUILD_DIR SECONDS" >&2
  exit 2
fi
src=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd) || exit 2
seconds=$2
status=0

work=$(mktemp -d "${TMPDIR:-/tmp}/lgfuzz.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

for target in fuzz_yaml fuzz_dbench fuzz_trace; do
  bin=$build/tests/fuzz/$target
  if [ ! -x "$bin" ]; then
    echo "$0: $bin missing: configure $build with -DLOADGEN_FUZZ=ON (clang) and build" >&2
    exit 2
  fi
  # A fresh corpus per target, seeded with every committed input; the names are made
  # unique because libFuzzer keeps one flat directory.
  corpus=$work/$target
  mkdir -p "$corpus"
  find "$src/loadfiles" "$src/tests/data" -type f -size -1024k -print0 |
    while IFS= read -r -d '' f; do
      cp "$f" "$corpus/$(printf '%s' "${f#"$src"/}" | tr '/' '_')"
    done
  artifacts=$build/fuzz-artifacts/$target
  rm -rf "$artifacts"
  mkdir -p "$artifacts"
  echo "== $target: ${seconds}s, corpus $(ls "$corpus" | wc -l) seeds"
  # -max_len 64 KiB: workloads are small, and longer inputs only slow the search.
  # -timeout 10 s per input and -rss_limit_mb 2048 turn hangs and blow-ups into
  # failures; leaks are reported by ASan's LeakSanitizer at the end of each input.
  "$bin" -max_len=65536 -rss_limit_mb=2048 -timeout=10 -max_total_time="$seconds" \
    -print_final_stats=1 -artifact_prefix="$artifacts/" \
    -dict="$src/tests/fuzz/${target#fuzz_}.dict" "$corpus" >"$work/$target.log" 2>&1
  rc=$?
  tail -n 25 "$work/$target.log"
  if [ $rc -ne 0 ]; then
    status=1
    echo "FAIL: $target exited $rc; the log is above"
    for f in "$artifacts"/*; do
      [ -e "$f" ] && echo "FAIL: $target input kept at $f (reproduce: $bin $f)"
    done
  else
    echo "ok: $target ran ${seconds}s without a finding"
  fi
done
exit $status
