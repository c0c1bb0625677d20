import BrokerModel

/// Short words for decisions and grants, shared by tables, explanations and the consent agents.
enum DecisionText {
    /// `allowed`, `denied`, or `-` when sharing was never decided.
    static func share(_ decision: ShareDecision?) -> String {
        switch decision {
        case nil: "-"
        case .allow: "allowed"
        case .deny: "denied"
        }
    }

    /// `full`, `limited`, `denied`, or `-` when reading was never decided.
    static func read(_ decision: ReadDecision?) -> String {
        switch decision {
        case nil: "-"
        case .full: "full"
        case .limited: "limited"
        case .deny: "denied"
        }
    }

    /// The date of a limited grant as `time` writes a picked date, or `-` for any other read decision.
    static func limitedFrom(_ decision: ReadDecision?, time: TimeText = .universal) -> String {
        if case .limited(let from)? = decision { time.dateOrInstant(from) } else { "-" }
    }

    /// `2026-01-31` for a midnight UTC instant, else `2026-01-31T10:20:30Z`.
    static func instant(_ micros: Int64) -> String {
        micros % AnswerParser.microsPerDay == 0
            ? UTCTimestamp.dateString(micros: micros) : UTCTimestamp.string(micros: micros)
    }

    /// One read decision in words: `full`, `denied`, `limited from 2026-01-31` (the date as `instant` writes it).
    static func readPhrase(_ decision: ReadDecision, instant: (Int64) -> String = DecisionText.instant) -> String {
        if case .limited(let from) = decision { "limited from \(instant(from))" } else { read(decision) }
    }

    /// `share bodyMass allowed; read stepCount limited from 2026-01-31, heartRate full`, or `nothing`.
    /// `instant` writes a limited read's date (the consent agent writes it in local time).
    static func summary(_ decisions: [TypeDecision], instant: (Int64) -> String = DecisionText.instant) -> String {
        let shares = decisions.compactMap { decision in
            decision.share.map { "\(TypeArgument.alias(of: decision.type)) \(share($0))" }
        }
        let reads = decisions.compactMap { decision in
            decision.read.map { "\(TypeArgument.alias(of: decision.type)) \(readPhrase($0, instant: instant))" }
        }
        var parts: [String] = []
        if !shares.isEmpty { parts.append("share " + shares.joined(separator: ", ")) }
        if !reads.isEmpty { parts.append("read " + reads.joined(separator: ", ")) }
        return parts.isEmpty ? "nothing" : parts.joined(separator: "; ")
    }

    /// `share bodyMass; read sleepAnalysis, heartRate`: types by part, as aliases.
    static func typeList(share: [ObjectType], read: [ObjectType]) -> String {
        var parts: [String] = []
        if !share.isEmpty { parts.append("share " + aliases(share)) }
        if !read.isEmpty { parts.append("read " + aliases(read)) }
        return parts.joined(separator: "; ")
    }

    /// The aliases of `types`, comma-separated.
    static func aliases(_ types: [ObjectType]) -> String {
        types.map(TypeArgument.alias(of:)).joined(separator: ", ")
    }
}
