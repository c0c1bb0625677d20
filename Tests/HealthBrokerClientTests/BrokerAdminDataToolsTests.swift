import BrokerWire
import Foundation
import HealthBrokerClient
import Testing

/// The admin data tools: import, export and the access log.
@Suite("BrokerAdmin data tools over a fake broker")
struct BrokerAdminDataToolsTests {
    @Test func importSendsTheSamplesAsTheAppAndMapsTheCounts() async throws {
        let samples = SampleFixtures.pages(1, of: 4)[0]
        let broker = try FakeBroker { request in
            if case .adminImport = request { .adminImport(saved: 3, unchanged: 1) } else { nil }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        #expect(try await admin.importSamples(samples, as: "com.example.import") == SaveResult(saved: 3, unchanged: 1))
        let call = try #require(broker.lastCall)
        #expect(call.request == .adminImport(appID: "com.example.import", samples: samples))
        #expect(call.timeoutMicros > 0)
    }

    @Test func importThrowsTheBrokersError() async throws {
        let invalid = BrokerError.invalidArgument("samples[2]: a cumulative value must not be negative")
        let broker = try FakeBroker(failing: invalid)
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        await #expect(throws: invalid) { try await admin.importSamples([SampleFixtures.step(0)], as: "com.example.import") }
    }

    @Test func exportStreamsEveryPageUnderFlowControl() async throws {
        let pages = SampleFixtures.pages(9, of: 2)
        let stream = CreditedStream(pages.map { .samples($0) })
        let broker = try FakeBroker(serving: stream) { request in
            if case .adminExport = request { true } else { false }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        var received: [Sample] = []
        for try await sample in admin.exportSamples(type: .stepCount, appID: "com.example.app") { received.append(sample) }
        #expect(received == pages.flatMap { $0 })
        let call = try #require(broker.lastCall)
        #expect(call.request == .adminExport(type: .stepCount, appID: "com.example.app"))
        #expect(call.timeoutMicros == 0)
        #expect(call.initialCredit == SampleSequence.pageWindow)
    }

    @Test func exportWithoutFiltersSendsNone() async throws {
        let broker = try FakeBroker { call in
            guard case .adminExport = call.request else { return [] }
            return [ServerFrame(callID: call.callID, status: .ok)]
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        for try await _ in admin.exportSamples() {}
        for try await _ in admin.exportSamples(appID: "") {}
        #expect(broker.requests == [.adminExport(type: nil, appID: nil), .adminExport(type: nil, appID: nil)])
    }

    @Test func exportThrowsTheBrokersError() async throws {
        let broker = try FakeBroker(failing: .databaseInaccessible("the store is locked"))
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        await #expect(throws: BrokerError.databaseInaccessible("the store is locked")) {
            for try await _ in admin.exportSamples() {}
        }
    }

    @Test func accessLogSendsTheFilterAndReturnsTheEntries() async throws {
        let entries = [
            AccessLogEntry(atMicros: 1_700_000_000_000_002, appID: "com.example.app", operation: "read", type: .stepCount, sampleCount: 1_440),
            AccessLogEntry(atMicros: 1_700_000_000_000_001, appID: "com.example.app", operation: "write", type: .heartRate, sampleCount: 12),
        ]
        let broker = try FakeBroker { request in
            if case .adminAccessLog = request { .adminAccessLog(entries) } else { nil }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        #expect(try await admin.accessLog(appID: "com.example.app", limit: 50) == entries)
        #expect(broker.lastCall?.request == .adminAccessLog(appID: "com.example.app", limit: 50))
        #expect(broker.lastCall?.timeoutMicros ?? 0 > 0)
        #expect(try await admin.accessLog() == entries)
        #expect(broker.lastCall?.request == .adminAccessLog(appID: nil, limit: 0))
    }

    @Test func importSendsItsBatchID() async throws {
        let samples = SampleFixtures.pages(1, of: 2)[0]
        let broker = try FakeBroker { request in
            if case .adminImport = request { .adminImport(saved: 2, unchanged: 0) } else { nil }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        _ = try await admin.importSamples(samples, as: "com.example.import", batchID: "run-7")
        #expect(broker.lastCall?.request == .adminImport(appID: "com.example.import", samples: samples, batchID: "run-7"))
    }

    @Test func statisticsSendTheQueryAndReturnTheAppsResultType() async throws {
        let day: Int64 = 86_400_000_000
        let result = StatisticsResult(unit: "count", buckets: [
            StatisticsBucket(startMicros: 1_780_272_000_000_000, endMicros: 1_780_272_000_000_000 + day, sampleCount: 3, sum: 35),
        ])
        let broker = try FakeBroker { request in
            if case .adminStatistics = request { .adminStatistics(result) } else { nil }
        }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        let start = Date(timeIntervalSince1970: 1_780_272_000)
        let query = StatisticsQuery(
            type: .stepCount, predicate: SamplePredicate(start: start, end: start.addingTimeInterval(86_400)), options: .sum,
            interval: .day, anchor: start, timeZone: "Europe/Berlin")
        let answer = try await admin.statistics(query)
        #expect(answer == result)
        #expect(answer.buckets.first?.startDate == start)
        #expect(broker.lastCall?.request == .adminStatistics(query))
        #expect(broker.lastCall?.timeoutMicros ?? 0 > 0)
    }

    @Test func aNegativeAccessLogLimitIsInvalidAndSendsNothing() async throws {
        let broker = try FakeBroker { _ in .adminAccessLog([]) }
        defer { broker.stop() }
        let admin = try await broker.connectAdmin()
        defer { admin.close() }
        let error = await #expect(throws: BrokerError.self) { try await admin.accessLog(limit: -1) }
        #expect(error?.code == .invalidArgument)
        #expect(broker.requests.isEmpty)
    }
}
