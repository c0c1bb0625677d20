import BrokerWire
import Foundation

/// The last EarliestAuthorizedSampleDate answer a store built, kept so that the same reply again
/// returns the same dictionary instead of building a new one.
///
/// An app asks this question often and the answer changes only when the person changes a grant.
/// Building the `[ObjectType: Date]` (storage, hashing) was about 0.4 µs of a 14.5 µs call on the
/// store's executor; handing back the kept one is a comparison of the reply's entries and a retain.
/// The dictionary is a value: sharing its storage with the caller is safe (copy on write).
final class SampleDatesCache: Sendable {
    private let last = Locked<(entries: [TypeDates.Entry], dates: [ObjectType: Date])?>(nil)

    /// The dates of `micros`: the kept dictionary when the reply's entries are the last ones, else a new one (then kept).
    func dates(for micros: TypeDates) -> [ObjectType: Date] {
        if let kept = last.withLock({ kept in kept.flatMap { $0.entries == micros.entries ? $0.dates : nil } }) {
            return kept
        }
        let dates = HealthStore.sampleDates(micros)
        last.withLock { $0 = (micros.entries, dates) }
        return dates
    }
}
