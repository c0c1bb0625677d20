#!/usr/bin/env bash
# Checks what an app sees when it does `import HealthBrokerClient` (run after `swift build`; make test runs it).
#
# 1. Symbol graphs (swift-symbolgraph-extract, public symbols only) of HealthBrokerClient and
#    BrokerModel: no declaration may mention an Unsafe*Pointer/UnsafeBufferPointer, a C type (a
#    `c:` identifier), a type of BrokerPolicy, BrokerSupport or another broker-internal module, or a
#    `…Micros` member (apps see `Date`/`Duration`; the one allowed exception is the enum case
#    `ReadDecision.limited(fromMicros:)`, whose Date form is `ReadDecision.limited(from:)`).
# 2. Two probe files type-checked against the built modules: one that only imports
#    HealthBrokerClient and uses the model (must compile: the re-export works) and one per hidden
#    name (AuthorizationPolicy, ConsentPolicy, Logger, FileDescriptorLimit, SplitMix64, …) that must
#    fail with "cannot find … in scope".
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(swift build --show-bin-path)
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"
if [ ! -f "$modules/HealthBrokerClient.swiftmodule" ] && [ ! -d "$modules/HealthBrokerClient.swiftmodule" ]; then
    echo "check-public-api: $modules has no HealthBrokerClient module; run swift build first" >&2
    exit 2
fi
triple=$(swiftc -print-target-info | sed -n 's/^ *"triple": "\(.*\)",$/\1/p' | head -n 1)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The C modules BrokerWire imports, in case loading the client pulls them in.
clang_flags=(-Xcc "-fmodule-map-file=$bin/HealthBrokerProto.build/module.modulemap"
    -Xcc "-fmodule-map-file=Sources/CProtobufC/module.modulemap"
    -Xcc "-ISources/HealthBrokerProto/include")

failures=0
fail() { echo "check-public-api: $*" >&2; failures=$((failures + 1)); }

for module in BrokerModel HealthBrokerClient; do
    mkdir -p "$work/$module"
    swift-symbolgraph-extract -module-name "$module" -target "$triple" -I "$modules" \
        -minimum-access-level public -skip-inherited-docs -output-dir "$work/$module" "${clang_flags[@]}"
    graphs=("$work/$module"/*.symbols.json)
    [ -e "${graphs[0]}" ] || { fail "$module: no symbol graph written"; continue; }
    # One fragment or identifier per line, so each hit can be shown.
    cat "${graphs[@]}" | tr ',' '\n' > "$work/$module.lines"
    if hits=$(grep -E '"spelling":"[^"]*Unsafe[A-Za-z]*(Pointer|BufferPointer)' "$work/$module.lines"); then
        fail "$module: a public declaration mentions an unsafe pointer:"$'\n'"$hits"
    fi
    if hits=$(grep -E '"preciseIdentifier":"c:' "$work/$module.lines"); then
        fail "$module: a public declaration mentions a C type:"$'\n'"$hits"
    fi
    # Swift USRs name the module with its length: s:12BrokerPolicy…, s:13BrokerSupport…, s:10BrokerWire…
    if hits=$(grep -E '"preciseIdentifier":"s:(12BrokerPolicy|13BrokerSupport|10BrokerWire|11BrokerStore|12BrokerCrypto|15BrokerTransport|12BrokerServer|17HealthBrokerProto)' "$work/$module.lines"); then
        fail "$module: a public declaration mentions a broker-internal module's type:"$'\n'"$hits"
    fi
    if hits=$(grep -E '"title":"[^"]*Micros' "$work/$module.lines" | grep -v '"title":"ReadDecision.limited(fromMicros:)"'); then
        fail "$module: a public member is in microseconds (apps see Date or Duration):"$'\n'"$hits"
    fi
done

typecheck() {
    swiftc -typecheck -target "$triple" -I "$modules" "${clang_flags[@]}" "$1"
}

cat > "$work/Visible.swift" <<'SWIFT'
import HealthBrokerClient
import Foundation

let type: ObjectType = .stepCount
let sample = Sample(type: type, quantity: Quantity(1, "count"), start: Date(), end: Date())
let predicate = SamplePredicate(start: nil, end: Date())
let query = StatisticsQuery(type: type, predicate: predicate, options: .sum, interval: .day, anchor: Date())
let error: BrokerError = .invalidArgument("probe")
let status: AuthorizationStatus = .notDetermined
let descriptor = TypeCatalogue.descriptor(for: type)
let decision = TypeDecision(type: type, read: .limited(from: Date()))
SWIFT
if ! out=$(typecheck "$work/Visible.swift" 2>&1); then
    fail "an app importing only HealthBrokerClient cannot use the model:"$'\n'"$out"
fi

for hidden in AuthorizationPolicy ConsentPolicy AppGrants SampleValidator StatisticsRules SyncAnchor ISODate Units \
    Logger FileDescriptorLimit SplitMix64 DefaultPaths Microseconds WireCodec FrameDecoder; do
    printf 'import HealthBrokerClient\nlet hidden = %s.self\n' "$hidden" > "$work/Hidden$hidden.swift"
    if out=$(typecheck "$work/Hidden$hidden.swift" 2>&1); then
        fail "$hidden is visible to an app that imports HealthBrokerClient"
    elif ! grep -q "cannot find '$hidden' in scope" <<<"$out"; then
        fail "probing $hidden failed for another reason:"$'\n'"$out"
    fi
done

if [ "$failures" -gt 0 ]; then
    echo "check-public-api: $failures problem(s)" >&2
    exit 1
fi
echo "check-public-api: HealthBrokerClient and BrokerModel public surfaces OK"
