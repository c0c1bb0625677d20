#!/usr/bin/env bash
# Installs HealthBroker: `make install [PREFIX=/usr/local] [DESTDIR=]` runs this.
#   PREFIX/bin                              healthbrokerd, healthctl, healthload (release builds)
#   PREFIX/share/man/man1                   a page per executable, made from its --help by help2man
#   PREFIX/share/bash-completion/completions  completion for each executable (reads its --help)
#   PREFIX/lib/systemd/user                 the per-user units (systemctl --user enable --now healthbrokerd.socket)
#   PREFIX/lib/systemd/system               the system units, and PREFIX/lib/sysusers.d/healthbroker.conf
# DESTDIR is prepended to every path written (for packaging and for CI's install test); the units
# name PREFIX/bin, not DESTDIR. Builds CONFIGURATION (release unless set; scripts/check-install.sh
# installs the debug build `make test` already made) first unless NO_BUILD=1.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
prefix=${PREFIX:-/usr/local}
dest=${DESTDIR:-}
cd "$root"

command -v help2man >/dev/null || { echo "install: help2man missing (run scripts/install-deps.sh)" >&2; exit 1; }
configuration=${CONFIGURATION:-release}
if [ "${NO_BUILD:-0}" != 1 ]; then
  for product in healthbrokerd healthctl healthload; do swift build -c "$configuration" --product "$product"; done
fi
bin_dir=$(swift build -c "$configuration" --show-bin-path)

install -d "$dest$prefix/bin" "$dest$prefix/share/man/man1" "$dest$prefix/share/bash-completion/completions" \
  "$dest$prefix/lib/systemd/user" "$dest$prefix/lib/systemd/system" "$dest$prefix/lib/sysusers.d"

declare -A names=(
  [healthbrokerd]="the HealthBroker daemon, a local health-data authorization broker"
  [healthctl]="administer a running HealthBroker daemon"
  [healthload]="drive a running HealthBroker with calls and measure it"
)
for program in healthbrokerd healthctl healthload; do
  install -m 0755 "$bin_dir/$program" "$dest$prefix/bin/$program"
  help2man --no-info --section=1 --name="${names[$program]}" --version-option=--version --help-option=--help \
    --output="$dest$prefix/share/man/man1/$program.1" "$bin_dir/$program"
  install -m 0644 packaging/completions/healthbroker.bash "$dest$prefix/share/bash-completion/completions/$program"
done

for kind in user system; do
  for unit in packaging/systemd/$kind/*.service packaging/systemd/$kind/*.socket; do
    sed "s|@BINDIR@|$prefix/bin|g" "$unit" >"$dest$prefix/lib/systemd/$kind/$(basename "$unit")"
    chmod 0644 "$dest$prefix/lib/systemd/$kind/$(basename "$unit")"
  done
done
install -m 0644 packaging/systemd/system/healthbroker.sysusers.conf "$dest$prefix/lib/sysusers.d/healthbroker.conf"
echo "install: installed into $dest$prefix"
