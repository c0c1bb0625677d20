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

    @Test func appsThatOnlyWroteAreSourcesWithTheirSampleCounts() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        let step = { (n: Int) in
            Sample(uuid: "00000000-0000-4000-8000-\(String(repeating: "0", count: 12 - String(n).count))\(n)", type: .stepCount,
                   startMicros: 1_000 + Int64(n), endMicros: 2_000 + Int64(n), value: .quantity(Quantity(5, "count")))
        }
        let heart = Sample(uuid: "00000000-0000-4000-8000-000000000999", type: .heartRate, startMicros: 1, endMicros: 1,
                           value: .quantity(Quantity(60, "count/min")))
        _ = try store.addApp(AppRegistration(appID: "com.example.reg", name: "Registered Writer", readUsage: "", shareUsage: ""), tokenHash: [1], now: 1)
        try store.recordRequest(appID: "com.example.asker", appName: "Asker", now: 10)
        // Imported under ids that never asked: one registered, one not; one asker wrote too.
        _ = try store.saveSamples((1...3).map(step) + [heart], sourceAppID: "com.example.import", now: 20)
        _ = try store.saveSamples([step(4)], sourceAppID: "com.example.reg", now: 20)
        _ = try store.saveSamples([step(5), step(6)], sourceAppID: "com.example.asker", now: 20)
        // One that wrote and then deleted everything is not listed (it never asked, it has nothing).
        _ = try store.saveSamples([step(7)], sourceAppID: "com.example.gone", now: 20)
        _ = try store.deleteSamples(uuids: [step(7).uuid], appID: "com.example.gone", now: 30)

        #expect(try store.listSources() == [
            Source(appID: "com.example.asker", appName: "Asker", firstRequestMicros: 10, lastRequestMicros: 10, isRegistered: false,
                   sampleCount: 2, everAsked: true, sampleCounts: [.stepCount: 2]),
            Source(appID: "com.example.import", appName: "com.example.import", firstRequestMicros: 0, lastRequestMicros: 0,
                   isRegistered: false, sampleCount: 4, everAsked: false, sampleCounts: [.stepCount: 3, .heartRate: 1]),
            Source(appID: "com.example.reg", appName: "Registered Writer", firstRequestMicros: 0, lastRequestMicros: 0,
                   isRegistered: true, sampleCount: 1, everAsked: false, sampleCounts: [.stepCount: 1]),
        ])
        // An app that asked stays listed with no samples.
        try store.recordRequest(appID: "com.example.denied", appName: "Denied", now: 40)
        let denied = try #require(try store.listSources().first { $0.appID == "com.example.denied" })
        #expect(denied.sampleCount == 0 && denied.everAsked)
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
