import BrokerModel
import BrokerWire

/// The broker handles every rpc of the .proto: the generated `CallHandler` has one requirement per
/// rpc, so a new rpc does not compile until its handler exists, and its generated `dispatch` is the
/// one switch over the request's cases (no hand-written dispatch line).
///
/// A new handler takes its generated request directly (`handleAdminX(_ request: Proto.AdminXRequest,
/// context: CallContext)`, in its own file). The ones below adapt the older handlers, which take the
/// model values of the fields they need; Ping, PingStream and the calls answered at once take the
/// generated request already (Broker+Ping.swift, Broker+Calls.swift).
extension Broker: CallHandler {
    func handleRequestAuthorization(_ request: Proto.RequestAuthorizationRequest, context: CallContext) {
        handleRequestAuthorization(
            share: ObjectType.types(protoIdentifiers: request.shareTypes),
            read: ObjectType.types(protoIdentifiers: request.readTypes), context: context)
    }

    func handleReadCharacteristics(_ request: Proto.ReadCharacteristicsRequest, context: CallContext) {
        handleReadCharacteristics(ObjectType.types(protoIdentifiers: request.types), context: context)
    }

    func handleSave(_ request: Proto.SaveRequest, context: CallContext) {
        handleSave(Self.samples(request.samples), context: context)
    }

    func handleDelete(_ request: Proto.DeleteRequest, context: CallContext) {
        // An optional type travels as "" when nil.
        handleDelete(
            uuids: request.uuids, type: request.type.isEmpty ? nil : ObjectType(protoIdentifier: request.type),
            predicate: request.predicate.map { SamplePredicate(proto: $0) }, context: context)
    }

    func handleQuery(_ request: Proto.QueryRequest, context: CallContext) {
        handleQuery(SampleQuery(proto: request), context: context)
    }

    func handleAnchoredQuery(_ request: Proto.AnchoredQueryRequest, context: CallContext) {
        handleAnchoredQuery(AnchoredQuery(proto: request), context: context)
    }

    func handleStatistics(_ request: Proto.StatisticsRequest, context: CallContext) {
        handleStatistics(StatisticsQuery(proto: request), context: context)
    }

    func handleObserve(_ request: Proto.ObserveRequest, context: CallContext) {
        handleObserve(ObjectType.types(protoIdentifiers: request.types), context: context)
    }

    func handleAdminAddApp(_ request: Proto.AdminAddAppRequest, context: CallContext) {
        handleAddApp(AppRegistration(proto: request), context: context)
    }

    func handleAdminListApps(_ request: Proto.AdminListAppsRequest, context: CallContext) {
        handleListApps(context: context)
    }

    func handleAdminRemoveApp(_ request: Proto.AdminRemoveAppRequest, context: CallContext) {
        handleRemoveApp(request.appID, deleteData: request.deleteData, context: context)
    }

    func handleAdminRotateToken(_ request: Proto.AdminRotateTokenRequest, context: CallContext) {
        handleRotateToken(request.appID, context: context)
    }

    func handleAdminBrokerInfo(_ request: Proto.AdminBrokerInfoRequest, context: CallContext) {
        handleBrokerInfo(context: context)
    }

    func handleAdminWatchPrompts(_ request: Proto.AdminWatchPromptsRequest, context: CallContext) {
        handleWatchPrompts(context: context)
    }

    func handleAdminAnswerPrompt(_ request: Proto.AdminAnswerPromptRequest, context: CallContext) {
        handleAnswerPrompt(request.promptID, decisions: request.decisions.map { TypeDecision(proto: $0) }, context: context)
    }

    func handleAdminCancelPrompt(_ request: Proto.AdminCancelPromptRequest, context: CallContext) {
        handleCancelPrompt(request.promptID, context: context)
    }

    func handleAdminListGrants(_ request: Proto.AdminListGrantsRequest, context: CallContext) {
        handleListGrants(request.appID, context: context)
    }

    func handleAdminRevoke(_ request: Proto.AdminRevokeRequest, context: CallContext) {
        handleRevoke(request.appID, types: ObjectType.types(protoIdentifiers: request.types), context: context)
    }

    func handleAdminListSources(_ request: Proto.AdminListSourcesRequest, context: CallContext) {
        handleListSources(context: context)
    }

    func handleAdminSetCharacteristic(_ request: Proto.AdminSetCharacteristicRequest, context: CallContext) {
        handleSetCharacteristic(CharacteristicValue(proto: request), context: context)
    }

    func handleAdminExplain(_ request: Proto.AdminExplainRequest, context: CallContext) {
        handleExplain(request.appID, type: ObjectType(protoIdentifier: request.type), context: context)
    }

    func handleAdminSetGrant(_ request: Proto.AdminSetGrantRequest, context: CallContext) {
        handleSetGrant(request.appID, decision: TypeDecision(proto: request), context: context)
    }

    func handleAdminBackup(_ request: Proto.AdminBackupRequest, context: CallContext) {
        handleBackup(request.path, context: context)
    }

    func handleAdminStatistics(_ request: Proto.AdminStatisticsRequest, context: CallContext) {
        // A missing query reads as an empty one: its empty type is INVALID_ARGUMENT in the handler.
        handleAdminStatistics(StatisticsQuery(proto: request.query ?? Proto.StatisticsRequest()), context: context)
    }

    func handleAdminSetSourcePriority(_ request: Proto.AdminSetSourcePriorityRequest, context: CallContext) {
        handleSetSourcePriority(ObjectType(protoIdentifier: request.type), appIDs: request.appIDs, context: context)
    }

    func handleAdminListSourcePriority(_ request: Proto.AdminListSourcePriorityRequest, context: CallContext) {
        handleListSourcePriority(ObjectType(protoIdentifier: request.type), context: context)
    }

    func handleAdminImport(_ request: Proto.AdminImportRequest, context: CallContext) {
        handleImport(appID: request.appID, samples: Self.samples(request.samples), batchID: request.batchID, context: context)
    }

    func handleAdminExport(_ request: Proto.AdminExportRequest, context: CallContext) {
        // An optional type or app id travels as "" when nil.
        handleExport(
            type: request.type.isEmpty ? nil : ObjectType(protoIdentifier: request.type),
            appID: request.appID.isEmpty ? nil : request.appID, context: context)
    }

    func handleAdminAccessLog(_ request: Proto.AdminAccessLogRequest, context: CallContext) {
        handleAccessLog(appID: request.appID.isEmpty ? nil : request.appID, limit: request.limit, context: context)
    }
}
