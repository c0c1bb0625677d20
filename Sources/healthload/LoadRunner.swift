import BrokerWire
import Foundation
import HealthBrokerClient

/// Runs one load from setup to report; `healthload` runs it from `main`, tests run it in-process.
struct LoadRunner: Sendable {
    /// How long after the connections are ready the load starts.
    static let startDelayNanos: UInt64 = 10_000_000
    /// Progress lines come this often.
    static let tickNanos: UInt64 = 1_000_000_000

    /// What to run.
    let options: LoadOptions
    /// Raised to end the run early (SIGINT).
    let stop: StopFlag
    /// Where setup notes and progress lines go.
    let log: @Sendable (String) -> Void

    /// A runner for `options`.
    init(options: LoadOptions, stop: StopFlag = StopFlag(), log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.options = options
        self.stop = stop
        self.log = log
    }

    /// Sets up, connects, drives the load through warm-up, window and drain, and reports.
    func run() async throws -> LoadReport {
        let admin: BrokerAdmin
        do {
            admin = try await BrokerAdmin.connect(socketPath: options.adminSocketPath)
        } catch {
            throw LoadFailure("cannot use the admin socket \(options.adminSocketPath): \(error)")
        }
        defer { admin.close() }

        let nowMicros = Int64(Date().timeIntervalSince1970 * 1_000_000)
        let workload = LoadWorkload(options: options, nowMicros: nowMicros, runTag: UInt32.random(in: 1...UInt32.max))
        let setup = LoadSetup(options: options, workload: workload, log: log)
        let credentials = try await setup.prepare(admin: admin)
        let report = try await drive(credentials: credentials, workload: workload, admin: admin)
        await setup.cleanUp(credentials.map(\.appID), admin: admin)
        return report
    }

    /// Connects, drives the load through warm-up, window and drain, and reports.
    private func drive(
        credentials: [(appID: String, token: String)], workload: LoadWorkload, admin: BrokerAdmin
    ) async throws -> LoadReport {
        let templates = try workload.templates(for: options.mix)
        let sockets = try openSockets(credentials)

        let pidSource: String?
        let pid: Int32?
        if let given = options.brokerPID {
            (pid, pidSource) = (given, "--broker-pid")
        } else if let peer = PeerProcess.pid(ofSocket: sockets[0]) {
            (pid, pidSource) = (peer, "SO_PEERCRED")
        } else {
            (pid, pidSource) = (nil, nil)
        }

        let window = MeasurementWindow(
            start: MonotonicClock.now() + Self.startDelayNanos, warmup: options.warmupSeconds,
            duration: options.durationSeconds, drain: options.drainSeconds)
        let workers = makeWorkers(sockets: sockets, templates: templates, workload: workload, window: window)
        for (index, worker) in workers.enumerated() { worker.start(name: "healthload worker \(index)") }

        let (first, last) = await monitor(workers: workers, window: window, pid: pid, admin: admin)
        for worker in workers { worker.waitUntilFinished() }
        var tally = StatsTally()
        for worker in workers { tally.merge(worker.stats.snapshot()) }

        let stoppedAt = stop.raisedAt
        let measuredEnd = min(window.measureEnd, stoppedAt ?? window.measureEnd)
        let seconds = measuredEnd > window.measureStart ? Double(measuredEnd - window.measureStart) / 1e9 : 0
        return LoadReport(
            options: options, tally: tally, measuredSeconds: seconds, stoppedEarly: stoppedAt.map { $0 < window.measureEnd } ?? false,
            first: first, last: last, pid: pid, pidSource: pidSource)
    }

    /// Connects every load connection and opens its session; returns the non-blocking sockets.
    private func openSockets(_ credentials: [(appID: String, token: String)]) throws(LoadFailure) -> [Int32] {
        var sockets: [Int32] = []
        do {
            for index in 0..<options.connections {
                let fd = try LoadSocket.connect(path: options.socketPath)
                sockets.append(fd)
                let credential = credentials[index % credentials.count]
                let hello = try LoadSocket.hello(fd: fd, appID: credential.appID, token: credential.token)
                if index == 0 && Int(hello.maxCallsInFlight) < options.effectiveDepth {
                    log("warning: depth \(options.effectiveDepth) is over the broker's limit of \(hello.maxCallsInFlight) calls in flight per connection")
                }
                LoadSocket.setNonBlocking(fd)
            }
        } catch {
            for fd in sockets { close(fd) }
            throw error
        }
        log("connected: \(options.connections) connection(s) × \(options.effectiveDepth) in flight, \(options.effectiveThreads) thread(s)")
        return sockets
    }

    /// Spreads the connections over the worker threads, round robin.
    private func makeWorkers(sockets: [Int32], templates: [CallTemplate?], workload: LoadWorkload, window: MeasurementWindow) -> [LoadWorker] {
        let cycle = options.mix.cycle()
        let verifier = options.verify
            ? ReplyVerifier(payloadBytes: options.payloadBytes, querySamples: options.querySamples, saveBatch: options.saveBatch) : nil
        let threadCount = options.effectiveThreads
        var groups = Array(repeating: [LoadConnection](), count: threadCount)
        for (index, fd) in sockets.enumerated() {
            let schedule = options.rate.map { rate in
                OpenLoopSchedule(start: window.loadStart, end: window.measureEnd, callsPerSecond: rate / Double(sockets.count),
                                 phase: Double(index) / Double(sockets.count))
            }
            let connection = LoadConnection(
                index: index, fd: fd, window: window, depth: options.effectiveDepth, templates: templates, cycle: cycle,
                cycleOffset: index * max(1, cycle.count / max(1, sockets.count)), schedule: schedule, verifier: verifier)
            connection.saveCounter = LoadWorkload.saveCounterBase(connection: index)
            groups[index % threadCount].append(connection)
        }
        return groups.map { LoadWorker(connections: $0, window: window, stop: stop) }
    }

    /// Prints a progress line each second and samples the broker as the window opens and closes;
    /// returns once every worker has finished.
    private func monitor(workers: [LoadWorker], window: MeasurementWindow, pid: Int32?, admin: BrokerAdmin) async -> (first: BrokerProbe, last: BrokerProbe) {
        var first: BrokerProbe?
        var last: BrokerProbe?
        var nextTick = window.loadStart + Self.tickNanos
        var previousEnded: UInt64 = 0
        var previousTime = window.loadStart
        while true {
            let now = MonotonicClock.now()
            let done = workers.allSatisfy(\.isFinished)
            if first == nil && (now >= window.measureStart || stop.isRaised || done) {
                first = await BrokerProbe.take(pid: pid, admin: admin)
            }
            if last == nil && (now >= window.measureEnd || stop.isRaised || done) {
                last = await BrokerProbe.take(pid: pid, admin: admin)
            }
            if done { break }
            if now >= nextTick {
                var tally = StatsTally()
                for worker in workers { tally.merge(worker.stats.snapshot()) }
                let elapsed = Double(now - previousTime) / 1e9
                let rate = elapsed > 0 ? Double(tally.endedAnyPhase - previousEnded) / elapsed : 0
                if !options.quiet {
                    log(ReportText.progressLine(elapsed: Double(now - window.loadStart) / 1e9, callsPerSecond: rate, tally: tally,
                                                phase: ReportText.phase(at: now, window: window)))
                }
                previousEnded = tally.endedAnyPhase
                previousTime = now
                while nextTick <= now { nextTick += Self.tickNanos }
            }
            var wake = min(nextTick, now + 100_000_000)
            if first == nil { wake = min(wake, window.measureStart) }
            if last == nil { wake = min(wake, window.measureEnd) } else { wake = min(wake, now + 5_000_000) }
            if wake > now { try? await Task.sleep(nanoseconds: wake - now) }
        }
        return (first!, last!)
    }
}
