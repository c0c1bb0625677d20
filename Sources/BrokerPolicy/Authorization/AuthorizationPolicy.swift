public import BrokerModel

/// The authorization rules, as pure functions of a request, an app and its grants (HealthKit's model).
public enum AuthorizationPolicy {
    /// The most entries `share` or `read` may each hold in one request (duplicates count).
    public static let maxTypesPerRequest = 256

    /// Every INVALID_ARGUMENT rule of RequestAuthorization: both sets empty; unknown identifiers; more than maxTypesPerRequest; share types that cannot be shared (name them); read types requested by an app whose readUsage is empty; share types requested by an app whose shareUsage is empty. Messages name the offending types.
    ///
    /// Both-empty and too-many fail at once; otherwise every other problem found is reported in one
    /// message, separated by "; ". A usage text of only whitespace counts as empty.
    public static func validateRequest(share: [ObjectType], read: [ObjectType], app: AppInfo) throws(BrokerError) {
        var problems = try shapeProblems(share: share, read: read)
        let unknown = Set(TypeCatalogue.unknownIdentifiers(in: share + read))

        let unshareable = TypeNames.uniqueSorted(share.filter { TypeCatalogue.descriptor(for: $0)?.canShare == false })
        let characteristics = unshareable.filter(TypeCatalogue.isCharacteristic)
        if !characteristics.isEmpty {
            let noun = characteristics.count == 1 ? "type cannot" : "types cannot"
            problems.append("share_types: characteristic \(noun) be shared: \(TypeNames.quoted(characteristics))")
        }
        let readOnly = unshareable.filter { !TypeCatalogue.isCharacteristic($0) && TypeCatalogue.descriptor(for: $0)?.kind != .correlation }
        if !readOnly.isEmpty {
            let noun = readOnly.count == 1 ? "type only HealthKit writes" : "types only HealthKit writes"
            problems.append("share_types: apps may not share \(noun): \(TypeNames.quoted(readOnly))")
        }
        // As in HealthKit, a correlation is authorized through its member types, never itself.
        let correlations = TypeNames.uniqueSorted((share + read).filter { TypeCatalogue.descriptor(for: $0)?.kind == .correlation })
        if !correlations.isEmpty {
            let members = TypeNames.uniqueSorted(correlations.flatMap(TypeCatalogue.correlationMembers(of:)))
            let shown = members.count <= 4 ? TypeNames.quoted(members) : "\(members.count) member types"
            problems.append("correlation types are authorized through their member types (\(shown)), not themselves: \(TypeNames.quoted(correlations))")
        }
        let readable = TypeNames.uniqueSorted(read.filter { !unknown.contains($0) })
        if !read.isEmpty && isBlank(app.readUsage) {
            let named = readable.isEmpty ? "" : " (\(TypeNames.quoted(readable)))"
            problems.append("read_types: app \"\(app.appID)\" has no read usage text, so it cannot ask to read\(named)")
        }
        let shareable = TypeNames.uniqueSorted(share.filter { !unknown.contains($0) })
        if !share.isEmpty && isBlank(app.shareUsage) {
            let named = shareable.isEmpty ? "" : " (\(TypeNames.quoted(shareable)))"
            problems.append("share_types: app \"\(app.appID)\" has no share usage text, so it cannot ask to share\(named)")
        }
        if !problems.isEmpty { throw .invalidArgument(problems.joined(separator: "; ")) }
    }

    /// RequestStatus's validation: unknown identifiers, both empty, too many → INVALID_ARGUMENT (no usage-text rules).
    public static func validateTypeSets(share: [ObjectType], read: [ObjectType]) throws(BrokerError) {
        let problems = try shapeProblems(share: share, read: read)
        if !problems.isEmpty { throw .invalidArgument(problems.joined(separator: "; ")) }
    }

    /// The share and read types whose part was never decided: deduplicated, sorted by identifier.
    public static func undecided(share: [ObjectType], read: [ObjectType], grants: AppGrants) -> (share: [ObjectType], read: [ObjectType]) {
        (TypeNames.uniqueSorted(share.filter { grants.share(for: $0) == nil }),
         TypeNames.uniqueSorted(read.filter { grants.read(for: $0) == nil }))
    }

    /// The share status of a type, as `authorizationStatus(for:)`: a read-only grant leaves it not determined.
    public static func authorizationStatus(for type: ObjectType, grants: AppGrants) -> AuthorizationStatus {
        switch grants.share(for: type) {
        case nil: .notDetermined
        case .deny: .sharingDenied
        case .allow: .sharingAuthorized
        }
    }

    /// shouldRequest if some type's requested part was never decided, else unnecessary.
    public static func requestStatus(share: [ObjectType], read: [ObjectType], grants: AppGrants) -> RequestStatus {
        let pending = share.contains { grants.share(for: $0) == nil } || read.contains { grants.read(for: $0) == nil }
        return pending ? .shouldRequest : .unnecessary
    }

    /// Entry only for types with a limited read grant: max(limited date, earliestPermitted). None for full, denied, not determined, not requested, characteristics. Empty when none qualifies.
    public static func earliestAuthorizedSampleDates(for types: [ObjectType], grants: AppGrants, earliestPermitted: Int64) -> [ObjectType: Int64] {
        var dates: [ObjectType: Int64] = [:]
        for type in types where TypeCatalogue.descriptor(for: type)?.isCharacteristic != true {
            if case .limited(let from)? = grants.read(for: type) {
                dates[type] = max(from, earliestPermitted)
            }
        }
        return dates
    }

    /// `earliestAuthorizedSampleDates` for catalogued types only, without a dictionary: calls `body`
    /// once per distinct qualifying type with its date (for equal types in `types`, with the first,
    /// as a dictionary keeps its first key), in the order of `types`. Nothing is allocated.
    ///
    /// Every one of `types` must be catalogued (`TypeCatalogue.requireKnown`); `body` is called at
    /// most `TypeCatalogue.count` times.
    @inline(__always)
    public static func forEachEarliestAuthorizedSampleDate(
        forCatalogued types: [ObjectType], grants: AppGrants, earliestPermitted: Int64,
        _ body: (ObjectType, Int64) -> Void
    ) {
        types.withUnsafeBufferPointer { types in
            forEachEarliestAuthorizedSampleDate(forCatalogued: types, grants: grants, earliestPermitted: earliestPermitted, body)
        }
    }

    /// `forEachEarliestAuthorizedSampleDate` of types held in memory the caller owns (the broker's
    /// scratch on the stack: no array).
    public static func forEachEarliestAuthorizedSampleDate(
        forCatalogued types: UnsafeBufferPointer<ObjectType>, grants: AppGrants, earliestPermitted: Int64,
        _ body: (ObjectType, Int64) -> Void
    ) {
        // Catalogue indexes already answered, as bits in words on the stack.
        let words = (TypeCatalogue.count + 63) / 64
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) { answered in
            answered.initialize(repeating: 0)
            for type in types {
                let index = type.catalogueIndex
                precondition(index >= 0, "\(type) is not catalogued")
                let word = index / 64
                let bit: UInt64 = 1 << UInt64(index % 64)
                guard answered[word] & bit == 0, !TypeCatalogue.isCharacteristic(type) else { continue }
                if case .limited(let from)? = grants.read(for: type) {
                    answered[word] |= bit
                    body(type, max(from, earliestPermitted))
                }
            }
        }
    }

    /// `forEachEarliestAuthorizedSampleDate` of catalogued types given by their catalogue indexes
    /// (each in 0..<`TypeCatalogue.count`), `body` getting each qualifying type's index: the same
    /// calls in the same order as for the types at those indexes, with no `ObjectType` made.
    @inline(__always)
    package static func forEachEarliestAuthorizedSampleDate(
        forCatalogueIndexes indexes: UnsafeBufferPointer<Int32>, grants: AppGrants, earliestPermitted: Int64,
        _ body: (Int, Int64) -> Void
    ) {
        let words = (TypeCatalogue.count + 63) / 64
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) { answered in
            answered.initialize(repeating: 0)
            for raw in indexes {
                let index = Int(raw)
                precondition(index >= 0 && index < TypeCatalogue.count, "catalogue index \(index) out of range")
                let word = index / 64
                let bit: UInt64 = 1 << UInt64(index % 64)
                guard answered[word] & bit == 0, !TypeCatalogue.isCharacteristic(index: index) else { continue }
                if case .limited(let from)? = grants.read(forCatalogueIndex: index) {
                    answered[word] |= bit
                    body(index, max(from, earliestPermitted))
                }
            }
        }
    }

    /// full → .from(earliestPermitted); limited(D) → .from(max(D, earliestPermitted)); deny → .ownSamplesOnly; never asked → .notDetermined
    public static func readScope(for type: ObjectType, grants: AppGrants, earliestPermitted: Int64) -> ReadScope {
        switch grants.read(for: type) {
        case nil: .notDetermined
        case .deny: .ownSamplesOnly
        case .full: .from(earliestPermitted)
        case .limited(let from): .from(max(from, earliestPermitted))
        }
    }

    /// Validates an agent's answer against the prompt: a decision for a type not in the prompt, a share part for a type not among prompt.shareTypes, or a read part for a type not among prompt.readTypes → INVALID_ARGUMENT naming them; a limited date < 0 or after `now` → INVALID_ARGUMENT; duplicates → INVALID_ARGUMENT. Returns the complete decision list: every prompted part left unanswered is filled in as deny (a toggle left off).
    ///
    /// The result holds one decision per prompted type, sorted by identifier; every problem found is
    /// reported in one message, separated by "; ". A limited date after `now` is refused rather than
    /// given a meaning: "limited from a future date" would let the app read nothing of anyone's yet,
    /// while EarliestAuthorizedSampleDate told it a date that has not come.
    public static func completeAnswer(
        _ decisions: [TypeDecision], for prompt: Prompt, now: Int64
    ) throws(BrokerError) -> [TypeDecision] {
        let shareTypes = Set(prompt.shareTypes)
        let readTypes = Set(prompt.readTypes)
        var answered: [ObjectType: TypeDecision] = [:]
        var duplicates: [ObjectType] = []
        var notPrompted: [ObjectType] = []
        var shareNotAsked: [ObjectType] = []
        var readNotAsked: [ObjectType] = []
        var negativeDates: [ObjectType] = []
        var futureDates: [ObjectType] = []
        for decision in decisions {
            let type = decision.type
            if answered.updateValue(decision, forKey: type) != nil { duplicates.append(type) }
            guard shareTypes.contains(type) || readTypes.contains(type) else {
                notPrompted.append(type)
                continue
            }
            if decision.share != nil && !shareTypes.contains(type) { shareNotAsked.append(type) }
            if decision.read != nil && !readTypes.contains(type) { readNotAsked.append(type) }
            if case .limited(let from)? = decision.read {
                if from < 0 { negativeDates.append(type) }
                if from > now { futureDates.append(type) }
            }
        }

        var problems: [String] = []
        func report(_ types: [ObjectType], _ text: String) {
            if !types.isEmpty { problems.append("\(text): \(TypeNames.quoted(TypeNames.uniqueSorted(types)))") }
        }
        report(notPrompted, "decisions for types not in prompt \(prompt.id)")
        report(shareNotAsked, "share decisions for types the prompt does not ask to share")
        report(readNotAsked, "read decisions for types the prompt does not ask to read")
        report(negativeDates, "limited read dates before 1970-01-01T00:00:00Z (negative)")
        report(futureDates, "limited read dates in the future (after now, \(ISODate.format(now)))")
        report(duplicates, "more than one decision for the same type")
        if !problems.isEmpty { throw .invalidArgument(problems.joined(separator: "; ")) }

        return TypeNames.uniqueSorted(prompt.shareTypes + prompt.readTypes).map { type in
            let answer = answered[type]
            return TypeDecision(
                type: type,
                share: shareTypes.contains(type) ? (answer?.share ?? .deny) : nil,
                read: readTypes.contains(type) ? (answer?.read ?? .deny) : nil)
        }
    }

    /// For the operator: "never asked", "read denied: the app sees only samples it saved itself", "limited from <ISO date> (person chose X; store floor Y)", "full access from the store floor", plus the share status, who decided and when.
    public static func explain(type: ObjectType, grants: AppGrants, earliestPermitted: Int64) -> Explanation {
        explain(type: type, grant: grants[type], earliestPermitted: earliestPermitted)
    }

    /// The same explanation of one recorded grant (nil: never asked), its instants written by
    /// `format` (UTC ISO-8601 by default), so a tool can word it again in the person's time zone.
    public static func explain(
        type: ObjectType, grant: Grant?, earliestPermitted: Int64,
        format: (Int64) -> String = { ISODate.format($0) }
    ) -> Explanation {
        let floor = format(earliestPermitted)
        guard let grant else {
            return Explanation(
                grant: nil, earliestPermittedMicros: earliestPermitted, effectiveReadFromMicros: nil,
                text: "\(type.identifier): never asked; sharing and reading are not determined, "
                    + "and a request for it would show a prompt.")
        }
        let isCharacteristic = TypeCatalogue.descriptor(for: type)?.isCharacteristic == true
        let readFrom: Int64?
        let readText: String
        switch grant.read {
        case nil:
            readFrom = nil
            readText = "read never asked (not determined)"
        case .deny:
            readFrom = nil
            readText = "read denied: the app sees only samples it saved itself"
        case .full:
            readFrom = earliestPermitted
            readText = isCharacteristic
                ? "read allowed (no time window applies to characteristics)"
                : "full access from the store floor (\(floor))"
        case .limited(let from):
            let effective = max(from, earliestPermitted)
            readFrom = effective
            readText = "limited from \(format(effective)) (chosen start \(format(from)); store floor \(floor))"
                + (isCharacteristic ? ", though no time window applies to characteristics" : "")
        }
        let shareText = switch grant.share {
        case nil: "sharing never asked (not determined)"
        case .deny: "sharing denied"
        case .allow: "sharing authorized"
        }
        let text = "\(type.identifier): \(readText); \(shareText). "
            + "Decided by \(grant.decidedBy) at \(format(grant.decidedMicros))."
        return Explanation(grant: grant, earliestPermittedMicros: earliestPermitted, effectiveReadFromMicros: readFrom, text: text)
    }

    /// Both-empty and too-many fail at once; unknown identifiers come back as problems to report.
    private static func shapeProblems(share: [ObjectType], read: [ObjectType]) throws(BrokerError) -> [String] {
        if share.isEmpty && read.isEmpty {
            throw .invalidArgument("share_types and read_types are both empty: ask for at least one type")
        }
        for (field, types) in [("share_types", share), ("read_types", read)] where types.count > maxTypesPerRequest {
            throw .invalidArgument("\(field) holds \(types.count) types; at most \(maxTypesPerRequest) are allowed")
        }
        var problems: [String] = []
        for (field, types) in [("share_types", share), ("read_types", read)] {
            let unknown = TypeCatalogue.unknownIdentifiers(in: types)
            if !unknown.isEmpty { problems.append(TypeCatalogue.unknownMessage(unknown, field: field)) }
        }
        return problems
    }

    private static func isBlank(_ text: String) -> Bool {
        text.allSatisfy(\.isWhitespace)
    }
}
