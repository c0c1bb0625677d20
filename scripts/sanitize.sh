#!/usr/bin/env bash
# Runs the test suite under ThreadSanitizer or AddressSanitizer (+ LeakSanitizer) and judges the run.
#
#   scripts/sanitize.sh thread|address [--parallel] [-- EXTRA SWIFT TEST ARGUMENTS]
#
# Builds everything with `--sanitize=KIND` into its own scratch path (.build-tsan / .build-asan), then
# runs `swift test --skip-build --sanitize=KIND --skip HealthloadTests`. The end-to-end tests start
# `healthbrokerd` from the same build folder, so the daemon runs sanitized too. Every process writes
# its sanitizer reports to SCRATCH/sanitizer-logs/ (wiped at the start; gitignored), and the script
# reads them at the end:
#   - thread:  every "WARNING: ThreadSanitizer" report and any TSan runtime failure counts.
#   - address: every AddressSanitizer error counts. A leak record counts when one of its frames is in
#     this repository's Sources/; the rest (XCTest, Foundation's Process, Swift runtime records that
#     LeakSanitizer cannot follow) are listed as "other" and do not fail the run.
# Exits 0 when every test passed and no report counts; 1 otherwise; 2 on a usage error.
#
# Tests run one at a time (--no-parallel) unless --parallel is given: the sanitizers make code 2-15x
# slower, and with all suites at once the CPU-heavy tests take every thread of Swift's cooperative
# pool (one per core) for many seconds, so the deadline and daemon start-up tests fail on timing.
# HealthloadTests are skipped: they drive the load tool for fixed durations and measure throughput.
set -euo pipefail

usage() { echo "usage: scripts/sanitize.sh thread|address [--parallel] [-- SWIFT TEST ARGS]" >&2; exit 2; }

kind=${1:-}
case "$kind" in
  thread) scratch=.build-tsan ;;
  address) scratch=.build-asan ;;
  *) usage ;;
esac
shift
parallel=(--no-parallel)
while [ $# -gt 0 ]; do
  case "$1" in
    --parallel) parallel=(); shift ;;
    --) shift; break ;;
    *) usage ;;
  esac
done

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
logs="$root/$scratch/sanitizer-logs"

started=$(date +%s)
echo "sanitize: building with --sanitize=$kind into $scratch"
swift build --build-tests --sanitize="$kind" --scratch-path "$scratch"
built=$(date +%s)

rm -rf "$logs"
mkdir -p "$logs"
# The Swift runtime's crash backtracer forks inside the crashing process, which TSan cannot follow:
# a crashing test then hangs the whole run instead of failing it.
export SWIFT_BACKTRACE=enable=no
if [ "$kind" = thread ]; then
  export TSAN_OPTIONS="halt_on_error=0 second_deadlock_stack=1 log_path=$logs/tsan"
else
  # Leaks are judged from the logs below, not by the exit status (which every XCTest process would
  # otherwise fail on, for leaks in XCTest itself).
  export ASAN_OPTIONS="detect_leaks=1 log_path=$logs/asan"
  export LSAN_OPTIONS="exitcode=0"
fi

echo "sanitize: swift test --skip-build --sanitize=$kind --scratch-path $scratch --skip HealthloadTests ${parallel[*]} $*"
set +e
swift test --skip-build --sanitize="$kind" --scratch-path "$scratch" --skip HealthloadTests "${parallel[@]}" "$@" \
  2>&1 | tee "$logs/swift-test.out"
test_status=${PIPESTATUS[0]}
set -e
finished=$(date +%s)

# --- Judge the reports.
shopt -s nullglob
report_files=("$logs"/tsan.* "$logs"/asan.*)
counted=0
other=0
other_lines=()
for file in "${report_files[@]}"; do
  process=test
  grep -q 'healthbrokerd_main' "$file" && process=healthbrokerd
  if [ "$kind" = thread ]; then
    n=$(grep -c -E 'WARNING: ThreadSanitizer|ThreadSanitizer: CHECK failed|ERROR: ThreadSanitizer' "$file" || true)
    if [ "$n" -gt 0 ]; then
      counted=$((counted + n))
      echo "sanitize: $n TSan report(s) from $process: $file"
    fi
    continue
  fi
  n=$(grep -c 'ERROR: AddressSanitizer' "$file" || true)
  if [ "$n" -gt 0 ]; then
    counted=$((counted + n))
    echo "sanitize: AddressSanitizer error from $process: $file"
  fi
  # One leak record per paragraph; it is ours when a frame points into Sources/.
  while IFS=$'\t' read -r ours summary; do
    [ -n "$summary" ] || continue
    if [ "$ours" = 1 ]; then
      counted=$((counted + 1))
      echo "sanitize: leak in the project's code ($process): $summary  [$file]"
    else
      other=$((other + 1))
      other_lines+=("$process: $summary")
    fi
  done < <(awk -v src="$root/Sources/" '
    /^(Direct|Indirect) leak of/ { if (head != "") print ours "\t" head " @ " where; head = $0; ours = 0; where = ""; next }
    head != "" && /^ *#[0-9]+ / {
      if (index($0, src) > 0) ours = 1
      if (where == "" && $0 !~ /asan_malloc|swift_slowAlloc|swift_allocObject|posix_memalign|RefCounts|swift_weak|_allocateUninitialized|ContiguousArrayBuffer/) where = $4
      next
    }
    /^$/ { if (head != "") print ours "\t" head " @ " where; head = "" }
    END { if (head != "") print ours "\t" head " @ " where }
  ' "$file")
done
if [ "$other" -gt 0 ]; then
  echo "sanitize: $other leak record(s) outside the project's Sources/ (not counted), by first frame:"
  printf '%s\n' "${other_lines[@]}" | sed -E 's/^([a-z]+): (Direct|Indirect) leak of [0-9]+ byte\(s\) in [0-9]+ object\(s\) allocated from: @ /\1 \2: /' \
    | sort | uniq -c | sort -rn | head -20
fi

summary=$(grep -E 'Test run with [0-9]+ tests' "$logs/swift-test.out" | tail -1 || true)
echo "sanitize: $kind: ${summary:-no swift-testing summary}"
echo "sanitize: $kind: swift test exit status $test_status; $counted report(s) counted; build $((built - started)) s, tests $((finished - built)) s; logs in $logs"
if [ "$test_status" -ne 0 ] || [ "$counted" -gt 0 ]; then exit 1; fi
exit 0
