#!/usr/bin/env bash
# Fuzzes the frame decoder and the message codec (Sources/FrameFuzzer) with libFuzzer for a set time.
#
#   scripts/fuzz.sh [SECONDS] [JOBS]      defaults: 60 seconds, 1 job
#
# Builds FrameFuzzer in release with -sanitize=fuzzer,address into its own scratch path (.build-fuzz),
# writes the seed corpus (fuzz/corpus/: one real frame per file, from SeedFrames.swift), then runs
# libFuzzer on fuzz/corpus-generated/ (where it keeps what it finds; gitignored) seeded by fuzz/corpus/.
# Crash, timeout and out-of-memory inputs land in fuzz/crashes/; logs in fuzz/logs/ (both gitignored).
# Prints the inputs tried (execs), execs per second, coverage and the crashes of this run; exits 1
# if there were any. Replay a crash without sanitizers through an ordinary build:
#   swift build --product FrameFuzzer && .build/debug/FrameFuzzer fuzz/crashes/crash-...
# Idempotent; installs what is missing (project packages, lld) with apt, through sudo only when not root.
set -euo pipefail

seconds=${1:-60}
jobs=${2:-1}
case "$seconds$jobs" in *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS] [JOBS]" >&2; exit 2 ;; esac
[ "$jobs" -ge 1 ] || { echo "fuzz: JOBS must be at least 1" >&2; exit 2; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

# --- Tools: the project's packages, a linker that handles the sanitizer runtimes, the fuzzer runtime.
bash scripts/install-deps.sh >/dev/null

swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
if [ ! -x "$swift_bin/ld.lld" ] && ! command -v ld.lld >/dev/null; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  echo "fuzz: installing lld"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends lld
fi
# swiftc links libFuzzer and ASan from its own clang resource directory; Debian's libclang-rt-*-dev
# installs them for Debian's clang, where swiftc does not look, so a toolchain without them cannot fuzz.
if ! ls "$swift_bin"/../lib/swift/clang/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 \
  && ! ls "$swift_bin"/../lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
  echo "fuzz: this Swift toolchain has no libclang_rt.fuzzer (swift.org Linux toolchains ship it)" >&2
  exit 1
fi

# --- Build (see shared notes "Fuzzing Swift code with libFuzzer": every flag here is needed).
echo "fuzz: building FrameFuzzer (release, -sanitize=fuzzer,address) in .build-fuzz"
swift build -c release --scratch-path .build-fuzz --product FrameFuzzer \
  --sanitize=fuzzer --sanitize=address \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld
fuzzer="$root/.build-fuzz/release/FrameFuzzer"

# The seed frames are process-long statics that LeakSanitizer misreads as leaks (see the file).
export LSAN_OPTIONS="suppressions=$root/fuzz/lsan-suppressions.txt${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# --- Corpus: the seeds are regenerated (same names, same bytes) so they follow the codec.
mkdir -p fuzz/corpus fuzz/corpus-generated fuzz/crashes fuzz/logs
FRAMEFUZZER_WRITE_CORPUS="$root/fuzz/corpus" "$fuzzer"

# --- Run. Swift's crash backtracer reads the crashed process's memory in ways ASan reports as an
# overflow of its own; with it off, a trap reaches libFuzzer's handler directly.
export SWIFT_BACKTRACE=enable=no
marker=$(mktemp)
trap 'rm -f "$marker"' EXIT
rm -f fuzz/logs/fuzz-*.log
flags=(
  -max_total_time="$seconds" -print_final_stats=1 -max_len=8192 -timeout=10
  -artifact_prefix="$root/fuzz/crashes/"
)
echo "fuzz: $jobs job(s) for ${seconds}s; seeds: $(ls fuzz/corpus | wc -l), corpus so far: $(ls fuzz/corpus-generated | wc -l)"
started=$(date +%s)
status=0
if [ "$jobs" -eq 1 ]; then
  "$fuzzer" "${flags[@]}" fuzz/corpus-generated fuzz/corpus >fuzz/logs/fuzz-0.log 2>&1 || status=$?
else
  # libFuzzer writes fuzz-<n>.log into the current directory, one per job.
  (cd fuzz/logs && "$fuzzer" "${flags[@]}" -jobs="$jobs" -workers="$jobs" \
    "$root/fuzz/corpus-generated" "$root/fuzz/corpus" >/dev/null 2>&1) || status=$?
fi
elapsed=$(( $(date +%s) - started ))

# --- Figures, summed over the jobs' logs.
execs=0
for log in fuzz/logs/fuzz-*.log; do
  n=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  if [ -z "$n" ]; then # no final stats (killed): take the last status line's count
    n=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#' || true)
  fi
  execs=$(( execs + ${n:-0} ))
done
last=$(grep -h -E '^#[0-9]+' fuzz/logs/fuzz-*.log | tail -1 || true)
cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || echo "?")
crashes=$(find fuzz/crashes -type f -newer "$marker" | sort)
crash_count=$(grep -c . <<<"$crashes" || true)

echo "fuzz: ran ${elapsed}s with $jobs job(s)"
echo "fuzz: execs (inputs tried): $execs ($(( execs / (elapsed > 0 ? elapsed : 1) )) per second)"
echo "fuzz: coverage: cov $cov, features $ft (last status line of the last log)"
echo "fuzz: corpus: $(ls fuzz/corpus | wc -l) seeds, $(ls fuzz/corpus-generated | wc -l) generated inputs"
echo "fuzz: crashes this run: $crash_count"
if [ "$crash_count" -gt 0 ]; then
  sed 's/^/  /' <<<"$crashes"
  grep -h -m3 -E 'Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer|SUMMARY' fuzz/logs/fuzz-*.log | sed 's/^/  /' || true
  echo "fuzz: logs in fuzz/logs/; minimize with: $fuzzer -minimize_crash=1 -runs=100000 CRASHFILE"
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "fuzz: libFuzzer exited with $status; see fuzz/logs/" >&2
  exit "$status"
fi
