import BrokerModel
import HealthBrokerProto

// ServerFrame's `response` oneof in both directions (StreamItem: WireCodec+StreamItem.swift).
extension WireCodec {
    /// Sets `frame`'s response case to the C form of `response` and runs `body` while that is valid.
    static func withCResponse<R>(
        _ response: Response?, in frame: UnsafeMutablePointer<Healthbroker__V1__ServerFrame>, _ body: () -> R
    ) -> R {
        guard let response else { return body() }
        switch response {
        case .streamItem(let item):
            return withCStreamItem(item) { item in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_STREAM_ITEM
                frame.pointee.stream_item = item
                return body()
            }
        case .hello(let hello):
            return withCHelloResponse(hello) { hello in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_HELLO
                frame.pointee.hello = hello
                return body()
            }
        case .ping(let ping):
            return withCPingResponse(ping) { ping in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_PING
                frame.pointee.ping = ping
                return body()
            }
        case .requestAuthorization:
            var requestAuthorization = Healthbroker__V1__RequestAuthorizationResponse()
            healthbroker__v1__request_authorization_response__init(&requestAuthorization)
            return withUnsafeMutablePointer(to: &requestAuthorization) { requestAuthorization in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_REQUEST_AUTHORIZATION
                frame.pointee.request_authorization = requestAuthorization
                return body()
            }
        case .authorizationStatus(let status):
            var authorizationStatus = Healthbroker__V1__AuthorizationStatusResponse()
            healthbroker__v1__authorization_status_response__init(&authorizationStatus)
            authorizationStatus.status = cAuthorizationStatus(status)
            return withUnsafeMutablePointer(to: &authorizationStatus) { authorizationStatus in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_AUTHORIZATION_STATUS
                frame.pointee.authorization_status = authorizationStatus
                return body()
            }
        case .requestStatus(let status):
            var requestStatus = Healthbroker__V1__RequestStatusResponse()
            healthbroker__v1__request_status_response__init(&requestStatus)
            requestStatus.status = cRequestStatus(status)
            return withUnsafeMutablePointer(to: &requestStatus) { requestStatus in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_REQUEST_STATUS
                frame.pointee.request_status = requestStatus
                return body()
            }
        case .earliestAuthorizedSampleDate(let dates):
            return withCEarliestAuthorizedSampleDateResponse(dates.dictionary) { earliestAuthorized in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_EARLIEST_AUTHORIZED_SAMPLE_DATE
                frame.pointee.earliest_authorized_sample_date = earliestAuthorized
                return body()
            }
        case .earliestPermittedSampleDate(let dateMicros):
            var earliestPermitted = Healthbroker__V1__EarliestPermittedSampleDateResponse()
            healthbroker__v1__earliest_permitted_sample_date_response__init(&earliestPermitted)
            earliestPermitted.date_us = dateMicros
            return withUnsafeMutablePointer(to: &earliestPermitted) { earliestPermitted in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_EARLIEST_PERMITTED_SAMPLE_DATE
                frame.pointee.earliest_permitted_sample_date = earliestPermitted
                return body()
            }
        case .readCharacteristics(let values):
            return withCCharacteristicValues(values) { values, count in
                var readCharacteristics = Healthbroker__V1__ReadCharacteristicsResponse()
                healthbroker__v1__read_characteristics_response__init(&readCharacteristics)
                readCharacteristics.n_values = count
                readCharacteristics.values = values
                return withUnsafeMutablePointer(to: &readCharacteristics) { readCharacteristics in
                    frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_READ_CHARACTERISTICS
                    frame.pointee.read_characteristics = readCharacteristics
                    return body()
                }
            }
        case .save(let saved, let unchanged):
            var save = Healthbroker__V1__SaveResponse()
            healthbroker__v1__save_response__init(&save)
            save.saved = saved
            save.unchanged = unchanged
            return withUnsafeMutablePointer(to: &save) { save in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_SAVE
                frame.pointee.save = save
                return body()
            }
        case .delete(let deleted):
            var delete = Healthbroker__V1__DeleteResponse()
            healthbroker__v1__delete_response__init(&delete)
            delete.deleted = deleted
            return withUnsafeMutablePointer(to: &delete) { delete in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_DELETE
                frame.pointee.delete_ = delete
                return body()
            }
        case .statistics(let result):
            return withCStatisticsResponse(result) { statistics in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_STATISTICS
                frame.pointee.statistics = statistics
                return body()
            }
        case .adminAddApp(let credentials):
            return withCAdminAddAppResponse(credentials) { addApp in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ADD_APP
                frame.pointee.admin_add_app = addApp
                return body()
            }
        case .adminListApps(let apps):
            return withCAppInfos(apps) { apps, count in
                var listApps = Healthbroker__V1__AdminListAppsResponse()
                healthbroker__v1__admin_list_apps_response__init(&listApps)
                listApps.n_apps = count
                listApps.apps = apps
                return withUnsafeMutablePointer(to: &listApps) { listApps in
                    frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_LIST_APPS
                    frame.pointee.admin_list_apps = listApps
                    return body()
                }
            }
        case .adminRemoveApp(let connectionsClosed):
            var removeApp = Healthbroker__V1__AdminRemoveAppResponse()
            healthbroker__v1__admin_remove_app_response__init(&removeApp)
            removeApp.connections_closed = connectionsClosed
            return withUnsafeMutablePointer(to: &removeApp) { removeApp in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_REMOVE_APP
                frame.pointee.admin_remove_app = removeApp
                return body()
            }
        case .adminRotateToken(let credentials):
            return withCAdminRotateTokenResponse(credentials) { rotateToken in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ROTATE_TOKEN
                frame.pointee.admin_rotate_token = rotateToken
                return body()
            }
        case .adminBrokerInfo(let info):
            return withCAdminBrokerInfoResponse(info) { brokerInfo in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_BROKER_INFO
                frame.pointee.admin_broker_info = brokerInfo
                return body()
            }
        case .adminAnswerPrompt:
            var answerPrompt = Healthbroker__V1__AdminAnswerPromptResponse()
            healthbroker__v1__admin_answer_prompt_response__init(&answerPrompt)
            return withUnsafeMutablePointer(to: &answerPrompt) { answerPrompt in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ANSWER_PROMPT
                frame.pointee.admin_answer_prompt = answerPrompt
                return body()
            }
        case .adminCancelPrompt:
            var cancelPrompt = Healthbroker__V1__AdminCancelPromptResponse()
            healthbroker__v1__admin_cancel_prompt_response__init(&cancelPrompt)
            return withUnsafeMutablePointer(to: &cancelPrompt) { cancelPrompt in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_CANCEL_PROMPT
                frame.pointee.admin_cancel_prompt = cancelPrompt
                return body()
            }
        case .adminListGrants(let grants):
            return withCGrants(grants) { grants, count in
                var listGrants = Healthbroker__V1__AdminListGrantsResponse()
                healthbroker__v1__admin_list_grants_response__init(&listGrants)
                listGrants.n_grants = count
                listGrants.grants = grants
                return withUnsafeMutablePointer(to: &listGrants) { listGrants in
                    frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_LIST_GRANTS
                    frame.pointee.admin_list_grants = listGrants
                    return body()
                }
            }
        case .adminRevoke(let revoked):
            var revoke = Healthbroker__V1__AdminRevokeResponse()
            healthbroker__v1__admin_revoke_response__init(&revoke)
            revoke.revoked = revoked
            return withUnsafeMutablePointer(to: &revoke) { revoke in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_REVOKE
                frame.pointee.admin_revoke = revoke
                return body()
            }
        case .adminListSources(let sources):
            return withCSources(sources) { sources, count in
                var listSources = Healthbroker__V1__AdminListSourcesResponse()
                healthbroker__v1__admin_list_sources_response__init(&listSources)
                listSources.n_sources = count
                listSources.sources = sources
                return withUnsafeMutablePointer(to: &listSources) { listSources in
                    frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_LIST_SOURCES
                    frame.pointee.admin_list_sources = listSources
                    return body()
                }
            }
        case .adminSetCharacteristic:
            var setCharacteristic = Healthbroker__V1__AdminSetCharacteristicResponse()
            healthbroker__v1__admin_set_characteristic_response__init(&setCharacteristic)
            return withUnsafeMutablePointer(to: &setCharacteristic) { setCharacteristic in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_SET_CHARACTERISTIC
                frame.pointee.admin_set_characteristic = setCharacteristic
                return body()
            }
        case .adminExplain(let explanation):
            return withCAdminExplainResponse(explanation) { explain in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_EXPLAIN
                frame.pointee.admin_explain = explain
                return body()
            }
        case .adminImport(let saved, let unchanged):
            var adminImport = Healthbroker__V1__AdminImportResponse()
            healthbroker__v1__admin_import_response__init(&adminImport)
            adminImport.saved = saved
            adminImport.unchanged = unchanged
            return withUnsafeMutablePointer(to: &adminImport) { adminImport in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_IMPORT
                frame.pointee.admin_import = adminImport
                return body()
            }
        case .adminAccessLog(let entries):
            return withCAdminAccessLogResponse(entries) { accessLog in
                frame.pointee.response_case = HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ACCESS_LOG
                frame.pointee.admin_access_log = accessLog
                return body()
            }
        }
    }

    /// The Swift form of an unpacked ServerFrame's response; nil when no case this build knows is set.
    ///
    /// A stream item with no known item case is undecodable (see `streamItem(_:)`).
    static func response(_ frame: UnsafePointer<Healthbroker__V1__ServerFrame>) throws(BrokerError) -> Response? {
        let message = frame.pointee
        switch message.response_case {
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_STREAM_ITEM:
            return .streamItem(try streamItem(try present(message.stream_item, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_HELLO:
            return .hello(helloResponse(try present(message.hello, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_PING:
            return .ping(pingResponse(try present(message.ping, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_REQUEST_AUTHORIZATION:
            return .requestAuthorization
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_AUTHORIZATION_STATUS:
            let statusResponse = try present(message.authorization_status, in: "ServerFrame")
            return .authorizationStatus(authorizationStatus(statusResponse.pointee.status))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_REQUEST_STATUS:
            let statusResponse = try present(message.request_status, in: "ServerFrame")
            return .requestStatus(requestStatus(statusResponse.pointee.status))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_EARLIEST_AUTHORIZED_SAMPLE_DATE:
            return .earliestAuthorizedSampleDate(
                try earliestAuthorizedSampleDates(try present(message.earliest_authorized_sample_date, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_EARLIEST_PERMITTED_SAMPLE_DATE:
            return .earliestPermittedSampleDate(
                try present(message.earliest_permitted_sample_date, in: "ServerFrame").pointee.date_us)
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_READ_CHARACTERISTICS:
            let readCharacteristics = try present(message.read_characteristics, in: "ServerFrame")
            return .readCharacteristics(try decodedList(
                readCharacteristics.pointee.values, count: readCharacteristics.pointee.n_values, in: "ServerFrame",
                characteristicValue))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_SAVE:
            let save = try present(message.save, in: "ServerFrame")
            return .save(saved: save.pointee.saved, unchanged: save.pointee.unchanged)
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_DELETE:
            return .delete(deleted: try present(message.delete_, in: "ServerFrame").pointee.deleted)
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_STATISTICS:
            return .statistics(try statisticsResult(try present(message.statistics, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ADD_APP:
            return .adminAddApp(try adminAddAppResponse(try present(message.admin_add_app, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_LIST_APPS:
            let listApps = try present(message.admin_list_apps, in: "ServerFrame")
            return .adminListApps(try appInfos(listApps.pointee.apps, count: listApps.pointee.n_apps))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_REMOVE_APP:
            let removeApp = try present(message.admin_remove_app, in: "ServerFrame")
            return .adminRemoveApp(connectionsClosed: removeApp.pointee.connections_closed)
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ROTATE_TOKEN:
            return .adminRotateToken(
                try adminRotateTokenResponse(try present(message.admin_rotate_token, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_BROKER_INFO:
            return .adminBrokerInfo(brokerInfo(try present(message.admin_broker_info, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ANSWER_PROMPT:
            return .adminAnswerPrompt
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_CANCEL_PROMPT:
            return .adminCancelPrompt
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_LIST_GRANTS:
            let listGrants = try present(message.admin_list_grants, in: "ServerFrame")
            return .adminListGrants(try decodedList(
                listGrants.pointee.grants, count: listGrants.pointee.n_grants, in: "ServerFrame", grant))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_REVOKE:
            return .adminRevoke(revoked: try present(message.admin_revoke, in: "ServerFrame").pointee.revoked)
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_LIST_SOURCES:
            let listSources = try present(message.admin_list_sources, in: "ServerFrame")
            return .adminListSources(try decodedList(
                listSources.pointee.sources, count: listSources.pointee.n_sources, in: "ServerFrame", source))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_SET_CHARACTERISTIC:
            return .adminSetCharacteristic
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_EXPLAIN:
            return .adminExplain(explanation(try present(message.admin_explain, in: "ServerFrame")))
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_IMPORT:
            let adminImport = try present(message.admin_import, in: "ServerFrame")
            return .adminImport(saved: adminImport.pointee.saved, unchanged: adminImport.pointee.unchanged)
        case HEALTHBROKER__V1__SERVER_FRAME__RESPONSE_ADMIN_ACCESS_LOG:
            let accessLog = try present(message.admin_access_log, in: "ServerFrame")
            return .adminAccessLog(try decodedList(
                accessLog.pointee.entries, count: accessLog.pointee.n_entries, in: "ServerFrame", accessLogEntry))
        default:
            return nil
        }
    }
}
