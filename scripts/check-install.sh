#!/usr/bin/env bash
# make test's install check: `make install` into a temporary DESTDIR (the debug build make test made),
# then every installed executable answers --version, each man page renders with `man -l`, the
# completion file loads and offers a subcommand, and `systemd-analyze verify` accepts the installed
# units (system and user) with ExecStart pointing at the installed daemon, and the daemon does not
# link libh2o or libssl.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
dest=$(mktemp -d /tmp/healthbroker-install.XXXXXX)
trap 'rm -rf "$dest"' EXIT
prefix=/usr/local
CONFIGURATION=debug NO_BUILD=1 PREFIX=$prefix DESTDIR=$dest scripts/install.sh >/dev/null

for program in healthbrokerd healthctl healthload; do
  version=$("$dest$prefix/bin/$program" --version)
  [[ $version == "$program "* ]] || { echo "check-install: $program --version printed '$version'" >&2; exit 1; }
  page="$dest$prefix/share/man/man1/$program.1"
  MANWIDTH=80 man -l "$page" 2>/dev/null | grep -q -- "--help" \
    || { echo "check-install: man -l $page does not show the options" >&2; exit 1; }
done

# The daemon serves no HTTP: it must not load libh2o (nor the libssl that comes with it). ldd lists
# every library the dynamic linker would load, transitive ones included.
if ldd "$dest$prefix/bin/healthbrokerd" | grep -Eq 'libh2o|libssl'; then
  echo "check-install: healthbrokerd links libh2o or libssl:" >&2
  ldd "$dest$prefix/bin/healthbrokerd" | grep -E 'libh2o|libssl' >&2
  exit 1
fi

offered=$(PATH="$dest$prefix/bin:$PATH" bash -c "source '$dest$prefix/share/bash-completion/completions/healthctl'
  COMP_WORDS=(healthctl gra); COMP_CWORD=1; _healthbroker_complete healthctl; echo \"\${COMPREPLY[*]}\"")
[ "$offered" = grants ] || { echo "check-install: completion offered '$offered' for 'healthctl gra'" >&2; exit 1; }

if command -v systemd-analyze >/dev/null; then
  for kind in system user; do
    units="$dest/verify-$kind"
    mkdir -p "$units"
    for unit in "$dest$prefix/lib/systemd/$kind"/*; do
      sed "s|$prefix/bin|$dest$prefix/bin|g" "$unit" >"$units/$(basename "$unit")"
    done
    flags=()
    [ "$kind" = user ] && flags=(--user)
    (cd "$units" && XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp} systemd-analyze "${flags[@]}" verify --man=no \
      ./healthbrokerd.socket ./healthbrokerd-admin.socket ./healthbrokerd.service)
  done
else
  echo "check-install: systemd-analyze missing; units not verified" >&2
  exit 1
fi
echo "check-install: installed binaries, man pages, completions and units check out"
