import BrokerModel
import BrokerWire
import Foundation
@testable import HealthBrokerClient
import TestSupport
import Testing

/// A limited reader's merged statistics (source priority) answer with the same bytes whether
/// other apps stored samples it may not see (before its date) or not: the decision "one source or
/// several" and the order are taken from what it may see.
@Suite("Limited merge twins")
struct LimitedMergeTwinTests {
    static let readerID = "com.example.twinmerge.reader"
    static let watchID = "com.example.twinmerge.watch"
    static let phoneID = "com.example.twinmerge.phone"
    static let floor = base + 5 * hour

    /// The reader may read steps from 05:00 on; everyone else reads everything.
    static let policy = """
        { "rules": [
          { "app": "\(readerID)", "share": "allow", "read": "limited", "from": "2026-06-01T05:00:00Z" },
          { "app": "*", "share": "allow", "read": "full" }
        ] }
        """

    static func steps(_ prefix: String, _ starts: [Int64], length: Int64, value: Double) -> [Sample] {
        starts.enumerated().map { index, start in
            stepSample(start, start + length, value, uuid: String(format: "\(prefix)-0000-4000-8000-%012d", index))
        }
    }

    /// Starts a daemon; `crowded` adds the phone's and the watch's samples ending before the floor.
    static func store(crowded: Bool) async throws -> (DaemonProcess, String) {
        let daemon = try await DaemonProcess(policy: policy)
        let token = try await daemon.registerApp(readerID).token
        let reader = try await HealthStore.connect(socketPath: daemon.appSocket, appID: readerID, appToken: token)
        defer { reader.close() }
        try await reader.requestAuthorization(toShare: [.stepCount], read: [.stepCount], timeout: .seconds(10))
        // The reader's own samples, before and after its floor, overlapping the watch's.
        _ = try await reader.save(steps("aaaaaaaa", (0..<40).map { base + Int64($0) * 15 * 60_000_000 }, length: 20 * 60_000_000, value: 100))
        let watch = try await authorizedApp(daemon, watchID, types: [.stepCount])
        defer { watch.close() }
        _ = try await watch.save(steps("bbbbbbbb", (0..<200).map { floor + Int64($0) * 60_000_000 }, length: 60_000_000, value: 7))
        if crowded {
            let phone = try await authorizedApp(daemon, phoneID, types: [.stepCount])
            defer { phone.close() }
            _ = try await phone.save(steps("cccccccc", (0..<290).map { base - 24 * hour + Int64($0) * 60_000_000 }, length: 60_000_000, value: 3))
            _ = try await watch.save(steps("dddddddd", (0..<290).map { floor - 5 * hour + Int64($0) * 60_000_000 }, length: 60_000_000, value: 5))
        }
        let admin = try await daemon.admin()
        defer { admin.close() }
        try await admin.setSourcePriority([phoneID, readerID, watchID], for: .stepCount)
        return (daemon, token)
    }

    /// The reply bytes of each statistics call, call ids equal.
    static func replies(_ daemon: DaemonProcess, token: String) async throws -> [[UInt8]] {
        let socket = try TwinSocket(path: daemon.appSocket)
        _ = try await socket.call(1, .hello(HelloRequest(appID: readerID, appToken: token, protocolVersion: 1)))
        var replies: [[UInt8]] = []
        let day = SamplePredicate(startMicros: base - 24 * hour, endMicros: base + 24 * hour)
        for (index, interval) in [StatisticsInterval.hour, .day].enumerated() {
            for timeZone in ["UTC", "Asia/Kolkata"] {
                let query = StatisticsQuery(type: .stepCount, predicate: day, options: .sum, interval: interval, anchorMicros: base, timeZone: timeZone)
                let frames = try await socket.call(UInt64(10 + index), .statistics(query))
                var bytes: [UInt8] = []
                for frame in frames { WireCodec.append(frame, to: &bytes) }
                replies.append(bytes)
            }
        }
        return replies
    }

    @Test func aLimitedReadersMergedStatisticsAreTheSameAmongOthersAsAlone() async throws {
        let (crowded, crowdedToken) = try await Self.store(crowded: true)
        let (alone, aloneToken) = try await Self.store(crowded: false)
        let crowdedReplies = try await Self.replies(crowded, token: crowdedToken)
        let aloneReplies = try await Self.replies(alone, token: aloneToken)
        #expect(crowdedReplies.count == 4)
        #expect(crowdedReplies == aloneReplies)
        // Not vacuous: the merge ran (the reader's 100-step samples after 05:00 rank before the watch's).
        let reader = try await HealthStore.connect(socketPath: alone.appSocket, appID: Self.readerID, appToken: aloneToken)
        defer { reader.close() }
        let hourly = try await reader.statistics(StatisticsQuery(
            type: .stepCount, predicate: SamplePredicate(startMicros: Self.floor, endMicros: Self.floor + hour, options: .strictStartDate), options: .sum,
            interval: .hour, anchorMicros: base, timeZone: "UTC"))
        // 05:00–06:00: the reader's four samples (400) cover 05:00–06:05; the watch adds nothing.
        #expect(hourly.buckets.map(\.sum) == [400])
    }
}
