import BrokerModel
import BrokerCrypto
import BrokerStore
import Testing

@Suite("BrokerStore app registry")
struct BrokerStoreAppTests {
    static let steps = AppRegistration(
        appID: "com.example.steps", name: "Steps", readUsage: "Shows your steps", shareUsage: "", pinnedUID: 1000)
    static let sleep = AppRegistration(appID: "com.example.sleep", name: "Sleep", readUsage: "", shareUsage: "Logs sleep")

    @Test func addListGetRemoveRotate() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.child("data"))
        defer { store.close() }

        let token = AppToken.generate()
        let added = try store.addApp(Self.steps, tokenHash: AppToken.hash(token), now: 1_000)
        #expect(added == AppInfo(
            appID: "com.example.steps", name: "Steps", readUsage: "Shows your steps", shareUsage: "",
            pinnedUID: 1000, createdMicros: 1_000, tokenRotatedMicros: 1_000))
        _ = try store.addApp(Self.sleep, tokenHash: AppToken.hash(AppToken.generate()), now: 2_000)

        #expect(try store.listApps().map(\.appID) == ["com.example.sleep", "com.example.steps"])
        #expect(try store.allApps().map(\.info.appID) == ["com.example.sleep", "com.example.steps"])

        let stored = try #require(try store.app("com.example.steps"))
        #expect(stored.info == added)
        #expect(AppToken.matches(token, hash: stored.tokenHash))
        #expect(try store.app("com.example.missing") == nil)
        #expect(try store.app("com.example.sleep")?.info.pinnedUID == nil)

        let newToken = AppToken.generate()
        let rotated = try #require(try store.replaceTokenHash(appID: "com.example.steps", hash: AppToken.hash(newToken), now: 5_000))
        #expect(rotated.createdMicros == 1_000)
        #expect(rotated.tokenRotatedMicros == 5_000)
        let afterRotation = try #require(try store.app("com.example.steps"))
        #expect(afterRotation.info == rotated)
        #expect(AppToken.matches(newToken, hash: afterRotation.tokenHash))
        #expect(!AppToken.matches(token, hash: afterRotation.tokenHash))
        #expect(try store.replaceTokenHash(appID: "com.example.missing", hash: [1], now: 6_000) == nil)

        #expect(try store.removeApp("com.example.steps"))
        #expect(try !store.removeApp("com.example.steps"))
        #expect(try store.app("com.example.steps") == nil)
        #expect(try store.listApps().map(\.appID) == ["com.example.sleep"])
    }

    @Test func duplicateIDIsAlreadyExists() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        _ = try store.addApp(Self.steps, tokenHash: [1, 2, 3], now: 1)
        let error = #expect(throws: BrokerError.self) {
            try store.addApp(Self.steps, tokenHash: [4, 5, 6], now: 2)
        }
        #expect(error?.code == .alreadyExists)
        #expect(error?.message.contains("com.example.steps") == true)
        #expect(try store.app("com.example.steps")?.tokenHash == [1, 2, 3])
    }

    @Test func extremeValuesRoundTrip() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        let registration = AppRegistration(appID: "émoji.🫀\u{0}x", name: "", readUsage: "", shareUsage: "", pinnedUID: .max)
        _ = try store.addApp(registration, tokenHash: [], now: .min)
        let stored = try #require(try store.app(registration.appID))
        #expect(stored.info.appID == registration.appID)
        #expect(stored.info.name == "")
        #expect(stored.info.pinnedUID == UInt32.max)
        #expect(stored.info.createdMicros == .min)
        #expect(stored.tokenHash == [])
        #expect(try store.app("émoji.🫀") == nil)
    }

    @Test func dataSurvivesCloseAndReopen() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let token = AppToken.generate()
        let key = MessageAuthenticator.generateKey()
        do {
            let store = try BrokerStore(dataDirectory: directory.path, durability: .full)
            _ = try store.addApp(Self.steps, tokenHash: AppToken.hash(token), now: 7)
            try store.setMetaValue("anchor_mac_key", key)
            store.close()
            store.close()  // idempotent
        }
        let reopened = try BrokerStore(dataDirectory: directory.path)
        defer { reopened.close() }
        let stored = try #require(try reopened.app(Self.steps.appID))
        #expect(stored.info.createdMicros == 7)
        #expect(AppToken.matches(token, hash: stored.tokenHash))
        #expect(try reopened.metaValue("anchor_mac_key") == key)
    }

    @Test func metaValuesSetReplaceAndRead() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(try store.metaValue("missing") == nil)
        try store.setMetaValue("k", [1, 2])
        try store.setMetaValue("k", [3])
        #expect(try store.metaValue("k") == [3])
        try store.setMetaValue("empty", [])
        #expect(try store.metaValue("empty") == [])
    }

    @Test func callsAfterCloseFailWithInternal() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        store.close()
        let error = #expect(throws: BrokerError.self) { try store.listApps() }
        #expect(error?.code == .internal)
    }
}
