#!/usr/bin/env bash
# Regenerates the checked-in protoc-c output for proto/healthbroker.proto.
#   scripts/generate-proto.sh          write Sources/HealthBrokerProto/{healthbroker.pb-c.c,include/healthbroker.pb-c.h}
#   scripts/generate-proto.sh --check  fail (exit 1) when the checked-in files differ from a fresh run
# The generated files embed the protoc-c version; this script expects 1.4.1 (PROTOBUF_C_VERSION_NUMBER 1004001).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
expected_version="1.4.1"
out_c="$root/Sources/HealthBrokerProto/healthbroker.pb-c.c"
out_h="$root/Sources/HealthBrokerProto/include/healthbroker.pb-c.h"

command -v protoc-c >/dev/null || { echo "generate-proto: protoc-c missing (run scripts/install-deps.sh)" >&2; exit 1; }
actual_version=$(protoc-c --version | awk '/protobuf-c/ {print $2; exit}')
if [ "$actual_version" != "$expected_version" ]; then
  echo "generate-proto: protoc-c $actual_version found, $expected_version expected" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root/proto" && protoc-c --c_out="$tmp" healthbroker.proto)

if [ "${1:-}" = "--check" ]; then
  if cmp -s "$tmp/healthbroker.pb-c.c" "$out_c" && cmp -s "$tmp/healthbroker.pb-c.h" "$out_h"; then
    echo "generate-proto: checked-in protoc-c output is fresh"
    exit 0
  fi
  echo "generate-proto: checked-in protoc-c output is stale: run scripts/generate-proto.sh" >&2
  diff -u "$out_h" "$tmp/healthbroker.pb-c.h" | head -20 >&2 || true
  exit 1
fi

mkdir -p "$(dirname "$out_h")"
cp "$tmp/healthbroker.pb-c.c" "$out_c"
cp "$tmp/healthbroker.pb-c.h" "$out_h"
echo "generate-proto: wrote $out_c and $out_h"
