import BrokerModel
import BrokerStore
import Testing

@Suite("BrokerStore sources and characteristics")
struct SourceAndCharacteristicStoreTests {
    @Test func sourcesKeepFirstRequestAndUpdateNameAndLastRequest() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(try store.listSources().isEmpty)

        try store.recordRequest(appID: "com.example.b", appName: "Bee", now: 100)
        try store.recordRequest(appID: "com.example.a", appName: "Ay", now: -3)
        #expect(try store.listSources() == [
            Source(appID: "com.example.a", appName: "Ay", firstRequestMicros: -3, lastRequestMicros: -3, isRegistered: false),
            Source(appID: "com.example.b", appName: "Bee", firstRequestMicros: 100, lastRequestMicros: 100, isRegistered: false),
        ])

        try store.recordRequest(appID: "com.example.b", appName: "Bee 2", now: 250)
        try store.recordRequest(appID: "com.example.b", appName: "", now: 300)
        let b = try #require(try store.listSources().last)
        #expect(b == Source(appID: "com.example.b", appName: "", firstRequestMicros: 100, lastRequestMicros: 300, isRegistered: false))
    }

    @Test func sourcesAreFlaggedRegisteredFromTheAppRegistry() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        _ = try store.addApp(AppRegistration(appID: "com.example.b", name: "Bee", readUsage: "", shareUsage: ""), tokenHash: [1], now: 1)
        _ = try store.addApp(AppRegistration(appID: "com.example.never", name: "N", readUsage: "", shareUsage: ""), tokenHash: [2], now: 1)
        try store.recordRequest(appID: "com.example.b", appName: "Bee", now: 10)
        try store.recordRequest(appID: "com.example.a", appName: "Ay", now: 11)
        try store.recordRequest(appID: "com.example.c", appName: "Sea", now: 12)

        // Only apps that asked are sources; registered reflects the registry now.
        let sources = try store.listSources()
        #expect(sources.map(\.appID) == ["com.example.a", "com.example.b", "com.example.c"])
        #expect(sources.map(\.isRegistered) == [false, true, false])

        #expect(try store.removeApp("com.example.b"))
        #expect(try store.listSources().map(\.isRegistered) == [false, false, false])
    }

    @Test func sourcesSurviveReopen() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try BrokerStore(dataDirectory: directory.path, durability: .full)
            try store.recordRequest(appID: "com.example.a", appName: "Ay", now: 1)
            try store.recordRequest(appID: "com.example.a", appName: "Ay!", now: 2)
            store.close()
        }
        let reopened = try BrokerStore(dataDirectory: directory.path)
        defer { reopened.close() }
        #expect(try reopened.listSources() == [
            Source(appID: "com.example.a", appName: "Ay!", firstRequestMicros: 1, lastRequestMicros: 2, isRegistered: false),
        ])
    }

    @Test func characteristicsSetReplaceClear() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        #expect(try store.allCharacteristics().isEmpty)

        try store.setCharacteristic(.dateOfBirth, value: "1990-04-01", now: 1)
        try store.setCharacteristic(.bloodType, value: "A+", now: 2)
        try store.setCharacteristic(.biologicalSex, value: "", now: 3)  // empty is a value, not a clear
        #expect(try store.allCharacteristics() == [.dateOfBirth: "1990-04-01", .bloodType: "A+", .biologicalSex: ""])

        try store.setCharacteristic(.bloodType, value: "0-", now: 4)
        #expect(try store.allCharacteristics()[.bloodType] == "0-")

        try store.setCharacteristic(.bloodType, value: nil, now: 5)
        try store.setCharacteristic(.bloodType, value: nil, now: 6)  // clearing an unset type is fine
        try store.setCharacteristic(.biologicalSex, value: nil, now: 7)
        #expect(try store.allCharacteristics() == [.dateOfBirth: "1990-04-01"])
    }

    @Test func characteristicsSurviveReopen() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let store = try BrokerStore(dataDirectory: directory.path, durability: .full)
            try store.setCharacteristic(.dateOfBirth, value: "1990-04-01", now: 1)
            try store.setCharacteristic(.biologicalSex, value: "female", now: 1)
            try store.setCharacteristic(.bloodType, value: "B+", now: 1)
            try store.setCharacteristic(.bloodType, value: nil, now: 2)
            store.close()
        }
        let reopened = try BrokerStore(dataDirectory: directory.path)
        defer { reopened.close() }
        #expect(try reopened.allCharacteristics() == [.dateOfBirth: "1990-04-01", .biologicalSex: "female"])
    }
}
