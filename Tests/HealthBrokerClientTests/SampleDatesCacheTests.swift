import BrokerWire
import Foundation
@testable import HealthBrokerClient
import Testing

@Suite("EarliestAuthorizedSampleDate answers kept between calls")
struct SampleDatesCacheTests {
    private static let june: Int64 = 1_780_000_000_000_000
    private static let july: Int64 = 1_782_600_000_000_000

    @Test func theSameReplyGivesTheSameAnswerAndAnotherReplyItsOwn() {
        let cache = SampleDatesCache()
        let first = cache.dates(for: [.stepCount: Self.june])
        #expect(first == [.stepCount: Date(microsecondsSince1970: Self.june)])
        #expect(cache.dates(for: [.stepCount: Self.june]) == first)
        // A changed date, another type, no type: never the kept answer.
        #expect(cache.dates(for: [.stepCount: Self.july]) == [.stepCount: Date(microsecondsSince1970: Self.july)])
        #expect(cache.dates(for: [.heartRate: Self.july]) == [.heartRate: Date(microsecondsSince1970: Self.july)])
        #expect(cache.dates(for: [:]).isEmpty)
        #expect(cache.dates(for: [.stepCount: Self.june]) == first)
    }

    @Test func aRepeatedTypeStillKeepsItsLastDate() {
        let cache = SampleDatesCache()
        let repeated = TypeDates(entries: [
            TypeDates.Entry(type: .stepCount, dateMicros: Self.june),
            TypeDates.Entry(type: .stepCount, dateMicros: Self.july),
        ])
        #expect(cache.dates(for: repeated) == [.stepCount: Date(microsecondsSince1970: Self.july)])
        // The same dictionary from entries in another order is a different reply: built anew.
        let reordered = TypeDates(entries: Array(repeated.entries.reversed()))
        #expect(cache.dates(for: reordered) == [.stepCount: Date(microsecondsSince1970: Self.june)])
    }

    @Test func callsFromManyTasksAtOnceEachGetTheirReplysAnswer() async {
        let cache = SampleDatesCache()
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let micros = index.isMultiple(of: 2) ? Self.june : Self.july
                    return cache.dates(for: [.stepCount: micros]) == [.stepCount: Date(microsecondsSince1970: micros)]
                }
            }
            for await correct in group { #expect(correct) }
        }
    }
}
