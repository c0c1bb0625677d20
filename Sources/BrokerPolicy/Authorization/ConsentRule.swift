import BrokerModel

/// One rule of a consent policy: which app and types it covers, and what it decides for each part.
struct ConsentRule: Sendable, Hashable {
    /// The app id it covers, or "*" for every app.
    var app: String
    /// The types it covers; nil for every type ("*" or no "types" key).
    var types: Set<ObjectType>?
    /// The share part it decides, if any.
    var share: ShareDecision?
    /// The read part it decides, if any.
    var read: ConsentReadRule?

    /// Whether the rule covers this app and type (whatever parts it decides).
    func covers(appID: String, type: ObjectType) -> Bool {
        (app == "*" || app == appID) && (types?.contains(type) ?? true)
    }

    private static let knownKeys: Set<String> = ["app", "types", "share", "read", "from", "last_days"]

    /// Reads `rules[index]`; errors are INVALID_ARGUMENT naming `rules[index].field`. A `"from"` date
    /// after `now` (the moment the file is loaded) is refused: see `ConsentPolicy`.
    init(json: JSONValue, index: Int, now: Int64) throws(BrokerError) {
        let path = "rules[\(index)]"
        func fail(_ field: String?, _ text: String) -> BrokerError {
            .invalidArgument("consent policy: \(path)\(field.map { ".\($0)" } ?? ""): \(text)")
        }
        guard case .object(let fields) = json else { throw fail(nil, "must be an object, not \(json.kindName)") }
        if let unknown = fields.keys.filter({ !Self.knownKeys.contains($0) }).sorted().first {
            throw fail(unknown, "unknown key (expected app, types, share, read, from, last_days)")
        }

        switch fields["app"] {
        case .string(let app)? where !app.isEmpty: self.app = app
        case .string?: throw fail("app", "must not be empty (use \"*\" for every app)")
        case nil: throw fail("app", "is required (an app id, or \"*\" for every app)")
        case let other?: throw fail("app", "must be a string, not \(other.kindName)")
        }

        switch fields["types"] {
        case nil:
            types = nil
        case .array(let items)?:
            if items.isEmpty { throw fail("types", "must not be empty (omit it, or use [\"*\"], for every type)") }
            // Names are resolved as healthctl resolves them (full identifier or alias, any case), so
            // a name copied from `healthctl types` or a healthctl command line works here too.
            var resolved: [ObjectType] = []
            var coversEveryType = false
            var unknown: [(position: Int, name: String)] = []
            for (position, item) in items.enumerated() {
                guard case .string(let name) = item else {
                    throw fail("types[\(position)]", "must be a string, not \(item.kindName)")
                }
                if name == "*" {
                    coversEveryType = true
                } else if let type = TypeCatalogue.type(named: name) {
                    resolved.append(type)
                } else if !unknown.contains(where: { $0.name == name }) {
                    unknown.append((position, name))
                }
            }
            if !unknown.isEmpty { throw Self.unknownTypes(unknown, app: app, fail: fail) }
            types = coversEveryType ? nil : Set(resolved)
        case let other?:
            throw fail("types", "must be an array of type names, not \(other.kindName)")
        }

        switch fields["share"] {
        case nil: share = nil
        case .string("allow")?: share = .allow
        case .string("deny")?: share = .deny
        case let other?: throw fail("share", "must be \"allow\" or \"deny\", not \(Self.shown(other))")
        }

        let from = fields["from"]
        let lastDays = fields["last_days"]
        switch fields["read"] {
        case nil:
            read = nil
        case .string("full")?:
            read = .full
        case .string("deny")?:
            read = .deny
        case .string("limited")?:
            switch (from, lastDays) {
            case (nil, nil):
                throw fail("read", "\"limited\" needs \"from\" (a date) or \"last_days\" (a number of days)")
            case (.some, .some):
                throw fail("from", "give either \"from\" or \"last_days\", not both")
            case (let value?, nil):
                guard case .string(let text) = value, let micros = ISODate.parse(text) else {
                    throw fail("from", "must be an ISO-8601 UTC date \"YYYY-MM-DD\" or date-time \"YYYY-MM-DDTHH:MM:SSZ\", not \(Self.shown(value))")
                }
                guard micros >= 0 else { throw fail("from", "must not be before 1970-01-01") }
                guard micros <= now else {
                    throw fail("from", "\(ISODate.format(micros)) is in the future (now is \(ISODate.format(now))); a limited read starts at a date that has come")
                }
                read = .limitedFrom(micros)
            case (nil, let value?):
                guard case .integer(let days) = value, (1...ConsentReadRule.maxDays).contains(days) else {
                    throw fail("last_days", "must be a whole number of days from 1 to \(ConsentReadRule.maxDays), not \(Self.shown(value))")
                }
                read = .lastDays(days)
            }
        case let other?:
            throw fail("read", "must be \"full\", \"deny\" or \"limited\", not \(Self.shown(other))")
        }
        let isLimited = switch read {
        case .limitedFrom?, .lastDays?: true
        default: false
        }
        if !isLimited {
            if from != nil { throw fail("from", "is only allowed with \"read\": \"limited\"") }
            if lastDays != nil { throw fail("last_days", "is only allowed with \"read\": \"limited\"") }
        }
        if share == nil && read == nil { throw fail(nil, "decides nothing: give \"share\", \"read\" or both") }
    }

    /// The error for names no catalogued type answers to: the rule (index and app), each name, and
    /// where the known names are listed; a single name is pointed at by its position in `types`.
    private static func unknownTypes(
        _ unknown: [(position: Int, name: String)], app: String, fail: (String?, String) -> BrokerError
    ) -> BrokerError {
        let help = "a type is named as `healthctl types` lists it: an identifier such as HKQuantityTypeIdentifierHeartRate or an alias such as heartRate"
        let quoted = unknown.map { "\"\($0.name)\"" }.joined(separator: ", ")
        guard unknown.count == 1 else {
            return fail("types", "unknown types \(quoted) in the rule for app \"\(app)\"; \(help)")
        }
        let similar = TypeCatalogue.similarAliases(to: unknown[0].name)
        let hint = similar.isEmpty ? "" : " (did you mean \(similar.joined(separator: ", "))?)"
        return fail("types[\(unknown[0].position)]", "unknown type \(quoted)\(hint) in the rule for app \"\(app)\"; \(help)")
    }

    /// A value as it appears in the file, for error messages.
    private static func shown(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .integer(let number): "\(number)"
        case .number(let number): "\(number)"
        case .bool(let flag): "\(flag)"
        default: value.kindName
        }
    }
}
