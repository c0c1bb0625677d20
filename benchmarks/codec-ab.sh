#!/usr/bin/env bash
# Broker CPU per call, two daemon builds side by side: A and B alternately (A first in odd rounds, B
# first in even ones), each on a fresh temporary data directory, driven by the same healthload over
# the same ops. Made for changes to the codec (issue 16: the generated wire code against the
# hand-written one), where the daemon's work per call is what moves.
#
# usage: benchmarks/codec-ab.sh A_HEALTHBROKERD B_HEALTHBROKERD [ROUNDS] [SECONDS]
#   e.g. git worktree add /tmp/base OLD && (cd /tmp/base && swift build -c release --product healthbrokerd)
#        swift build -c release --product healthbrokerd; swift build -c release --product healthload
#        benchmarks/codec-ab.sh /tmp/base/.build/release/healthbrokerd .build/release/healthbrokerd 5 3
# healthload comes from .build/release (HEALTHLOAD overrides). OPS replaces the op list (default
# "ping easd status reqstatus query anchored save"; query and anchored (an AnchoredQuery without an
# anchor) stream 512 samples a call, save writes 100).
# Prints a line per run, then per op the median broker CPU µs per call of A and B and B/A, and the
# B/A of each round's pair (their spread is this machine's noise).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
healthload="${HEALTHLOAD:-$here/../.build/release/healthload}"
[ $# -ge 2 ] || { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
declare -A daemon=([A]="$1" [B]="$2")
rounds="${3:-3}"
seconds="${4:-3}"
ops="${OPS:-ping easd status reqstatus query anchored save}"
for who in A B; do [ -x "${daemon[$who]}" ] || { echo "codec-ab: ${daemon[$who]} is not executable" >&2; exit 2; }; done
[ -x "$healthload" ] || { echo "codec-ab: no $healthload (swift build -c release --product healthload)" >&2; exit 2; }
results=$(mktemp /tmp/codec-ab.XXXXXX)
trap 'rm -f "$results"' EXIT

run() { # who op round
  local who=$1 op=$2 round=$3 work pid extra=()
  work=$(mktemp -d /tmp/codec-ab.XXXXXX)
  "${daemon[$who]}" --socket "$work/app.sock" --admin-socket "$work/admin.sock" --data-dir "$work/data" \
    --log-level warning 2>"$work/daemon.log" &
  pid=$!
  for _ in $(seq 1 100); do [ -S "$work/admin.sock" ] && break; sleep 0.1; done
  case $op in query|anchored) extra=(--query-samples 512 --depth 4) ;; save) extra=(--batch 100 --depth 4) ;; *) extra=(--depth 32) ;; esac
  "$healthload" --socket "$work/app.sock" --admin-socket "$work/admin.sock" --broker-pid "$pid" --op "$op" \
    --connections 1 "${extra[@]}" --duration "$seconds" --warmup 1 --quiet --json "$work/report.json" >/dev/null 2>&1
  local cpu
  cpu=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("%.3f" % r["broker"]["cpuMicrosPerCall"])' \
    "$work/report.json" 2>/dev/null || echo nan)
  echo "round=$round op=$op daemon=$who broker_cpu_us_per_call=$cpu load=$(cut -d' ' -f1 /proc/loadavg)"
  echo "$round $op $who $cpu" >>"$results"
  kill "$pid"; wait "$pid" 2>/dev/null
  rm -rf "$work"
}

for round in $(seq 1 "$rounds"); do
  order="A B"; [ $((round % 2)) -eq 0 ] && order="B A"
  for op in $ops; do
    for who in $order; do run "$who" "$op" "$round"; done
  done
done

python3 - "$results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
ops = []
for _, op, _, _ in rows:
    if op not in ops: ops.append(op)
print("\nop          A µs/call   B µs/call   B/A    per-round B/A")
for op in ops:
    a = {r: float(c) for r, o, w, c in rows if o == op and w == "A" and c != "nan"}
    b = {r: float(c) for r, o, w, c in rows if o == op and w == "B" and c != "nan"}
    if not a or not b: continue
    ma, mb = statistics.median(a.values()), statistics.median(b.values())
    pairs = " ".join("%.2f" % (b[r] / a[r]) for r in sorted(a, key=int) if r in b and a[r] > 0)
    print("%-10s %10.2f  %10.2f  %5.2f    %s" % (op, ma, mb, mb / ma if ma else float("nan"), pairs))
PY
