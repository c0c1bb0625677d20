#!/usr/bin/env bash
# Durable ingest, two daemon builds side by side: A and B alternately, same BrokerScenarios, each on
# a fresh temporary data directory, for 1 connection (time-ordered and random UUIDs) and 4
# connections (time-ordered), ROUNDS rounds. Prints one line per run.
#
# usage: benchmarks/ingest-ab.sh A_HEALTHBROKERD B_HEALTHBROKERD [ROUNDS] [BATCHES]
#   e.g. git worktree add /tmp/base OLD && (cd /tmp/base && swift build -c release --scratch-path /tmp/base-scen --product healthbrokerd)
#        benchmarks/ingest-ab.sh /tmp/base-scen/release/healthbrokerd .build-scen/release/healthbrokerd
# BrokerScenarios comes from .build-scen (benchmarks/scenarios.sh builds it).
# Environment: DAEMON_FLAGS adds daemon options (e.g. "--synchronous-full"); SHAPES replaces the
# "CONNECTIONS UUIDS" list (e.g. SHAPES="4 time-ordered,1 time-ordered"); A_ENV / B_ENV put variables in
# that daemon's environment (e.g. A_ENV=HEALTHBROKER_ROLLUPS=off: the same build without rollup upkeep);
# DEPTH sets saves in flight per connection; BROKER_SCENARIOS replaces the BrokerScenarios binary.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scenarios="${BROKER_SCENARIOS:-$here/../.build-scen/release/BrokerScenarios}"
[ $# -ge 2 ] || { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
declare -A daemon=([A]="$1" [B]="$2")
declare -A environment=([A]="${A_ENV:-}" [B]="${B_ENV:-}")
rounds="${3:-2}"
batches="${4:-200}"
for who in A B; do [ -x "${daemon[$who]}" ] || { echo "ingest-ab: ${daemon[$who]} is not executable" >&2; exit 2; }; done
[ -x "$scenarios" ] || { echo "ingest-ab: no $scenarios (run benchmarks/scenarios.sh once)" >&2; exit 2; }
for round in $(seq 1 "$rounds"); do
  IFS=, read -ra shapes <<<"${SHAPES:-1 time-ordered,1 random,4 time-ordered}"
  for shape in "${shapes[@]}"; do
    set -- $shape
    for who in A B; do
      work=$(mktemp -d /tmp/ingest-ab.XXXXXX)
      env ${environment[$who]} "${daemon[$who]}" --socket "$work/app.sock" --admin-socket "$work/admin.sock" --data-dir "$work/data" \
        --log-level warning ${DAEMON_FLAGS:-} 2>"$work/daemon.log" &
      pid=$!
      for _ in $(seq 1 100); do [ -S "$work/admin.sock" ] && break; sleep 0.1; done
      flags=()
      [ "$2" = time-ordered ] && flags=(--time-ordered-uuids)
      line=$("$scenarios" ingest --batches "$batches" --batch-size 1000 --connections "$1" ${DEPTH:+--depth "$DEPTH"} "${flags[@]}" \
        --socket "$work/app.sock" --admin-socket "$work/admin.sock" --broker-pid "$pid" 2>/dev/null | tail -1)
      echo "round=$round daemon=$who${environment[$who]:+ (${environment[$who]})} connections=$1 uuids=$2 $(grep -o 'samples_per_s=[0-9]*' <<<"$line") $(grep -o 'broker_cpu_us_per_sample=[0-9.]*' <<<"$line") load=$(cut -d' ' -f1 /proc/loadavg)"
      kill "$pid"; wait "$pid" 2>/dev/null
      rm -rf "$work"
    done
  done
done
