import BrokerModel
import BrokerPolicy

extension TextOutput {
    /// The grants of one app: TYPE, SHARE, READ, LIMITED FROM, DECIDED, BY (instants as `time`
    /// writes them); a friendly line when there are none.
    static func grantTable(appID: String, grants: [Grant], time: TimeText = .universal) -> String {
        guard !grants.isEmpty else {
            return "no grants recorded for \(appID) (it never asked, or its grants were revoked)"
        }
        let rows = grants.map { grant in
            [
                grant.type.identifier, DecisionText.share(grant.share), DecisionText.read(grant.read),
                DecisionText.limitedFrom(grant.read, time: time), time.instant(grant.decidedMicros), grant.decidedBy,
            ]
        }
        return TableFormatter.render(header: ["TYPE", "SHARE", "READ", "LIMITED FROM", "DECIDED \(time.headerSuffix)", "BY"], rows: rows)
    }

    /// One type across apps: APP ID, SHARE, READ, LIMITED FROM, DECIDED, BY; a friendly line when no app has one.
    static func typeGrantTable(type: ObjectType, rows: [(appID: String, grant: Grant)], time: TimeText = .universal) -> String {
        guard !rows.isEmpty else {
            return "no app has a grant for \(type.identifier) (none asked for it, or its grants were revoked)"
        }
        let cells = rows.map { row in
            [
                row.appID, DecisionText.share(row.grant.share), DecisionText.read(row.grant.read),
                DecisionText.limitedFrom(row.grant.read, time: time), time.instant(row.grant.decidedMicros), row.grant.decidedBy,
            ]
        }
        return TableFormatter.render(header: ["APP ID", "SHARE", "READ", "LIMITED FROM", "DECIDED \(time.headerSuffix)", "BY"], rows: cells)
    }

    /// What `grants turn-off` changed: a line saying so, then the changed grants as `grants --type` shows them.
    static func turnedOff(type: ObjectType, rows: [(appID: String, grant: Grant)], time: TimeText = .universal) -> String {
        let alias = TypeArgument.alias(of: type)
        guard !rows.isEmpty else { return "no app may read or write \(alias): nothing to turn off" }
        let apps = rows.count == 1 ? "1 app" : "\(rows.count) apps"
        return "turned off \(alias) for \(apps) (each sees it on its next call):\n" + typeGrantTable(type: type, rows: rows, time: time)
    }

    /// `set stepCount for APP: share allowed, read limited from 2026-01-31 (decided by admin; the app sees it on its next call)`;
    /// the date as the person gave it (a local midnight shows as its day).
    static func grantSet(appID: String, grant: Grant, time: TimeText = .local) -> String {
        var parts: [String] = []
        if let share = grant.share { parts.append("share \(DecisionText.share(share))") }
        if let read = grant.read { parts.append("read \(DecisionText.readPhrase(read, instant: time.dateOrInstant))") }
        let alias = TypeArgument.alias(of: grant.type)
        return "set \(alias) for \(appID): \(parts.joined(separator: ", ")) "
            + "(decided by \(grant.decidedBy); the app sees it on its next call)"
    }

    /// `revoked 2 grants of APP (stepCount, heartRate)`, saying the types may be asked again.
    static func revocation(appID: String, types: [ObjectType], revoked: UInt32) -> String {
        let noun = revoked == 1 ? "grant" : "grants"
        let scope = types.isEmpty ? "" : " among \(DecisionText.aliases(types))"
        let tail = revoked == 0 ? "" : "; the app will be asked again next time it requests them"
        return "revoked \(revoked) \(noun) of \(appID)\(scope)\(tail)"
    }

    /// A type's source order, one numbered line per source, and how unlisted sources rank.
    static func sourcePriority(type: ObjectType, appIDs: [String]) -> String {
        let name = DecisionText.aliases([type])
        guard !appIDs.isEmpty else {
            return "no source order set for \(name): sources rank by app id"
        }
        var lines = ["source order for \(name) (best first):"]
        for (index, appID) in appIDs.enumerated() { lines.append("  \(index + 1). \(appID)") }
        lines.append("other sources follow, by app id")
        return lines.joined(separator: "\n")
    }

    /// Every app that ever asked or has samples stored: APP ID, NAME, SAMPLES, FIRST REQUEST,
    /// LAST REQUEST ("never asked" for an app that only wrote), REGISTERED. With `type`, SAMPLES
    /// counts that type's.
    static func sourceTable(_ sources: [Source], type: ObjectType? = nil, time: TimeText = .universal) -> String {
        guard !sources.isEmpty else {
            if let type { return "no app has stored samples of \(DecisionText.aliases([type]))" }
            return "no app has asked for authorization or stored samples yet"
        }
        let rows = sources.map { source in
            [
                source.appID, source.appName, String(type.map { source.sampleCounts[$0, default: 0] } ?? source.sampleCount),
                source.everAsked ? time.instant(source.firstRequestMicros) : "never asked",
                source.everAsked ? time.instant(source.lastRequestMicros) : "-",
                source.isRegistered ? "yes" : source.everAsked ? "no (removed)" : "no",
            ]
        }
        return TableFormatter.render(
            header: ["APP ID", "NAME", type.map { "SAMPLES (\(DecisionText.aliases([$0])))" } ?? "SAMPLES",
                     "FIRST REQUEST \(time.headerSuffix)", "LAST REQUEST \(time.headerSuffix)", "REGISTERED"], rows: rows)
    }

    /// The type catalogue: IDENTIFIER, ALIAS, KIND, SHAREABLE.
    static func typeTable(_ descriptors: [TypeDescriptor]) -> String {
        let rows = descriptors.map { descriptor in
            [
                descriptor.type.identifier, TypeArgument.alias(of: descriptor.type), descriptor.kind.rawValue,
                descriptor.canShare ? "yes" : "no (read only)", descriptor.canonicalUnit.isEmpty ? "-" : descriptor.canonicalUnit,
                descriptor.group.displayName, descriptor.displayName,
            ]
        }
        return TableFormatter.render(header: ["IDENTIFIER", "ALIAS", "KIND", "SHAREABLE", "UNIT", "GROUP", "NAME"], rows: rows)
    }

    /// The broker's explanation paragraph, then the grant's fields as aligned lines.
    static func explanation(appID: String, type: ObjectType, _ explanation: Explanation, time: TimeText = .universal) -> String {
        var rows: [[String]] = [["  app", appID], ["  type", "\(type.identifier) (\(TypeArgument.alias(of: type)))"]]
        if let grant = explanation.grant {
            rows += [
                ["  share", DecisionText.share(grant.share)],
                ["  read", DecisionText.read(grant.read)],
                ["  limited from", DecisionText.limitedFrom(grant.read, time: time)],
                ["  decided", time.instant(grant.decidedMicros)],
                ["  decided by", grant.decidedBy],
            ]
        } else {
            rows.append(["  grant", "none (never asked)"])
        }
        rows.append(["  store floor", time.instant(explanation.earliestPermittedMicros)])
        rows.append(["  reads from", explanation.effectiveReadFromMicros.map { time.instant($0) } ?? "-"])
        // The broker words its paragraph in UTC; the same rules word it again here in the person's
        // zone (or UTC with --utc), so the paragraph and the table under it show the same times.
        let text = AuthorizationPolicy.explain(
            type: type, grant: explanation.grant, earliestPermitted: explanation.earliestPermittedMicros,
            format: { time.instant($0) }
        ).text
        return [TableFormatter.singleLine(text), "", TableFormatter.render(rows: rows)].joined(separator: "\n")
    }

    /// `set dateOfBirth to 1990-04-01` or `cleared bloodType`.
    static func characteristic(_ type: ObjectType, value: String?) -> String {
        let alias = TypeArgument.alias(of: type)
        return value.map { "set \(alias) to \($0)" } ?? "cleared \(alias)"
    }
}
