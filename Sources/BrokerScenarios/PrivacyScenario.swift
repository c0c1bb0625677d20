import Foundation
import HealthBrokerClient

/// Whether a read-denied app can tell its store from one holding only its own samples, by the
/// answers or by the time calls take. Store A: app X read-denied for steps, heart rate and sleep,
/// other apps' samples of those types all around X's windows. Store B: X may read everything, and
/// the store holds only X's samples (the same ones). X makes each `PrivacyCall` against both, one
/// call in flight, interleaved A, B, B, A, …; then A against A the same way, as the noise band.
struct PrivacyScenario {
    /// Store A's sockets (app, admin).
    let storeA: (socket: String, admin: String)
    /// Store B's sockets (app, admin).
    let storeB: (socket: String, admin: String)
    /// A second daemon to fill as A (A′) for the A/A band across processes, if any.
    let storeACopy: (socket: String, admin: String)?
    /// Samples the other apps import into A before X's old anchor.
    let otherSamples: Int
    /// Timed calls per arm per call kind per round.
    let calls: Int
    /// Untimed calls per arm first, each round.
    let warmupCalls: Int
    /// Rounds.
    let rounds: Int
    /// The call kinds, in order.
    let callKinds: [PrivacyCall]
    /// The largest A÷B ratio that passes.
    let maxRatio: Double
    /// The p-value below which a difference counts as real.
    let alpha: Double
    /// Progress notes.
    let log: @Sendable (String) -> Void
    /// Called with each round's figures as soon as they are known (printing, JSON lines).
    let onRound: (PrivacyFigures) throws -> Void

    /// The whole result.
    struct Result: Codable, Sendable {
        /// "privacy".
        var scenario = "privacy"
        /// The other apps' samples in A before the old anchor.
        var otherSamples: Int
        /// Timed calls per arm per round.
        var calls: Int
        /// Rounds.
        var rounds: Int
        /// Whether the A/A band was A against a copy of A in a second daemon.
        var aaAcrossDaemons: Bool
        /// The answer checks.
        var checks: [PrivacyCheck]
        /// Every round of every call.
        var figures: [PrivacyFigures]
        /// One verdict per call.
        var verdicts: [PrivacyVerdict]
    }

    /// Fills both stores, compares the answers, then times every call kind round by round.
    func run() async throws -> Result {
        let day0 = (Int64(Date().timeIntervalSince1970) * 1_000_000 / MinuteSteps.day) * MinuteSteps.day
        let layout = PrivacyLayout(day0: day0, otherSamples: otherSamples)
        let a = try await PrivacyStore.fill(name: "A", socketPath: storeA.socket, adminSocketPath: storeA.admin, layout: layout, withOthers: true, log: log)
        let b = try await PrivacyStore.fill(name: "B", socketPath: storeB.socket, adminSocketPath: storeB.admin, layout: layout, withOthers: false, log: log)
        var copy: PrivacyStore?
        if let storeACopy {
            copy = try await PrivacyStore.fill(name: "A′", socketPath: storeACopy.socket, adminSocketPath: storeACopy.admin, layout: layout, withOthers: true, log: log)
        }
        let runner = PrivacyRunner(a: a, b: b, copy: copy, layout: layout)
        var checks: [PrivacyCheck] = []
        for call in callKinds {
            let check = try runner.check(call)
            log("privacy: \(call.rawValue): answers \(check.same ? "the same" : "DIFFER") (\(check.summary))")
            checks.append(check)
        }
        var figures: [PrivacyFigures] = []
        for round in 1...rounds {
            for call in callKinds {
                let result = try runner.measure(call, round: round, calls: calls, warmupCalls: warmupCalls)
                try onRound(result)
                figures.append(result)
            }
        }
        let verdicts = zip(callKinds, checks).map { call, check in
            PrivacyVerdict(call: call, rounds: figures.filter { $0.call == call.rawValue }, repliesSame: check.same, maxRatio: maxRatio, alpha: alpha)
        }
        return Result(otherSamples: otherSamples, calls: calls, rounds: rounds, aaAcrossDaemons: copy != nil,
                      checks: checks, figures: figures, verdicts: verdicts)
    }
}
