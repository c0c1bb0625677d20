import BrokerWire
import CommandLineSupport
import Foundation
import HealthBrokerClient

/// One call X makes whose cost must not depend on other apps' data. Each is timed against store A
/// (X read-denied, other apps' samples all around) and store B (X fully granted, only X's samples);
/// Hello is the exception, compared within store A between a registered and an unknown app id.
enum PrivacyCall: String, CaseIterable, Codable, Sendable {
    /// Statistics: the sum of steps per day over the three days before day0.
    case statsStepsDays = "stats-steps-3d"
    /// Statistics: average heart rate over the month before day0, where X has none (NO_DATA in both).
    case statsHeartMonth = "stats-hr-month"
    /// Anchored query of steps without an anchor (everything X may see).
    case anchoredFirst = "anchored-first"
    /// Anchored query of steps from an anchor taken before other apps wrote and deleted more.
    case anchoredOld = "anchored-old"
    /// Query of X's sleep overlapping one hour (while another app holds a 26-year sample).
    case querySleepHour = "query-sleep-hour"
    /// Query of all of X's steps.
    case querySteps = "query-steps"
    /// Delete of a uuid no one ever stored.
    case deleteUnknown = "delete-unknown"
    /// Delete of a uuid another app's sample has in store A (unknown in B).
    case deleteForeign = "delete-foreign"
    /// Hello as a registered app id with a wrong token ÷ Hello as an unknown id (store A only).
    case hello

    /// True when the two arms are the two stores; false for Hello (two app ids, one store).
    var comparesStores: Bool { self != .hello }

    /// The request X sends, given the layout and the store's old anchor; nil for Hello, which
    /// needs a fresh connection per call (`PrivacyConnection.timedHello`).
    func request(_ layout: PrivacyLayout, oldAnchor: [UInt8]) -> Proto.Call.Request? {
        let day0 = layout.day0
        switch self {
        case .statsStepsDays:
            return .statistics(StatisticsQuery(
                type: .stepCount, predicate: SamplePredicate(startMicros: day0 - 3 * MinuteSteps.day, endMicros: day0),
                options: .sum, interval: .day, anchorMicros: day0).proto)
        case .statsHeartMonth:
            return .statistics(StatisticsQuery(
                type: .heartRate, predicate: SamplePredicate(startMicros: day0 - 30 * MinuteSteps.day, endMicros: day0),
                options: .average).proto)
        case .anchoredFirst:
            return .anchoredQuery(AnchoredQuery(type: .stepCount).proto)
        case .anchoredOld:
            return .anchoredQuery(AnchoredQuery(type: .stepCount, anchor: oldAnchor).proto)
        case .querySleepHour:
            // No options: samples overlapping the hour, as HealthKit's default predicate.
            return .query(SampleQuery(
                type: .sleepAnalysis, predicate: SamplePredicate(startMicros: day0 - 5 * PrivacyLayout.hour, endMicros: day0 - 4 * PrivacyLayout.hour)).proto)
        case .querySteps:
            return .query(SampleQuery(type: .stepCount).proto)
        case .deleteUnknown:
            return .delete(.with { $0.uuids = [PrivacyLayout.unknownUUID] })
        case .deleteForeign:
            return .delete(.with { $0.uuids = [layout.foreignUUID] })
        case .hello:
            return nil
        }
    }

    /// The two arms' names in results: "A" and "B", or "known" and "unknown" for Hello.
    var armNames: (String, String) { comparesStores ? ("A", "B") : ("known", "unknown") }

    /// The calls a comma-separated `--calls-only` value names; all of them, in order, when nil.
    static func list(_ text: String?) throws(ArgumentError) -> [PrivacyCall] {
        guard let text else { return allCases }
        var calls: [PrivacyCall] = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let call = PrivacyCall(rawValue: name) else {
                throw ArgumentError(.invalidValue, "--only-calls: unknown call '\(name)' (\(allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            calls.append(call)
        }
        guard !calls.isEmpty else { throw ArgumentError(.invalidValue, "--only-calls: name at least one call") }
        return calls
    }
}
