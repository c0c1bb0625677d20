public import Foundation
import BrokerModel
package import BrokerWire

extension HealthStore {
    /// The earliest date the person lets the app read samples from, for each of `types` with limited read access.
    ///
    /// As HealthKit: no entry for a type with full access, denied or never asked (the app cannot tell
    /// these apart), for a characteristic type, or for a type not in `types`; an empty dictionary when
    /// no type qualifies. The date is the later of the person's chosen start and
    /// `earliestPermittedSampleDate()`, and is compared with a sample's end date.
    public func earliestAuthorizedSampleDate(for types: Set<ObjectType>) async throws(BrokerError) -> [ObjectType: Date] {
        try await connection.unary(.earliestAuthorizedSampleDate(.with { $0.types = types.wireOrder.map(\.identifier) }), timeout: Self.lookupTimeout) { response in
            if case .earliestAuthorizedSampleDate(let dates) = response { sampleDatesCache.dates(for: TypeDates(proto: dates)) } else { nil }
        }
    }

    /// The earliest date the broker lets any app save or query samples, whatever the person authorized.
    public func earliestPermittedSampleDate() async throws(BrokerError) -> Date {
        try await connection.unary(.earliestPermittedSampleDate(.init()), timeout: Self.lookupTimeout) { response in
            if case .earliestPermittedSampleDate(let date) = response { Date(microsecondsSince1970: date.dateMicros) } else { nil }
        }
    }

    /// The wire's per-type instants (µs since the epoch) as dates, in one dictionary built from the reply's entries.
    package static func sampleDates(_ micros: TypeDates) -> [ObjectType: Date] {
        micros.mapValues { Date(microsecondsSince1970: $0) }
    }
}
