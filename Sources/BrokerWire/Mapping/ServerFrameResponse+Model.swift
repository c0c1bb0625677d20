package import BrokerModel

// Model-valued spellings of the generated responses, for tests, fakes and the fuzzer's seeds:
// `.save(saved: 3, unchanged: 0)` instead of building the message. Optional per method, like the
// request spellings (`CallRequest+Model.swift`).
extension Proto.ServerFrame.Response {
    package static func streamItem(_ item: StreamItem) -> Self { .streamItem(item.proto) }
    package static func hello(_ response: HelloResponse) -> Self { .hello(response.proto) }
    package static func ping(_ response: PingResponse) -> Self { .ping(response.proto) }
    package static var requestAuthorization: Self { .requestAuthorization(.init()) }

    package static func authorizationStatus(_ status: AuthorizationStatus) -> Self {
        .authorizationStatus(.with { $0.status = Proto.AuthorizationStatus(rawValue: status.rawValue) })
    }

    package static func requestStatus(_ status: RequestStatus) -> Self {
        .requestStatus(.with { $0.status = Proto.RequestStatus(rawValue: status.rawValue) })
    }

    package static func earliestAuthorizedSampleDate(_ dates: TypeDates) -> Self { .earliestAuthorizedSampleDate(dates.proto) }
    package static func earliestPermittedSampleDate(_ dateMicros: Int64) -> Self { .earliestPermittedSampleDate(.with { $0.dateMicros = dateMicros }) }
    package static func readCharacteristics(_ values: [CharacteristicValue]) -> Self { .readCharacteristics(.with { $0.values = values.map(\.proto) }) }

    package static func save(saved: UInt32, unchanged: UInt32) -> Self {
        .save(.with {
            $0.saved = saved
            $0.unchanged = unchanged
        })
    }

    package static func delete(deleted: UInt32) -> Self { .delete(.with { $0.deleted = deleted }) }
    package static func statistics(_ result: StatisticsResult) -> Self { .statistics(result.proto) }

    package static func adminAddApp(_ credentials: AppCredentials) -> Self {
        .adminAddApp(.with {
            $0.app = credentials.app.proto
            $0.appToken = credentials.token
        })
    }

    package static func adminListApps(_ apps: [AppInfo]) -> Self { .adminListApps(.with { $0.apps = apps.map(\.proto) }) }
    package static func adminRemoveApp(connectionsClosed: UInt32) -> Self { .adminRemoveApp(.with { $0.connectionsClosed = connectionsClosed }) }

    package static func adminRotateToken(_ credentials: AppCredentials) -> Self {
        .adminRotateToken(.with {
            $0.app = credentials.app.proto
            $0.appToken = credentials.token
        })
    }

    package static func adminBrokerInfo(_ info: BrokerInfo) -> Self { .adminBrokerInfo(info.proto) }
    package static var adminAnswerPrompt: Self { .adminAnswerPrompt(.init()) }
    package static var adminCancelPrompt: Self { .adminCancelPrompt(.init()) }
    package static func adminListGrants(_ grants: [Grant]) -> Self { .adminListGrants(.with { $0.grants = grants.map(\.proto) }) }
    package static func adminRevoke(revoked: UInt32) -> Self { .adminRevoke(.with { $0.revoked = revoked }) }
    package static func adminListSources(_ sources: [Source]) -> Self { .adminListSources(.with { $0.sources = sources.map(\.proto) }) }
    package static var adminSetCharacteristic: Self { .adminSetCharacteristic(.init()) }
    package static func adminExplain(_ explanation: Explanation) -> Self { .adminExplain(explanation.proto) }
    package static func adminSetGrant(_ grant: Grant) -> Self { .adminSetGrant(.with { $0.grant = grant.proto }) }

    package static func adminBackup(path: String, bytes: Int64, pages: Int64) -> Self {
        .adminBackup(.with {
            $0.path = path
            $0.bytes = bytes
            $0.pages = pages
        })
    }

    package static func adminStatistics(_ result: StatisticsResult) -> Self { .adminStatistics(result.adminProto) }
    package static var adminSetSourcePriority: Self { .adminSetSourcePriority(.init()) }
    package static func adminListSourcePriority(appIDs: [String]) -> Self { .adminListSourcePriority(.with { $0.appIDs = appIDs }) }

    package static func adminImport(saved: UInt32, unchanged: UInt32) -> Self {
        .adminImport(.with {
            $0.saved = saved
            $0.unchanged = unchanged
        })
    }

    package static func adminAccessLog(_ entries: [AccessLogEntry]) -> Self { .adminAccessLog(.with { $0.entries = entries.map(\.proto) }) }
}
