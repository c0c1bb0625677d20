import BrokerModel
import BrokerSupport
import BrokerCrypto
import BrokerStore
import BrokerTransport
import BrokerWire

extension Broker {
    /// The longest app id accepted.
    static let maxAppIDLength = 128
    /// The longest name or usage text accepted.
    static let maxTextLength = 4_096

    /// Registers an app, storing only a hash of its new token; the token goes back once.
    func handleAddApp(_ registration: AppRegistration, context: CallContext) {
        if let error = Self.validate(registration) {
            finish(context, error: error)
            return
        }
        let token = AppToken.generate()
        let hash = AppToken.hash(token)
        worker.submit({ store throws(BrokerError) in
            try store.addApp(registration, tokenHash: hash, now: Microseconds.now())
        }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let info):
                self.apps[info.appID] = StoredApp(info: info, tokenHash: hash)
                self.logger.info("app registered", ["app_id": info.appID])
                self.reply(context, .adminAddApp(.with { $0.app = info.proto; $0.appToken = token }))
            case .failure(let error):
                self.finish(context, error: error)
            }
        }
    }

    /// Lists the registry from memory.
    func handleListApps(context: CallContext) {
        let list = apps.values.map(\.info).sorted { $0.appID < $1.appID }
        reply(context, .adminListApps(.with { $0.apps = list.map(\.proto) }))
    }

    /// Removes an app and closes its open connections; with `deleteData` its samples are deleted first.
    func handleRemoveApp(_ appID: String, deleteData: Bool, context: CallContext) {
        guard apps[appID] != nil else {
            finish(context, error: .notFound("no app \(appID)"))
            return
        }
        let sampleTypes = TypeCatalogue.all.filter { !$0.isCharacteristic }.map(\.type)
        worker.submit({ store throws(BrokerError) in
            // Deleting data goes type by type; if it fails part-way the app stays and the call can be retried.
            if deleteData {
                for type in sampleTypes {
                    _ = try store.deleteSamples(type: type, predicate: .all, appID: appID, now: Microseconds.now())
                }
            }
            return try store.removeApp(appID)
        }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success:
                self.apps[appID] = nil
                self.grants[appID] = nil
                var closed: UInt32 = 0
                for session in self.sessions.values where session.kind == .app && session.appID == appID {
                    session.connection.close(with: .unauthenticated("app \(appID) was removed"))
                    closed += 1
                }
                self.logger.info("app removed", ["app_id": appID, "connections_closed": closed])
                self.reply(context, .adminRemoveApp(.with { $0.connectionsClosed = closed }))
            case .failure(let error):
                self.finish(context, error: error)
            }
        }
    }

    /// Issues a new token for an app; the old one stops working for new sessions.
    func handleRotateToken(_ appID: String, context: CallContext) {
        guard apps[appID] != nil else {
            finish(context, error: .notFound("no app \(appID)"))
            return
        }
        let token = AppToken.generate()
        let hash = AppToken.hash(token)
        worker.submit({ store throws(BrokerError) in
            try store.replaceTokenHash(appID: appID, hash: hash, now: Microseconds.now())
        }) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let info?):
                self.apps[appID] = StoredApp(info: info, tokenHash: hash)
                self.logger.info("app token rotated", ["app_id": appID])
                self.reply(context, .adminRotateToken(.with { $0.app = info.proto; $0.appToken = token }))
            case .success(nil):
                self.finish(context, error: .notFound("no app \(appID)"))
            case .failure(let error):
                self.finish(context, error: error)
            }
        }
    }

    /// Reports the broker's status.
    func handleBrokerInfo(context: CallContext) {
        let appCount = sessions.values.filter { $0.kind == .app }.count
        var info = BrokerInfo(
            brokerVersion: BrokerVersion.broker,
            startedMicros: startedMicros,
            appConnections: UInt32(appCount),
            adminConnections: UInt32(sessions.count - appCount),
            callsServed: callsServed,
            dataDirectory: configuration.dataDirectory,
            brokerTimeMicros: Microseconds.now()
        )
        info.framesSent = loop.framesSent
        info.writeCalls = loop.writeCalls
        info.powerLossDurable = configuration.durableAgainstPowerLoss
        info.walFsyncs = UInt64(worker.walFsyncs)
        info.consentAgents = UInt32(agents.count)
        // Only prompts still waiting for a person: an answered one leaves `openPrompts` before it commits.
        info.openPrompts = UInt32(openPrompts.count)
        info.prompts = openPrompts.values.compactMap(\.prompt).sorted { $0.id < $1.id }
        reply(context, .adminBrokerInfo(info.proto))
    }

    static func validate(_ registration: AppRegistration) -> BrokerError? {
        let id = registration.appID
        guard !id.isEmpty, id.utf8.count <= maxAppIDLength else {
            return .invalidArgument("app_id must be 1 to \(maxAppIDLength) bytes")
        }
        let allowed = id.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) || scalar == "." || scalar == "-" || scalar == "_"
        }
        guard allowed else {
            return .invalidArgument("app_id may hold only ASCII letters, digits, '.', '-' and '_'")
        }
        guard !registration.name.isEmpty, registration.name.utf8.count <= maxTextLength else {
            return .invalidArgument("name must be 1 to \(maxTextLength) bytes")
        }
        guard registration.readUsage.utf8.count <= maxTextLength else {
            return .invalidArgument("read_usage must be at most \(maxTextLength) bytes")
        }
        guard registration.shareUsage.utf8.count <= maxTextLength else {
            return .invalidArgument("share_usage must be at most \(maxTextLength) bytes")
        }
        return nil
    }
}
