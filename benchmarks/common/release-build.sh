# Sourced by benchmarks/scenarios.sh and benchmarks/privacy.sh.
# release_build REPO SCRATCH BUILD: builds healthbrokerd, BrokerScenarios and healthctl in release in SCRATCH
# (when BUILD is 1) and sets bin to their folder; exits when either is missing. Needs say().
release_build() {
  local repo="$1" scratch="$2" build="$3"
  if [ "$build" = 1 ]; then
    say "building release (healthbrokerd, BrokerScenarios, healthctl) in $scratch"
    (cd "$repo" && swift build -c release --scratch-path "$scratch" --product healthbrokerd >&2 \
      && swift build -c release --scratch-path "$scratch" --product BrokerScenarios >&2 \
      && swift build -c release --scratch-path "$scratch" --product healthctl >&2)
  fi
  bin="$scratch/release"
  [ -x "$bin/healthbrokerd" ] && [ -x "$bin/BrokerScenarios" ] || { say "no release build in $bin (drop --no-build)"; exit 1; }
}
