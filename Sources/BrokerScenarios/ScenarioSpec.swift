import CommandLineSupport
import HealthBrokerClient

/// The `BrokerScenarios` command line: three measured scenarios against a running broker.
enum ScenarioSpec {
    /// The whole grammar.
    static let spec = CommandSpec(
        "BrokerScenarios",
        summary: "Measure a running HealthBroker: the big clamped query, durable ingest, idle connections.",
        discussion: """
            Talks to a running daemon over its Unix sockets and sets up what it needs through the admin \
            socket (apps registered or re-keyed, their step-count decisions revoked and asked again, with \
            this process answering the prompts as a consent agent). Broker memory comes from \
            /proc/PID/status of the daemon (VmRSS polled, VmHWM reset through /proc/PID/clear_refs); \
            the pid is the app socket's SO_PEERCRED peer unless --broker-pid is given. Each scenario \
            prints one result line (key=value) and, with --json, writes the figures as JSON.
            """,
        options: [
            .option("socket", value: "PATH", help: "The broker's app socket.",
                    default: DefaultPaths.appSocket, environment: "HEALTHBROKER_APP_SOCKET"),
            .option("admin-socket", value: "PATH", help: "The broker's admin socket.",
                    default: DefaultPaths.adminSocket, environment: "HEALTHBROKER_ADMIN_SOCKET"),
            .option("broker-pid", value: "PID", help: "The daemon's pid (default: the app socket's peer)."),
            .option("json", value: "FILE", help: "Also write the figures as JSON."),
        ],
        subcommands: [
            CommandSpec(
                "query",
                summary: "Import N minute-level step samples, then time samples(of:) over them end to end.",
                discussion: """
                    Imports N one-minute step samples ending at today's UTC midnight (idempotent: the same \
                    uuids every run), then streams the range with HealthStore.samples(of:) as an app with \
                    full read access (all N come back) and as one limited to the last --limited-days days \
                    (the broker clamps the answer). Each is run --runs times after one warm-up run; the \
                    result gives the median and best, samples/s, and the peak RSS growth of the broker \
                    and of this process during the query.
                    """,
                options: [
                    .option("samples", value: "N", help: "Minute samples to import and query.", default: "129600"),
                    .option("runs", value: "R", help: "Timed runs of each query (after one warm-up).", default: "5"),
                    .option("page-size", value: "P", help: "Samples per streamed page (0: the broker's default).", default: "0"),
                    .option("limited-days", value: "D", help: "The limited app may read the last D days of the range.", default: "30"),
                    .flag("no-import", help: "Skip the import (the samples are already there)."),
                    .flag("import-only", help: "Import, print the import rate and stop (measure later with --no-import)."),
                ]),
            CommandSpec(
                "ingest",
                summary: "Save batches of new step samples with HealthStore.save; each acknowledged batch is committed.",
                options: [
                    .option("batches", value: "B", help: "Batches to save in all.", default: "200"),
                    .option("batch-size", value: "K", help: "Samples per batch.", default: "1000"),
                    .option("connections", short: "c", value: "C", help: "App connections saving at once.", default: "1"),
                    .option("depth", short: "d", value: "D", help: "Saves in flight per connection.", default: "1"),
                    .flag("time-ordered-uuids", help: "Give the samples HealthStore's default time-ordered UUIDs (SampleUUID) instead of random ones."),
                    .option("label", value: "TEXT", help: "A label for the result (e.g. the daemon's synchronous mode).", default: ""),
                ]),
            CommandSpec(
                "latency",
                summary: "One call in flight through HealthStore: p50/p99 of ping and EarliestAuthorizedSampleDate.",
                options: [
                    .option("calls", value: "N", help: "Calls measured per operation.", default: "20000"),
                    .option("warmup-calls", value: "N", help: "Calls made first, not measured.", default: "2000"),
                    .option("payload-bytes", value: "P", help: "The ping payload's size.", default: "32"),
                    .option("operations", value: "LIST", help: "Which to measure, comma-separated (for profiling one).", default: LatencyScenario.Operation.allCases.map(\.rawValue).joined(separator: ",")),
                ]),
            CommandSpec(
                "idle",
                summary: "Open C connections that each say Hello, measure broker RSS per connection, ping each, close.",
                options: [
                    .option("connections", short: "c", value: "C", help: "Connections to open.", default: "5000"),
                    .option("settle-ms", value: "MS", help: "How long to wait before reading the broker's RSS.", default: "1000"),
                ]),
            CommandSpec(
                "report",
                summary: "Print the table of figures and targets from a run's JSON files (idle, import*, query*, ingest-*).",
                positionals: [PositionalSpec("DIR", help: "The directory the JSON files are in.")]),
        ]
    )
}
