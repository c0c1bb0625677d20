#!/usr/bin/env bash
# Whether a read-denied app can tell its store from one that holds only its own samples, by the
# answers or by the time its calls take. Two fresh release daemons on temporary sockets and data dirs:
#   A  app privacy.x read-denied for steps, heart rate and sleep; privacy.watch and privacy.ring import
#      --other-samples samples of those types around x's windows, one sleep and one heart-rate sample
#      spanning 2000-01-02 to today, and delete some of theirs (before and after x's old anchor)
#   B  privacy.x may read everything; the store holds only x's samples (the same ones as in A)
# BrokerScenarios privacy fills both (admin import; grants answered as the consent agent), compares
# each call's answers, then times each call from the client, one in flight, A and B interleaved,
# then A against A (the noise band), for R rounds; Hello is compared within A (known ÷ unknown id).
# With --aa-copy a third daemon is filled as A and the band is A against it: two processes, as A and
# B are, so it also shows how far two brokers drift apart on a shared machine (writes: checkpoints).
# Prints a line per call and round, then the verdicts; JSON (--out) for the docs.
#
# usage: benchmarks/privacy.sh [--other-samples N] [--calls N] [--warmup-calls N] [--rounds R] [--aa-copy]
#          [--only-calls LIST] [--max-ratio X] [--alpha P] [--out DIR] [--scratch-path DIR] [--no-build]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

other_samples=100000
calls=2000
warmup_calls=200
rounds=3
only_calls=""
max_ratio=1.10
alpha=0.01
out=""
scratch="$repo/.build"
build=1
aa_copy=0

usage() { sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --other-samples) other_samples="$2"; shift 2 ;;
    --calls) calls="$2"; shift 2 ;;
    --warmup-calls) warmup_calls="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --only-calls) only_calls="$2"; shift 2 ;;
    --max-ratio) max_ratio="$2"; shift 2 ;;
    --alpha) alpha="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --scratch-path) scratch="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    --aa-copy) aa_copy=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "privacy.sh: unknown argument $1" >&2; usage ;;
  esac
done
say() { printf '%s\n' "privacy: $*" >&2; }

# shellcheck source=common/release-build.sh
. "$here/common/release-build.sh"
release_build "$repo" "$scratch" "$build"

work="$(mktemp -d /tmp/hb-privacy.XXXXXX)"
[ -n "$out" ] || out="$work/results"
mkdir -p "$out"
pids=()

cleanup() {
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" 2>/dev/null || true; fi
  done
  rm -rf "$work/d"
  rmdir "$work" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_daemon NAME: a fresh daemon with its own sockets and data directory; sets NAME_socket, NAME_admin.
start_daemon() {
  local name="$1" dir="$work/d/$1"
  mkdir -p "$dir"
  "$bin/healthbrokerd" --socket "$dir/app.sock" --admin-socket "$dir/admin.sock" --data-dir "$dir/data" \
    --log-level warning 2>>"$out/daemon-$name.log" &
  local pid=$!
  pids+=("$pid")
  for _ in $(seq 1 100); do
    [ -S "$dir/app.sock" ] && [ -S "$dir/admin.sock" ] && break
    kill -0 "$pid" 2>/dev/null || { say "daemon $name exited; see $out/daemon-$name.log"; exit 1; }
    sleep 0.1
  done
  [ -S "$dir/app.sock" ] || { say "daemon $name did not start"; exit 1; }
  printf -v "${name}_socket" '%s' "$dir/app.sock"
  printf -v "${name}_admin" '%s' "$dir/admin.sock"
  say "daemon $name: pid $pid"
}

say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
start_daemon A
start_daemon B

extra=()
[ -n "$only_calls" ] && extra=(--only-calls "$only_calls")
if [ "$aa_copy" = 1 ]; then
  start_daemon A2
  extra+=(--a-copy-socket "$A2_socket" --a-copy-admin-socket "$A2_admin")
fi
began=$(date +%s)
"$bin/BrokerScenarios" privacy --socket "$A_socket" --admin-socket "$A_admin" \
  --b-socket "$B_socket" --b-admin-socket "$B_admin" \
  --other-samples "$other_samples" --calls "$calls" --warmup-calls "$warmup_calls" --rounds "$rounds" \
  --max-ratio "$max_ratio" --alpha "$alpha" "${extra[@]}" \
  --json "$out/privacy.json" --json-lines "$out/privacy.jsonl"
say "run took $(( $(date +%s) - began )) s; JSON, JSON lines and daemon logs in $out"
