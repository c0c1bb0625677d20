import BrokerSupport
import CommandLineSupport
import HealthBrokerClient

/// The `BrokerScenarios` command line: the measured scenarios against a running broker (two for `privacy`).
enum ScenarioSpec {
    /// The whole grammar.
    static let spec = CommandSpec(
        "BrokerScenarios",
        summary: "Measure a running HealthBroker: the big clamped query, durable ingest, idle connections, latency, clients that never read, privacy.",
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
                    .option("operations", value: "LIST", help: "Which to measure, comma-separated (for profiling one).", default: LatencyScenario.Operation.standard.map(\.rawValue).joined(separator: ",")),
                ]),
            CommandSpec(
                "statistics",
                summary: "Time statistics over a long history: steps per day, week, month and hour, heart rate per day, and a read-denied app's steps per day.",
                discussion: """
                    The store must already hold the history (healthctl demo-data for the sources, and the \
                    denied app's own samples), and the daemon's consent policy must decide both apps: the \
                    reader may read steps and heart rate, the denied app may not read (it may share). Each \
                    query covers the --days days before today's UTC midnight in --time-zone; it is asked once \
                    untimed, then --runs times (median and best).
                    """,
                options: [
                    .option("days", value: "D", help: "The history's length in days, ending at today's UTC midnight.", default: "1826"),
                    .option("runs", value: "R", help: "Timed calls per query.", default: "5"),
                    .option("time-zone", value: "ZONE", help: "The buckets' time zone.", default: "America/New_York"),
                    .option("reader", value: "APP_ID", help: "The app that reads everything.", default: "scenarios.stats.reader"),
                    .option("denied", value: "APP_ID", help: "The read-denied app.", default: "scenarios.stats.denied"),
                    .option("only", value: "LIST", help: "Only these queries, comma-separated (steps-day, steps-week, steps-month, steps-hour, heart-day, denied-steps-day)."),
                    .option("label", value: "TEXT", help: "A label for the result lines (e.g. the daemon's rollup mode).", default: ""),
                ]),
            CommandSpec(
                "idle",
                summary: "Open C connections that each say Hello, measure broker RSS per connection, ping each, close.",
                options: [
                    .option("connections", short: "c", value: "C", help: "Connections to open.", default: "5000"),
                    .option("settle-ms", value: "MS", help: "How long to wait before reading the broker's RSS.", default: "1000"),
                ]),
            CommandSpec(
                "deaf",
                summary: "C app connections that never read pour pipelined calls; broker RSS per connection against its documented bound, and another client's ping latency meanwhile.",
                discussion: """
                    Each deaf connection says Hello, then writes until its socket takes no more: a \
                    PingStream of count and credit 2^32-1 with items of --stream-payload-bytes, groups of 64 \
                    pipelined Queries of step count in pages of 4,096 (credit 2^32-1; the store holds \
                    --samples samples, imported first as scenarios.watch), and Pings of --ping-payload-bytes \
                    delayed --ping-delay-ms; the connections are dealt three orders of these in turn. While \
                    they sit there (none ever reads), the broker's peak RSS is watched (VmRSS polled, VmHWM \
                    reset first) and a well-behaved client pings through HealthStore, one in flight, \
                    --pings times with --ping-interval-us between (p50, p99, max). The result sets the peak \
                    growth per deaf connection beside the bound of docs/RELIABILITY.md, 2H + 3F + 64 KiB + \
                    two pages, with H and F read from the daemon's command line (/proc/PID/cmdline; its \
                    defaults when absent). Needs the daemon's --max-connections-per-uid above C and its \
                    --stall-timeout-ms longer than the run, or the broker cuts the deaf clients off.
                    """,
                options: [
                    .option("connections", short: "c", value: "C", help: "Deaf connections.", default: "200"),
                    .option("samples", value: "N", help: "Minute step samples in the store, each query's answer.", default: "20000"),
                    .option("pings", value: "N", help: "The other client's timed pings while the deaf ones sit there.", default: "3000"),
                    .option("baseline-pings", value: "N", help: "Its timed pings before they connect.", default: "1000"),
                    .option("ping-interval-us", value: "US", help: "Its pause after each ping.", default: "2000"),
                    .option("ping-payload-bytes", value: "B", help: "Each deaf Ping's payload.", default: "1048576"),
                    .option("ping-delay-ms", value: "MS", help: "Each deaf Ping's delay.", default: "250"),
                    .option("stream-payload-bytes", value: "B", help: "The deaf PingStream's item payload.", default: "131072"),
                    .option("settle-ms", value: "MS", help: "How long to wait before reading the broker's RSS.", default: "1000"),
                    .flag("no-import", help: "Skip the import (the samples are already there)."),
                    .flag("import-only", help: "Import the samples and stop (measure later with --no-import on a restarted daemon)."),
                ]),
            CommandSpec(
                "privacy",
                summary: "Whether a read-denied app can tell its store from one holding only its own samples, by answers or by time.",
                discussion: """
                    Two fresh daemons: A (--socket, --admin-socket) and B (--b-socket, --b-admin-socket). \
                    In A, app privacy.x is read-denied for steps, heart rate and sleep while privacy.watch and \
                    privacy.ring import --other-samples samples of those types around x's windows (plus a sleep \
                    and a heart-rate sample spanning 2000-01-02 to today, and deletions); in B, x may read \
                    everything and the store holds only x's samples, the same ones. Grants are given by \
                    this process answering the prompts as the consent agent. Each call kind is first asked \
                    once of both stores and the answers compared; then, per round, timed from this process \
                    over the socket, one call in flight, A and B interleaved with the order alternating per \
                    pair, then A against A the same way (the noise band). Hello is compared within A: a \
                    registered id with a wrong token against an unknown id. Per call and round it prints \
                    the medians, their ratio, the A/A ratio and a two-sided Mann-Whitney U p-value; then a \
                    verdict per call: PASS when the answers match, every round's ratio is at most \
                    --max-ratio and the rounds do not all lean the same way with p below --alpha.
                    """,
                options: [
                    .option("b-socket", value: "PATH", help: "Store B's app socket."),
                    .option("b-admin-socket", value: "PATH", help: "Store B's admin socket."),
                    .option("a-copy-socket", value: "PATH", help: "A third daemon's app socket: filled as A, the A/A band is then A against it (two processes, as A and B are) instead of against itself."),
                    .option("a-copy-admin-socket", value: "PATH", help: "The third daemon's admin socket."),
                    .option("other-samples", value: "N", help: "Other apps' samples imported into A (a third each of steps, heart rate, sleep).", default: "100000"),
                    .option("calls", value: "N", help: "Timed calls per store per call kind per round.", default: "2000"),
                    .option("warmup-calls", value: "N", help: "Untimed calls per store first, each round and phase.", default: "200"),
                    .option("rounds", value: "R", help: "Rounds.", default: "3"),
                    .option("max-ratio", value: "X", help: "The largest median ratio that passes.", default: "1.10"),
                    .option("alpha", value: "P", help: "A p-value below this counts as a real difference.", default: "0.01"),
                    .option("only-calls", value: "LIST", help: "Which calls, comma-separated.", default: PrivacyCall.allCases.map(\.rawValue).joined(separator: ",")),
                    .option("json-lines", value: "FILE", help: "Also write each round's figures, the answer checks and the verdicts as JSON lines."),
                ]),
            CommandSpec(
                "report",
                summary: "Print the table of figures and targets from a run's JSON files (idle, import*, query*, ingest-*, latency-*, deaf-*).",
                positionals: [PositionalSpec("DIR", help: "The directory the JSON files are in.")]),
        ],
        version: BrokerVersion.broker
    )
}
