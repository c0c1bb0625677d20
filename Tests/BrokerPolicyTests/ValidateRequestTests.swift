@testable import BrokerModel
@testable import BrokerPolicy
import Testing

@Suite("AuthorizationPolicy.validateRequest and validateTypeSets")
struct ValidateRequestTests {
    let app = appWithBothUsages()

    @Test func acceptsAValidRequest() throws {
        try AuthorizationPolicy.validateRequest(share: [.stepCount, .workout], read: [.stepCount, .heartRate, .dateOfBirth], app: app)
        try AuthorizationPolicy.validateRequest(share: [.stepCount], read: [], app: app)
        try AuthorizationPolicy.validateRequest(share: [], read: [.bloodType], app: app)
    }

    @Test func bothSetsEmptyIsInvalid() throws {
        let error = try #require(thrownError { try AuthorizationPolicy.validateRequest(share: [], read: [], app: app) })
        #expect(error.code == .invalidArgument)
        #expect(error.domain == .invalidArgument)
        #expect(error.message.contains("both empty"))
    }

    @Test func unknownIdentifiersAreNamedPerField() throws {
        let error = try #require(thrownError {
            try AuthorizationPolicy.validateRequest(
                share: [.stepCount, ObjectType("HKShareBogus")], read: [ObjectType("HKReadBogus"), .heartRate], app: app)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("share_types: \"HKShareBogus\""))
        #expect(error.message.contains("read_types: \"HKReadBogus\""))
    }

    @Test func tooManyTypesIsInvalid() throws {
        let many = Array(repeating: ObjectType.stepCount, count: AuthorizationPolicy.maxTypesPerRequest + 1)
        let shareError = try #require(thrownError { try AuthorizationPolicy.validateRequest(share: many, read: [], app: app) })
        #expect(shareError.code == .invalidArgument)
        #expect(shareError.message.contains("share_types"))
        #expect(shareError.message.contains("257"))
        #expect(shareError.message.contains("256"))
        let readError = try #require(thrownError { try AuthorizationPolicy.validateRequest(share: [], read: many, app: app) })
        #expect(readError.message.contains("read_types"))
    }

    @Test func exactlyTheLimitIsAllowed() throws {
        let limit = Array(repeating: ObjectType.stepCount, count: AuthorizationPolicy.maxTypesPerRequest)
        try AuthorizationPolicy.validateRequest(share: limit, read: limit, app: app)
        try AuthorizationPolicy.validateTypeSets(share: limit, read: limit)
    }

    @Test func tooManyUnknownIdentifiersFailsOnTheCountWithoutListingThem() throws {
        let many = (0...AuthorizationPolicy.maxTypesPerRequest).map { ObjectType("HKBogus\($0)") }
        let error = try #require(thrownError { try AuthorizationPolicy.validateTypeSets(share: [], read: many) })
        #expect(error.message.contains("at most 256"))
        #expect(!error.message.contains("HKBogus"))
    }

    @Test(arguments: [ObjectType.dateOfBirth, .biologicalSex, .bloodType])
    func characteristicShareIsRefusedNamingIt(type: ObjectType) throws {
        let error = try #require(thrownError {
            try AuthorizationPolicy.validateRequest(share: [.stepCount, type], read: [], app: app)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.domain == .invalidArgument)
        #expect(error.message.contains("cannot be shared"))
        #expect(error.message.contains(type.identifier))
        #expect(!error.message.contains(ObjectType.stepCount.identifier))
    }

    @Test func everyUnshareableTypeIsNamedOnce() throws {
        let error = try #require(thrownError {
            try AuthorizationPolicy.validateRequest(share: [.bloodType, .dateOfBirth, .bloodType], read: [], app: app)
        })
        #expect(error.message.contains("\"\(ObjectType.bloodType.identifier)\""))
        #expect(error.message.contains("\"\(ObjectType.dateOfBirth.identifier)\""))
        #expect(error.message.ranges(of: ObjectType.bloodType.identifier).count == 1)
    }

    @Test func typesOnlyHealthKitWritesMayBeReadNotShared() throws {
        try AuthorizationPolicy.validateRequest(share: [.bloodGlucose], read: [.appleExerciseTime, .walkingHeartRateAverage], app: app)
        let error = try #require(thrownError {
            try AuthorizationPolicy.validateRequest(share: [.stepCount, .appleExerciseTime, .walkingHeartRateAverage], read: [], app: app)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.message == "share_types: apps may not share types only HealthKit writes: \"\(ObjectType.appleExerciseTime.identifier)\", \"\(ObjectType.walkingHeartRateAverage.identifier)\"")
        let grant = try #require(thrownError {
            try AuthorizationPolicy.validateSetGrant(TypeDecision(type: .appleStandTime, share: .allow), now: 0)
        })
        #expect(grant.message.contains("apps may not share \(ObjectType.appleStandTime.identifier)"))
        try AuthorizationPolicy.validateSetGrant(TypeDecision(type: .appleStandTime, read: .full), now: 0)
    }

    @Test func correlationTypesAreAuthorizedThroughTheirMembers() throws {
        for (share, read): ([ObjectType], [ObjectType]) in [([.bloodPressure], []), ([], [.bloodPressure]), ([], [.food])] {
            let error = try #require(thrownError { try AuthorizationPolicy.validateRequest(share: share, read: read, app: app) })
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("correlation types are authorized through their member types"))
        }
        let pressure = try #require(thrownError { try AuthorizationPolicy.validateRequest(share: [], read: [.bloodPressure], app: app) })
        #expect(pressure.message.contains(ObjectType.bloodPressureSystolic.identifier) && pressure.message.contains(ObjectType.bloodPressureDiastolic.identifier))
        try AuthorizationPolicy.validateRequest(share: [.bloodPressureSystolic, .bloodPressureDiastolic], read: [.bloodPressureSystolic], app: app)
        #expect(thrownError { try AuthorizationPolicy.validateSetGrant(TypeDecision(type: .food, read: .full), now: 0) }?.code == .invalidArgument)
    }

    @Test func characteristicsMayBeRead() throws {
        try AuthorizationPolicy.validateRequest(share: [], read: [.dateOfBirth, .biologicalSex, .bloodType], app: app)
    }

    @Test func readWithoutReadUsageIsRefusedNamingTheTypes() throws {
        let shareOnlyApp = AppInfo(appID: "com.example.writer", name: "Writer", readUsage: "", shareUsage: "to save")
        try AuthorizationPolicy.validateRequest(share: [.stepCount], read: [], app: shareOnlyApp)
        let error = try #require(thrownError {
            try AuthorizationPolicy.validateRequest(share: [.stepCount], read: [.heartRate], app: shareOnlyApp)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("read usage"))
        #expect(error.message.contains("com.example.writer"))
        #expect(error.message.contains(ObjectType.heartRate.identifier))
        #expect(!error.message.contains("share usage"))
    }

    @Test func shareWithoutShareUsageIsRefusedNamingTheTypes() throws {
        let readOnlyApp = AppInfo(appID: "com.example.reader", name: "Reader", readUsage: "to chart", shareUsage: "")
        try AuthorizationPolicy.validateRequest(share: [], read: [.stepCount], app: readOnlyApp)
        let error = try #require(thrownError {
            try AuthorizationPolicy.validateRequest(share: [.workout], read: [.stepCount], app: readOnlyApp)
        })
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("share usage"))
        #expect(error.message.contains(ObjectType.workout.identifier))
        #expect(!error.message.contains("read usage"))
    }

    @Test func whitespaceOnlyUsageCountsAsEmpty() throws {
        let blank = AppInfo(appID: "com.example.blank", name: "Blank", readUsage: "  \n\t", shareUsage: " ")
        let error = try #require(thrownError {
            try AuthorizationPolicy.validateRequest(share: [.workout], read: [.stepCount], app: blank)
        })
        #expect(error.message.contains("read usage"))
        #expect(error.message.contains("share usage"))
    }

    @Test func appWithNoUsageTextsCannotAskAnything() throws {
        let bare = AppInfo(appID: "com.example.bare", name: "Bare")
        #expect(thrownError { try AuthorizationPolicy.validateRequest(share: [], read: [.stepCount], app: bare) } != nil)
        #expect(thrownError { try AuthorizationPolicy.validateRequest(share: [.stepCount], read: [], app: bare) } != nil)
    }

    @Test func severalProblemsAreReportedTogether() throws {
        let bare = AppInfo(appID: "com.example.bare", name: "Bare")
        let error = try #require(thrownError {
            try AuthorizationPolicy.validateRequest(share: [.dateOfBirth, ObjectType("HKNope")], read: [.stepCount], app: bare)
        })
        #expect(error.message.contains("\"HKNope\""))
        #expect(error.message.contains("cannot be shared"))
        #expect(error.message.contains("read usage"))
        #expect(error.message.contains("share usage"))
    }

    @Test func validateTypeSetsAppliesShapeRulesOnly() throws {
        try AuthorizationPolicy.validateTypeSets(share: [.dateOfBirth], read: [.stepCount])  // no share/usage rules
        try AuthorizationPolicy.validateTypeSets(share: [], read: [.stepCount])
        let empty = try #require(thrownError { try AuthorizationPolicy.validateTypeSets(share: [], read: []) })
        #expect(empty.code == .invalidArgument)
        let unknown = try #require(thrownError { try AuthorizationPolicy.validateTypeSets(share: [ObjectType("HKX")], read: [ObjectType("HKY")]) })
        #expect(unknown.code == .invalidArgument)
        #expect(unknown.message.contains("\"HKX\""))
        #expect(unknown.message.contains("\"HKY\""))
        let tooMany = Array(repeating: ObjectType.heartRate, count: 300)
        let tooManyError = try #require(thrownError { try AuthorizationPolicy.validateTypeSets(share: tooMany, read: []) })
        #expect(tooManyError.message.contains("300"))
    }
}
