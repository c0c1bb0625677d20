import BrokerWire

/// Makes X's calls against the two filled stores: once each to compare the answers, then timed in
/// interleaved pairs.
struct PrivacyRunner {
    /// An app id no store has registered.
    static let unknownApp = "privacy.nobody"

    /// Store A (X read-denied, other apps' data).
    let a: PrivacyStore
    /// Store B (X fully granted, only X's data).
    let b: PrivacyStore
    /// A second daemon filled as A, for an A/A band across two processes; nil: A against itself.
    let copy: PrivacyStore?
    /// Where the samples and windows are.
    let layout: PrivacyLayout

    /// A token of the right length and alphabet that is not X's (X's reversed): Hello must refuse it
    /// exactly as it refuses an unknown app id.
    var wrongToken: String { String(a.token.reversed()) }

    /// Asks `call` once of each arm and compares the answers.
    func check(_ call: PrivacyCall) throws(ScenarioFailure) -> PrivacyCheck {
        if !call.comparesStores {
            let known = try PrivacyConnection.timedHello(socketPath: a.socketPath, appID: PrivacyLayout.appX, token: wrongToken).1
            let unknown = try PrivacyConnection.timedHello(socketPath: a.socketPath, appID: Self.unknownApp, token: wrongToken).1
            return PrivacyCheck(call, known, unknown)
        }
        let first = try PrivacyConnection(socketPath: a.socketPath, appID: PrivacyLayout.appX, token: a.token)
        let second = try PrivacyConnection(socketPath: b.socketPath, appID: PrivacyLayout.appX, token: b.token)
        defer { first.close(); second.close() }
        return PrivacyCheck(call, try first.exchange(request(call, a)), try second.exchange(request(call, b)))
    }

    /// One round of `call`: `warmupCalls` untimed then `calls` timed pairs of the two arms, the order
    /// alternating per pair; then the same with the first arm against itself: a second connection to
    /// A, or to the copy of A when there is one (Hello: always within A, as its comparison is).
    func measure(_ call: PrivacyCall, round: Int, calls: Int, warmupCalls: Int) throws(ScenarioFailure) -> PrivacyFigures {
        let first: () throws(ScenarioFailure) -> Double
        let second: () throws(ScenarioFailure) -> Double
        let again: () throws(ScenarioFailure) -> Double
        var connections: [PrivacyConnection] = []
        defer { connections.forEach { $0.close() } }
        if call.comparesStores {
            let twin = copy ?? a
            let (requestA, requestB, requestTwin) = (request(call, a), request(call, b), request(call, twin))
            connections = [
                try PrivacyConnection(socketPath: a.socketPath, appID: PrivacyLayout.appX, token: a.token),
                try PrivacyConnection(socketPath: b.socketPath, appID: PrivacyLayout.appX, token: b.token),
                try PrivacyConnection(socketPath: twin.socketPath, appID: PrivacyLayout.appX, token: twin.token),
            ]
            let (onA, onB, onA2) = (connections[0], connections[1], connections[2])
            first = { () throws(ScenarioFailure) in try onA.timed(requestA) }
            second = { () throws(ScenarioFailure) in try onB.timed(requestB) }
            again = { () throws(ScenarioFailure) in try onA2.timed(requestTwin) }
        } else {
            let (socket, token) = (a.socketPath, wrongToken)
            first = { () throws(ScenarioFailure) in try PrivacyConnection.timedHello(socketPath: socket, appID: PrivacyLayout.appX, token: token).0 }
            second = { () throws(ScenarioFailure) in try PrivacyConnection.timedHello(socketPath: socket, appID: Self.unknownApp, token: token).0 }
            again = first
        }
        // Each daemon's CPU over a phase, when the arms are separate daemons.
        let pids = connections.map(\.peerPID)
        func cpu(_ indexes: [Int]) -> [UInt64?] { indexes.map { pids.indices.contains($0) ? pids[$0].flatMap(ProcessCPU.nanoseconds) : nil } }
        func perCall(_ before: [UInt64?], _ after: [UInt64?]) -> [Double?] {
            zip(before, after).map { start, end in
                guard let start, let end, end >= start else { return nil }
                return Double(end - start) / 1_000 / Double(max(calls, 1))
            }
        }
        _ = try Self.interleave(warmupCalls, first, second)
        let cpuBeforeAB = cpu([0, 1])
        let (timesA, timesB) = try Self.interleave(calls, first, second)
        let cpuAB = perCall(cpuBeforeAB, cpu([0, 1]))
        _ = try Self.interleave(warmupCalls, first, again)
        let cpuBeforeAA = cpu([0, 2])
        let (timesAA1, timesAA2) = try Self.interleave(calls, first, again)
        let cpuAA = copy == nil ? [nil, nil] : perCall(cpuBeforeAA, cpu([0, 2]))
        func ratio(_ pair: [Double?]) -> Double? {
            guard let a = pair[0], let b = pair[1], b > 0 else { return nil }
            return a / b
        }
        let (medianA, medianB) = (QueryScenario.median(timesA), QueryScenario.median(timesB))
        let (medianAA1, medianAA2) = (QueryScenario.median(timesAA1), QueryScenario.median(timesAA2))
        let names = call.armNames
        return PrivacyFigures(
            call: call.rawValue, round: round, comparison: "\(names.0)÷\(names.1)", calls: calls,
            medianAMicros: medianA, medianBMicros: medianB, ratio: medianA / max(medianB, 1e-9), test: RankSum(timesA, timesB),
            medianAAFirstMicros: medianAA1, medianAASecondMicros: medianAA2, ratioAA: medianAA1 / max(medianAA2, 1e-9),
            testAA: RankSum(timesAA1, timesAA2),
            cpuPerCallAMicros: cpuAB[0], cpuPerCallBMicros: cpuAB[1], cpuRatio: ratio(cpuAB), cpuRatioAA: ratio(cpuAA),
            aaAcrossDaemons: call.comparesStores && copy != nil)
    }

    /// The request of `call` against `store`.
    private func request(_ call: PrivacyCall, _ store: PrivacyStore) -> Proto.Call.Request {
        call.request(layout, oldAnchor: store.oldAnchor) ?? .ping(PingRequest().proto)
    }

    /// `count` pairs, x then y for even pairs and y then x for odd ones, so that neither arm always
    /// runs right after the other (caches, the scheduler); returns each arm's times.
    static func interleave(_ count: Int, _ x: () throws(ScenarioFailure) -> Double, _ y: () throws(ScenarioFailure) -> Double) throws(ScenarioFailure) -> ([Double], [Double]) {
        var (xs, ys) = ([Double](), [Double]())
        xs.reserveCapacity(count)
        ys.reserveCapacity(count)
        for pair in 0..<count {
            if pair % 2 == 0 {
                xs.append(try x())
                ys.append(try y())
            } else {
                ys.append(try y())
                xs.append(try x())
            }
        }
        return (xs, ys)
    }
}
