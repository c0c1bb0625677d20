import BrokerModel

// Response, a ServerFrame's `response` oneof, between the model and the .proto.
extension Response {
    /// The response a decoded ServerFrame's response case holds; throws for one it cannot be (an
    /// AdminAddApp or AdminRotateToken without its app, a stream item without a case this build
    /// knows, a sample without a value).
    init(proto: Proto.ServerFrame.Response) throws(BrokerError) {
        switch proto {
        case .streamItem(let item):
            self = .streamItem(try StreamItem(proto: item))
        case .hello(let hello):
            self = .hello(HelloResponse(proto: hello))
        case .ping(let ping):
            self = .ping(PingResponse(proto: ping))
        case .requestAuthorization:
            self = .requestAuthorization
        case .authorizationStatus(let response):
            // A number this build does not know reads as not determined.
            self = .authorizationStatus(AuthorizationStatus(rawValue: response.status.rawValue) ?? .notDetermined)
        case .requestStatus(let response):
            self = .requestStatus(RequestStatus(rawValue: response.status.rawValue) ?? .unknown)
        case .earliestAuthorizedSampleDate(let response):
            self = .earliestAuthorizedSampleDate(TypeDates(proto: response))
        case .earliestPermittedSampleDate(let response):
            self = .earliestPermittedSampleDate(response.dateMicros)
        case .readCharacteristics(let response):
            var values: [CharacteristicValue] = []
            values.reserveCapacity(response.values.count)
            for value in response.values { values.append(CharacteristicValue(proto: value)) }
            self = .readCharacteristics(values)
        case .save(let response):
            self = .save(saved: response.saved, unchanged: response.unchanged)
        case .delete(let response):
            self = .delete(deleted: response.deleted)
        case .statistics(let response):
            self = .statistics(StatisticsResult(proto: response))
        case .adminAddApp(let response):
            self = .adminAddApp(try AppCredentials(proto: response.app, token: response.appToken))
        case .adminListApps(let response):
            var apps: [AppInfo] = []
            apps.reserveCapacity(response.apps.count)
            for app in response.apps { apps.append(AppInfo(proto: app)) }
            self = .adminListApps(apps)
        case .adminRemoveApp(let response):
            self = .adminRemoveApp(connectionsClosed: response.connectionsClosed)
        case .adminRotateToken(let response):
            self = .adminRotateToken(try AppCredentials(proto: response.app, token: response.appToken))
        case .adminBrokerInfo(let response):
            self = .adminBrokerInfo(BrokerInfo(proto: response))
        case .adminAnswerPrompt:
            self = .adminAnswerPrompt
        case .adminCancelPrompt:
            self = .adminCancelPrompt
        case .adminListGrants(let response):
            var grants: [Grant] = []
            grants.reserveCapacity(response.grants.count)
            for grant in response.grants { grants.append(Grant(proto: grant)) }
            self = .adminListGrants(grants)
        case .adminRevoke(let response):
            self = .adminRevoke(revoked: response.revoked)
        case .adminListSources(let response):
            var sources: [Source] = []
            sources.reserveCapacity(response.sources.count)
            for source in response.sources { sources.append(Source(proto: source)) }
            self = .adminListSources(sources)
        case .adminSetCharacteristic:
            self = .adminSetCharacteristic
        case .adminExplain(let response):
            self = .adminExplain(Explanation(proto: response))
        case .adminSetGrant(let response):
            guard let grant = response.grant else { throw .invalidArgument("grant: missing") }
            self = .adminSetGrant(Grant(proto: grant))
        case .adminBackup(let response):
            self = .adminBackup(path: response.path, bytes: response.bytes, pages: response.pages)
        case .adminStatistics(let response):
            self = .adminStatistics(StatisticsResult(proto: response))
        case .adminSetSourcePriority:
            self = .adminSetSourcePriority
        case .adminListSourcePriority(let response):
            self = .adminListSourcePriority(appIDs: response.appIDs)
        case .adminImport(let response):
            self = .adminImport(saved: response.saved, unchanged: response.unchanged)
        case .adminAccessLog(let response):
            var entries: [AccessLogEntry] = []
            entries.reserveCapacity(response.entries.count)
            for entry in response.entries { entries.append(AccessLogEntry(proto: entry)) }
            self = .adminAccessLog(entries)
        }
    }

    /// The response as a ServerFrame's response case.
    var proto: Proto.ServerFrame.Response {
        switch self {
        case .streamItem(let item):
            return .streamItem(item.proto)
        case .hello(let hello):
            return .hello(hello.proto)
        case .ping(let ping):
            return .ping(ping.proto)
        case .requestAuthorization:
            return .requestAuthorization(Proto.RequestAuthorizationResponse())
        case .authorizationStatus(let status):
            var message = Proto.AuthorizationStatusResponse()
            message.status = Proto.AuthorizationStatus(rawValue: status.rawValue)
            return .authorizationStatus(message)
        case .requestStatus(let status):
            var message = Proto.RequestStatusResponse()
            message.status = Proto.RequestStatus(rawValue: status.rawValue)
            return .requestStatus(message)
        case .earliestAuthorizedSampleDate(let dates):
            return .earliestAuthorizedSampleDate(dates.proto)
        case .earliestPermittedSampleDate(let dateMicros):
            var message = Proto.EarliestPermittedSampleDateResponse()
            message.dateMicros = dateMicros
            return .earliestPermittedSampleDate(message)
        case .readCharacteristics(let values):
            var message = Proto.ReadCharacteristicsResponse()
            message.values.reserveCapacity(values.count)
            for value in values { message.values.append(value.proto) }
            return .readCharacteristics(message)
        case .save(let saved, let unchanged):
            var message = Proto.SaveResponse()
            message.saved = saved
            message.unchanged = unchanged
            return .save(message)
        case .delete(let deleted):
            var message = Proto.DeleteResponse()
            message.deleted = deleted
            return .delete(message)
        case .statistics(let result):
            return .statistics(result.proto)
        case .adminAddApp(let credentials):
            var message = Proto.AdminAddAppResponse()
            message.app = credentials.app.proto
            message.appToken = credentials.token
            return .adminAddApp(message)
        case .adminListApps(let apps):
            var message = Proto.AdminListAppsResponse()
            message.apps.reserveCapacity(apps.count)
            for app in apps { message.apps.append(app.proto) }
            return .adminListApps(message)
        case .adminRemoveApp(let connectionsClosed):
            var message = Proto.AdminRemoveAppResponse()
            message.connectionsClosed = connectionsClosed
            return .adminRemoveApp(message)
        case .adminRotateToken(let credentials):
            var message = Proto.AdminRotateTokenResponse()
            message.app = credentials.app.proto
            message.appToken = credentials.token
            return .adminRotateToken(message)
        case .adminBrokerInfo(let info):
            return .adminBrokerInfo(info.proto)
        case .adminAnswerPrompt:
            return .adminAnswerPrompt(Proto.AdminAnswerPromptResponse())
        case .adminCancelPrompt:
            return .adminCancelPrompt(Proto.AdminCancelPromptResponse())
        case .adminListGrants(let grants):
            var message = Proto.AdminListGrantsResponse()
            message.grants.reserveCapacity(grants.count)
            for grant in grants { message.grants.append(grant.proto) }
            return .adminListGrants(message)
        case .adminRevoke(let revoked):
            var message = Proto.AdminRevokeResponse()
            message.revoked = revoked
            return .adminRevoke(message)
        case .adminListSources(let sources):
            var message = Proto.AdminListSourcesResponse()
            message.sources.reserveCapacity(sources.count)
            for source in sources { message.sources.append(source.proto) }
            return .adminListSources(message)
        case .adminSetCharacteristic:
            return .adminSetCharacteristic(Proto.AdminSetCharacteristicResponse())
        case .adminExplain(let explanation):
            return .adminExplain(explanation.proto)
        case .adminSetGrant(let grant):
            var message = Proto.AdminSetGrantResponse()
            message.grant = grant.proto
            return .adminSetGrant(message)
        case .adminBackup(let path, let bytes, let pages):
            var message = Proto.AdminBackupResponse()
            message.path = path
            message.bytes = bytes
            message.pages = pages
            return .adminBackup(message)
        case .adminStatistics(let result):
            return .adminStatistics(result.adminProto)
        case .adminSetSourcePriority:
            return .adminSetSourcePriority(Proto.AdminSetSourcePriorityResponse())
        case .adminListSourcePriority(let appIDs):
            var message = Proto.AdminListSourcePriorityResponse()
            message.appIDs = appIDs
            return .adminListSourcePriority(message)
        case .adminImport(let saved, let unchanged):
            var message = Proto.AdminImportResponse()
            message.saved = saved
            message.unchanged = unchanged
            return .adminImport(message)
        case .adminAccessLog(let entries):
            var message = Proto.AdminAccessLogResponse()
            message.entries.reserveCapacity(entries.count)
            for entry in entries { message.entries.append(entry.proto) }
            return .adminAccessLog(message)
        }
    }
}
