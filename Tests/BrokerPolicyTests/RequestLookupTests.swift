@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("AuthorizationPolicy look-ups: undecided, authorizationStatus, requestStatus")
struct RequestLookupTests {
    @Test func everythingIsUndecidedWithoutGrants() {
        let result = AuthorizationPolicy.undecided(share: [.workout, .stepCount], read: [.heartRate, .stepCount], grants: AppGrants())
        #expect(result.share == [.workout, .stepCount].sorted())
        #expect(result.read == [.heartRate, .stepCount].sorted())
    }

    @Test func undecidedIsDeduplicatedAndSortedByIdentifier() {
        let result = AuthorizationPolicy.undecided(
            share: [.workout, .stepCount, .workout, .activeEnergyBurned],
            read: [.sleepAnalysis, .heartRate, .sleepAnalysis, .bodyMass], grants: AppGrants())
        #expect(result.share == [ObjectType.activeEnergyBurned, .stepCount, .workout])
        #expect(result.share.map(\.identifier) == result.share.map(\.identifier).sorted())
        #expect(result.read == [ObjectType.sleepAnalysis, .bodyMass, .heartRate].sorted())
        #expect(result.read.count == 3)
    }

    @Test func undecidedIsPerPart() {
        // Decided for read only: still undecided for share, and vice versa.
        let set = grants((.stepCount, nil, .full), (.workout, .allow, nil))
        let result = AuthorizationPolicy.undecided(share: [.stepCount, .workout], read: [.stepCount, .workout], grants: set)
        #expect(result.share == [.stepCount])
        #expect(result.read == [.workout])
    }

    @Test func deniedPartsAreDecided() {
        let set = grants((.stepCount, .deny, .deny))
        let result = AuthorizationPolicy.undecided(share: [.stepCount], read: [.stepCount], grants: set)
        #expect(result.share.isEmpty)
        #expect(result.read.isEmpty)
    }

    @Test func authorizationStatusIsShareStatusOnly() {
        let set = grants((.stepCount, .allow, .deny), (.heartRate, .deny, .full), (.bodyMass, nil, .full), (.workout, nil, .limited(fromMicros: 1)))
        #expect(AuthorizationPolicy.authorizationStatus(for: .stepCount, grants: set) == .sharingAuthorized)
        #expect(AuthorizationPolicy.authorizationStatus(for: .heartRate, grants: set) == .sharingDenied)
        #expect(AuthorizationPolicy.authorizationStatus(for: .bodyMass, grants: set) == .notDetermined)
        #expect(AuthorizationPolicy.authorizationStatus(for: .workout, grants: set) == .notDetermined)
        #expect(AuthorizationPolicy.authorizationStatus(for: .sleepAnalysis, grants: set) == .notDetermined)
    }

    @Test func readDenialDoesNotShowInAuthorizationStatus() {
        // Same share decision, different read decisions: the same answer.
        for read in [ReadDecision.deny, .full, .limited(fromMicros: jan2026)] {
            #expect(AuthorizationPolicy.authorizationStatus(for: .stepCount, grants: grants((.stepCount, .allow, read))) == .sharingAuthorized)
            #expect(AuthorizationPolicy.authorizationStatus(for: .stepCount, grants: grants((.stepCount, nil, read))) == .notDetermined)
        }
    }

    @Test func requestStatusShouldRequestWithoutGrants() {
        #expect(AuthorizationPolicy.requestStatus(share: [.stepCount], read: [], grants: AppGrants()) == .shouldRequest)
        #expect(AuthorizationPolicy.requestStatus(share: [], read: [.stepCount], grants: AppGrants()) == .shouldRequest)
    }

    @Test func requestStatusIsUnnecessaryWhenEveryRequestedPartWasDecided() {
        let set = grants((.stepCount, .deny, .deny), (.heartRate, nil, .full))
        #expect(AuthorizationPolicy.requestStatus(share: [.stepCount], read: [.stepCount, .heartRate], grants: set) == .unnecessary)
        #expect(AuthorizationPolicy.requestStatus(share: [], read: [.heartRate], grants: set) == .unnecessary)
    }

    @Test func requestStatusLooksAtEachSetSeparately() {
        let set = grants((.stepCount, nil, .full), (.workout, .allow, nil))
        // Read-decided type asked for share → should request.
        #expect(AuthorizationPolicy.requestStatus(share: [.stepCount], read: [], grants: set) == .shouldRequest)
        // Share-decided type asked for read → should request.
        #expect(AuthorizationPolicy.requestStatus(share: [], read: [.workout], grants: set) == .shouldRequest)
        #expect(AuthorizationPolicy.requestStatus(share: [.workout], read: [.stepCount], grants: set) == .unnecessary)
        // One undecided type among decided ones is enough.
        #expect(AuthorizationPolicy.requestStatus(share: [.workout], read: [.stepCount, .heartRate], grants: set) == .shouldRequest)
    }
}
