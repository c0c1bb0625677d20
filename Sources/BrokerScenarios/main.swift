// BrokerScenarios: measures a running HealthBroker in the scenarios of the load-testing issue (the
// 129,600-sample clamped query, durable ingest in batches, memory per idle connection, latency,
// clients that never read) and
// prints one result line each, optionally JSON. benchmarks/scenarios.sh runs them against a fresh
// daemon; benchmarks/privacy.sh runs the privacy scenario against two.
import CommandLineSupport
import Foundation
import HealthBrokerClient

await CommandLineTool.run(spec: ScenarioSpec.spec) { command in
    let socket = try command.requiredString("socket")
    let adminSocket = try command.requiredString("admin-socket")
    let log: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data(("scenarios: " + line + "\n").utf8))
    }
    if command.path.last == "report" {
        print(try ScenarioReport(directory: URL(fileURLWithPath: command.positional("DIR") ?? ".")).render())
        return
    }
    if command.path.last == "privacy" {
        try await runPrivacy(command, socket: socket, adminSocket: adminSocket, log: log)
        return
    }
    if command.path.last == "statistics" {
        let label = command.string("label") ?? ""
        let scenario = StatisticsScenario(
            socketPath: socket, adminSocketPath: adminSocket,
            days: try command.int("days", in: 1...36_500) ?? 1_826, runs: try command.int("runs", in: 1...1_000) ?? 5,
            timeZone: command.string("time-zone") ?? "America/New_York",
            readerID: command.string("reader") ?? "scenarios.stats.reader", deniedID: command.string("denied") ?? "scenarios.stats.denied",
            only: Set((command.string("only") ?? "").split(separator: ",").map(String.init)), label: label, log: log)
        let figures = try await scenario.run()
        print(StatisticsScenario.lines(figures, label: label))
        if let path = command.string("json") { try ResultLine.encode(figures).write(to: URL(fileURLWithPath: path)) }
        return
    }
    let pid = try BrokerProcess.pid(given: try command.int("broker-pid", in: 1...Int(Int32.max)).map { Int32($0) }, socketPath: socket)
    let json: Data
    switch command.path.last {
    case "query":
        let scenario = QueryScenario(
            socketPath: socket, adminSocketPath: adminSocket, brokerPID: pid,
            samples: try command.int("samples", in: 1...50_000_000) ?? 129_600,
            runs: try command.int("runs", in: 1...1_000) ?? 5,
            pageSize: try command.int("page-size", in: 0...4_096) ?? 0,
            limitedDays: try command.int("limited-days", in: 1...36_500) ?? 30,
            importFirst: !command.flag("no-import"), importOnly: command.flag("import-only"), log: log)
        let result = try await scenario.run()
        print(scenario.importOnly ? ResultLine.importOnly(result) : ResultLine.query(result))
        json = try ResultLine.encode(result)
    case "ingest":
        let scenario = IngestScenario(
            socketPath: socket, adminSocketPath: adminSocket, brokerPID: pid,
            batches: try command.int("batches", in: 1...10_000_000) ?? 200,
            batchSize: try command.int("batch-size", in: 1...10_000) ?? 1_000,
            connections: try command.int("connections", in: 1...10_000) ?? 1,
            depth: try command.int("depth", in: 1...1_000) ?? 1,
            timeOrderedUUIDs: command.flag("time-ordered-uuids"),
            label: command.string("label") ?? "", log: log)
        let result = try await scenario.run()
        print(ResultLine.ingest(result))
        json = try ResultLine.encode(result)
    case "latency":
        let scenario = LatencyScenario(
            socketPath: socket, adminSocketPath: adminSocket, brokerPID: pid,
            calls: try command.int("calls", in: 1...10_000_000) ?? 20_000,
            warmupCalls: try command.int("warmup-calls", in: 0...10_000_000) ?? 2_000,
            payloadBytes: try command.int("payload-bytes", in: 0...65_536) ?? 32,
            operations: try LatencyScenario.Operation.list(command.string("operations")), log: log)
        let result = try await scenario.run()
        print(ResultLine.latency(result))
        json = try ResultLine.encode(result)
    case "idle":
        let scenario = IdleScenario(
            socketPath: socket, adminSocketPath: adminSocket, brokerPID: pid,
            connections: try command.int("connections", in: 1...1_000_000) ?? 5_000,
            settleMs: try command.int("settle-ms", in: 0...600_000) ?? 1_000, log: log)
        let result = try await scenario.run()
        print(ResultLine.idle(result))
        json = try ResultLine.encode(result)
    case "deaf":
        json = try await runDeaf(command, socket: socket, adminSocket: adminSocket, pid: pid, log: log)
    default:
        throw ArgumentError(.invalidValue, "name a scenario: query, ingest, latency, idle, deaf, statistics, privacy or report")
    }
    if let path = command.string("json") {
        try json.write(to: URL(fileURLWithPath: path))
    }
}

/// The privacy scenario: two daemons, a line per call and round as it is measured, then the table.
func runPrivacy(_ command: ParsedCommand, socket: String, adminSocket: String, log: @escaping @Sendable (String) -> Void) async throws {
    guard let bSocket = command.string("b-socket"), let bAdminSocket = command.string("b-admin-socket") else {
        throw ArgumentError(.missingValue, "privacy needs store B: --b-socket and --b-admin-socket")
    }
    var copy: (String, String)?
    switch (command.string("a-copy-socket"), command.string("a-copy-admin-socket")) {
    case (nil, nil): copy = nil
    case (let socket?, let admin?): copy = (socket, admin)
    default: throw ArgumentError(.missingValue, "give both --a-copy-socket and --a-copy-admin-socket, or neither")
    }
    let lines = try command.string("json-lines").map { try JSONLines(path: $0) }
    defer { lines?.close() }
    let scenario = PrivacyScenario(
        storeA: (socket, adminSocket), storeB: (bSocket, bAdminSocket), storeACopy: copy,
        otherSamples: try command.int("other-samples", in: 3...50_000_000) ?? 100_000,
        calls: try command.int("calls", in: 1...10_000_000) ?? 2_000,
        warmupCalls: try command.int("warmup-calls", in: 0...10_000_000) ?? 200,
        rounds: try command.int("rounds", in: 1...1_000) ?? 3,
        callKinds: try PrivacyCall.list(command.string("only-calls")),
        maxRatio: try command.double("max-ratio") ?? 1.10,
        alpha: try command.double("alpha") ?? 0.01,
        log: log,
        onRound: { figures in
            // Straight to the descriptor: a piped stdout would hold the lines back until the end.
            FileHandle.standardOutput.write(Data((PrivacyTable.line(figures) + "\n").utf8))
            try lines?.write(figures)
        })
    let result = try await scenario.run()
    for check in result.checks { try lines?.write(check) }
    for verdict in result.verdicts { try lines?.write(verdict) }
    FileHandle.standardOutput.write(Data((PrivacyTable.render(result) + "\n").utf8))
    if let path = command.string("json") {
        try ResultLine.encode(result).write(to: URL(fileURLWithPath: path))
    }
}

/// The deaf-clients scenario (or only its import); prints its line and returns its JSON.
func runDeaf(_ command: ParsedCommand, socket: String, adminSocket: String, pid: Int32, log: @escaping @Sendable (String) -> Void) async throws -> Data {
    let scenario = DeafScenario(
        socketPath: socket, adminSocketPath: adminSocket, brokerPID: pid,
        clients: try command.int("connections", in: 1...100_000) ?? 200,
        samples: try command.int("samples", in: 1...10_000_000) ?? 20_000,
        pings: try command.int("pings", in: 1...1_000_000) ?? 3_000,
        baselinePings: try command.int("baseline-pings", in: 1...1_000_000) ?? 1_000,
        pingIntervalMicros: try command.int("ping-interval-us", in: 0...1_000_000) ?? 2_000,
        settleMs: try command.int("settle-ms", in: 0...600_000) ?? 1_000,
        importFirst: !command.flag("no-import"),
        traffic: DeafTraffic(
            streamPayloadBytes: try command.int("stream-payload-bytes", in: 0...(16 << 20)) ?? 128 << 10,
            pingPayloadBytes: try command.int("ping-payload-bytes", in: 0...(16 << 20)) ?? 1 << 20,
            pingDelayMicros: Int64(try command.int("ping-delay-ms", in: 0...60_000) ?? 250) * 1_000),
        log: log)
    if command.flag("import-only") {
        let (rate, saved) = try await scenario.importSamples()
        print("import samples=\(scenario.samples) new=\(saved) samples_per_s=\(Int(rate))")
        return try ResultLine.encode(["samples": scenario.samples, "imported": saved, "samplesPerSecond": Int(rate)])
    }
    let result = try await scenario.run()
    print(ResultLine.deaf(result))
    return try ResultLine.encode(result)
}
