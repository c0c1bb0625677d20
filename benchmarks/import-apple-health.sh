#!/usr/bin/env bash
# Imports a generated Apple Health export.zip into a fresh release daemon, then imports it again, and
# prints records/s, CPU per record and the peak memory (RSS) of healthctl and of the daemon.
#
# usage: benchmarks/import-apple-health.sh [RECORDS] [--no-build] [--export FILE] [--rounds N] [--base DIR]
#   RECORDS: records in the generated export (default 1000000; about 354 bytes of XML each).
#   --export FILE: import FILE (an export.zip or export.xml) instead of generating one.
#   --base DIR: also measure DIR/healthctl with DIR/healthbrokerd (another build, e.g. main's), alternating
#     with this tree's build in the same run, ROUNDS times each (default 2; 1 without --base).
# Builds healthctl and healthbrokerd in release in .build (unless --no-build); the export is made by
# scripts/make-apple-health-export.py in a temporary folder (kept when KEEP=1). BATCH sets --batch
# (default: healthctl's own). Each line also gives the parse-only rate of this tree's healthctl
# (HEALTHCTL_IMPORT_PARSE_ONLY=1: the export read and checked, nothing sent) once per round.
# CPU: healthctl's includes its unzip child; the daemon's is read from /proc around each import.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$here/.."
records=1000000
build=1
export_file=""
base=""
rounds=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=0 ;;
    --export) export_file="$2"; shift ;;
    --base) base="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    [0-9]*) records="$1" ;;
    *) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
  shift
done
[ -n "$rounds" ] || { [ -n "$base" ] && rounds=2 || rounds=1; }
say() { echo "import-apple-health: $*" >&2; }
if [ "$build" = 1 ]; then
  say "building release (healthctl, healthbrokerd)"
  (cd "$repo" && swift build -c release --product healthbrokerd >&2 && swift build -c release --product healthctl >&2) || exit 1
fi
bin="$repo/.build/release"
work=$(mktemp -d /tmp/import-apple-health.XXXXXX)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; [ "${KEEP:-0}" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT
if [ -z "$export_file" ]; then
  say "generating $records records in $work/export.zip"
  python3 "$repo/scripts/make-apple-health-export.py" --records "$records" --output "$work/export.zip" || exit 1
  export_file="$work/export.zip"
fi
case "$export_file" in
  *.zip) xml_mb=$(unzip -l "$export_file" | awk '/export.xml/ { print int($1 / 1048576) }') ;;
  *) xml_mb=$(( $(stat -c %s "$export_file") / 1048576 )) ;;
esac
tck=$(getconf CLK_TCK)
batch_args=()
[ -n "${BATCH:-}" ] && batch_args=(--batch "$BATCH")

# One import of the export with LABEL's healthctl into the running daemon.
import_once() {
  local label="$1" ctl="$2"
  local before after
  before=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  /usr/bin/time -f "%M %e %U %S" -o "$work/time" "$ctl" --admin-socket "$work/admin.sock" import "$export_file" "${batch_args[@]}" >"$work/out" 2>&1
  local status=$?
  after=$(awk '{ print $14 + $15 }' "/proc/$pid/stat")
  [ "$status" = 0 ] || { cat "$work/out" >&2; exit 1; }
  local rss_kb seconds user sys
  read -r rss_kb seconds user sys <"$work/time"
  local read_records
  read_records=$(grep -o 'read [0-9]*' "$work/out" | grep -o '[0-9]*')
  local daemon_kb
  daemon_kb=$(awk '/VmHWM/ { print $2 }' "/proc/$pid/status")
  awk -v l="$label" -v n="$read_records" -v s="$seconds" -v u="$user" -v y="$sys" -v d="$((after - before))" -v t="$tck" \
    -v rss="$rss_kb" -v drss="$daemon_kb" -v xml="$xml_mb" -v load="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
      c = u + y; dc = d / t
      printf "%s: records=%d seconds=%.2f records_per_s=%d healthctl_cpu_s=%.2f (%.2f us/record) daemon_cpu_s=%.2f (%.2f us/record) healthctl_peak_rss_mb=%d daemon_peak_rss_mb=%d xml_mb=%d load=%s\n",
        l, n, s, (s > 0 ? n / s : 0), c, c / n * 1e6, dc, dc / n * 1e6, rss / 1024, drss / 1024, xml, load }'
}

# A fresh daemon from DIR, the export imported twice with DIR's healthctl.
measure() {
  local name="$1" dir="$2"
  rm -rf "$work/data" "$work/admin.sock" "$work/app.sock"
  "$dir/healthbrokerd" --socket "$work/app.sock" --admin-socket "$work/admin.sock" --data-dir "$work/data" --log-level warning 2>"$work/daemon.log" &
  pid=$!
  for _ in $(seq 1 100); do [ -S "$work/admin.sock" ] && break; sleep 0.1; done
  import_once "$name first-import" "$dir/healthctl"
  [ "$name" = "this-tree" ] && [ "$round" = 1 ] && sed -n '1,3p' "$work/out" >&2
  import_once "$name re-import" "$dir/healthctl"
  kill "$pid"; wait "$pid" 2>/dev/null; pid=""
}

for round in $(seq 1 "$rounds"); do
  if [ -n "$base" ]; then measure base "$base"; fi
  measure this-tree "$bin"
  /usr/bin/time -f "%M %U %S" -o "$work/time" env HEALTHCTL_IMPORT_PARSE_ONLY=1 "$bin/healthctl" import "$export_file" "${batch_args[@]}" >"$work/out" 2>&1
  read -r rss_kb user sys <"$work/time"
  echo "this-tree parse-only: $(cat "$work/out") cpu_s=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }') peak_rss_mb=$((rss_kb / 1024)) load=$(cut -d' ' -f1 /proc/loadavg)"
done
