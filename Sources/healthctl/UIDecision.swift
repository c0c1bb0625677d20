import BrokerModel

/// A decision as the page sends it (`{"type": "stepCount", "share": "allow", "read": "from",
/// "from": "2026-11-17"}`), turned into a `TypeDecision` under the same rules as the terminal agent:
/// a date is local midnight, never in the future, and only sample types can be limited.
struct UIDecision: Decodable, Sendable {
    /// Identifier or alias.
    var type: String
    /// "allow" or "deny"; nil leaves sharing out.
    var share: String?
    /// "full", "deny" or "from"; nil leaves reading out.
    var read: String?
    /// With read "from": `YYYY-MM-DD`, the person's local date.
    var from: String?

    /// Why a decision from the page cannot be used; the message is shown to the person.
    struct Invalid: Error, Equatable {
        var message: String
    }

    /// The decision to record; `nowMicros` is the present, for refusing future dates.
    func typeDecision(nowMicros: Int64) throws(Invalid) -> TypeDecision {
        guard let objectType = TypeArgument.lookUp(type) else { throw Invalid(message: "unknown type \(type)") }
        var decision = TypeDecision(type: objectType)
        switch share {
        case nil: break
        case "allow": decision.share = .allow
        case "deny": decision.share = .deny
        case let other?: throw Invalid(message: "share must be allow or deny, not \(other)")
        }
        switch read {
        case nil: break
        case "full": decision.read = .full
        case "deny": decision.read = .deny
        case "from":
            guard PlainTypeName.isSample(objectType) else {
                throw Invalid(message: "\(PlainTypeName.of(objectType)) is not a series of samples: choose full or deny")
            }
            guard let from, let micros = LocalTime.midnight(ofDate: from) else {
                throw Invalid(message: "choose a date (YYYY-MM-DD) for \(PlainTypeName.of(objectType))")
            }
            guard micros <= nowMicros else {
                throw Invalid(message: "\(from) is in the future: choose today or an earlier day")
            }
            decision.read = .limited(fromMicros: micros)
        case let other?: throw Invalid(message: "read must be full, from or deny, not \(other)")
        }
        return decision
    }
}

/// `POST api/answer`: the person's answer to a prompt.
struct UIAnswer: Decodable, Sendable {
    var prompt: UInt64
    var decisions: [UIDecision]
}

/// `POST api/cancel`: the person cancels a prompt.
struct UICancel: Decodable, Sendable {
    var prompt: UInt64
}

/// `POST api/grant`: a decision changed directly on the Apps page.
struct UIGrantChange: Decodable, Sendable {
    var app: String
    var decision: UIDecision
}

/// `POST api/forget`: forget an app's decision for a type, so the app is asked again.
struct UIForget: Decodable, Sendable {
    var app: String
    var type: String
}
