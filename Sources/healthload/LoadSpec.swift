import BrokerSupport
import CommandLineSupport
import HealthBrokerClient

/// The `healthload` command line.
enum LoadSpec {
    /// The program name used in help and messages.
    static let programName = "healthload"

    /// The whole grammar.
    static let spec = CommandSpec(
        programName,
        summary: "Drive a running HealthBroker with calls and measure throughput, latency and broker CPU.",
        discussion: """
            Closed loop (the default): --connections C, each keeping --depth D calls in flight, for \
            --duration seconds after --warmup seconds. Open loop: --rate R calls a second in all at a \
            constant pace; each call's latency counts from when it was meant to go out, so a stall \
            shows up as latency (no coordinated omission), and --depth caps the calls in flight per \
            connection (default 1024).
            --op takes one operation or a weighted mix, e.g. 'ping:8,easd:1,status:1,query:1,save:1': \
            ping, easd (EarliestAuthorizedSampleDate), status (AuthorizationStatus), query (streams \
            --query-samples samples), save (a batch of --batch new samples), reqstatus (RequestStatus for the types setup asked for), anchored (an AnchoredQuery without an anchor streaming the --query-samples samples), custom (the unary app method and request \
            --request gives, as JSON in protobuf's JSON mapping, e.g. \
            'EarliestAuthorizedSampleDate={"types":["HKQuantityTypeIdentifierStepCount"]}' or METHOD=@FILE).
            Setup goes through the admin socket: apps healthload.1 … healthload.N are registered (or \
            their tokens rotated), authorized (healthload answers its own prompts as a consent agent: \
            share allowed, read limited to the last 30 days) and seeded with the samples queries read.
            Latency comes from a log-linear histogram (under 0.4 % error). The broker's CPU time per \
            call is read from /proc/PID/stat of the peer of the first connection (SO_PEERCRED) or of \
            --broker-pid.
            """,
        options: [
            .option("socket", value: "PATH", help: "The broker's app socket.",
                    default: DefaultPaths.appSocket, environment: "HEALTHBROKER_APP_SOCKET"),
            .option("admin-socket", value: "PATH", help: "The broker's admin socket (setup and broker counters).",
                    default: DefaultPaths.adminSocket, environment: "HEALTHBROKER_ADMIN_SOCKET"),
            .option("connections", short: "c", value: "C", help: "Connections to open.", default: "1"),
            .option("depth", short: "d", value: "D", help: "Calls in flight per connection (open loop: the cap; default 1024)."),
            .option("duration", value: "SECONDS", help: "How long to measure.", default: "10"),
            .option("warmup", value: "SECONDS", help: "How long to run before measuring.", default: "1"),
            .option("rate", value: "R", help: "Open loop: calls a second in all, at a constant pace."),
            .option("op", value: "MIX", help: "Operation or weighted mix: ping, easd, status, query, save, reqstatus, anchored, custom (e.g. ping:8,save:1).", default: "ping"),
            .option("request", value: "METHOD=JSON", help: "The custom op's call: a unary app method and its request as JSON, or METHOD=@FILE."),
            .option("payload-bytes", value: "N", help: "Ping payload size.", default: "0"),
            .option("query-samples", value: "K", help: "Samples each query streams (seeded at setup).", default: "100"),
            .option("batch", value: "K", help: "Samples each save writes.", default: "10"),
            .option("apps", value: "N", help: "Apps to spread the connections over (healthload.1 … healthload.N).", default: "1"),
            .option("threads", value: "T", help: "Driver threads (default: the connections, at most the CPU count)."),
            .option("broker-pid", value: "PID", help: "The daemon's pid for CPU time (default: from SO_PEERCRED)."),
            .option("drain", value: "SECONDS", help: "How long calls in flight may finish after the window.", default: "10"),
            .option("call-timeout", value: "MS", help: "A deadline sent with every call (0: none).", default: "0"),
            .option("json", value: "FILE", help: "Write the whole report as JSON."),
            .option("svg", value: "FILE", help: "Draw the latency-percentile plot as SVG."),
            .flag("verify", help: "Decode every reply in full and check it (costs client CPU)."),
            .flag("allow-writes-to-live-store", help: "Run against a broker that holds other apps' data (healthload registers apps, sets their grants and writes samples there)."),
            .flag("keep", help: "Leave the load apps and their samples in the broker after the run (removed by default)."),
            .flag("quiet", short: "q", help: "No progress lines."),
        ],
        version: BrokerVersion.broker
    )
}
