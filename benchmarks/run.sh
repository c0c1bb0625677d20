#!/usr/bin/env bash
# Side-by-side benchmark: HealthBroker (driven by healthload) against two baselines, same payload,
# same connections × depth, run alternately for a few rounds, summarised in one table.
#   1. echo-libuv: a C libuv echo server + client, HealthBroker's 5-byte framing, no protobuf
#   2. grpc-echo:  a gRPC C++ unary echo (callback server, CompletionQueue async client) over unix:
#   3. healthbroker: healthbrokerd in release, healthload --op ping (same payload) and --op easd
# Installs what it needs (Debian packages), builds everything in release, starts each server on
# temporary Unix socket paths, and stops them when done. Traffic stays on this machine's Unix sockets.
#
# usage: benchmarks/run.sh [--duration S] [--warmup S] [--rounds N] [--payload-bytes P]
#          [--shapes "1x1 1x16 4x64 16x64"] [--grpc-extra-shapes "2x8 4x16 8x16"]
#          [--hb-extra-shapes "2x64"] [--systems "echo grpc hb"] [--hb-ops "ping easd"]
#          [--out DIR] [--no-install] [--no-build]
# `make bench BENCH_ARGS="--rounds 1 --duration 2"` passes flags through.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"

duration=3
warmup=1
rounds=3
payload=32
shapes="1x1 1x16 4x64 16x64"
grpc_extra="2x8 4x16 8x16"
hb_extra="2x64"
systems="echo grpc hb"
hb_ops="ping easd"
out=""
install=1
build=1

usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --payload-bytes) payload="$2"; shift 2 ;;
    --shapes) shapes="$2"; shift 2 ;;
    --grpc-extra-shapes) grpc_extra="$2"; shift 2 ;;
    --hb-extra-shapes) hb_extra="$2"; shift 2 ;;
    --systems) systems="$2"; shift 2 ;;
    --hb-ops) hb_ops="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --no-install) install=0; shift ;;
    --no-build) build=0; shift ;;
    -h|--help) usage 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; usage ;;
  esac
done
has() { case " $systems " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
say() { printf '%s\n' "bench: $*" >&2; }

# ---- install ------------------------------------------------------------------------------------
if [ "$install" = 1 ]; then
  packages=(build-essential pkg-config libuv1-dev libgrpc++-dev protobuf-compiler-grpc protobuf-compiler libprotobuf-dev jq)
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo_cmd=()
    if [ "$(id -u)" -ne 0 ]; then
      command -v sudo >/dev/null || { say "need root or sudo to install: ${missing[*]}"; exit 1; }
      sudo_cmd=(sudo)
    fi
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
  if has hb; then "$repo/scripts/install-deps.sh" >&2; fi
fi

# ---- build --------------------------------------------------------------------------------------
bin="$here/build"
hb_bin="$repo/.build/release"
if [ "$build" = 1 ]; then
  say "building the baselines (gcc/g++ -O2)"
  make -s -C "$here" BUILD="$bin" >&2
  if has hb; then
    say "building HealthBroker (swift build -c release: healthbrokerd, healthload)"
    (cd "$repo" && swift build -c release --product healthbrokerd >&2) ||
      say "healthbrokerd did not build in release"
    (cd "$repo" && swift build -c release --product healthload >&2) ||
      say "healthload did not build in release"
  fi
fi

hb_ready=0
if has hb; then
  if [ -x "$hb_bin/healthbrokerd" ] && [ -x "$hb_bin/healthload" ] \
     && "$hb_bin/healthload" --help 2>&1 | grep -q -- '--op'; then
    hb_ready=1
  else
    say "healthload is not ready (no $hb_bin/healthload with --op): HealthBroker rows will be empty"
  fi
fi

# ---- servers ------------------------------------------------------------------------------------
work="$(mktemp -d /tmp/hbbench.XXXXXX)"
[ -n "$out" ] || out="$here/results/$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$out"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_socket() { # path pid name
  for _ in $(seq 1 100); do
    [ -S "$1" ] && return 0
    kill -0 "$2" 2>/dev/null || { say "$3 exited; its log:"; cat "$work/$3.log" >&2; exit 1; }
    sleep 0.1
  done
  say "$3 did not create $1"; exit 1
}

echo_pid=""; grpc_pid=""; hb_pid=""
if has echo; then
  "$bin/echo_server" --socket "$work/echo.sock" 2>"$work/echo_server.log" & echo_pid=$!; pids+=("$echo_pid")
  wait_socket "$work/echo.sock" "$echo_pid" echo_server
fi
if has grpc; then
  "$bin/grpc_echo_server" --socket "$work/grpc.sock" 2>"$work/grpc_echo_server.log" & grpc_pid=$!; pids+=("$grpc_pid")
  wait_socket "$work/grpc.sock" "$grpc_pid" grpc_echo_server
fi
if [ "$hb_ready" = 1 ]; then
  "$hb_bin/healthbrokerd" --socket "$work/app.sock" --admin-socket "$work/admin.sock" \
    --data-dir "$work/data" --log-level warning 2>"$work/healthbrokerd.log" & hb_pid=$!; pids+=("$hb_pid")
  wait_socket "$work/app.sock" "$hb_pid" healthbrokerd
  wait_socket "$work/admin.sock" "$hb_pid" healthbrokerd
fi

# ---- runs ---------------------------------------------------------------------------------------
# One row per run: system shape round calls/s p50_us p99_us server_cpu_us_per_call errors
results="$out/results.tsv"
: >"$results"
# Reads the baselines' JSON and healthload's (camelCase or snake_case keys).
extract='def n: if . == null then -1 else . end;
  [ (.calls_per_second // .callsPerSecond | n),
    (.latency_us.p50 // .latency.p50Micros // .latency.p50_micros | n),
    (.latency_us.p99 // .latency.p99Micros // .latency.p99_micros | n),
    (.broker_cpu_us_per_call // .broker.cpuMicrosPerCall // .broker.cpu_micros_per_call | n),
    (.errors | if type == "object" then ([.[]] | add // 0) elif . == null then 0 else . end) ] | @tsv'

run_one() { # system shape round
  local system="$1" shape="$2" round="$3" c="${2%x*}" d="${2#*x}"
  local json="$out/$system-$shape-r$round.json" log="$out/$system-$shape-r$round.log"
  local common=(-c "$c" -d "$d" --duration "$duration" --warmup "$warmup" --json "$json")
  local rc=0
  case "$system" in
    echo-libuv) "$bin/echo_client" --socket "$work/echo.sock" "${common[@]}" --payload-bytes "$payload" \
                  --server-pid "$echo_pid" >"$log" 2>&1 || rc=$? ;;
    grpc-echo) "$bin/grpc_echo_client" --socket "$work/grpc.sock" "${common[@]}" --payload-bytes "$payload" \
                  --server-pid "$grpc_pid" >"$log" 2>&1 || rc=$? ;;
    hb-ping) "$hb_bin/healthload" --socket "$work/app.sock" --admin-socket "$work/admin.sock" "${common[@]}" \
                  --broker-pid "$hb_pid" --quiet --op ping --payload-bytes "$payload" >"$log" 2>&1 || rc=$? ;;
    hb-easd) "$hb_bin/healthload" --socket "$work/app.sock" --admin-socket "$work/admin.sock" "${common[@]}" \
                  --broker-pid "$hb_pid" --quiet --op easd >"$log" 2>&1 || rc=$? ;;
  esac
  if [ "$rc" -ne 0 ] || [ ! -s "$json" ]; then
    say "$system $shape round $round FAILED (exit $rc); see $log"
    tail -3 "$log" >&2 || true
    return 0
  fi
  local row
  row="$(jq -r "$extract" "$json")"
  printf '%s\t%s\t%s\t%s\n' "$system" "$shape" "$round" "$row" >>"$results"
  printf '%s\t%s\t%s\t%s\n' "$system" "$shape" "$round" "$row" |
    awk -F'\t' '{ printf "bench: round %s  %-10s %-6s %10.0f calls/s  p50 %8.1f us  p99 %9.1f us  server CPU %s us/call%s\n",
                  $3, $1, $2, $4, $5, $6, ($7 < 0 ? "n/a" : sprintf("%.2f", $7)), ($8 > 0 ? "  ERRORS " $8 : "") }' >&2
}

# Which systems run which shapes.
run_systems=()
has echo && run_systems+=(echo-libuv)
has grpc && run_systems+=(grpc-echo)
if [ "$hb_ready" = 1 ]; then
  for op in $hb_ops; do run_systems+=("hb-$op"); done
fi
shapes_for() {
  case "$1" in
    grpc-echo) echo "$shapes $grpc_extra" ;;
    hb-*) echo "$shapes $hb_extra" ;;
    *) echo "$shapes" ;;
  esac
}
all_shapes="$(for s in ${shapes} ${grpc_extra} ${hb_extra}; do echo "$s"; done | awk '!seen[$0]++' | tr '\n' ' ')"

{
  echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), kernel $(uname -r)"
  echo "versions: libuv $(pkg-config --modversion libuv 2>/dev/null), gRPC $(pkg-config --modversion grpc++ 2>/dev/null), protobuf $(pkg-config --modversion protobuf 2>/dev/null), $(gcc --version | head -1), $(swift --version 2>&1 | grep -m1 -o 'Swift version [^ ]*')"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "settings: duration ${duration}s warmup ${warmup}s rounds $rounds payload ${payload}B"
} | tee "$out/machine.txt" >&2

start=$(date +%s)
for round in $(seq 1 "$rounds"); do
  order=("${run_systems[@]}")
  if [ $((round % 2)) -eq 0 ]; then # alternate the order too, so no system always runs first
    order=(); for ((i=${#run_systems[@]}-1; i>=0; i--)); do order+=("${run_systems[$i]}"); done
  fi
  for shape in $all_shapes; do
    for system in "${order[@]}"; do
      case " $(shapes_for "$system") " in *" $shape "*) run_one "$system" "$shape" "$round" ;; esac
    done
  done
done
say "runs took $(( $(date +%s) - start )) s; raw results in $out"

# ---- table --------------------------------------------------------------------------------------
# Medians over the rounds; each system's best shape is the one with the highest median calls/s.
awk -F'\t' -v shapes="$all_shapes" -v std_shapes="$shapes" -v order="echo-libuv grpc-echo hb-ping hb-easd" '
function median(list,   n, a, i, j, t, k) {
  n = split(list, a, " "); k = 0
  for (i = 1; i <= n; i++) if (a[i] != "" && a[i] >= 0) b[++k] = a[i] + 0
  if (k == 0) return -1
  for (i = 2; i <= k; i++) { t = b[i]; for (j = i - 1; j >= 1 && b[j] > t; j--) b[j + 1] = b[j]; b[j + 1] = t }
  return (k % 2) ? b[(k + 1) / 2] : (b[k / 2] + b[k / 2 + 1]) / 2
}
function range(list,   n, a, i, lo, hi) {
  n = split(list, a, " "); lo = -1; hi = -1
  for (i = 1; i <= n; i++) { if (lo < 0 || a[i] + 0 < lo) lo = a[i] + 0; if (a[i] + 0 > hi) hi = a[i] + 0 }
  return sprintf("%s–%s", num(lo), num(hi))
}
function num(x) { return x >= 1000000 ? sprintf("%.2f M", x / 1e6) : (x >= 1000 ? sprintf("%.1f k", x / 1e3) : sprintf("%.0f", x)) }
function us(x) { return x < 0 ? "n/a" : (x >= 1000 ? sprintf("%.0f", x) : sprintf("%.1f", x)) }
function cpu(x) { return x < 0 ? "n/a" : sprintf("%.2f", x) }
function ratio(a, b) { return (a > 0 && b > 0) ? sprintf(a / b < 0.1 ? "%.3f×" : "%.2f×", a / b) : "n/a" }
function name(s) { return s == "hb-ping" ? "HealthBroker ping" : (s == "hb-easd" ? "HealthBroker EASD" : s) }
{ k = $1 SUBSEP $2; cps[k] = cps[k] " " $4; p50[k] = p50[k] " " $5; p99[k] = p99[k] " " $6; sc[k] = sc[k] " " $7; have[$1] = 1; n[k]++ }
function row(label, s, k, hk_ping, hk_easd, is_best,   c, line) {
  c = median(cps[k])
  line = sprintf("| %s | %s | %s (%s) | %s | %s | %s |", label, name(s), num(c), range(cps[k]), us(median(p50[k])), us(median(p99[k])), cpu(median(sc[k])))
  if (s ~ /^hb-/) line = line " | | |"
  else line = line sprintf(" %s / %s | %s / %s | %s |",
      ratio(median(cps[hk_ping]), c), ratio(median(cps[hk_easd]), c),
      ratio(median(sc[k]), median(sc[hk_ping])), ratio(median(sc[k]), median(sc[hk_easd])),
      is_best ? "" : ratio(median(p50[hk_ping]), median(p50[k])))
  print line
}
END {
  ns = split(shapes, sh, " "); no = split(order, sys, " ")
  print "| C×D | system | calls/s median (min–max) | p50 µs | p99 µs | server CPU µs/call | HB calls/s ÷ this (ping / EASD) | this CPU ÷ HB CPU (ping / EASD) | HB ping p50 ÷ this |"
  print "|---|---|---|---|---|---|---|---|---|"
  for (i = 1; i <= ns; i++) for (j = 1; j <= no; j++) {
    k = sys[j] SUBSEP sh[i]
    if (n[k] > 0 && index(" " std_shapes " ", " " sh[i] " ")) row(sh[i], sys[j], k, "hb-ping" SUBSEP sh[i], "hb-easd" SUBSEP sh[i], 0)
  }
  # each system at its best shape; ratios best against best
  for (j = 1; j <= no; j++) {
    bestc = -1
    for (i = 1; i <= ns; i++) { k = sys[j] SUBSEP sh[i]; if (n[k] > 0 && median(cps[k]) > bestc) { bestc = median(cps[k]); best[sys[j]] = sh[i] } }
  }
  for (j = 1; j <= no; j++) {
    s = sys[j]; if (!(s in have)) continue
    row("best: " best[s], s, s SUBSEP best[s], "hb-ping" SUBSEP best["hb-ping"], "hb-easd" SUBSEP best["hb-easd"], 1)
  }
}' "$results" | tee "$out/table.md"
awk -F'\t' '$8 > 0 { printf "WARNING: %s %s round %s had %s failed call(s)\n", $1, $2, $3, $8 }' "$results"
echo
echo "Medians of $rounds round(s) of ${duration}s (after ${warmup}s warm-up), payload ${payload} B; server CPU from /proc/PID/stat."
echo "Ratios in the 'best' rows compare HealthBroker's best shape with the baseline's best shape."
