import Foundation
import HealthBrokerClient
import Testing

/// Client-side values: query anchors, the predicate helper and the `Date` conveniences of samples.
@Suite("QueryAnchor, predicateForSamples and Sample dates")
struct SampleValueTests {
    // MARK: QueryAnchor

    @Test func anAnchorSurvivesABase64RoundTrip() throws {
        let anchor = try #require(QueryAnchor(base64: "AQAAAAAAAAAq/+7dzLuqmQ=="))
        #expect(anchor.base64 == "AQAAAAAAAAAq/+7dzLuqmQ==")
        #expect(anchor.description == anchor.base64)
        #expect(QueryAnchor(base64: anchor.base64) == anchor)
        #expect(QueryAnchor(base64: "AQID") != anchor)
    }

    @Test(arguments: ["", "not base64!", "AQI", "====", "AQID\u{0}", "AQJ=", " AQID", "AQ-_"])
    func textThatIsNotAnAnchorIsNil(text: String) {
        #expect(QueryAnchor(base64: text) == nil)
    }

    @Test func anAnchorIsCodableAsABase64String() throws {
        struct Saved: Codable, Equatable {
            var anchor: QueryAnchor
            var last: QueryAnchor?
        }
        let saved = Saved(anchor: try #require(QueryAnchor(base64: "AQID/w==")), last: nil)
        let json = try JSONEncoder().encode(saved)
        #expect(String(decoding: json, as: UTF8.self) == #"{"anchor":"AQID\/w=="}"#)
        #expect(try JSONDecoder().decode(Saved.self, from: json) == saved)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Saved.self, from: Data(#"{"anchor":"%%%"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Saved.self, from: Data(#"{"anchor":7}"#.utf8))
        }
    }

    // MARK: predicateForSamples

    @Test func predicateBoundsAreTheDatesInMicroseconds() {
        let start = Date(timeIntervalSince1970: 1_700_000_000.123456)
        let end = Date(timeIntervalSince1970: 1_700_086_400)
        let predicate = HealthStore.predicateForSamples(withStart: start, end: end)
        #expect(predicate == SamplePredicate(startMicros: 1_700_000_000_123_456, endMicros: 1_700_086_400_000_000, options: []))
    }

    static let optionBits: [(SamplePredicate.Options, UInt32)] = [
        ([], 0),
        (.strictStartDate, 1),
        (.strictEndDate, 2),
        ([.strictStartDate, .strictEndDate], 3),
    ]

    @Test(arguments: optionBits)
    func predicateOptionsAreKeptAsTheirBits(options: SamplePredicate.Options, bits: UInt32) {
        let predicate = HealthStore.predicateForSamples(withStart: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 1), options: options)
        #expect(predicate.options.rawValue == bits)
        #expect(predicate.startMicros == 0)
        #expect(predicate.endMicros == 1_000_000)
    }

    @Test func nilBoundsAreOpen() {
        let date = Date(timeIntervalSince1970: 1_600_000_000.5)
        #expect(HealthStore.predicateForSamples(withStart: nil, end: nil) == .all)
        #expect(HealthStore.predicateForSamples(withStart: date, end: nil, options: .strictStartDate)
            == SamplePredicate(startMicros: 1_600_000_000_500_000, endMicros: nil, options: .strictStartDate))
        #expect(HealthStore.predicateForSamples(withStart: nil, end: date)
            == SamplePredicate(startMicros: nil, endMicros: 1_600_000_000_500_000))
    }

    @Test func predicateDatesRoundToTheNearestMicrosecond() {
        let predicate = HealthStore.predicateForSamples(
            withStart: Date(timeIntervalSince1970: 10.000_000_4), end: Date(timeIntervalSince1970: 10.000_000_6))
        #expect(predicate.startMicros == 10_000_000)
        #expect(predicate.endMicros == 10_000_001)
    }

    @Test func theReferencePagesQueryStartIsTheLaterDate() {
        // As the earliestAuthorizedSampleDate page: the later of 90 days ago and the authorized date, strictStartDate.
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let intended = now.addingTimeInterval(-90 * 24 * 3600)
        let authorized: Date? = Date(timeIntervalSince1970: 1_695_000_000)
        let queryStart = [intended, authorized].compactMap { $0 }.max() ?? intended
        let predicate = HealthStore.predicateForSamples(withStart: queryStart, end: now, options: .strictStartDate)
        #expect(predicate == SamplePredicate(startMicros: 1_695_000_000_000_000, endMicros: 1_700_000_000_000_000, options: .strictStartDate))
    }

    // MARK: Sample dates

    @Test func aQuantitySampleFromDates() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let end = start.addingTimeInterval(60.5)
        let sample = Sample(type: .stepCount, quantity: Quantity(42, "count"), start: start, end: end, metadata: ["device": "watch"], uuid: "fixed")
        #expect(sample == Sample(
            uuid: "fixed", type: .stepCount, startMicros: 1_700_000_000_000_000, endMicros: 1_700_000_060_500_000,
            value: .quantity(Quantity(42, "count")), metadata: ["device": "watch"]))
        #expect(sample.startDate == start)
        #expect(sample.endDate == end)
        #expect(sample.createdDate == Date(timeIntervalSince1970: 0))
    }

    @Test func aCategorySampleFromDates() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let sample = Sample(type: .sleepAnalysis, categoryValue: 3, start: start, end: start.addingTimeInterval(3_600))
        #expect(sample.type == .sleepAnalysis)
        #expect(sample.value == .category(3))
        #expect(sample.startMicros == 1_700_000_000_000_000)
        #expect(sample.endMicros == 1_700_003_600_000_000)
        #expect(sample.metadata.isEmpty)
        #expect(sample.sourceAppID.isEmpty)
    }

    @Test func aWorkoutSampleFromDates() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let details = WorkoutDetails(activityType: "running", durationMicros: 1_800_000_000, totalEnergy: Quantity(320, "kcal"), totalDistance: Quantity(5.2, "km"))
        let sample = Sample(workout: details, start: start, end: start.addingTimeInterval(1_900), metadata: ["route": "park"], uuid: "run-1")
        #expect(sample == Sample(
            uuid: "run-1", type: .workout, startMicros: 1_700_000_000_000_000, endMicros: 1_700_001_900_000_000,
            value: .workout(details), metadata: ["route": "park"]))
    }

    @Test func theDefaultUUIDIsAFreshLowerCaseTimeOrderedUUID() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let first = Sample(type: .heartRate, quantity: Quantity(61, "count/min"), start: start, end: start)
        let second = Sample(type: .heartRate, quantity: Quantity(61, "count/min"), start: start, end: start)
        #expect(first.uuid != second.uuid)
        for sample in [first, second] {
            #expect(sample.uuid == sample.uuid.lowercased())
            let parsed = try #require(UUID(uuidString: sample.uuid))
            #expect(parsed.uuidString.lowercased() == sample.uuid)
            #expect(Array(sample.uuid.utf8)[14] == UInt8(ascii: "7"), "version 7")
        }
    }

    @Test func readDatesComeFromTheBrokersMicroseconds() {
        let sample = SampleFixtures.step(2)
        #expect(sample.startDate == Date(timeIntervalSince1970: 1_700_000_120))
        #expect(sample.endDate == Date(timeIntervalSince1970: 1_700_000_180))
        #expect(sample.createdDate == Date(microsecondsSince1970: 1_700_000_000_000_001))
    }
}
