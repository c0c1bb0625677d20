import BrokerModel

// Request, a Call's `request` oneof, between the model and the .proto.
extension Request {
    /// The request a decoded Call's request case holds: `.unknown` when no case this build knows is
    /// set; `.invalid` for a Save or AdminImport with a sample without a value kind this build knows
    /// (answered per call, not by closing the connection).
    init(proto: Proto.Call.Request?) {
        guard let proto else {
            self = .unknown
            return
        }
        switch proto {
        case .hello(let hello):
            self = .hello(HelloRequest(proto: hello))
        case .ping(let ping):
            self = .ping(PingRequest(proto: ping))
        case .pingStream(let pingStream):
            self = .pingStream(PingStreamRequest(proto: pingStream))
        case .requestAuthorization(let request):
            self = .requestAuthorization(
                share: ObjectType.types(protoIdentifiers: request.shareTypes),
                read: ObjectType.types(protoIdentifiers: request.readTypes))
        case .authorizationStatus(let request):
            self = .authorizationStatus(ObjectType(protoIdentifier: request.type))
        case .requestStatus(let request):
            self = .requestStatus(
                share: ObjectType.types(protoIdentifiers: request.shareTypes),
                read: ObjectType.types(protoIdentifiers: request.readTypes))
        case .earliestAuthorizedSampleDate(let request):
            self = .earliestAuthorizedSampleDate(ObjectType.types(protoIdentifiers: request.types))
        case .earliestPermittedSampleDate:
            self = .earliestPermittedSampleDate
        case .readCharacteristics(let request):
            self = .readCharacteristics(ObjectType.types(protoIdentifiers: request.types))
        case .save(let request):
            self = Self.checkedSamples(request.samples, method: .save) { .save($0) }
        case .delete(let request):
            self = .delete(
                uuids: request.uuids,
                type: request.type.isEmpty ? nil : ObjectType(protoIdentifier: request.type),
                predicate: request.predicate.map { SamplePredicate(proto: $0) })
        case .query(let request):
            self = .query(SampleQuery(proto: request))
        case .anchoredQuery(let request):
            self = .anchoredQuery(AnchoredQuery(proto: request))
        case .statistics(let request):
            self = .statistics(StatisticsQuery(proto: request))
        case .observe(let request):
            self = .observe(ObjectType.types(protoIdentifiers: request.types))
        case .adminAddApp(let request):
            self = .adminAddApp(AppRegistration(proto: request))
        case .adminListApps:
            self = .adminListApps
        case .adminRemoveApp(let request):
            self = .adminRemoveApp(appID: request.appID, deleteData: request.deleteData)
        case .adminRotateToken(let request):
            self = .adminRotateToken(appID: request.appID)
        case .adminBrokerInfo:
            self = .adminBrokerInfo
        case .adminWatchPrompts:
            self = .adminWatchPrompts
        case .adminAnswerPrompt(let request):
            var decisions: [TypeDecision] = []
            decisions.reserveCapacity(request.decisions.count)
            for decision in request.decisions { decisions.append(TypeDecision(proto: decision)) }
            self = .adminAnswerPrompt(promptID: request.promptID, decisions: decisions)
        case .adminCancelPrompt(let request):
            self = .adminCancelPrompt(promptID: request.promptID)
        case .adminListGrants(let request):
            self = .adminListGrants(appID: request.appID)
        case .adminRevoke(let request):
            self = .adminRevoke(appID: request.appID, types: ObjectType.types(protoIdentifiers: request.types))
        case .adminListSources:
            self = .adminListSources
        case .adminSetCharacteristic(let request):
            self = .adminSetCharacteristic(CharacteristicValue(proto: request))
        case .adminExplain(let request):
            self = .adminExplain(appID: request.appID, type: ObjectType(protoIdentifier: request.type))
        case .adminSetGrant(let request):
            self = .adminSetGrant(appID: request.appID, decision: TypeDecision(proto: request))
        case .adminBackup(let request):
            self = .adminBackup(path: request.path)
        case .adminStatistics(let request):
            // A missing query reads as an empty one: its empty type is INVALID_ARGUMENT in the handler.
            self = .adminStatistics(StatisticsQuery(proto: request.query ?? Proto.StatisticsRequest()))
        case .adminSetSourcePriority(let request):
            self = .adminSetSourcePriority(type: ObjectType(protoIdentifier: request.type), appIDs: request.appIDs)
        case .adminListSourcePriority(let request):
            self = .adminListSourcePriority(type: ObjectType(protoIdentifier: request.type))
        case .adminImport(let request):
            self = Self.checkedSamples(request.samples, method: .adminImport) {
                .adminImport(appID: request.appID, samples: $0, batchID: request.batchID)
            }
        case .adminExport(let request):
            // An optional type or app id travels as "" when nil.
            self = .adminExport(
                type: request.type.isEmpty ? nil : ObjectType(protoIdentifier: request.type),
                appID: request.appID.isEmpty ? nil : request.appID)
        case .adminAccessLog(let request):
            self = .adminAccessLog(appID: request.appID.isEmpty ? nil : request.appID, limit: request.limit)
        }
    }

    /// `make` of the samples of a Save or AdminImport, or `.invalid` naming the first sample
    /// without a value kind this build knows.
    @inline(__always)
    private static func checkedSamples(
        _ samples: [Proto.Sample], method: ProtoMethod, _ make: ([Sample]) -> Request
    ) -> Request {
        if let error = Sample.valueError(in: samples) { return .invalid(InvalidRequest(method: method, error: error)) }
        // Every sample has a value, so none throws.
        guard let decoded = try? Sample.samples(proto: samples) else {
            preconditionFailure("a sample with a value did not map")
        }
        return make(decoded)
    }

    /// The request as a Call's request case; nil for `.unknown` and `.invalid` (which only decoding
    /// makes): encoded, they are a call with no request case.
    var proto: Proto.Call.Request? {
        switch self {
        case .hello(let request):
            return .hello(request.proto)
        case .ping(let request):
            return .ping(request.proto)
        case .pingStream(let request):
            return .pingStream(request.proto)
        case .requestAuthorization(let share, let read):
            var message = Proto.RequestAuthorizationRequest()
            message.shareTypes = ObjectType.protoIdentifiers(share)
            message.readTypes = ObjectType.protoIdentifiers(read)
            return .requestAuthorization(message)
        case .authorizationStatus(let type):
            var message = Proto.AuthorizationStatusRequest()
            message.type = type.identifier
            return .authorizationStatus(message)
        case .requestStatus(let share, let read):
            var message = Proto.RequestStatusRequest()
            message.shareTypes = ObjectType.protoIdentifiers(share)
            message.readTypes = ObjectType.protoIdentifiers(read)
            return .requestStatus(message)
        case .earliestAuthorizedSampleDate(let types):
            var message = Proto.EarliestAuthorizedSampleDateRequest()
            message.types = ObjectType.protoIdentifiers(types)
            return .earliestAuthorizedSampleDate(message)
        case .earliestPermittedSampleDate:
            return .earliestPermittedSampleDate(Proto.EarliestPermittedSampleDateRequest())
        case .readCharacteristics(let types):
            var message = Proto.ReadCharacteristicsRequest()
            message.types = ObjectType.protoIdentifiers(types)
            return .readCharacteristics(message)
        case .save(let samples):
            var message = Proto.SaveRequest()
            message.samples = Sample.proto(samples)
            return .save(message)
        case .delete(let uuids, let type, let predicate):
            var message = Proto.DeleteRequest()
            message.uuids = uuids
            message.type = type?.identifier ?? ""
            message.predicate = predicate?.proto
            return .delete(message)
        case .query(let query):
            return .query(query.proto)
        case .anchoredQuery(let query):
            return .anchoredQuery(query.proto)
        case .statistics(let query):
            return .statistics(query.proto)
        case .observe(let types):
            var message = Proto.ObserveRequest()
            message.types = ObjectType.protoIdentifiers(types)
            return .observe(message)
        case .adminAddApp(let registration):
            return .adminAddApp(registration.proto)
        case .adminListApps:
            return .adminListApps(Proto.AdminListAppsRequest())
        case .adminRemoveApp(let appID, let deleteData):
            var message = Proto.AdminRemoveAppRequest()
            message.appID = appID
            message.deleteData = deleteData
            return .adminRemoveApp(message)
        case .adminRotateToken(let appID):
            var message = Proto.AdminRotateTokenRequest()
            message.appID = appID
            return .adminRotateToken(message)
        case .adminBrokerInfo:
            return .adminBrokerInfo(Proto.AdminBrokerInfoRequest())
        case .adminWatchPrompts:
            return .adminWatchPrompts(Proto.AdminWatchPromptsRequest())
        case .adminAnswerPrompt(let promptID, let decisions):
            var message = Proto.AdminAnswerPromptRequest()
            message.promptID = promptID
            message.decisions.reserveCapacity(decisions.count)
            for decision in decisions { message.decisions.append(decision.proto) }
            return .adminAnswerPrompt(message)
        case .adminCancelPrompt(let promptID):
            var message = Proto.AdminCancelPromptRequest()
            message.promptID = promptID
            return .adminCancelPrompt(message)
        case .adminListGrants(let appID):
            var message = Proto.AdminListGrantsRequest()
            message.appID = appID
            return .adminListGrants(message)
        case .adminRevoke(let appID, let types):
            var message = Proto.AdminRevokeRequest()
            message.appID = appID
            message.types = ObjectType.protoIdentifiers(types)
            return .adminRevoke(message)
        case .adminListSources:
            return .adminListSources(Proto.AdminListSourcesRequest())
        case .adminSetCharacteristic(let value):
            return .adminSetCharacteristic(value.setRequestProto)
        case .adminExplain(let appID, let type):
            var message = Proto.AdminExplainRequest()
            message.appID = appID
            message.type = type.identifier
            return .adminExplain(message)
        case .adminSetGrant(let appID, let decision):
            return .adminSetGrant(decision.setGrantRequestProto(appID: appID))
        case .adminBackup(let path):
            var message = Proto.AdminBackupRequest()
            message.path = path
            return .adminBackup(message)
        case .adminStatistics(let query):
            var message = Proto.AdminStatisticsRequest()
            message.query = query.proto
            return .adminStatistics(message)
        case .adminSetSourcePriority(let type, let appIDs):
            var message = Proto.AdminSetSourcePriorityRequest()
            message.type = type.identifier
            message.appIDs = appIDs
            return .adminSetSourcePriority(message)
        case .adminListSourcePriority(let type):
            var message = Proto.AdminListSourcePriorityRequest()
            message.type = type.identifier
            return .adminListSourcePriority(message)
        case .adminImport(let appID, let samples, let batchID):
            var message = Proto.AdminImportRequest()
            message.appID = appID
            message.samples = Sample.proto(samples)
            message.batchID = batchID
            return .adminImport(message)
        case .adminExport(let type, let appID):
            var message = Proto.AdminExportRequest()
            message.type = type?.identifier ?? ""
            message.appID = appID ?? ""
            return .adminExport(message)
        case .adminAccessLog(let appID, let limit):
            var message = Proto.AdminAccessLogRequest()
            message.appID = appID ?? ""
            message.limit = limit
            return .adminAccessLog(message)
        case .unknown, .invalid:
            return nil
        }
    }
}
