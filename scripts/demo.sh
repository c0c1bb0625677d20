#!/usr/bin/env bash
# The main job on the embedded default: builds everything, starts healthbrokerd with a SQLite file in
# ./data, registers the example app through the admin socket, runs the example client against the
# daemon, and stops the daemon cleanly. Run through `make demo`.
set -euo pipefail
cd "$(dirname "$0")/.."

runtime_dir="$PWD/run"
data_dir="$PWD/data"
app_socket="$runtime_dir/app.sock"
admin_socket="$runtime_dir/admin.sock"
bin="$(swift build --show-bin-path)"

echo "==> building"
swift build

mkdir -p "$runtime_dir"
echo "==> starting healthbrokerd (data: $data_dir, sockets: $runtime_dir)"
"$bin/healthbrokerd" --socket "$app_socket" --admin-socket "$admin_socket" --data-dir "$data_dir" \
  2> "$runtime_dir/healthbrokerd.log" &
daemon=$!
stop_daemon() {
  if kill -0 "$daemon" 2>/dev/null; then
    kill -TERM "$daemon"
    wait "$daemon" && status=0 || status=$?
    echo "==> healthbrokerd stopped (exit $status); its log: $runtime_dir/healthbrokerd.log"
  fi
}
trap stop_daemon EXIT

for _ in $(seq 1 200); do
  [ -S "$app_socket" ] && [ -S "$admin_socket" ] && break
  kill -0 "$daemon" 2>/dev/null || { cat "$runtime_dir/healthbrokerd.log" >&2; exit 1; }
  sleep 0.05
done

ctl() { "$bin/healthctl" --admin-socket "$admin_socket" "$@"; }

echo "==> registering the example app (healthctl apps add)"
if ctl apps list --json | grep -q '"demo.ping"'; then
  token=$(ctl apps rotate-token demo.ping --token-only)
else
  token=$(ctl apps add demo.ping --name "Ping example" --read-usage "Shows how a HealthBroker app connects." --token-only)
fi
ctl apps list
echo
echo "==> running the example app (examples/PingExample)"
"$bin/ping-example" --socket "$app_socket" --app-id demo.ping --token "$token" --count 5
echo
echo "==> broker status (healthctl status)"
ctl status
