// swift-tools-version:6.0
// HealthBroker: a local health-data authorization broker. One target per layer; see docs/ARCHITECTURE.md.
import PackageDescription

/// Every Swift target: imports are internal unless a file says `public import` (so a module's public
/// API shows exactly what it re-exports), and a member is visible only where its module is imported.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "HealthBroker",
    products: [
        .library(name: "HealthBrokerClient", targets: ["HealthBrokerClient"]),
        .executable(name: "healthbrokerd", targets: ["healthbrokerd"]),
        .executable(name: "healthctl", targets: ["healthctl"]),
        .executable(name: "healthload", targets: ["healthload"]),
        .executable(name: "ping-example", targets: ["PingExample"]),
        .executable(name: "authorization-example", targets: ["AuthorizationExample"]),
        .executable(name: "steps-example", targets: ["StepsExample"]),
        .executable(name: "writer-example", targets: ["WriterExample"]),
    ],
    targets: [
        // System libraries (Debian -dev packages; scripts/install-deps.sh installs them).
        .systemLibrary(name: "CLibUV", pkgConfig: "libuv", providers: [.apt(["libuv1-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(name: "CProtobufC", pkgConfig: "libprotobuf-c", providers: [.apt(["libprotobuf-c-dev"])]),
        // libh2o built on libuv (Debian's libh2o-dev, not libh2o-evloop-dev): healthctl ui's HTTP server.
        .systemLibrary(name: "CH2O", pkgConfig: "libh2o", providers: [.apt(["libh2o-dev"])]),
        // libxml2's SAX2 push parser: healthctl's Apple Health import (XMLSAXReader is its only importer).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),

        // protoc-c output for proto/healthbroker.proto, checked in (scripts/generate-proto.sh).
        .target(name: "HealthBrokerProto", dependencies: ["CProtobufC"]),

        // The model apps see: object types and the type catalogue, samples, queries, statistics,
        // authorization and request status, the registry and consent records the admin API shows,
        // and the errors (BrokerError, StatusCode, DomainCode). Pure Swift, no I/O.
        .target(name: "BrokerModel", swiftSettings: swiftSettings),
        // The broker's policy: authorization, consent rules, sample and statistics rules, units,
        // anchor layout. Pure Swift, no I/O (callers pass the time).
        .target(name: "BrokerPolicy", dependencies: ["BrokerModel"], swiftSettings: swiftSettings),
        // Process support that touches the system: logging to fd 2, clocks, the fd limit, default
        // paths from the environment, the seedable generator the tools share.
        .target(name: "BrokerSupport", swiftSettings: swiftSettings),
        // Framing and the message codec: bytes in, Swift values out. No I/O.
        .target(name: "BrokerWire", dependencies: ["BrokerModel", "HealthBrokerProto"], swiftSettings: swiftSettings),
        // Tokens, hashes and anchor sealing through libsodium: the only code that imports it.
        // BrokerModel and BrokerPolicy only for the anchor (SyncAnchor, ObjectType, BrokerError).
        .target(name: "BrokerCrypto", dependencies: ["BrokerModel", "BrokerPolicy", "CSodium"], swiftSettings: swiftSettings),
        // SQLite storage: the only code that imports SQLite.
        .target(name: "BrokerStore", dependencies: ["BrokerModel", "BrokerPolicy", "CSQLite"], swiftSettings: swiftSettings),
        // The transport layer, the only code that imports libuv: the event loop, sockets, timers and
        // cross-thread hand-off here, and BrokerHTTPTransport below.
        .target(name: "BrokerTransport", dependencies: ["BrokerModel", "BrokerSupport", "BrokerWire", "CLibUV"], swiftSettings: swiftSettings),
        // The transport layer's HTTP server (healthctl ui) and the only importer of libh2o: h2o runs on
        // BrokerTransport's libuv loop and takes libuv handles, so it belongs to the layer that owns them.
        // A target of its own so that healthbrokerd, which serves no HTTP, does not link libh2o (or libssl).
        .target(name: "BrokerHTTPTransport", dependencies: ["BrokerTransport", "BrokerModel", "CLibUV", "CH2O"], swiftSettings: swiftSettings),
        // The broker service: sessions, calls, dispatch, workers.
        .target(
            name: "BrokerServer",
            dependencies: ["BrokerModel", "BrokerPolicy", "BrokerSupport", "BrokerWire", "BrokerTransport", "BrokerStore", "BrokerCrypto"],
            swiftSettings: swiftSettings),
        // The public Swift client. Re-exports BrokerModel and nothing else.
        .target(name: "HealthBrokerClient", dependencies: ["BrokerModel", "BrokerSupport", "BrokerWire"], swiftSettings: swiftSettings),
        // The small argument parser shared by the executables.
        .target(name: "CommandLineSupport", swiftSettings: swiftSettings),

        .executableTarget(name: "healthbrokerd", dependencies: ["BrokerServer", "BrokerModel", "BrokerPolicy", "BrokerStore", "BrokerSupport", "CommandLineSupport"], swiftSettings: swiftSettings),
        .executableTarget(name: "healthctl", dependencies: ["HealthBrokerClient", "BrokerWire", "BrokerModel", "BrokerPolicy", "BrokerSupport", "BrokerTransport", "BrokerHTTPTransport", "CommandLineSupport", "CLibXML2"], swiftSettings: swiftSettings),
        // The load driver (issue: load testing); talks to a running broker over its real sockets.
        .executableTarget(name: "healthload", dependencies: ["HealthBrokerClient", "BrokerWire", "BrokerSupport", "CommandLineSupport"], swiftSettings: swiftSettings),
        // Scenario measurements for BENCHMARKS: big clamped query, durable ingest, idle connections.
        .executableTarget(name: "BrokerScenarios", dependencies: ["HealthBrokerClient", "BrokerWire", "BrokerSupport", "CommandLineSupport"], swiftSettings: swiftSettings),
        // libFuzzer entry point for the frame decoder and codec (built only by scripts/fuzz.sh).
        .executableTarget(name: "FrameFuzzer", dependencies: ["BrokerWire", "BrokerModel", "CommandLineSupport"], swiftSettings: swiftSettings),
        .executableTarget(name: "PingExample", dependencies: ["HealthBrokerClient", "CommandLineSupport"], path: "examples/PingExample", swiftSettings: swiftSettings),
        .executableTarget(name: "AuthorizationExample", dependencies: ["HealthBrokerClient", "CommandLineSupport"], path: "examples/AuthorizationExample", swiftSettings: swiftSettings),
        .executableTarget(name: "StepsExample", dependencies: ["HealthBrokerClient", "CommandLineSupport"], path: "examples/StepsExample", swiftSettings: swiftSettings),
        .executableTarget(name: "WriterExample", dependencies: ["HealthBrokerClient", "CommandLineSupport"], path: "examples/WriterExample", swiftSettings: swiftSettings),

        // Shared test helpers: start a daemon on a temporary socket, register apps.
        .target(name: "TestSupport", dependencies: ["HealthBrokerClient", "BrokerSupport"], path: "Tests/TestSupport", swiftSettings: swiftSettings),

        .testTarget(name: "BrokerPolicyTests", dependencies: ["BrokerModel", "BrokerPolicy", "BrokerSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "BrokerSupportTests", dependencies: ["BrokerSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "BrokerWireTests", dependencies: ["BrokerWire", "BrokerModel", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "BrokerTransportTests", dependencies: ["BrokerTransport", "BrokerHTTPTransport", "BrokerModel", "BrokerWire", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "BrokerStoreTests", dependencies: ["BrokerStore", "BrokerCrypto", "BrokerModel", "BrokerPolicy", "BrokerSupport"], swiftSettings: swiftSettings),
        // The broker in process: real Broker, store and loop, with test connections instead of sockets.
        .testTarget(name: "BrokerServerTests", dependencies: ["BrokerServer", "BrokerTransport", "BrokerWire", "BrokerModel", "BrokerPolicy", "BrokerSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "CommandLineSupportTests", dependencies: ["CommandLineSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "HealthBrokerClientTests", dependencies: ["HealthBrokerClient", "BrokerWire"], swiftSettings: swiftSettings),
        .testTarget(name: "HealthctlTests", dependencies: ["healthctl", "BrokerModel", "BrokerPolicy", "BrokerSupport", "CommandLineSupport"], swiftSettings: swiftSettings),
        // The daemon's own parts: socket activation and service notification (sd_listen_fds, sd_notify).
        .testTarget(name: "HealthbrokerdTests", dependencies: ["healthbrokerd", "BrokerModel", "BrokerSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "HealthloadTests", dependencies: ["healthload", "TestSupport", "HealthBrokerClient", "BrokerWire", "BrokerSupport", "CommandLineSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "HealthBrokerClient", "BrokerWire", "BrokerModel", "BrokerStore"], swiftSettings: swiftSettings),
    ]
)
