package import BrokerModel

// Model-valued spellings of the generated requests, for tests, the fuzzer's seeds and tools that
// write calls by hand: `.requestStatus(share: [.stepCount], read: [])` instead of building the
// message. Optional per method: nothing switches over them, so a new method needs no line here (a
// test can always write `.newMethod(.with { … })`).
extension Proto.Call.Request {
    package static func hello(_ request: HelloRequest) -> Self { .hello(request.proto) }
    package static func ping(_ request: PingRequest) -> Self { .ping(request.proto) }
    package static func pingStream(_ request: PingStreamRequest) -> Self { .pingStream(request.proto) }

    package static func requestAuthorization(share: [ObjectType], read: [ObjectType]) -> Self {
        .requestAuthorization(.with {
            $0.shareTypes = ObjectType.protoIdentifiers(share)
            $0.readTypes = ObjectType.protoIdentifiers(read)
        })
    }

    package static func authorizationStatus(_ type: ObjectType) -> Self { .authorizationStatus(.with { $0.type = type.identifier }) }

    package static func requestStatus(share: [ObjectType], read: [ObjectType]) -> Self {
        .requestStatus(.with {
            $0.shareTypes = ObjectType.protoIdentifiers(share)
            $0.readTypes = ObjectType.protoIdentifiers(read)
        })
    }

    package static func earliestAuthorizedSampleDate(_ types: [ObjectType]) -> Self {
        .earliestAuthorizedSampleDate(.with { $0.types = ObjectType.protoIdentifiers(types) })
    }

    package static var earliestPermittedSampleDate: Self { .earliestPermittedSampleDate(.init()) }
    package static func readCharacteristics(_ types: [ObjectType]) -> Self { .readCharacteristics(.with { $0.types = ObjectType.protoIdentifiers(types) }) }
    package static func save(_ samples: [Sample]) -> Self { .save(.with { $0.samples = Sample.proto(samples) }) }

    /// An optional type travels as "" when nil.
    package static func delete(uuids: [String], type: ObjectType?, predicate: SamplePredicate?) -> Self {
        .delete(.with {
            $0.uuids = uuids
            $0.type = type?.identifier ?? ""
            $0.predicate = predicate?.proto
        })
    }

    package static func query(_ query: SampleQuery) -> Self { .query(query.proto) }
    package static func anchoredQuery(_ query: AnchoredQuery) -> Self { .anchoredQuery(query.proto) }
    package static func statistics(_ query: StatisticsQuery) -> Self { .statistics(query.proto) }
    package static func observe(_ types: [ObjectType]) -> Self { .observe(.with { $0.types = ObjectType.protoIdentifiers(types) }) }
    package static func adminAddApp(_ registration: AppRegistration) -> Self { .adminAddApp(registration.proto) }
    package static var adminListApps: Self { .adminListApps(.init()) }

    package static func adminRemoveApp(appID: String, deleteData: Bool) -> Self {
        .adminRemoveApp(.with {
            $0.appID = appID
            $0.deleteData = deleteData
        })
    }

    package static func adminRotateToken(appID: String) -> Self { .adminRotateToken(.with { $0.appID = appID }) }
    package static var adminBrokerInfo: Self { .adminBrokerInfo(.init()) }
    package static var adminWatchPrompts: Self { .adminWatchPrompts(.init()) }

    package static func adminAnswerPrompt(promptID: UInt64, decisions: [TypeDecision]) -> Self {
        .adminAnswerPrompt(.with {
            $0.promptID = promptID
            $0.decisions = decisions.map(\.proto)
        })
    }

    package static func adminCancelPrompt(promptID: UInt64) -> Self { .adminCancelPrompt(.with { $0.promptID = promptID }) }
    package static func adminListGrants(appID: String) -> Self { .adminListGrants(.with { $0.appID = appID }) }

    package static func adminRevoke(appID: String, types: [ObjectType]) -> Self {
        .adminRevoke(.with {
            $0.appID = appID
            $0.types = ObjectType.protoIdentifiers(types)
        })
    }

    package static var adminListSources: Self { .adminListSources(.init()) }
    package static func adminSetCharacteristic(_ value: CharacteristicValue) -> Self { .adminSetCharacteristic(value.setRequestProto) }

    package static func adminExplain(appID: String, type: ObjectType) -> Self {
        .adminExplain(.with {
            $0.appID = appID
            $0.type = type.identifier
        })
    }

    package static func adminSetGrant(appID: String, decision: TypeDecision) -> Self { .adminSetGrant(decision.setGrantRequestProto(appID: appID)) }
    package static func adminBackup(path: String) -> Self { .adminBackup(.with { $0.path = path }) }
    package static func adminStatistics(_ query: StatisticsQuery) -> Self { .adminStatistics(.with { $0.query = query.proto }) }

    package static func adminSetSourcePriority(type: ObjectType, appIDs: [String]) -> Self {
        .adminSetSourcePriority(.with {
            $0.type = type.identifier
            $0.appIDs = appIDs
        })
    }

    package static func adminListSourcePriority(type: ObjectType) -> Self { .adminListSourcePriority(.with { $0.type = type.identifier }) }

    package static func adminImport(appID: String, samples: [Sample], batchID: String = "") -> Self {
        .adminImport(.with {
            $0.appID = appID
            $0.samples = Sample.proto(samples)
            $0.batchID = batchID
        })
    }

    /// An optional type or app id travels as "" when nil.
    package static func adminExport(type: ObjectType?, appID: String?) -> Self {
        .adminExport(.with {
            $0.type = type?.identifier ?? ""
            $0.appID = appID ?? ""
        })
    }

    /// A nil app id travels as "".
    package static func adminAccessLog(appID: String?, limit: UInt32) -> Self {
        .adminAccessLog(.with {
            $0.appID = appID ?? ""
            $0.limit = limit
        })
    }
}
