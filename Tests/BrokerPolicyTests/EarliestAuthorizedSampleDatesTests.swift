@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("AuthorizationPolicy.earliestAuthorizedSampleDates")
struct EarliestAuthorizedSampleDatesTests {
    let floor = jan2020

    func dates(_ types: [ObjectType], _ set: AppGrants, floor: Int64? = nil) -> [ObjectType: Int64] {
        AuthorizationPolicy.earliestAuthorizedSampleDates(for: types, grants: set, earliestPermitted: floor ?? self.floor)
    }

    @Test func limitedGrantHasAnEntry() {
        #expect(dates([.stepCount], grants((.stepCount, nil, .limited(fromMicros: jan2026)))) == [.stepCount: jan2026])
    }

    @Test func fullAccessIsOmitted() {
        #expect(dates([.stepCount], grants((.stepCount, .allow, .full))).isEmpty)
    }

    @Test func deniedReadIsOmitted() {
        #expect(dates([.stepCount], grants((.stepCount, .allow, .deny))).isEmpty)
    }

    @Test func notDeterminedIsOmitted() {
        #expect(dates([.stepCount], AppGrants()).isEmpty)
        // A share-only grant: reading was never asked, so not determined for read.
        #expect(dates([.stepCount], grants((.stepCount, .allow, nil))).isEmpty)
    }

    @Test func typesNotRequestedAreOmitted() {
        let set = grants((.stepCount, nil, .limited(fromMicros: jan2026)), (.heartRate, nil, .limited(fromMicros: jan2026)))
        #expect(dates([.heartRate], set) == [.heartRate: jan2026])
        #expect(dates([], set).isEmpty)
    }

    @Test(arguments: [ObjectType.dateOfBirth, .biologicalSex, .bloodType])
    func characteristicIsOmittedEvenIfLimitedSomehow(type: ObjectType) {
        #expect(dates([type], grants((type, nil, .limited(fromMicros: jan2026)))).isEmpty)
    }

    @Test func emptyMapWhenNoTypeQualifies() {
        let set = grants((.stepCount, nil, .full), (.heartRate, nil, .deny), (.dateOfBirth, nil, .limited(fromMicros: jan2026)))
        #expect(dates([.stepCount, .heartRate, .bodyMass, .dateOfBirth], set) == [:])
    }

    @Test func dateIsTheChosenStartWhenLaterThanTheFloor() {
        let set = grants((.stepCount, nil, .limited(fromMicros: jan2026)))
        #expect(dates([.stepCount], set, floor: jan2020) == [.stepCount: jan2026])
    }

    @Test func dateIsTheFloorWhenLaterThanTheChosenStart() {
        let set = grants((.stepCount, nil, .limited(fromMicros: jan2020)))
        #expect(dates([.stepCount], set, floor: jan2026) == [.stepCount: jan2026])
    }

    @Test func equalStartAndFloorGiveThatDate() {
        let set = grants((.stepCount, nil, .limited(fromMicros: jan2026)))
        #expect(dates([.stepCount], set, floor: jan2026) == [.stepCount: jan2026])
    }

    @Test func eachTypeHasItsOwnDate() {
        let set = grants(
            (.stepCount, nil, .limited(fromMicros: jan2026)),
            (.heartRate, nil, .limited(fromMicros: jan2020 - day)),
            (.bodyMass, nil, .full),
            (.workout, nil, .deny))
        let result = dates([.stepCount, .heartRate, .bodyMass, .workout, .sleepAnalysis, .stepCount], set, floor: jan2020)
        #expect(result == [.stepCount: jan2026, .heartRate: jan2020])
    }

    @Test func fullAndDeniedLookTheSame() {
        // The app cannot tell denied from full access: both are simply absent.
        #expect(dates([.stepCount], grants((.stepCount, nil, .full))) == dates([.stepCount], grants((.stepCount, nil, .deny))))
    }
}
