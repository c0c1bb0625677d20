import BrokerModel
import BrokerSupport

/// The human-readable output of each command, as pure functions of what the broker returned.
enum TextOutput {
    /// Why a token is being shown.
    enum TokenEvent {
        /// `apps add` registered the app.
        case registered
        /// `apps rotate-token` replaced its token.
        case rotated
    }

    /// The widest a usage text is shown in the app table; `--json` has the full text.
    static let usageColumnWidth = 32

    /// The line saying the token will not be shown again.
    static let tokenWarning = "This token is not shown again: hand it to the app now (e.g. as HEALTHBROKER_APP_TOKEN)."

    /// The app table, or a friendly line when nothing is registered.
    static func appTable(_ apps: [AppInfo], time: TimeText = .universal) -> String {
        guard !apps.isEmpty else {
            return "no apps registered (add one with 'healthctl apps add APP_ID --name NAME')"
        }
        let rows = apps.map { app in
            [
                app.appID, app.name,
                orDash(TableFormatter.clip(app.readUsage, to: usageColumnWidth)),
                orDash(TableFormatter.clip(app.shareUsage, to: usageColumnWidth)),
                app.pinnedUID.map(String.init) ?? "-",
                time.instant(app.createdMicros),
            ]
        }
        return TableFormatter.render(
            header: ["APP ID", "NAME", "READ USAGE", "SHARE USAGE", "UID", "CREATED \(time.headerSuffix)"], rows: rows)
    }

    /// An app and its freshly issued token, with the warning that it is shown only once.
    static func credentials(_ credentials: AppCredentials, event: TokenEvent, time: TimeText = .universal) -> String {
        let app = credentials.app
        let heading: String
        switch event {
        case .registered: heading = "registered \(app.appID)"
        case .rotated: heading = "new token for \(app.appID) (the old token no longer opens sessions)"
        }
        let details = TableFormatter.render(rows: [
            ["  name", app.name],
            ["  read usage", orDash(app.readUsage)],
            ["  share usage", orDash(app.shareUsage)],
            ["  uid", app.pinnedUID.map(String.init) ?? "any"],
            ["  created", time.instant(app.createdMicros)],
            ["  token issued", time.instant(app.tokenRotatedMicros)],
        ])
        return [heading, details, "", "token: \(credentials.token)", tokenWarning].joined(separator: "\n")
    }

    /// `removed APP (N connections closed)`.
    static func removal(appID: String, connectionsClosed: UInt32) -> String {
        "removed \(appID) (\(connectionsClosed) connection\(connectionsClosed == 1 ? "" : "s") closed)"
    }

    /// The broker's status as aligned `label  value` lines, then one line per open prompt.
    static func status(_ info: BrokerInfo, now: Int64 = Microseconds.now(), time: TimeText = .universal) -> String {
        let connections = Int(info.appConnections) + Int(info.adminConnections)
        let table = TableFormatter.render(rows: [
            ["broker version", info.brokerVersion],
            ["started", time.instant(info.startedMicros)],
            ["uptime", UptimeFormatter.string(micros: info.brokerTimeMicros - info.startedMicros)],
            ["connections", "\(connections) (\(info.appConnections) app, \(info.adminConnections) admin)"],
            ["calls served", String(info.callsServed)],
            ["consent agents", String(info.consentAgents)],
            ["open prompts", String(info.openPrompts)],
            ["data directory", info.dataDirectory],
            ["durability", info.powerLossDurable
                ? "power loss (results wait for a WAL fsync; \(info.walFsyncs) so far)"
                : "killed process (--synchronous-full adds power loss)"],
        ])
        return ([table] + info.prompts.map { openPrompt($0, now: now) }).joined(separator: "\n")
    }

    /// `  prompt 7: com.example.steps (Steps) asks to share bodyMass and read stepCount; waiting 3 min, answer by 14:32 CET (2 min left)`:
    /// an open prompt in `status`, its times in local time.
    static func openPrompt(_ prompt: Prompt, now: Int64) -> String {
        var asks: [String] = []
        if !prompt.shareTypes.isEmpty { asks.append("share \(DecisionText.aliases(prompt.shareTypes))") }
        if !prompt.readTypes.isEmpty { asks.append("read \(DecisionText.aliases(prompt.readTypes))") }
        let waits = prompt.deadlineMicros > 0 ? "answer by \(PromptText.deadline(prompt, now: now))" : "no time limit"
        return "  prompt \(prompt.id): \(prompt.appID) (\(TableFormatter.singleLine(prompt.appName))) asks to \(asks.joined(separator: " and ")); "
            + "waiting \(PromptText.age(now - prompt.createdMicros)), \(waits)"
    }

    private static func orDash(_ text: String) -> String {
        text.isEmpty ? "-" : text
    }
}
