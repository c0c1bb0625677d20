#!/usr/bin/env bash
# Broker instructions per call (the repeatable figure of benchmarks/PROFILE.md): the daemon runs under
# callgrind (debug info stripped: valgrind 3.19 cannot read Swift's DWARF 5), healthload does the setup
# and a warm-up, the counts are zeroed, healthload -c 4 -d 64 drives one op, and the dump's total Ir
# (every thread of the daemon, libuv and libc included) is divided by the calls completed.
#
# usage: benchmarks/callgrind-per-call.sh HEALTHBROKERD [SECONDS] [OPS...]
#   e.g. benchmarks/callgrind-per-call.sh /tmp/base/.build/release/healthbrokerd 6 ping easd status reqstatus query save
# healthload comes from .build/release (HEALTHLOAD overrides); query (and anchored) streams 100 samples a call and
# save writes 10 (healthload's defaults). Prints "op Ir calls Ir/call loop/call" per op, loop/call being
# the event loop thread's share (EventLoop.run, inclusive: everything but the store thread's SQLite work
# and its timers, which move Query and Save by 10-20 % between runs); KEEP=1 keeps the dumps.
# LOAD overrides healthload's '-c 4 -d 64': for Query and Save use LOAD='-c 1 -d 1', since with 256 calls
# in flight and only a few hundred completed in the window, the calls cut by the window's ends count
# against the completed ones (Query per call came out up to 2x its steady value).
# CODEC='regex|regex' adds the inclusive instructions per call of the first function matching each
# (demangled names, e.g. 'Proto.ServerFrame.appendFrame\(callID:status:streamItem:to:\)').
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
  for _ in $(seq 1 1200); do [ -S "$work/admin.sock" ] && break; sleep 0.1; done
  read -ra load <<<"${LOAD:--c 4 -d 64}"
  common=(--socket "$work/app.sock" --admin-socket "$work/admin.sock" --op "$op" "${load[@]}" --quiet)
  "$healthload" "${common[@]}" --warmup 1 --duration 2 >/dev/null 2>&1
  callgrind_control -z "$pid" >/dev/null 2>&1
  "$healthload" "${common[@]}" --warmup 0 --duration "$seconds" --json "$work/report.json" >/dev/null 2>&1
  callgrind_control -d "$pid" >/dev/null 2>&1
  sleep 1
  calls=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["completed"])' "$work/report.json" 2>/dev/null || echo 0)
  # The dump after zeroing holds the window; sum its totals (one file per dump, the last one).
  dump=$(ls -t "$work"/cg.out.* 2>/dev/null | head -1)
  ir=$(grep -h '^totals:' "$dump" 2>/dev/null | awk '{s+=$2} END {printf "%.0f\n", s}')
  callgrind_annotate --threshold=100 --inclusive=yes "$dump" 2>/dev/null | swift demangle --simplified >"$work/inclusive.txt"
  inclusive() { grep -E "$1" "$work/inclusive.txt" | head -1 | awk '{gsub(",", "", $1); print $1 + 0}'; }
  loop=$(inclusive '\?\?\?:EventLoop\.run\(\)')
  python3 -c 'import sys; op,ir,calls,loop=sys.argv[1],int(sys.argv[2]),int(sys.argv[3]),int(sys.argv[4] or 0); f=lambda v: "{:,.0f}".format(v/calls) if calls else "nan"; print("%-10s Ir=%d calls=%d Ir/call=%s loop/call=%s" % (op, ir, calls, f(ir), f(loop)))' "$op" "$ir" "$calls" "${loop:-0}"
  if [ -n "${CODEC:-}" ]; then
    IFS='|' read -ra patterns <<<"$CODEC"
    for pattern in "${patterns[@]}"; do
      value=$(inclusive "$pattern")
      python3 -c 'import sys; p,v,c=sys.argv[1],int(sys.argv[2] or 0),int(sys.argv[3]); print("  %-70s %s" % (p, "{:,.0f}".format(v/c) if c else "nan"))' "$pattern" "${value:-0}" "$calls"
    done
  fi
  kill "$pid"; wait "$pid" 2>/dev/null
  [ -n "${KEEP:-}" ] && echo "  dumps in $work" || rm -rf "$work"
done
rm -f "$stripped"
