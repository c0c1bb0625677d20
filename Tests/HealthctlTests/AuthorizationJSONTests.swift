import BrokerModel
import Foundation
@testable import healthctl
import Testing

@Suite struct AuthorizationJSONTests {
    static let grantKeys: Set<String> = [
        "type", "alias", "share", "read", "limited_from", "limited_from_us", "decided", "decided_us", "decided_by",
    ]

    @Test func grantsHaveEveryKeyWithNullsForWhatDoesNotApply() throws {
        let grants = try JSONOutputTests.array(JSONOutput.grants(AuthorizationTextTests.grants))
        #expect(grants.count == 3)
        for grant in grants { #expect(Set(grant.keys) == Self.grantKeys) }
        #expect(grants[0]["share"] is NSNull)
        #expect(grants[0]["read"] as? String == "full")
        #expect(grants[0]["limited_from"] is NSNull)
        #expect(grants[0]["limited_from_us"] is NSNull)
        #expect(grants[1]["share"] as? String == "allowed")
        #expect(grants[1]["limited_from"] as? String == "2026-01-01T00:00:00.000000Z")
        #expect((grants[1]["limited_from_us"] as? NSNumber)?.int64Value == AuthorizationTextTests.newYear)
        #expect(grants[1]["alias"] as? String == "stepCount")
        #expect(grants[2]["read"] is NSNull)
        #expect(grants[2]["decided_by"] as? String == "agent")
        #expect(JSONOutput.grants([]) == "[]")
    }

    @Test func sourcesHaveEveryKey() throws {
        let source = Source(appID: "a", appName: "A", firstRequestMicros: 1, lastRequestMicros: 2, isRegistered: false)
        let objects = try JSONOutputTests.array(JSONOutput.sources([source]))
        #expect(Set(objects[0].keys) == [
            "app_id", "name", "first_request", "first_request_us", "last_request", "last_request_us", "registered",
            "sample_count", "ever_asked", "types",
        ])
        #expect(objects[0]["registered"] as? Bool == false)
        #expect(objects[0]["ever_asked"] as? Bool == true)
        // An app that only wrote: its count, and no request dates.
        let writer = Source(appID: "w", appName: "w", firstRequestMicros: 0, lastRequestMicros: 0, isRegistered: false, sampleCount: 52_586, everAsked: false)
        let written = try JSONOutputTests.array(JSONOutput.sources([writer]))
        #expect((written[0]["sample_count"] as? NSNumber)?.int64Value == 52_586)
        #expect((written[0]["types"] as? [String: Any])?.isEmpty == true)
        #expect(written[0]["ever_asked"] as? Bool == false)
        #expect(written[0]["first_request"] is NSNull)
        #expect(written[0]["last_request_us"] is NSNull)
        #expect(JSONOutput.sources([]) == "[]")
    }

    @Test func typesDescribeTheCatalogue() throws {
        let objects = try JSONOutputTests.array(JSONOutput.types(TypeCatalogue.all))
        #expect(objects.count == TypeCatalogue.all.count)
        #expect(Set(objects[0].keys) == ["identifier", "alias", "kind", "shareable", "aggregation", "dimension", "canonicalUnit", "displayName", "group"])
        #expect(objects[0]["displayName"] as? String == "Steps")
        #expect(objects[0]["group"] as? String == "Activity")
        let glucose = try #require(objects.first { $0["alias"] as? String == "bloodGlucose" })
        #expect(glucose["canonicalUnit"] as? String == "mg/dL")
        #expect(glucose["molarMass"] as? Double == 180.15588)
        let sleep = try #require(objects.first { $0["alias"] as? String == "sleepAnalysis" })
        let values = try #require(sleep["categoryValues"] as? [[String: Any]])
        #expect(values.first?["name"] as? String == "inBed" && values.last?["value"] as? Int == 5)
        let pressure = try #require(objects.first { $0["alias"] as? String == "bloodPressure" })
        #expect(pressure["members"] as? [String] == ["HKQuantityTypeIdentifierBloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureDiastolic"])
        let workout = try #require(objects.first { $0["alias"] as? String == "workout" })
        #expect((workout["activityTypes"] as? [String])?.contains("running") == true)
        let birth = try #require(objects.first { $0["alias"] as? String == "dateOfBirth" })
        #expect(birth["shareable"] as? Bool == false)
        #expect(birth["kind"] as? String == "characteristic")
    }

    @Test func explanationOfATypeNeverAskedHasANullGrant() throws {
        let explanation = Explanation(grant: nil, earliestPermittedMicros: 5, effectiveReadFromMicros: nil, text: "never asked")
        let object = try JSONOutputTests.object(JSONOutput.explanation(appID: "a", type: .stepCount, explanation))
        #expect(Set(object.keys) == [
            "app_id", "type", "ever_asked", "grant", "explanation", "earliest_permitted", "earliest_permitted_us", "reads_from", "reads_from_us",
        ])
        #expect(object["ever_asked"] as? Bool == false)
        #expect(object["grant"] is NSNull)
        #expect(object["reads_from_us"] is NSNull)
        #expect((object["earliest_permitted_us"] as? NSNumber)?.int64Value == 5)
    }

    @Test func explanationWithAGrantNestsIt() throws {
        let explanation = Explanation(grant: AuthorizationTextTests.grants[0], earliestPermittedMicros: 0, effectiveReadFromMicros: 0, text: "full")
        let object = try JSONOutputTests.object(JSONOutput.explanation(appID: "a", type: .heartRate, explanation))
        #expect(object["ever_asked"] as? Bool == true)
        let grant = try #require(object["grant"] as? [String: Any])
        #expect(Set(grant.keys) == Self.grantKeys)
        #expect((object["reads_from_us"] as? NSNumber)?.int64Value == 0)
    }

    @Test func sourcePriorityIsTheTypeAndItsAppIDsBestFirst() throws {
        let order = try JSONOutputTests.object(JSONOutput.sourcePriority(type: .stepCount, appIDs: ["w", "p"]))
        #expect(Set(order.keys) == ["type", "app_ids"])
        #expect(order["type"] as? String == "HKQuantityTypeIdentifierStepCount")
        #expect(order["app_ids"] as? [String] == ["w", "p"])
        let none = try JSONOutputTests.object(JSONOutput.sourcePriority(type: .stepCount, appIDs: []))
        #expect(none["app_ids"] as? [String] == [])
    }

    @Test func revocationAndCharacteristic() throws {
        let revocation = try JSONOutputTests.object(JSONOutput.revocation(appID: "a", types: [.stepCount], revoked: 1))
        #expect(Set(revocation.keys) == ["app_id", "types", "revoked"])
        #expect(revocation["types"] as? [String] == ["HKQuantityTypeIdentifierStepCount"])
        let cleared = try JSONOutputTests.object(JSONOutput.characteristic(.bloodType, value: nil))
        #expect(Set(cleared.keys) == ["type", "value"])
        #expect(cleared["value"] is NSNull)
        let set = try JSONOutputTests.object(JSONOutput.characteristic(.bloodType, value: "A+"))
        #expect(set["value"] as? String == "A+")
    }
}
