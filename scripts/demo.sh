#!/usr/bin/env bash
# The main job on the embedded default: builds everything, starts healthbrokerd with a SQLite file in
# ./data and a consent policy (docs/examples/demo-policy.json), registers the example apps through the
# admin socket, runs the ping example, then the authorization example (the policy grants demo.steps
# limited read access to steps and full read access to heart rate) and shows what was granted and why.
# Then the seed scenario: 90 days of generated watch data are imported as demo.watch, the writer
# example saves workouts and heart rate as demo.writer (the policy lets it share those), and the steps
# example, with access to the last 30 days of steps only, prints daily totals and says that earlier
# data is unknown, not absent. A generated Apple Health export.zip is imported beside it. Finally the access log, and the daemon is stopped cleanly. Run through
# `make demo`.
set -euo pipefail
cd "$(dirname "$0")/.."

runtime_dir="$PWD/run"
data_dir="$PWD/data"
app_socket="$runtime_dir/app.sock"
admin_socket="$runtime_dir/admin.sock"
consent_policy="docs/examples/demo-policy.json"
# Release build: the demo imports 90 days of minute-level data, which an unoptimised build makes slow.
bin="$(swift build -c release --show-bin-path)"

echo "==> building"
swift build -c release

mkdir -p "$runtime_dir"
echo "==> starting healthbrokerd (data: $data_dir, sockets: $runtime_dir, consent policy: $consent_policy)"
"$bin/healthbrokerd" --socket "$app_socket" --admin-socket "$admin_socket" --data-dir "$data_dir" \
  --consent-policy "$consent_policy" 2> "$runtime_dir/healthbrokerd.log" &
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

# Registers an app, or issues a new token if it is already registered; prints the token.
register() {
  local app_id=$1; shift
  if ctl apps list --json | grep -q "\"$app_id\""; then
    ctl apps rotate-token "$app_id" --token-only
  else
    ctl apps add "$app_id" "$@" --token-only
  fi
}

echo "==> registering the example apps (healthctl apps add)"
token=$(register demo.ping --name "Ping example" --read-usage "Shows how a HealthBroker app connects.")
steps_token=$(register demo.steps --name "Steps demo" --read-usage "Charts your steps and heart rate over the last 90 days.")
register demo.watch --name "Demo watch" --share-usage "Records steps, heart rate, sleep and workouts." > /dev/null
writer_token=$(register demo.writer --name "Writer demo" --share-usage "Records your workouts and heart rate.")
ctl apps list
echo
echo "==> running the example app (examples/PingExample)"
"$bin/ping-example" --socket "$app_socket" --app-id demo.ping --token "$token" --count 5
echo
echo "==> the consent policy the daemon decides by ($consent_policy)"
cat "$consent_policy"
echo
echo "==> forgetting demo.steps' earlier decisions, so the policy decides afresh (healthctl revoke)"
ctl revoke demo.steps
echo
echo "==> running the authorization example (examples/AuthorizationExample)"
"$bin/authorization-example" --socket "$app_socket" --app-id demo.steps --token "$steps_token" --timeout 30
echo
echo "==> what demo.steps was granted (healthctl grants demo.steps)"
ctl grants demo.steps
echo
echo "==> why it reads what it reads (healthctl explain demo.steps stepCount)"
ctl explain demo.steps stepCount
echo
echo "==> generating 90 days of watch data as demo.watch: steps every minute, heart rate every 5 minutes,"
echo "    sleep every night, a few workouts a week (healthctl demo-data; UUIDs come from seed, type and"
echo "    start, so a second run stores only the minutes since the first)"
ctl demo-data --app demo.watch --days 90
echo
echo "==> importing a generated Apple Health export.zip (scripts/make-apple-health-export.py: an iPhone, a"
echo "    watch and an app, the last 5 days; nobody's data): each source becomes an app of its own, and a"
echo "    second import stores nothing (healthctl import export.zip)"
python3 scripts/make-apple-health-export.py --records 5000 --start "$(date -u -d '-5 days' +%F)" --output "$runtime_dir/export.zip"
ctl import "$runtime_dir/export.zip"
echo
echo "==> forgetting demo.writer's earlier decisions, so the policy decides afresh (healthctl revoke)"
ctl revoke demo.writer
echo
echo "==> running the writer example (examples/WriterExample)"
"$bin/writer-example" --socket "$app_socket" --app-id demo.writer --token "$writer_token" --timeout 30
echo
echo "==> running the steps example (examples/StepsExample): demo.steps may read the last 30 days of steps"
"$bin/steps-example" --socket "$app_socket" --app-id demo.steps --token "$steps_token" --timeout 30
echo
echo "==> who read or wrote what, and how many samples (healthctl access-log --limit 15)"
ctl access-log --limit 15
echo
echo "==> every app that ever asked (healthctl sources)"
ctl sources
echo
echo "==> broker status (healthctl status)"
ctl status
