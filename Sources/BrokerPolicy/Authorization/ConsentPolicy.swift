public import BrokerModel

/// A consent policy file (JSON): decides some types by itself; what no rule decides goes to a person.
///
/// The file holds one object with a `"rules"` array, tried in file order:
///
/// ```json
/// { "rules": [
///   { "app": "com.example.steps", "types": ["HKQuantityTypeIdentifierStepCount"],
///     "share": "allow", "read": "limited", "from": "2026-01-01T00:00:00Z" },
///   { "app": "*", "types": ["HKQuantityTypeIdentifierHeartRate"], "read": "limited", "last_days": 30 },
///   { "app": "*", "types": ["*"], "share": "deny", "read": "deny" } ] }
/// ```
///
/// - `"app"` (required): an app id, matched exactly, or `"*"` for every app.
/// - `"types"`: type names as `healthctl types` lists them (full HealthKit identifiers or short
///   aliases such as `stepCount`, any case), or `"*"` for every type; omitted means `["*"]`. An
///   empty list or an unknown name is an error naming the rule, its app and the name.
/// - `"share"`: `"allow"` or `"deny"`.
/// - `"read"`: `"full"`, `"deny"` or `"limited"`. `"limited"` needs exactly one of `"from"` (an
///   ISO-8601 UTC date `"YYYY-MM-DD"`, midnight UTC, or date-time `"YYYY-MM-DDTHH:MM:SS[.fff]Z"`, not
///   before 1970 and not after the moment the file is loaded: a limited read starts at a date that
///   has come) or `"last_days"` (a positive whole number). `"last_days": N` is resolved once, when the
///   decision is made, to the fixed instant now − N days: it is never a rolling window.
/// - A rule gives `"share"`, `"read"` or both. Each requested (type, part) is decided by the first rule
///   in file order that covers the app and the type and gives that part; a part no rule gives goes to a
///   person (a consent agent).
///
/// The whole format is documented in docs/CONSENT-POLICY.md.
///
/// Unknown keys, unknown type names and bad values are INVALID_ARGUMENT naming `rules[i].field`.
public struct ConsentPolicy: Sendable {
    private let rules: [ConsentRule]

    /// Parses a policy file; errors name the rule index and field, INVALID_ARGUMENT. `now` is the
    /// moment a `"from"` date may not be after.
    public init(jsonData: [UInt8], now: Int64) throws(BrokerError) {
        let document: JSONValue
        switch JSONValue.parse(jsonData) {
        case .success(let value): document = value
        case .failure(let failure): throw .invalidArgument("consent policy: not valid JSON: \(failure.reason)")
        }
        guard case .object(let top) = document else {
            throw .invalidArgument("consent policy: must be an object with a \"rules\" array, not \(document.kindName)")
        }
        if let unknown = top.keys.filter({ $0 != "rules" }).sorted().first {
            throw .invalidArgument("consent policy: \(unknown): unknown key (expected rules)")
        }
        guard let rulesValue = top["rules"] else {
            throw .invalidArgument("consent policy: rules: is required (an array of rules)")
        }
        guard case .array(let items) = rulesValue else {
            throw .invalidArgument("consent policy: rules: must be an array, not \(rulesValue.kindName)")
        }
        var rules: [ConsentRule] = []
        for (index, item) in items.enumerated() {
            rules.append(try ConsentRule(json: item, index: index, now: now))
        }
        self.rules = rules
    }

    /// How many rules the file holds.
    public var ruleCount: Int { rules.count }

    /// Decisions for the parts of the request some rule covers (others are left out): for each requested (type, part), the FIRST rule in file order whose app matches (exact id or "*") and whose types match (listed identifier or "*") AND which specifies that part decides it. "last_days": N resolves to now − N days (N·86_400_000_000 µs) at this moment — never a rolling window. Returns one TypeDecision per type that got at least one part.
    ///
    /// The decisions are sorted by identifier; a "last_days" date earlier than the epoch becomes 0.
    public func decide(appID: String, share: [ObjectType], read: [ObjectType], now: Int64) -> [TypeDecision] {
        var decisions: [ObjectType: TypeDecision] = [:]
        for type in Set(share) {
            if let decision = rules.first(where: { $0.share != nil && $0.covers(appID: appID, type: type) })?.share {
                decisions[type, default: TypeDecision(type: type)].share = decision
            }
        }
        for type in Set(read) {
            if let rule = rules.first(where: { $0.read != nil && $0.covers(appID: appID, type: type) })?.read {
                decisions[type, default: TypeDecision(type: type)].read = rule.decision(now: now)
            }
        }
        return decisions.values.sorted { $0.type < $1.type }
    }
}
