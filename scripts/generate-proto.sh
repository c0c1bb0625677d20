#!/usr/bin/env bash
# Regenerates the checked-in code derived from proto/healthbroker.proto, the one source of truth:
#   protoc-c's C          Sources/HealthBrokerProto/{healthbroker.pb-c.c,include/healthbroker.pb-c.h}
#   the Swift wire code   Sources/BrokerWire/Generated/*.pb.swift (scripts/generate-wire.py: messages,
#                         their encoding and decoding, the copies from protobuf-c, the method table)
#   the server's dispatch Sources/BrokerServer/Generated/CallHandler.pb.swift (the same script: one
#                         handler requirement per rpc and the switch over Call.request calling it)
#   scripts/generate-proto.sh          write them
#   scripts/generate-proto.sh --check  fail (exit 1) when any checked-in file differs from a fresh run
# The generated files embed the protoc-c version; this script expects 1.4.1 (PROTOBUF_C_VERSION_NUMBER 1004001).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
expected_version="1.4.1"
out_c="$root/Sources/HealthBrokerProto/healthbroker.pb-c.c"
out_h="$root/Sources/HealthBrokerProto/include/healthbroker.pb-c.h"
out_swift="$root/Sources/BrokerWire/Generated"
out_server="$root/Sources/BrokerServer/Generated"

command -v protoc-c >/dev/null || { echo "generate-proto: protoc-c missing (run scripts/install-deps.sh)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "generate-proto: python3 missing (run scripts/install-deps.sh)" >&2; exit 1; }
actual_version=$(protoc-c --version | awk '/protobuf-c/ {print $2; exit}')
if [ "$actual_version" != "$expected_version" ]; then
  echo "generate-proto: protoc-c $actual_version found, $expected_version expected" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root/proto" && protoc-c --c_out="$tmp" --descriptor_set_out="$tmp/healthbroker.desc" --include_source_info \
  healthbroker.proto)
python3 "$root/scripts/generate-wire.py" "$tmp/healthbroker.desc" "$tmp/swift" "$tmp/server"

if [ "${1:-}" = "--check" ]; then
  stale=0
  cmp -s "$tmp/healthbroker.pb-c.c" "$out_c" && cmp -s "$tmp/healthbroker.pb-c.h" "$out_h" || {
    echo "generate-proto: checked-in protoc-c output is stale" >&2
    diff -u "$out_h" "$tmp/healthbroker.pb-c.h" | head -20 >&2 || true
    stale=1
  }
  if ! diff -r -q "$tmp/swift" "$out_swift" >/dev/null 2>&1; then
    echo "generate-proto: checked-in Swift wire code is stale" >&2
    diff -r -u "$out_swift" "$tmp/swift" | head -20 >&2 || true
    stale=1
  fi
  if ! diff -r -q "$tmp/server" "$out_server" >/dev/null 2>&1; then
    echo "generate-proto: checked-in Swift server dispatch is stale" >&2
    diff -r -u "$out_server" "$tmp/server" | head -20 >&2 || true
    stale=1
  fi
  if [ "$stale" = 1 ]; then
    echo "generate-proto: run scripts/generate-proto.sh" >&2
    exit 1
  fi
  echo "generate-proto: checked-in protoc-c output, Swift wire code and server dispatch are fresh"
  exit 0
fi

mkdir -p "$(dirname "$out_h")" "$out_swift" "$out_server"
cp "$tmp/healthbroker.pb-c.c" "$out_c"
cp "$tmp/healthbroker.pb-c.h" "$out_h"
rm -f "$out_swift"/*.pb.swift
cp "$tmp/swift"/*.pb.swift "$out_swift/"
rm -f "$out_server"/*.pb.swift
cp "$tmp/server"/*.pb.swift "$out_server/"
echo "generate-proto: wrote $out_c, $out_h, $out_swift/*.pb.swift and $out_server/*.pb.swift"
