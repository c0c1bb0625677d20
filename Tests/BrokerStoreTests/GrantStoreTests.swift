import BrokerModel
import BrokerStore
import Testing

@Suite("BrokerStore grants")
struct GrantStoreTests {
    static let app = "com.example.steps"
    static let other = "com.example.sleep"

    /// Every share part, nil included.
    static let shares: [ShareDecision?] = [nil] + ShareDecision.allCases.map(Optional.some)

    /// Every read part, nil included, with limited dates before, at and after the epoch and at the extremes.
    static let reads: [ReadDecision?] = [
        nil, .deny, .full,
        .limited(fromMicros: 0), .limited(fromMicros: 1_700_000_000_000_000),
        .limited(fromMicros: -86_400_000_000), .limited(fromMicros: .min), .limited(fromMicros: .max),
    ]

    /// One grant per share × read combination, each for its own type.
    static func everyCombination(decidedBy: String = "agent") -> [Grant] {
        var grants: [Grant] = []
        for (s, share) in shares.enumerated() {
            for (r, read) in reads.enumerated() {
                grants.append(Grant(
                    type: ObjectType("T.\(s).\(r)"), share: share, read: read,
                    decidedMicros: Int64(s * 100 + r) - 50, decidedBy: decidedBy))
            }
        }
        return grants
    }

    /// Opens a store in `directory`.
    static func open(_ directory: TemporaryDirectory) throws -> BrokerStore {
        try BrokerStore(dataDirectory: directory.path)
    }

    @Test func everyDecisionCombinationRoundTrips() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        #expect(try store.allGrants().isEmpty)

        let grants = Self.everyCombination()
        try store.recordGrants(appID: Self.app, grants: grants)
        let loaded = try store.allGrants()
        #expect(Array(loaded.keys) == [Self.app])
        // Sorted by type identifier; the identifiers were built so that the sorted order is checkable.
        #expect(loaded[Self.app] == grants.sorted { $0.type < $1.type })
        #expect(loaded[Self.app]?.count == Self.shares.count * Self.reads.count)
    }

    @Test func grantsAreKeptPerApp() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        let steps = Grant(type: .stepCount, share: .allow, read: .full, decidedMicros: 1, decidedBy: "agent")
        let sleep = Grant(type: .stepCount, share: nil, read: .deny, decidedMicros: 2, decidedBy: "policy")
        try store.recordGrants(appID: Self.app, grants: [steps])
        try store.recordGrants(appID: Self.other, grants: [sleep])
        #expect(try store.allGrants() == [Self.app: [steps], Self.other: [sleep]])
    }

    @Test func upsertReplacesTheWholeRow() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        let first = Grant(type: .heartRate, share: .allow, read: .limited(fromMicros: 42), decidedMicros: 10, decidedBy: "agent")
        let untouched = Grant(type: .bodyMass, share: .deny, read: nil, decidedMicros: 10, decidedBy: "agent")
        try store.recordGrants(appID: Self.app, grants: [first, untouched])

        // Replacing with nil parts stores NULL: the caller passes merged values, the store does not merge.
        let readOnly = Grant(type: .heartRate, share: nil, read: .full, decidedMicros: 20, decidedBy: "policy")
        try store.recordGrants(appID: Self.app, grants: [readOnly])
        #expect(try store.allGrants()[Self.app] == [untouched, readOnly])

        let limitedAgain = Grant(type: .heartRate, share: .deny, read: .limited(fromMicros: -5), decidedMicros: 30, decidedBy: "agent")
        try store.recordGrants(appID: Self.app, grants: [limitedAgain])
        #expect(try store.allGrants()[Self.app] == [untouched, limitedAgain])

        // Within one batch the last grant for a type wins.
        let a = Grant(type: .workout, share: .allow, decidedMicros: 40, decidedBy: "agent")
        let b = Grant(type: .workout, read: .deny, decidedMicros: 41, decidedBy: "agent")
        try store.recordGrants(appID: Self.app, grants: [a, b])
        #expect(try store.allGrants()[Self.app]?.first { $0.type == .workout } == b)

        try store.recordGrants(appID: Self.app, grants: [])  // no-op
        #expect(try store.allGrants()[Self.app]?.count == 3)
    }

    @Test func recordGrantsIsAllOrNothing() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        let original = Grant(type: .stepCount, share: .allow, read: .full, decidedMicros: 1, decidedBy: "agent")
        try store.recordGrants(appID: Self.app, grants: [original])

        // Every Grant value is storable, so a failure is injected from a second connection: a trigger
        // that aborts any write of the type "boom". The batch below replaces a row, inserts one, then
        // hits the trigger; nothing of it may remain.
        let side = try Database(path: store.databasePath)
        defer { side.close() }
        try side.execute("""
            CREATE TRIGGER fail_boom BEFORE INSERT ON grants WHEN NEW.type = 'boom'
            BEGIN SELECT RAISE(ABORT, 'injected failure'); END
            """)

        let batch = [
            Grant(type: .stepCount, share: .deny, read: .deny, decidedMicros: 2, decidedBy: "agent"),
            Grant(type: .heartRate, share: .allow, decidedMicros: 2, decidedBy: "agent"),
            Grant(type: ObjectType("boom"), share: .allow, decidedMicros: 2, decidedBy: "agent"),
            Grant(type: .sleepAnalysis, read: .full, decidedMicros: 2, decidedBy: "agent"),
        ]
        let error = #expect(throws: BrokerError.self) { try store.recordGrants(appID: Self.app, grants: batch) }
        #expect(error?.code == .internal)
        #expect(error?.message.contains("injected failure") == true)
        #expect(try store.allGrants() == [Self.app: [original]])

        // The store is still usable afterwards (no transaction left open).
        try side.execute("DROP TRIGGER fail_boom")
        try store.recordGrants(appID: Self.app, grants: batch)
        #expect(try store.allGrants()[Self.app]?.count == 4)
    }

    @Test func checkConstraintsRejectInvalidRows() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        let side = try Database(path: store.databasePath)
        defer { side.close() }
        let columns = "INSERT INTO grants (app_id, type, share, read, read_from_us, decided_us, decided_by) VALUES"
        let invalid = [
            "('a', 't', 0, NULL, NULL, 1, 'x')",  // share out of range
            "('a', 't', 3, NULL, NULL, 1, 'x')",
            "('a', 't', NULL, 0, NULL, 1, 'x')",  // read out of range
            "('a', 't', NULL, 4, NULL, 1, 'x')",
            "('a', 't', NULL, 3, NULL, 1, 'x')",  // limited without a date
            "('a', 't', NULL, 2, 5, 1, 'x')",  // a date without limited
            "('a', 't', NULL, NULL, 5, 1, 'x')",
        ]
        for values in invalid {
            #expect(throws: BrokerError.self, "\(values)") { try side.execute("\(columns) \(values)") }
        }
        try side.execute("\(columns) ('a', 't', NULL, 3, -7, 1, 'x')")
        try side.execute("\(columns) ('a', 'u', 2, 1, NULL, 1, 'x')")
        #expect(try store.allGrants()["a"]?.map(\.read) == [.limited(fromMicros: -7), .deny])
    }

    @Test func corruptStoredDecisionIsInternal() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        let side = try Database(path: store.databasePath)
        defer { side.close() }
        try side.execute("PRAGMA ignore_check_constraints = ON")
        try side.execute("""
            INSERT INTO grants (app_id, type, share, read, read_from_us, decided_us, decided_by)
            VALUES ('a', 't', 9, NULL, NULL, 1, 'x')
            """)
        let error = #expect(throws: BrokerError.self) { try store.allGrants() }
        #expect(error?.code == .internal)
        #expect(error?.message.contains("share") == true)
    }

    @Test func revokeSomeAllAndCounts() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        let types: [ObjectType] = [.stepCount, .heartRate, .bodyMass, .workout]
        let grants = types.map { Grant(type: $0, share: .allow, decidedMicros: 1, decidedBy: "agent") }
        try store.recordGrants(appID: Self.app, grants: grants)
        try store.recordGrants(appID: Self.other, grants: grants)

        // Some: missing and repeated types count once.
        #expect(try store.revokeGrants(appID: Self.app, types: [.stepCount, .heartRate, .heartRate, .sleepAnalysis]) == 2)
        #expect(try store.allGrants()[Self.app]?.map(\.type) == [.bodyMass, .workout])
        #expect(try store.revokeGrants(appID: Self.app, types: [.stepCount]) == 0)
        #expect(try store.revokeGrants(appID: "com.example.missing", types: [.bodyMass]) == 0)

        // All (empty list): only this app's.
        #expect(try store.revokeGrants(appID: Self.app, types: []) == 2)
        #expect(try store.revokeGrants(appID: Self.app, types: []) == 0)
        let remaining = try store.allGrants()
        #expect(remaining[Self.app] == nil)
        #expect(remaining[Self.other]?.count == 4)

        // A revoked type can be recorded again.
        try store.recordGrants(appID: Self.app, grants: [grants[0]])
        #expect(try store.allGrants()[Self.app] == [grants[0]])
    }

    @Test func grantsSurviveReopen() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let grants = Self.everyCombination(decidedBy: "policy")
        do {
            let store = try BrokerStore(dataDirectory: directory.path, durability: .full)
            try store.recordGrants(appID: Self.app, grants: grants)
            try store.recordGrants(appID: Self.other, grants: [grants[3]])
            store.close()
        }
        let reopened = try Self.open(directory)
        defer { reopened.close() }
        let loaded = try reopened.allGrants()
        #expect(loaded[Self.app] == grants.sorted { $0.type < $1.type })
        #expect(loaded[Self.other] == [grants[3]])
    }

    @Test func removeAppDeletesGrantsButKeepsSources() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try Self.open(directory)
        defer { store.close() }
        let registration = AppRegistration(appID: Self.app, name: "Steps", readUsage: "r", shareUsage: "s")
        _ = try store.addApp(registration, tokenHash: [1], now: 1)
        _ = try store.addApp(AppRegistration(appID: Self.other, name: "Sleep", readUsage: "", shareUsage: ""), tokenHash: [2], now: 1)
        try store.recordRequest(appID: Self.app, appName: "Steps", now: 5)
        try store.recordRequest(appID: Self.other, appName: "Sleep", now: 6)
        let grant = Grant(type: .stepCount, share: .allow, read: .full, decidedMicros: 5, decidedBy: "agent")
        try store.recordGrants(appID: Self.app, grants: [grant])
        try store.recordGrants(appID: Self.other, grants: [grant])

        #expect(try store.removeApp(Self.app))
        #expect(try store.allGrants() == [Self.other: [grant]])
        #expect(try store.listSources() == [
            Source(appID: Self.other, appName: "Sleep", firstRequestMicros: 6, lastRequestMicros: 6, isRegistered: true),
            Source(appID: Self.app, appName: "Steps", firstRequestMicros: 5, lastRequestMicros: 5, isRegistered: false),
        ])

        // Removing an unknown app still reports false (and clears stray grants under that id).
        try store.recordGrants(appID: "com.example.ghost", grants: [grant])
        #expect(try !store.removeApp("com.example.ghost"))
        #expect(try store.allGrants()["com.example.ghost"] == nil)

        // Re-registering the same id starts without grants and shows the source as registered again.
        _ = try store.addApp(registration, tokenHash: [3], now: 9)
        #expect(try store.allGrants()[Self.app] == nil)
        #expect(try store.listSources().first { $0.appID == Self.app }?.isRegistered == true)
    }
}
