#!/usr/bin/env bash
# One call in flight through HealthStore, two client builds side by side: the C libuv echo at 1 × 1,
# then BrokerScenarios A, then B (the order of A and B swaps each round), against one release
# daemon, ROUNDS rounds. Prints one line per run and, at the end, each build's median p50 per
# operation and the median of the per-round ratios to that round's echo p50.
#
# usage: benchmarks/latency-ab.sh A_BROKERSCENARIOS B_BROKERSCENARIOS HEALTHBROKERD [ROUNDS] [CALLS]
#   e.g. git clone . /tmp/base && (cd /tmp/base && git checkout OLD && swift build -c release --product BrokerScenarios)
#        swift build -c release --product BrokerScenarios --product healthbrokerd
#        benchmarks/latency-ab.sh /tmp/base/.build/release/BrokerScenarios .build/release/BrokerScenarios .build/release/healthbrokerd 6
# OPERATIONS (default "ping,ping-executor") picks the latency scenario's operations ("ping-16": 16 tasks
# calling at once from the global executor, for throughput and client CPU with many calls in flight).
# The echo comes from benchmarks/build (make -C benchmarks echo).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[ $# -ge 3 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
declare -A scen=([A]="$1" [B]="$2")
daemon="$3"
rounds="${4:-6}"
calls="${5:-20000}"
operations="${OPERATIONS:-ping,ping-executor}"
for x in "${scen[A]}" "${scen[B]}" "$daemon"; do [ -x "$x" ] || { echo "latency-ab: $x is not executable" >&2; exit 2; }; done
make -s -C "$here" echo >&2
work=$(mktemp -d /tmp/latency-ab.XXXXXX)
"$daemon" --socket "$work/app.sock" --admin-socket "$work/admin.sock" --data-dir "$work/data" --log-level warning 2>"$work/daemon.log" &
daemon_pid=$!
"$here/build/echo_server" --socket "$work/echo.sock" >/dev/null 2>&1 &
echo_pid=$!
trap 'kill $daemon_pid $echo_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 1 100); do [ -S "$work/admin.sock" ] && [ -S "$work/echo.sock" ] && break; sleep 0.1; done
results="$work/results.tsv"
for round in $(seq 1 "$rounds"); do
  "$here/build/echo_client" --socket "$work/echo.sock" -c 1 -d 1 --duration 3 --server-pid "$echo_pid" --json "$work/echo.json" >/dev/null 2>&1
  echo_p50=$(grep -o '"p50"[^,}]*' "$work/echo.json" | head -1 | grep -o '[0-9.]*$')
  echo "round=$round echo p50_us=$echo_p50 load=$(cut -d' ' -f1 /proc/loadavg)"
  order="A B"; [ $((round % 2)) -eq 0 ] && order="B A"
  for who in $order; do
    line=$("${scen[$who]}" latency --calls "$calls" --operations "$operations" \
      --socket "$work/app.sock" --admin-socket "$work/admin.sock" --broker-pid "$daemon_pid" 2>/dev/null | tail -1)
    echo "round=$round build=$who $line"
    # "latency | OP: calls=… p50_us=X …" → one row per operation: round build op p50 echo
    sed 's/ | /\n/g' <<<"$line" | tail -n +2 | while IFS= read -r part; do
      printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$who" "${part%%:*}" "$(grep -o 'p50_us=[0-9.]*' <<<"$part" | cut -d= -f2)" "$echo_p50"
    done >>"$results"
  done
done
echo
awk -F'\t' '
function median(list,   n, a, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) { t = a[i] + 0; for (j = i - 1; j >= 1 && a[j] + 0 > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
  return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ k = $2 "\t" $3; p50[k] = p50[k] " " $4; ratio[k] = ratio[k] " " ($4 / $5); echo[$1] = $5 }
END {
  for (r in echo) e = e " " echo[r]
  printf "echo p50 median %.1f us over %d rounds\n", median(e), split(e, x, " ")
  for (k in p50) { split(k, kk, "\t"); printf "build %s  %-24s p50 median %.1f us (%s)  ratio to echo, median of rounds %.2fx (%s)\n", kk[1], kk[2], median(p50[k]), substr(p50[k], 2), median(ratio[k]), substr(ratio[k], 2) }
}' "$results" | sort
