@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("AuthorizationPolicy.readScope")
struct ReadScopeTests {
    func scope(_ read: ReadDecision?, floor: Int64 = jan2020) -> ReadScope {
        let set = read.map { grants((.stepCount, nil, $0)) } ?? AppGrants()
        return AuthorizationPolicy.readScope(for: .stepCount, grants: set, earliestPermitted: floor)
    }

    @Test func neverAskedIsNotDetermined() {
        #expect(scope(nil) == .notDetermined)
        // A share-only grant leaves reading not determined.
        #expect(AuthorizationPolicy.readScope(for: .stepCount, grants: grants((.stepCount, .allow, nil)), earliestPermitted: 0) == .notDetermined)
    }

    @Test func denyIsOwnSamplesOnly() {
        #expect(scope(.deny) == .ownSamplesOnly)
    }

    @Test func fullReadsFromTheFloor() {
        #expect(scope(.full, floor: jan2020) == .from(jan2020))
        #expect(scope(.full, floor: 0) == .from(0))
    }

    @Test func limitedReadsFromTheLaterOfDateAndFloor() {
        #expect(scope(.limited(fromMicros: jan2026), floor: jan2020) == .from(jan2026))
        #expect(scope(.limited(fromMicros: jan2020), floor: jan2026) == .from(jan2026))
    }

    @Test func otherTypesAreUnaffected() {
        let set = grants((.stepCount, nil, .full))
        #expect(AuthorizationPolicy.readScope(for: .heartRate, grants: set, earliestPermitted: 0) == .notDetermined)
    }
}
