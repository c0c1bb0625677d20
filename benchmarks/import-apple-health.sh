#!/usr/bin/env bash
# Imports a generated Apple Health export.zip into a fresh release daemon and prints records/s and the
# peak memory (RSS) of healthctl and of the daemon.
#
# usage: benchmarks/import-apple-health.sh [RECORDS] [--no-build]
#   RECORDS: records in the generated export (default 1000000; about 300 bytes of XML each).
# Builds healthctl and healthbrokerd in release in .build (unless --no-build); the export is made by
# scripts/make-apple-health-export.py in a temporary folder (kept when KEEP=1). BATCH sets --batch.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$here/.."
records=1000000
build=1
for arg in "$@"; do
  case "$arg" in
    --no-build) build=0 ;;
    [0-9]*) records="$arg" ;;
    *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
say() { echo "import-apple-health: $*" >&2; }
if [ "$build" = 1 ]; then
  say "building release (healthctl, healthbrokerd)"
  (cd "$repo" && swift build -c release --product healthbrokerd >&2 && swift build -c release --product healthctl >&2) || exit 1
fi
bin="$repo/.build/release"
work=$(mktemp -d /tmp/import-apple-health.XXXXXX)
cleanup() { [ -n "${pid:-}" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; [ "${KEEP:-0}" = 1 ] || rm -rf "$work"; }
trap cleanup EXIT
say "generating $records records in $work/export.zip"
python3 "$repo/scripts/make-apple-health-export.py" --records "$records" --output "$work/export.zip" || exit 1
xml_mb=$(unzip -l "$work/export.zip" | awk '/export.xml/ { print int($1 / 1048576) }')
"$bin/healthbrokerd" --socket "$work/app.sock" --admin-socket "$work/admin.sock" --data-dir "$work/data" --log-level warning 2>"$work/daemon.log" &
pid=$!
for _ in $(seq 1 100); do [ -S "$work/admin.sock" ] && break; sleep 0.1; done
run() {
  /usr/bin/time -f "%M %e" -o "$work/time" "$bin/healthctl" --admin-socket "$work/admin.sock" import "$work/export.zip" --batch "${BATCH:-2000}" >"$work/out" 2>&1
  status=$?
  read -r rss_kb seconds <"$work/time"
  read_records=$(grep -o 'read [0-9]*' "$work/out" | grep -o '[0-9]*')
  [ "$status" = 0 ] || { cat "$work/out" >&2; exit 1; }
  daemon_kb=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
  rate=$(awk -v n="$read_records" -v s="$seconds" 'BEGIN { printf "%d", (s > 0 ? n / s : 0) }')
  echo "$1: records=$read_records seconds=$seconds records_per_s=$rate healthctl_peak_rss_mb=$((rss_kb / 1024)) daemon_peak_rss_mb=$((daemon_kb / 1024)) zip_mb=$(( $(stat -c %s "$work/export.zip") / 1048576 )) xml_mb=$xml_mb load=$(cut -d' ' -f1 /proc/loadavg)"
}
run first-import
sed -n '1,3p' "$work/out" >&2
run re-import
