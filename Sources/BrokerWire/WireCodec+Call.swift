import BrokerModel
import HealthBrokerProto

// Call, and its `request` oneof, in both directions.
extension WireCodec {
    /// Runs `body` with the C form of `call`, valid only inside `body`; `.unknown` and `.invalid`
    /// (which only decoding makes) set no request.
    static func withCCall<R>(_ call: Call, _ body: (UnsafeMutablePointer<Healthbroker__V1__Call>) -> R) -> R {
        var message = Healthbroker__V1__Call()
        healthbroker__v1__call__init(&message)
        message.call_id = call.callID
        message.timeout_us = call.timeoutMicros
        message.initial_credit = call.initialCredit
        switch call.request {
        case .hello(let request):
            return withCHelloRequest(request) { hello in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_HELLO
                message.hello = hello
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .ping(let request):
            return withCPingRequest(request) { ping in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_PING
                message.ping = ping
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .pingStream(let request):
            return withCPingStreamRequest(request) { pingStream in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_PING_STREAM
                message.ping_stream = pingStream
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .requestAuthorization(let share, let read):
            return withCRequestAuthorizationRequest(share: share, read: read) { requestAuthorization in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_REQUEST_AUTHORIZATION
                message.request_authorization = requestAuthorization
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .authorizationStatus(let type):
            return withCAuthorizationStatusRequest(type) { authorizationStatus in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_AUTHORIZATION_STATUS
                message.authorization_status = authorizationStatus
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .requestStatus(let share, let read):
            return withCRequestStatusRequest(share: share, read: read) { requestStatus in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_REQUEST_STATUS
                message.request_status = requestStatus
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .earliestAuthorizedSampleDate(let types):
            return withCEarliestAuthorizedSampleDateRequest(types) { earliestAuthorized in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_EARLIEST_AUTHORIZED_SAMPLE_DATE
                message.earliest_authorized_sample_date = earliestAuthorized
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .earliestPermittedSampleDate:
            var request = Healthbroker__V1__EarliestPermittedSampleDateRequest()
            healthbroker__v1__earliest_permitted_sample_date_request__init(&request)
            return withUnsafeMutablePointer(to: &request) { earliestPermitted in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_EARLIEST_PERMITTED_SAMPLE_DATE
                message.earliest_permitted_sample_date = earliestPermitted
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .readCharacteristics(let types):
            return withCReadCharacteristicsRequest(types) { readCharacteristics in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_READ_CHARACTERISTICS
                message.read_characteristics = readCharacteristics
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .save(let samples):
            return withCSaveRequest(samples) { save in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_SAVE
                message.save = save
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .delete(let uuids, let type, let predicate):
            return withCDeleteRequest(uuids: uuids, type: type, predicate: predicate) { delete in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_DELETE
                message.delete_ = delete
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .query(let query):
            return withCQueryRequest(query) { query in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_QUERY
                message.query = query
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .anchoredQuery(let query):
            return withCAnchoredQueryRequest(query) { anchoredQuery in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ANCHORED_QUERY
                message.anchored_query = anchoredQuery
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .statistics(let query):
            return withCStatisticsRequest(query) { statistics in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_STATISTICS
                message.statistics = statistics
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .observe(let types):
            return withCTypes(types) { identifiers, count in
                var request = Healthbroker__V1__ObserveRequest()
                healthbroker__v1__observe_request__init(&request)
                request.n_types = count
                request.types = identifiers
                return withUnsafeMutablePointer(to: &request) { observe in
                    message.request_case = HEALTHBROKER__V1__CALL__REQUEST_OBSERVE
                    message.observe = observe
                    return withUnsafeMutablePointer(to: &message, body)
                }
            }
        case .adminAddApp(let registration):
            return withCAdminAddAppRequest(registration) { addApp in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ADD_APP
                message.admin_add_app = addApp
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminListApps:
            var request = Healthbroker__V1__AdminListAppsRequest()
            healthbroker__v1__admin_list_apps_request__init(&request)
            return withUnsafeMutablePointer(to: &request) { listApps in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_LIST_APPS
                message.admin_list_apps = listApps
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminRemoveApp(let appID, let deleteData):
            var request = Healthbroker__V1__AdminRemoveAppRequest()
            healthbroker__v1__admin_remove_app_request__init(&request)
            request.delete_data = deleteData ? 1 : 0
            return appID.withCString { appID in
                request.app_id = field(appID)
                return withUnsafeMutablePointer(to: &request) { removeApp in
                    message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_REMOVE_APP
                    message.admin_remove_app = removeApp
                    return withUnsafeMutablePointer(to: &message, body)
                }
            }
        case .adminRotateToken(let appID):
            var request = Healthbroker__V1__AdminRotateTokenRequest()
            healthbroker__v1__admin_rotate_token_request__init(&request)
            return appID.withCString { appID in
                request.app_id = field(appID)
                return withUnsafeMutablePointer(to: &request) { rotateToken in
                    message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ROTATE_TOKEN
                    message.admin_rotate_token = rotateToken
                    return withUnsafeMutablePointer(to: &message, body)
                }
            }
        case .adminBrokerInfo:
            var request = Healthbroker__V1__AdminBrokerInfoRequest()
            healthbroker__v1__admin_broker_info_request__init(&request)
            return withUnsafeMutablePointer(to: &request) { brokerInfo in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_BROKER_INFO
                message.admin_broker_info = brokerInfo
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminWatchPrompts:
            var request = Healthbroker__V1__AdminWatchPromptsRequest()
            healthbroker__v1__admin_watch_prompts_request__init(&request)
            return withUnsafeMutablePointer(to: &request) { watchPrompts in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_WATCH_PROMPTS
                message.admin_watch_prompts = watchPrompts
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminAnswerPrompt(let promptID, let decisions):
            return withCAdminAnswerPromptRequest(promptID: promptID, decisions: decisions) { answerPrompt in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ANSWER_PROMPT
                message.admin_answer_prompt = answerPrompt
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminCancelPrompt(let promptID):
            var request = Healthbroker__V1__AdminCancelPromptRequest()
            healthbroker__v1__admin_cancel_prompt_request__init(&request)
            request.prompt_id = promptID
            return withUnsafeMutablePointer(to: &request) { cancelPrompt in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_CANCEL_PROMPT
                message.admin_cancel_prompt = cancelPrompt
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminListGrants(let appID):
            var request = Healthbroker__V1__AdminListGrantsRequest()
            healthbroker__v1__admin_list_grants_request__init(&request)
            return appID.withCString { appID in
                request.app_id = field(appID)
                return withUnsafeMutablePointer(to: &request) { listGrants in
                    message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_LIST_GRANTS
                    message.admin_list_grants = listGrants
                    return withUnsafeMutablePointer(to: &message, body)
                }
            }
        case .adminRevoke(let appID, let types):
            return withCAdminRevokeRequest(appID: appID, types: types) { revoke in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_REVOKE
                message.admin_revoke = revoke
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminListSources:
            var request = Healthbroker__V1__AdminListSourcesRequest()
            healthbroker__v1__admin_list_sources_request__init(&request)
            return withUnsafeMutablePointer(to: &request) { listSources in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_LIST_SOURCES
                message.admin_list_sources = listSources
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminSetCharacteristic(let value):
            return withCAdminSetCharacteristicRequest(value) { setCharacteristic in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_SET_CHARACTERISTIC
                message.admin_set_characteristic = setCharacteristic
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminExplain(let appID, let type):
            return withCAdminExplainRequest(appID: appID, type: type) { explain in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_EXPLAIN
                message.admin_explain = explain
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminImport(let appID, let samples):
            return withCAdminImportRequest(appID: appID, samples: samples) { adminImport in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_IMPORT
                message.admin_import = adminImport
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminExport(let type, let appID):
            return withCAdminExportRequest(type: type, appID: appID) { adminExport in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_EXPORT
                message.admin_export = adminExport
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .adminAccessLog(let appID, let limit):
            return withCAdminAccessLogRequest(appID: appID, limit: limit) { accessLog in
                message.request_case = HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ACCESS_LOG
                message.admin_access_log = accessLog
                return withUnsafeMutablePointer(to: &message, body)
            }
        case .unknown, .invalid:
            return withUnsafeMutablePointer(to: &message, body)
        }
    }

    /// The Swift form of an unpacked Call; a request case this build does not know is `.unknown`, a
    /// Save or AdminImport holding a sample without a value this build knows is `.invalid` (answered
    /// per call, not by closing the connection).
    static func call(_ message: UnsafePointer<Healthbroker__V1__Call>) throws(BrokerError) -> Call {
        let call = message.pointee
        let request: Request
        switch call.request_case {
        case HEALTHBROKER__V1__CALL__REQUEST_HELLO:
            request = .hello(helloRequest(try present(call.hello, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_PING:
            request = .ping(pingRequest(try present(call.ping, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_PING_STREAM:
            request = .pingStream(pingStreamRequest(try present(call.ping_stream, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_REQUEST_AUTHORIZATION:
            request = try requestAuthorizationRequest(try present(call.request_authorization, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_AUTHORIZATION_STATUS:
            let authorizationStatus = try present(call.authorization_status, in: "ClientFrame")
            request = .authorizationStatus(objectType(authorizationStatus.pointee.type))
        case HEALTHBROKER__V1__CALL__REQUEST_REQUEST_STATUS:
            request = try requestStatusRequest(try present(call.request_status, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_EARLIEST_AUTHORIZED_SAMPLE_DATE:
            let earliestAuthorized = try present(call.earliest_authorized_sample_date, in: "ClientFrame")
            request = .earliestAuthorizedSampleDate(try objectTypes(
                earliestAuthorized.pointee.types, count: earliestAuthorized.pointee.n_types, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_EARLIEST_PERMITTED_SAMPLE_DATE:
            request = .earliestPermittedSampleDate
        case HEALTHBROKER__V1__CALL__REQUEST_READ_CHARACTERISTICS:
            let readCharacteristics = try present(call.read_characteristics, in: "ClientFrame")
            request = .readCharacteristics(try objectTypes(
                readCharacteristics.pointee.types, count: readCharacteristics.pointee.n_types, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_SAVE:
            let save = try present(call.save, in: "ClientFrame")
            if let error = sampleValueError(save.pointee.samples, count: save.pointee.n_samples) {
                request = .invalid(InvalidRequest(.save([]), error: error))
            } else {
                request = .save(try samples(save.pointee.samples, count: save.pointee.n_samples, in: "ClientFrame"))
            }
        case HEALTHBROKER__V1__CALL__REQUEST_DELETE:
            request = try deleteRequest(try present(call.delete_, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_QUERY:
            request = .query(sampleQuery(try present(call.query, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_ANCHORED_QUERY:
            request = .anchoredQuery(anchoredQuery(try present(call.anchored_query, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_STATISTICS:
            request = .statistics(statisticsQuery(try present(call.statistics, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_OBSERVE:
            let observe = try present(call.observe, in: "ClientFrame")
            request = .observe(try objectTypes(observe.pointee.types, count: observe.pointee.n_types, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ADD_APP:
            request = .adminAddApp(appRegistration(try present(call.admin_add_app, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_LIST_APPS:
            request = .adminListApps
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_REMOVE_APP:
            let removeApp = try present(call.admin_remove_app, in: "ClientFrame")
            request = .adminRemoveApp(appID: string(removeApp.pointee.app_id), deleteData: removeApp.pointee.delete_data != 0)
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ROTATE_TOKEN:
            let rotateToken = try present(call.admin_rotate_token, in: "ClientFrame")
            request = .adminRotateToken(appID: string(rotateToken.pointee.app_id))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_BROKER_INFO:
            request = .adminBrokerInfo
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_WATCH_PROMPTS:
            request = .adminWatchPrompts
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ANSWER_PROMPT:
            request = try adminAnswerPromptRequest(try present(call.admin_answer_prompt, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_CANCEL_PROMPT:
            request = .adminCancelPrompt(promptID: try present(call.admin_cancel_prompt, in: "ClientFrame").pointee.prompt_id)
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_LIST_GRANTS:
            let listGrants = try present(call.admin_list_grants, in: "ClientFrame")
            request = .adminListGrants(appID: string(listGrants.pointee.app_id))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_REVOKE:
            request = try adminRevokeRequest(try present(call.admin_revoke, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_LIST_SOURCES:
            request = .adminListSources
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_SET_CHARACTERISTIC:
            request = .adminSetCharacteristic(
                adminSetCharacteristicRequest(try present(call.admin_set_characteristic, in: "ClientFrame")))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_EXPLAIN:
            let explain = try present(call.admin_explain, in: "ClientFrame")
            request = .adminExplain(appID: string(explain.pointee.app_id), type: objectType(explain.pointee.type))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_IMPORT:
            request = try adminImportRequest(try present(call.admin_import, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_EXPORT:
            request = adminExportRequest(try present(call.admin_export, in: "ClientFrame"))
        case HEALTHBROKER__V1__CALL__REQUEST_ADMIN_ACCESS_LOG:
            request = adminAccessLogRequest(try present(call.admin_access_log, in: "ClientFrame"))
        default:
            request = .unknown
        }
        return Call(
            callID: call.call_id, timeoutMicros: call.timeout_us, initialCredit: call.initial_credit,
            request: request)
    }

    /// `pointer`, which a set oneof case or required sub-message must have; else undecodable.
    @inline(__always)
    static func present<Message>(
        _ pointer: UnsafeMutablePointer<Message>?, in typeName: StaticString
    ) throws(BrokerError) -> UnsafePointer<Message> {
        guard let pointer else { throw undecodable(typeName) }
        return UnsafePointer(pointer)
    }
}
