#!/usr/bin/env bash
# Regenerates the checked-in Python protobuf module for proto/healthbroker.proto.
#   clients/python/generate.sh          write clients/python/healthbroker/healthbroker_pb2.py
#   clients/python/generate.sh --check  fail (exit 1) when the checked-in module differs from a fresh run
# The module is checked in so the client needs no protoc at install time. protoc's Python output
# depends on its version, and the module must load on the python3-protobuf runtime of the same
# release, so this script expects Debian's protobuf-compiler 3.21.12 (libprotoc 3.21.12), matching
# python3-protobuf 3.21.12 (both installed by scripts/install-deps.sh).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
expected_version="3.21.12"
out="$here/healthbroker/healthbroker_pb2.py"

command -v protoc >/dev/null || { echo "generate.sh: protoc missing (run scripts/install-deps.sh)" >&2; exit 1; }
actual_version=$(protoc --version | awk '{print $2; exit}')
if [ "$actual_version" != "$expected_version" ]; then
  echo "generate.sh: protoc $actual_version found, $expected_version expected" >&2
  exit 1
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root/proto" && protoc --python_out="$tmp" healthbroker.proto)

if [ "${1:-}" = "--check" ]; then
  if cmp -s "$tmp/healthbroker_pb2.py" "$out"; then
    echo "generate.sh: checked-in Python protobuf module is fresh"
    exit 0
  fi
  echo "generate.sh: $out is stale: run clients/python/generate.sh" >&2
  diff -u "$out" "$tmp/healthbroker_pb2.py" 2>&1 | head -20 >&2 || true
  exit 1
fi

cp "$tmp/healthbroker_pb2.py" "$out"
echo "generate.sh: wrote $out"
