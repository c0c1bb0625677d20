#!/usr/bin/env bash
# The load-testing issue's "also measured" scenarios, against a real release daemon:
#   idle    5,000 app connections open (Hello each): broker memory per idle connection, all still answer a ping
#   query   N minute-level step samples (default 129,600 = 90 days) streamed with HealthStore.samples(of:),
#           as a full-access app and a limited one (clamped to the last 30 days), then again at 10 × N
#   latency one call in flight through HealthStore (ping, EarliestAuthorizedSampleDate with its set built once;
#           from the global executor and from store.executor; then EASD on store.executor with a new set
#           per call) and the C libuv echo at 1 × 1 (benchmarks/build/echo_client, built here with
#           make -C benchmarks echo), alternately for L rounds (default 3); medians reported
#   ingest  durable saves in batches of 1,000 (each acknowledged batch committed), synchronous=NORMAL
#           (the default) and with the daemon's --synchronous-full (each acknowledgement after an fsync of
#           the WAL, made off the writing thread), each with random (v4) UUIDs and
#           with HealthStore's default time-ordered (v7) ones
#   stats   (only with --only stats; about 15 min) statistics over --stats-days days (default 1826, 5 years) of
#           minute-level steps and 5-minute heart rate from two sources (healthctl demo-data as
#           scenarios.stats.watch, seed 1, and scenarios.stats.phone, seed 2, the watch first in the source order),
#           plus 90 days of a read-denied app's own: steps per day, week, month (America/New_York) and per hour,
#           heart rate per day as a full-access app, steps per day as the denied app; the daemon restarted
#           alternately with hour rollups read (HEALTHBROKER_ROLLUPS unset) and with statistics from the samples
#           only (HEALTHBROKER_ROLLUPS=unread, the code before rollups), --stats-rounds rounds. Then ingest with
#           and without rollup upkeep (HEALTHBROKER_ROLLUPS=off), alternately, --stats-rounds rounds, fresh
#           daemons: the ingest scenario (--ingest-batches batches of 1,000) and healthctl demo-data --days 365
#   deaf    (only with --only deaf; about 30 s, peaks near 700 MiB of broker memory) C app connections that
#           never read a reply (default runs: C = 1 and 200), each pouring pipelined queries of 20,000 step
#           samples, a PingStream of count and credit 2^32-1 and 1 MiB pings delayed 250 ms until its socket
#           takes no more: broker peak RSS growth per connection against the documented bound
#           2H + 3F + 64 KiB + two pages (docs/RELIABILITY.md) at the flags below, and another client's
#           ping p50/p99/max meanwhile (target p99 < 100 ms). A fresh daemon per C (after one import)
#           with --output-high-water 1048576 --max-frame-bytes 4194304 (the defaults, given explicitly)
#           and --stall-timeout-ms 300000 (the default 30 s would cut the deaf clients off mid-run on a
#           slow machine); --max-connections-per-uid stays at its default, 8,192, above any C here.
# Builds release, starts each daemon on temporary sockets and a temporary data directory (one for
# idle+query, restarted on the same data after each import; a fresh one per ingest run and per deaf C), runs the
# scenarios with BrokerScenarios, prints one table of figures against the targets, and stops the
# daemons. Local Unix sockets only.
#
# usage: benchmarks/scenarios.sh [--samples N] [--scale K] [--runs R] [--latency-rounds L] [--page-size P] [--extra-page-size P|""]
#          [--idle-connections C] [--ingest-batches B] [--ingest-shapes "1x1 1x2 4x1"] (connections x saves in flight each)
#          [--deaf-connections "1 200"] [--stats-days D] [--stats-runs R] [--stats-rounds N] [--only "idle query ingest latency deaf stats"] [--out DIR] [--scratch-path DIR] [--no-build]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

samples=129600
scale=10
runs=5
latency_rounds=3
page_size=0
extra_page_size=4096
idle_connections=5000
ingest_batches=200
ingest_shapes="1x1 1x2 4x1"
deaf_connections="1 200"
stats_days=1826
stats_runs=5
stats_rounds=2
deaf_flags=(--output-high-water 1048576 --max-frame-bytes 4194304 --stall-timeout-ms 300000)
only="idle query ingest latency"
out=""
scratch="$repo/.build-scen"
build=1

usage() { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --samples) samples="$2"; shift 2 ;;
    --scale) scale="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --latency-rounds) latency_rounds="$2"; shift 2 ;;
    --page-size) page_size="$2"; shift 2 ;;
    --extra-page-size) extra_page_size="$2"; shift 2 ;;
    --idle-connections) idle_connections="$2"; shift 2 ;;
    --ingest-batches) ingest_batches="$2"; shift 2 ;;
    --ingest-shapes) ingest_shapes="$2"; shift 2 ;;
    --deaf-connections) deaf_connections="$2"; shift 2 ;;
    --stats-days) stats_days="$2"; shift 2 ;;
    --stats-runs) stats_runs="$2"; shift 2 ;;
    --stats-rounds) stats_rounds="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --scratch-path) scratch="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    -h|--help) usage 0 ;;
    *) echo "scenarios.sh: unknown argument $1" >&2; usage ;;
  esac
done
wants() { case " $only " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
say() { printf '%s\n' "scenarios: $*" >&2; }

# shellcheck source=common/release-build.sh
. "$here/common/release-build.sh"
release_build "$repo" "$scratch" "$build"

work="$(mktemp -d /tmp/hb-scen.XXXXXX)"
[ -n "$out" ] || out="$work/results"
# The report reads every JSON file in the folder: refuse one that holds an earlier run's results.
if [ -d "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  say "--out $out is not empty; give a new or empty folder (the report would mix in its files)"; exit 2
fi
mkdir -p "$out"
daemon_pid=""

stop_daemon() {
  if [ -n "$daemon_pid" ] && kill -0 "$daemon_pid" 2>/dev/null; then
    kill -TERM "$daemon_pid"
    wait "$daemon_pid" 2>/dev/null || true
  fi
  daemon_pid=""
}
cleanup() { stop_daemon; rm -rf "$work/d"; rmdir "$work" 2>/dev/null || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_daemon NAME [FLAGS...]: a fresh daemon with its own sockets and data directory.
start_daemon() {
  local name="$1"; shift
  local dir="$work/d/$name"
  mkdir -p "$dir"
  app_socket="$dir/app.sock"
  admin_socket="$dir/admin.sock"
  "$bin/healthbrokerd" --socket "$app_socket" --admin-socket "$admin_socket" --data-dir "$dir/data" \
    --log-level warning "$@" 2>>"$out/daemon-$name.log" &
  daemon_pid=$!
  for _ in $(seq 1 100); do
    [ -S "$app_socket" ] && [ -S "$admin_socket" ] && break
    kill -0 "$daemon_pid" 2>/dev/null || { say "daemon $name exited; see $out/daemon-$name.log"; exit 1; }
    sleep 0.1
  done
  [ -S "$app_socket" ] || { say "daemon $name did not start"; exit 1; }
  say "daemon $name: pid $daemon_pid, $*"
}

scenario() { "$bin/BrokerScenarios" "$@" --socket "$app_socket" --admin-socket "$admin_socket" --broker-pid "$daemon_pid"; }

say "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"

if wants idle || wants query; then
  start_daemon main
  # Idle first, on the fresh daemon: RSS growth is then not hidden by heap a query freed.
  if wants idle; then
    scenario idle --connections "$idle_connections" --json "$out/idle.json"
  fi
  if wants query; then
    # Import, then restart the daemon on the same data, so the broker's memory baseline during the
    # query holds nothing the import left behind; the same at 10 × N (the first N are reused).
    for size in 1 "$scale"; do
      tag=""; [ "$size" = 1 ] || tag="-${size}x"
      scenario query --samples $((samples * size)) --import-only --json "$out/import$tag.json"
      stop_daemon; start_daemon main
      scenario query --samples $((samples * size)) --runs "$runs" --page-size "$page_size" --no-import --json "$out/query$tag.json"
      # The same query with the largest page the broker allows: the best shape, for reference.
      if [ "$size" = 1 ] && [ -n "$extra_page_size" ]; then
        scenario query --samples "$samples" --runs "$runs" --page-size "$extra_page_size" --no-import \
          --json "$out/query-page$extra_page_size.json"
      fi
    done
  fi
  stop_daemon
fi

if wants latency; then
  # One call in flight through HealthStore against the C libuv echo at 1 × 1, alternately, R rounds:
  # a single echo figure swings 2× with how idle the other core is, so the report takes medians.
  (cd "$repo" && make -s -C benchmarks echo >&2)
  start_daemon latency
  "$repo/benchmarks/build/echo_server" --socket "$work/echo.sock" >/dev/null 2>&1 &
  echo_pid=$!
  for _ in $(seq 1 50); do [ -S "$work/echo.sock" ] && break; sleep 0.1; done
  for round in $(seq 1 "$latency_rounds"); do
    "$repo/benchmarks/build/echo_client" --socket "$work/echo.sock" -c 1 -d 1 --duration 3 --server-pid "$echo_pid" \
      --json "$out/latency-echo-$round.json" >&2
    scenario latency --json "$out/latency-$round.json"
  done
  kill "$echo_pid"; wait "$echo_pid" 2>/dev/null || true
  stop_daemon
fi

if wants ingest; then
  for mode in 1-normal 2-full; do
    flags=()
    [ "$mode" = 2-full ] && flags=(--synchronous-full)
    for shape in $ingest_shapes; do
      c="${shape%x*}" d="${shape#*x}"
      for uuids in random time-ordered; do
        uuid_flags=()
        [ "$uuids" = time-ordered ] && uuid_flags=(--time-ordered-uuids)
        start_daemon "ingest-$mode-c$c-d$d-$uuids" "${flags[@]}"
        # FULL: acknowledged only after the WAL syncer's fsync (power-loss durable), as SQLite synchronous=FULL.
        label="synchronous=$(echo "${mode#*-}" | tr a-z A-Z)"
        scenario ingest --batches "$ingest_batches" --batch-size 1000 --connections "$c" --depth "$d" --label "$label" \
          "${uuid_flags[@]}" --json "$out/ingest-$mode-c$c-d$d-$uuids.json"
        stop_daemon
      done
    done
  done
fi

if wants deaf; then
  # Import once, then a fresh daemon on the same data per C: each baseline holds nothing an earlier
  # run left behind (the broker keeps much of a run's peak resident after the clients close).
  start_daemon deaf "${deaf_flags[@]}"
  scenario deaf --import-only >&2
  for c in $deaf_connections; do
    stop_daemon; start_daemon deaf "${deaf_flags[@]}"
    scenario deaf --connections "$c" --no-import --json "$out/deaf-$c.json"
  done
  stop_daemon
fi

if wants stats; then
  # Statistics over years from hour rollups against the samples alone (issue 18 item 6), and what
  # keeping the rollups costs ingest. Results go to $out/stats.txt (not JSON: the report reads those).
  [ -x "$bin/healthctl" ] || { say "no release healthctl in $bin (drop --no-build)"; exit 1; }
  reader=scenarios.stats.reader denied=scenarios.stats.denied
  policy="$work/stats-policy.json"
  cat >"$policy" <<JSON
{ "rules": [
  { "app": "$denied", "share": "allow", "read": "deny" },
  { "app": "$reader", "share": "allow", "read": "full" }
] }
JSON
  today="$(date -u +%Y-%m-%d)"
  ctl() { "$bin/healthctl" --admin-socket "$admin_socket" "$@"; }
  # timed_import APP DAYS SEED: healthctl demo-data into the running daemon; prints samples/s.
  timed_import() {
    local began ended count
    began=$(date +%s.%N)
    ctl demo-data --app "$1" --days "$2" --seed "$3" --end "$today" >/dev/null
    ended=$(date +%s.%N)
    count=$(ctl demo-data --app "$1" --days "$2" --seed "$3" --end "$today" --output - | wc -l)
    awk -v n="$count" -v a="$began" -v b="$ended" 'BEGIN { printf "%d samples in %.1f s: %d samples/s", n, b - a, n / (b - a) }'
  }
  start_daemon stats --consent-policy "$policy"
  for source in "scenarios.stats.watch 1" "scenarios.stats.phone 2"; do
    set -- $source
    echo "stats import $1 ($stats_days days): $(timed_import "$1" "$stats_days" "$2")" | tee -a "$out/stats.txt"
  done
  echo "stats import $denied (90 days): $(timed_import "$denied" 90 3)" | tee -a "$out/stats.txt"
  ctl sources priority stepCount scenarios.stats.watch scenarios.stats.phone >/dev/null
  for round in $(seq 1 "$stats_rounds"); do
    order="on unread"; [ $((round % 2)) = 0 ] && order="unread on"
    for mode in $order; do
      stop_daemon
      if [ "$mode" = on ]; then start_daemon stats --consent-policy "$policy"; else HEALTHBROKER_ROLLUPS=unread start_daemon stats --consent-policy "$policy"; fi
      runs_here="$stats_runs"; [ "$mode" = unread ] && runs_here=1
      "$bin/BrokerScenarios" statistics --socket "$app_socket" --admin-socket "$admin_socket" --days "$stats_days" \
        --runs "$runs_here" --reader "$reader" --denied "$denied" --label "rollups=$mode,round=$round" | tee -a "$out/stats.txt"
    done
  done
  stop_daemon
  for round in $(seq 1 "$stats_rounds"); do
    order="on off"; [ $((round % 2)) = 0 ] && order="off on"
    for mode in $order; do
      if [ "$mode" = on ]; then start_daemon "ingest-rollups-$mode-$round"; else HEALTHBROKER_ROLLUPS=off start_daemon "ingest-rollups-$mode-$round"; fi
      scenario ingest --batches "$ingest_batches" --batch-size 1000 --connections 1 --depth 2 --time-ordered-uuids \
        --label "rollups=$mode,round=$round" | tee -a "$out/stats.txt"
      echo "demo-data rollups=$mode round=$round (365 days): $(timed_import scenarios.stats.watch 365 1)" | tee -a "$out/stats.txt"
      stop_daemon
      rm -rf "$work/d/ingest-rollups-$mode-$round"
    done
  done
fi

echo
echo "HealthBroker scenarios — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg) (shared machine: wall times are noisy, broker CPU is steadier)"
"$bin/BrokerScenarios" report "$out"
echo
say "JSON and daemon logs in $out"
