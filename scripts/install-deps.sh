#!/usr/bin/env bash
# Installs the Debian packages HealthBroker builds against. Idempotent: packages already present are
# not fetched again. Uses sudo only when not running as root.
set -euo pipefail

# protobuf-compiler, python3-protobuf (the same 3.21.12 release) and python3-pytest: the Python client
# (clients/python: its generated module is checked by clients/python/generate.sh --check, its tests run
# by make test). python3: scripts/generate-wire.py. help2man, man-db and systemd (systemd-analyze):
# make install's man pages and scripts/check-install.sh. libh2o-dev (h2o built on libuv, not
# libh2o-evloop-dev): the HTTP server of healthctl ui. chromium and python3-websocket: make test's
# browser tests (browser-tests/), which drive a headless Chromium over the DevTools protocol.
# unzip: healthctl import of an Apple Health export.zip (it streams the zip's export.xml through
# `unzip -p`). libxml2-dev: that import's XML reader (libxml2's SAX2 push parser, module CLibXML2).
packages=(libuv1-dev libprotobuf-c-dev protobuf-c-compiler libsqlite3-dev libsodium-dev pkg-config
  protobuf-compiler python3-protobuf python3-pytest python3 help2man man-db systemd
  libh2o-dev chromium python3-websocket unzip libxml2-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present (${packages[*]})"
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo_cmd=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
