#!/usr/bin/env bash
# Broker instructions per call (the repeatable figure of benchmarks/PROFILE.md): the daemon runs under
# callgrind (debug info stripped: valgrind 3.19 cannot read Swift's DWARF 5), healthload does the setup
# and a warm-up, the counts are zeroed, healthload -c 4 -d 64 drives one op, and the dump's total Ir
# (every thread of the daemon, libuv and libc included) is divided by the calls completed.
#
# usage: benchmarks/callgrind-per-call.sh HEALTHBROKERD [SECONDS] [OPS...]
#   e.g. benchmarks/callgrind-per-call.sh /tmp/base/.build/release/healthbrokerd 6 ping easd status reqstatus query save
# healthload comes from .build/release (HEALTHLOAD overrides); query streams 100 samples a call and
# save writes 10 (healthload's defaults). Prints "op Ir calls Ir/call" per op; KEEP=1 keeps the dumps.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
healthload="${HEALTHLOAD:-$here/../.build/release/healthload}"
[ $# -ge 1 ] || { sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
daemon="$1"; shift
seconds="${1:-6}"; [ $# -ge 1 ] && shift
ops=("$@"); [ ${#ops[@]} -gt 0 ] || ops=(ping easd status reqstatus query save)
stripped=$(mktemp /tmp/callgrind-daemon.XXXXXX)
cp "$daemon" "$stripped" && chmod 755 "$stripped" && strip --strip-debug "$stripped"
for op in "${ops[@]}"; do
  work=$(mktemp -d /tmp/callgrind.XXXXXX)
  valgrind --tool=callgrind --collect-atstart=yes --callgrind-out-file="$work/cg.out" \
    "$stripped" --socket "$work/app.sock" --admin-socket "$work/admin.sock" --data-dir "$work/data" \
    --log-level warning 2>"$work/valgrind.log" &
  pid=$!
  for _ in $(seq 1 300); do [ -S "$work/admin.sock" ] && break; sleep 0.1; done
  common=(--socket "$work/app.sock" --admin-socket "$work/admin.sock" --op "$op" -c 4 -d 64 --quiet)
  "$healthload" "${common[@]}" --warmup 1 --duration 2 >/dev/null 2>&1
  callgrind_control -z "$pid" >/dev/null 2>&1
  "$healthload" "${common[@]}" --warmup 0 --duration "$seconds" --json "$work/report.json" >/dev/null 2>&1
  callgrind_control -d "$pid" >/dev/null 2>&1
  sleep 1
  calls=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["completed"])' "$work/report.json" 2>/dev/null || echo 0)
  # The dump after zeroing holds the window; sum its totals (one file per dump, the last one).
  dump=$(ls -t "$work"/cg.out.* 2>/dev/null | head -1)
  ir=$(grep -h '^totals:' "$dump" 2>/dev/null | awk '{s+=$2} END {printf "%.0f\n", s}')
  python3 -c 'import sys; op,ir,calls=sys.argv[1],int(sys.argv[2]),int(sys.argv[3]); print("%-10s Ir=%d calls=%d Ir/call=%s" % (op, ir, calls, "{:,.0f}".format(ir/calls) if calls else "nan"))' "$op" "$ir" "$calls"
  kill "$pid"; wait "$pid" 2>/dev/null
  [ -n "${KEEP:-}" ] && echo "  dumps in $work" || rm -rf "$work"
done
rm -f "$stripped"
