public import BrokerModel

// The app registry on the admin socket (AppInfo, AppRegistration, AppCredentials, BrokerInfo)
// between the model and the .proto.
extension AppInfo {
    /// The app a decoded AppInfo describes; `has_pinned_uid` false reads as no pinned uid.
    package init(proto: Proto.AppInfo) {
        self.init(
            appID: proto.appID, name: proto.name, readUsage: proto.readUsage, shareUsage: proto.shareUsage,
            pinnedUID: proto.hasPinnedUid ? proto.pinnedUid : nil,
            createdMicros: proto.createdMicros, tokenRotatedMicros: proto.tokenRotatedMicros)
    }

    /// The app as a .proto message.
    package var proto: Proto.AppInfo {
        var message = Proto.AppInfo()
        message.appID = appID
        message.name = name
        message.readUsage = readUsage
        message.shareUsage = shareUsage
        message.hasPinnedUid = pinnedUID != nil
        message.pinnedUid = pinnedUID ?? 0
        message.createdMicros = createdMicros
        message.tokenRotatedMicros = tokenRotatedMicros
        return message
    }
}

extension AppRegistration {
    /// The registration a decoded AdminAddAppRequest holds.
    public init(proto: Proto.AdminAddAppRequest) {
        self.init(
            appID: proto.appID, name: proto.name, readUsage: proto.readUsage, shareUsage: proto.shareUsage,
            pinnedUID: proto.hasPinnedUid ? proto.pinnedUid : nil)
    }

    /// The registration as a .proto message.
    package var proto: Proto.AdminAddAppRequest {
        var message = Proto.AdminAddAppRequest()
        message.appID = appID
        message.name = name
        message.readUsage = readUsage
        message.shareUsage = shareUsage
        message.hasPinnedUid = pinnedUID != nil
        message.pinnedUid = pinnedUID ?? 0
        return message
    }
}

extension AppCredentials {
    /// The credentials an AdminAddApp or AdminRotateToken response holds; throws when it has no app.
    package init(proto app: Proto.AppInfo?, token: String) throws(BrokerError) {
        guard let app else { throw .invalidArgument("app: missing") }
        self.init(app: AppInfo(proto: app), token: token)
    }
}

extension BrokerInfo {
    /// The status a decoded AdminBrokerInfoResponse holds.
    package init(proto: Proto.AdminBrokerInfoResponse) {
        self.init(
            brokerVersion: proto.brokerVersion, startedMicros: proto.startedMicros,
            appConnections: proto.appConnections, adminConnections: proto.adminConnections,
            callsServed: proto.callsServed, dataDirectory: proto.dataDir, brokerTimeMicros: proto.brokerTimeMicros)
        framesSent = proto.framesSent
        writeCalls = proto.writeCalls
        powerLossDurable = proto.powerLossDurable
        walFsyncs = proto.walFsyncs
        consentAgents = proto.consentAgents
        openPrompts = proto.openPrompts
        prompts = proto.prompts.map(Prompt.init(proto:))
    }

    /// The status as a .proto message.
    package var proto: Proto.AdminBrokerInfoResponse {
        var message = Proto.AdminBrokerInfoResponse()
        message.brokerVersion = brokerVersion
        message.startedMicros = startedMicros
        message.appConnections = appConnections
        message.adminConnections = adminConnections
        message.callsServed = callsServed
        message.dataDir = dataDirectory
        message.brokerTimeMicros = brokerTimeMicros
        message.framesSent = framesSent
        message.writeCalls = writeCalls
        message.powerLossDurable = powerLossDurable
        message.walFsyncs = walFsyncs
        message.consentAgents = consentAgents
        message.openPrompts = openPrompts
        message.prompts = prompts.map(\.proto)
        return message
    }
}
