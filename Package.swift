// swift-tools-version:6.0
// HealthBroker: a local health-data authorization broker. One target per layer; see docs/ARCHITECTURE.md.
import PackageDescription

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

        // protoc-c output for proto/healthbroker.proto, checked in (scripts/generate-proto.sh).
        .target(name: "HealthBrokerProto", dependencies: ["CProtobufC"]),

        // Status codes, errors, time and (later) the authorization policy: pure Swift, no I/O.
        .target(name: "BrokerCore"),
        // Framing and the message codec: bytes in, Swift values out. No I/O.
        .target(name: "BrokerWire", dependencies: ["BrokerCore", "HealthBrokerProto"]),
        // Tokens, hashes and anchor sealing through libsodium: the only code that imports it.
        // BrokerCore only for the anchor model (SyncAnchor, ObjectType, BrokerError).
        .target(name: "BrokerCrypto", dependencies: ["BrokerCore", "CSodium"]),
        // SQLite storage: the only code that imports SQLite.
        .target(name: "BrokerStore", dependencies: ["BrokerCore", "CSQLite"]),
        // The libuv event loop, sockets, timers and cross-thread hand-off: the only code that imports libuv.
        .target(name: "BrokerTransport", dependencies: ["BrokerCore", "BrokerWire", "CLibUV"]),
        // The broker service: sessions, calls, dispatch, workers.
        .target(name: "BrokerServer", dependencies: ["BrokerCore", "BrokerWire", "BrokerTransport", "BrokerStore", "BrokerCrypto"]),
        // The public Swift client.
        .target(name: "HealthBrokerClient", dependencies: ["BrokerCore", "BrokerWire"]),
        // The small argument parser shared by the executables.
        .target(name: "CommandLineSupport"),

        .executableTarget(name: "healthbrokerd", dependencies: ["BrokerServer", "BrokerCore", "CommandLineSupport"]),
        .executableTarget(name: "healthctl", dependencies: ["HealthBrokerClient", "CommandLineSupport"]),
        // The load driver (issue: load testing); talks to a running broker over its real sockets.
        .executableTarget(name: "healthload", dependencies: ["HealthBrokerClient", "BrokerWire", "CommandLineSupport"]),
        // Scenario measurements for BENCHMARKS: big clamped query, durable ingest, idle connections.
        .executableTarget(name: "BrokerScenarios", dependencies: ["HealthBrokerClient", "BrokerWire", "CommandLineSupport"]),
        // libFuzzer entry point for the frame decoder and codec (built only by scripts/fuzz.sh).
        .executableTarget(name: "FrameFuzzer", dependencies: ["BrokerWire", "BrokerCore"]),
        .executableTarget(name: "PingExample", dependencies: ["HealthBrokerClient", "CommandLineSupport"], path: "examples/PingExample"),
        .executableTarget(name: "AuthorizationExample", dependencies: ["HealthBrokerClient", "CommandLineSupport"], path: "examples/AuthorizationExample"),
        .executableTarget(name: "StepsExample", dependencies: ["HealthBrokerClient", "CommandLineSupport"], path: "examples/StepsExample"),
        .executableTarget(name: "WriterExample", dependencies: ["HealthBrokerClient", "CommandLineSupport"], path: "examples/WriterExample"),

        // Shared test helpers: start a daemon on a temporary socket, register apps.
        .target(name: "TestSupport", dependencies: ["HealthBrokerClient"], path: "Tests/TestSupport"),

        .testTarget(name: "BrokerCoreTests", dependencies: ["BrokerCore"]),
        .testTarget(name: "BrokerWireTests", dependencies: ["BrokerWire", "BrokerCore", "TestSupport"]),
        .testTarget(name: "BrokerTransportTests", dependencies: ["BrokerTransport", "BrokerCore", "BrokerWire", "TestSupport"]),
        .testTarget(name: "BrokerStoreTests", dependencies: ["BrokerStore", "BrokerCrypto", "BrokerCore"]),
        // The broker in process: real Broker, store and loop, with test connections instead of sockets.
        .testTarget(name: "BrokerServerTests", dependencies: ["BrokerServer", "BrokerTransport", "BrokerWire", "BrokerCore"]),
        .testTarget(name: "CommandLineSupportTests", dependencies: ["CommandLineSupport"]),
        .testTarget(name: "HealthBrokerClientTests", dependencies: ["HealthBrokerClient", "BrokerWire"]),
        .testTarget(name: "HealthctlTests", dependencies: ["healthctl"]),
        // The daemon's own parts: socket activation and service notification (sd_listen_fds, sd_notify).
        .testTarget(name: "HealthbrokerdTests", dependencies: ["healthbrokerd", "BrokerCore"]),
        .testTarget(name: "HealthloadTests", dependencies: ["healthload", "TestSupport", "HealthBrokerClient", "BrokerCore"]),
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "HealthBrokerClient", "BrokerWire"]),
    ]
)
