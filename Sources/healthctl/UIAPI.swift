import BrokerModel
import BrokerSupport
import Foundation
import HealthBrokerClient

/// The page's JSON calls (`/s/SECRET/api/…`), each carried out with the admin API: the same powers
/// as `healthctl grants`, `revoke`, `sources` (and `sources priority`), `access-log` and `consent`, nothing more.
struct UIAPI: Sendable {
    let link: UIAdminLink
    /// Called after a decision changed here (on any thread): the hub tells the pages.
    let onChange: @Sendable () -> Void

    /// A reply: HTTP status and JSON body.
    struct Reply: Sendable {
        var status: Int
        var body: [UInt8]

        static func ok<T: Encodable>(_ value: T) -> Reply { Reply(status: 200, body: UIJSON.encode(value)) }
        static func error(_ status: Int, _ message: String) -> Reply {
            Reply(status: status, body: UIJSON.encode(UIJSON.ErrorReply(error: message)))
        }
    }

    /// Handles `route` (after `api/`).
    func handle(route: String, method: String, query: [String: String], body: [UInt8]) async -> Reply {
        do throws(BrokerError) {
            switch (method, route) {
            case ("GET", "apps"): return .ok(try await apps())
            case ("GET", "history"): return .ok(try await history(limit: Int(query["limit"] ?? "") ?? 500))
            case ("GET", "statistics"): return .ok(try await statistics(days: max(1, min(Int(query["days"] ?? "") ?? 30, 366))))
            case ("GET", "sources"): return .ok(try await sourceOrders())
            case ("POST", "priority"):
                guard let change = decode(UIPriorityChange.self, body) else { return .error(400, "malformed order") }
                return try await setSourceOrder(change)
            case ("POST", "answer"):
                guard let answer = decode(UIAnswer.self, body) else { return .error(400, "malformed answer") }
                return try await self.answer(answer)
            case ("POST", "cancel"):
                guard let cancel = decode(UICancel.self, body) else { return .error(400, "malformed cancel") }
                try await link.call { admin throws(BrokerError) in try await admin.cancelPrompt(cancel.prompt) }
                return .ok(UIJSON.OK())
            case ("POST", "grant"):
                guard let change = decode(UIGrantChange.self, body) else { return .error(400, "malformed change") }
                return try await grant(change)
            case ("POST", "forget"):
                guard let forget = decode(UIForget.self, body), let type = TypeArgument.lookUp(forget.type) else {
                    return .error(400, "malformed forget")
                }
                _ = try await link.call { admin throws(BrokerError) in try await admin.revoke(appID: forget.app, types: [type]) }
                onChange()
                return .ok(UIJSON.OK())
            default:
                return .error(404, "no such call: \(method) \(route)")
            }
        } catch {
            switch error.code {
            case .notFound: return .error(409, "gone: answered elsewhere, withdrawn or removed (\(error.message))")
            case .invalidArgument, .failedPrecondition: return .error(400, error.message)
            case .unavailable: return .error(503, "the broker is not reachable: \(error.message)")
            default: return .error(500, error.description)
            }
        }
    }

    private func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) -> T? {
        try? JSONDecoder().decode(type, from: Data(body))
    }

    private func answer(_ answer: UIAnswer) async throws(BrokerError) -> Reply {
        let now = Microseconds.now()
        var decisions: [TypeDecision] = []
        for decision in answer.decisions {
            do {
                decisions.append(try decision.typeDecision(nowMicros: now))
            } catch {
                return .error(400, error.message)
            }
        }
        let recorded = decisions
        try await link.call { admin throws(BrokerError) in try await admin.answerPrompt(answer.prompt, decisions: recorded) }
        onChange()
        return .ok(UIJSON.OK())
    }

    private func grant(_ change: UIGrantChange) async throws(BrokerError) -> Reply {
        let decision: TypeDecision
        do {
            decision = try change.decision.typeDecision(nowMicros: Microseconds.now())
        } catch {
            return .error(400, error.message)
        }
        let recorded = try await link.call { admin throws(BrokerError) in
            try await admin.setGrant(appID: change.app, type: decision.type, share: decision.share, read: decision.read)
        }
        onChange()
        return .ok(UIJSON.GrantInfo(recorded))
    }

    /// Every registered app and every app that asked or wrote samples (even removed), with its decisions.
    private func apps() async throws(BrokerError) -> UIJSON.AppsReply {
        let (registered, sources) = try await link.call { admin throws(BrokerError) in
            (try await admin.listApps(), try await admin.sources())
        }
        var entries: [String: UIJSON.AppEntry] = [:]
        for app in registered {
            entries[app.appID] = UIJSON.AppEntry(appID: app.appID, name: app.name, registered: true, asked: false, grants: [])
        }
        for source in sources {
            var entry = entries[source.appID]
                ?? UIJSON.AppEntry(appID: source.appID, name: source.appName, registered: source.isRegistered, asked: false, grants: [])
            entry.asked = source.everAsked
            entry.firstAsked = source.everAsked ? source.firstRequestMicros / 1_000 : nil
            entry.lastAsked = source.everAsked ? source.lastRequestMicros / 1_000 : nil
            entry.sampleCount = source.sampleCount
            entries[source.appID] = entry
        }
        for (appID, entry) in entries where entry.registered {
            let grants = try await link.call { admin throws(BrokerError) in try await admin.grants(for: appID) }
            entries[appID]?.grants = grants.sorted { $0.type.catalogueIndex < $1.type.catalogueIndex }.map(UIJSON.GrantInfo.init)
        }
        let apps = entries.values.sorted { ($0.name.lowercased(), $0.appID) < ($1.name.lowercased(), $1.appID) }
        return UIJSON.AppsReply(apps: apps, types: TypeCatalogue.all.map { UIJSON.TypeInfo($0.type) })
    }

    /// The newest access-log rows, newest first.
    private func history(limit: Int) async throws(BrokerError) -> UIJSON.HistoryReply {
        let (entries, registered, sources) = try await link.call { admin throws(BrokerError) in
            (try await admin.accessLog(limit: max(1, min(limit, 5_000))), try await admin.listApps(), try await admin.sources())
        }
        var names: [String: String] = [:]
        for source in sources { names[source.appID] = source.appName }
        for app in registered { names[app.appID] = app.name }
        let rows = entries.map { entry in
            UIJSON.HistoryRow(
                at: entry.atMicros / 1_000, appID: entry.appID, appName: names[entry.appID] ?? entry.appID,
                operation: entry.operation, method: entry.method.isEmpty ? nil : entry.method, type: UIJSON.TypeInfo(entry.type), count: entry.sampleCount)
        }
        return UIJSON.HistoryReply(rows: rows.sorted { $0.at > $1.at })
    }
}
