import BrokerWire
import Foundation
import HealthBrokerClient
import Testing

/// `HealthStore.anchoredChanges(of:…)`: request shape, gathering pages, the final anchor, errors.
@Suite("anchoredChanges over a fake broker")
struct AnchoredChangesTests {
    static func isAnchoredQuery(_ request: Proto.Call.Request) -> Bool {
        if case .anchoredQuery = request { true } else { false }
    }

    @Test func gathersEveryPageAndReturnsTheFinalAnchor() async throws {
        let samples = SampleFixtures.pages(1, of: 9)[0]
        let pages: [AnchoredPage] = (0..<8).map { index in
            AnchoredPage(
                added: index < 6 ? [samples[index]] : [], deletedUUIDs: index % 3 == 0 ? ["gone-\(index)"] : [],
                deletedSourceAppIDs: index % 3 == 0 ? ["com.example.app\(index)"] : [])
        } + [AnchoredPage(
            added: Array(samples[6...]), deletedUUIDs: ["gone-last", "gone-last"],
            deletedSourceAppIDs: ["com.example.a", "com.example.b"], newAnchor: [1, 0, 0, 0, 0, 0, 0, 0, 42, 0xAB], done: true)]
        let stream = CreditedStream(pages.map { .anchoredPage($0) })
        let broker = try FakeBroker(serving: stream, when: Self.isAnchoredQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let anchor = try #require(QueryAnchor(base64: "AQID"))
        let predicate = SamplePredicate(startMicros: 5, endMicros: nil, options: .strictEndDate)

        let changes = try await store.anchoredChanges(of: .stepCount, predicate: predicate, anchor: anchor, limit: 500, unit: "count")

        #expect(changes.added == samples)
        // One uuid deleted from two apps is two deletions.
        #expect(changes.deleted == [
            DeletedObject(uuid: "gone-0", sourceAppID: "com.example.app0"),
            DeletedObject(uuid: "gone-3", sourceAppID: "com.example.app3"),
            DeletedObject(uuid: "gone-6", sourceAppID: "com.example.app6"),
            DeletedObject(uuid: "gone-last", sourceAppID: "com.example.a"),
            DeletedObject(uuid: "gone-last", sourceAppID: "com.example.b"),
        ])
        #expect(changes.deletedUUIDs == ["gone-0", "gone-3", "gone-6", "gone-last", "gone-last"])
        #expect(changes.newAnchor.base64 == Data([1, 0, 0, 0, 0, 0, 0, 0, 42, 0xAB]).base64EncodedString())
        let call = try #require(broker.lastCall)
        #expect(call.request == .anchoredQuery(AnchoredQuery(
            type: .stepCount, predicate: predicate, anchor: [1, 2, 3], limit: 500, unit: "count")))
        #expect(call.timeoutMicros == 0)
        #expect(call.initialCredit == SampleSequence.pageWindow)
        #expect(stream.sent == pages.count)
        #expect(!broker.controlFrames.contains(.cancel(callID: stream.callID)))
    }

    @Test func noAnchorSendsAnEmptyOneAndNoChangesStillGiveAnAnchor() async throws {
        let stream = CreditedStream([.anchoredPage(AnchoredPage(newAnchor: [7, 7, 7], done: true))])
        let broker = try FakeBroker(serving: stream, when: Self.isAnchoredQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let changes = try await store.anchoredChanges(of: .heartRate)
        #expect(changes.added.isEmpty)
        #expect(changes.deleted.isEmpty)
        #expect(changes.deletedUUIDs.isEmpty)
        #expect(changes.newAnchor == QueryAnchor(base64: "BwcH"))
        #expect(broker.lastCall?.request == .anchoredQuery(AnchoredQuery(type: .heartRate)))
    }

    @Test func deletedListsOfDifferentLengthsArePairedPageByPage() async throws {
        // A uuid without a source app id (a broker from before field 5) gets ""; source app ids past
        // the last uuid name nothing and are dropped, without shifting the next page's pairs.
        let pages = [
            AnchoredPage(deletedUUIDs: ["old-1", "old-2"]),
            AnchoredPage(deletedUUIDs: ["a", "b", "c"], deletedSourceAppIDs: ["s"]),
            AnchoredPage(deletedUUIDs: ["d"], deletedSourceAppIDs: ["t", "extra", ""]),
            AnchoredPage(deletedSourceAppIDs: ["orphan"], newAnchor: [3], done: true),
        ]
        let stream = CreditedStream(pages.map { .anchoredPage($0) })
        let broker = try FakeBroker(serving: stream, when: Self.isAnchoredQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let changes = try await store.anchoredChanges(of: .stepCount)
        #expect(changes.deleted == [
            DeletedObject(uuid: "old-1", sourceAppID: ""),
            DeletedObject(uuid: "old-2", sourceAppID: ""),
            DeletedObject(uuid: "a", sourceAppID: "s"),
            DeletedObject(uuid: "b", sourceAppID: ""),
            DeletedObject(uuid: "c", sourceAppID: ""),
            DeletedObject(uuid: "d", sourceAppID: "t"),
        ])
        #expect(changes.deletedUUIDs == ["old-1", "old-2", "a", "b", "c", "d"])
    }

    @Test func changesFromUUIDsAloneHaveNoSourceApps() throws {
        let anchor = try #require(QueryAnchor(base64: "AQID"))
        let changes = AnchoredChanges(added: [], deletedUUIDs: ["x", "x"], newAnchor: anchor)
        #expect(changes.deleted == [DeletedObject(uuid: "x", sourceAppID: ""), DeletedObject(uuid: "x", sourceAppID: "")])
        #expect(changes.deletedUUIDs == ["x", "x"])
        var edited = AnchoredChanges(added: [], deleted: [DeletedObject(uuid: "y", sourceAppID: "com.example.a")], newAnchor: anchor)
        edited.deleted.append(DeletedObject(uuid: "y", sourceAppID: "com.example.b"))
        #expect(edited.deletedUUIDs == ["y", "y"])
        // Identity is (source app, uuid): equal uuids from two apps are different objects.
        #expect(Set(edited.deleted).count == 2)
    }

    @Test func anExpiredAnchorIsTheBrokersError() async throws {
        let expired = BrokerError(.anchorExpired, "the deletions since this anchor are no longer remembered")
        let broker = try FakeBroker(failing: expired)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        await #expect(throws: expired) {
            try await store.anchoredChanges(of: .stepCount, anchor: QueryAnchor(base64: "AQID"))
        }
    }

    @Test func aStreamWithoutItsLastPageIsInternal() async throws {
        let stream = CreditedStream([.anchoredPage(AnchoredPage(added: [SampleFixtures.step(0)]))])
        let broker = try FakeBroker(serving: stream, when: Self.isAnchoredQuery)
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) { try await store.anchoredChanges(of: .stepCount) }
        #expect(error?.code == .internal)
    }

    @Test func aPageAfterTheLastOrOfAnotherMethodIsInternal() async throws {
        let done = StreamItem.anchoredPage(AnchoredPage(newAnchor: [1], done: true))
        for items in [[done, done], [StreamItem.samples([])]] {
            let stream = CreditedStream(items)
            let broker = try FakeBroker(serving: stream, when: Self.isAnchoredQuery)
            defer { broker.stop() }
            let store = try await broker.connectApp()
            defer { store.close() }
            let error = await #expect(throws: BrokerError.self) { try await store.anchoredChanges(of: .stepCount) }
            #expect(error?.code == .internal)
        }
    }

    @Test func aNegativeLimitIsInvalidAndSendsNothing() async throws {
        let broker = try FakeBroker { _ in [] }
        defer { broker.stop() }
        let store = try await broker.connectApp()
        defer { store.close() }
        let error = await #expect(throws: BrokerError.self) { try await store.anchoredChanges(of: .stepCount, limit: -1) }
        #expect(error?.code == .invalidArgument)
        #expect(broker.requests.isEmpty)
    }
}
