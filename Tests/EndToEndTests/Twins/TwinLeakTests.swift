import BrokerWire
import Foundation
@testable import HealthBrokerClient
import Testing

/// One test per way a read-denied app could tell other apps' data is there; each compares a short
/// script across stores A and B and checks the contract's concrete answer.
@Suite("Twin leaks", .serialized)
struct TwinLeakTests {
    /// Fewer samples than the whole-script test: each test here starts its own pair.
    static let otherCount = 300

    @Test func anchorStaysIdenticalWhileOnlyOtherAppsChange() async throws {
        let pair = try await TwinPair.make(otherCount: Self.otherCount)
        try await pair.run { s in
            try await s.openAndSaveOwn()
            try await s.anchored("Anchored steps first", AnchoredQuery(type: .stepCount), keep: "0")
            try await s.othersWriteAndDelete(generation: 1)
            try await s.anchored("Anchored steps after other apps acted", AnchoredQuery(type: .stepCount), from: "0", keep: "1")
        }
        #expect(pair.a.anchor("1") == pair.a.anchor("0"), "A: \(TwinTranscript.hex(pair.a.anchor("0"))) became \(TwinTranscript.hex(pair.a.anchor("1")))")
        pair.expectIndistinguishable()
    }

    /// No 8-byte window of an anchor holds a plausible clear sequence number (read either way round).
    @Test func anchorIsOpaque() async throws {
        let pair = try await TwinPair.make(otherCount: Self.otherCount)
        try await pair.run { s in
            try await s.openAndSaveOwn()
            try await s.anchored("Anchored steps first", AnchoredQuery(type: .stepCount), keep: "0")
            try await s.call("X saves a step", .save([TwinFixtures.xLater(0)]))
            try await s.anchored("Anchored steps after X saved", AnchoredQuery(type: .stepCount), from: "0", keep: "1")
        }
        for store in [pair.a, pair.b] {
            for name in ["0", "1"] {
                let anchor = store.anchor(name)
                // A random window lands in 1…10^7 with odds of about 2^-40: only a clear counter does.
                let counter = Self.smallNumberWindow(anchor)
                #expect(counter == nil, "\(store.name) anchor \(name) \(TwinTranscript.hex(anchor)) holds \(counter ?? 0) in clear")
            }
        }
        pair.expectIndistinguishable()
    }

    @Test func anchorSurvivesPruningOfOtherAppsTombstones() async throws {
        let pair = try await TwinPair.make(otherCount: Self.otherCount)
        try await pair.run { s in
            try await s.openAndSaveOwn()
            try await s.anchored("Anchored steps first", AnchoredQuery(type: .stepCount), keep: "0")
            try await s.othersWriteAndDelete(generation: 1)
            try await s.restart(["--tombstone-retention-days", "0"])
            try await s.anchored("Anchored steps after pruning", AnchoredQuery(type: .stepCount), from: "0")
        }
        #expect(pair.a.lastReply.status?.code == .ok, "A: \(TwinTranscript.describe(pair.a.transcript.entries.last))")
        pair.expectIndistinguishable()
    }

    @Test func deletingAnotherAppsUUIDRevealsNothing() async throws {
        let pair = try await TwinPair.make(otherCount: Self.otherCount)
        var answers: [String: [Proto.ServerFrame.Response?]] = [:]
        try await pair.run { s in
            try await s.openAndSaveOwn()
            try await s.call("Delete another app's uuid", .delete(uuids: [TwinFixtures.otherHeldForDelete], type: nil, predicate: nil))
            let alone = s.lastReply.response
            try await s.call("Delete [own, another app's]", .delete(uuids: [TwinFixtures.xSamples[1].uuid, TwinFixtures.otherHeldForDelete], type: nil, predicate: nil))
            answers[s.name] = [alone, s.lastReply.response]
            try await s.call("Query steps", .query(SampleQuery(type: .stepCount)))
        }
        #expect(answers["A"] == [.delete(deleted: 0), .delete(deleted: 1)])
        #expect(answers["B"] == [.delete(deleted: 0), .delete(deleted: 1)])
        pair.expectIndistinguishable()
    }

    @Test func savingUnderAnotherAppsUUIDRevealsNothing() async throws {
        let pair = try await TwinPair.make(otherCount: Self.otherCount)
        var answers: [String: [String]] = [:]
        try await pair.run { s in
            try await s.openAndSaveOwn()
            var replies: [String] = []
            let mine = TwinFixtures.xUnderOthersUUID
            var changed = mine
            changed.value = .quantity(Quantity(13, "count"))
            for (label, sample) in [("Save under another app's uuid", mine), ("Save it again", mine), ("Save it with other content", changed)] {
                try await s.call(label, .save([sample]))
                let (response, status) = s.lastReply
                replies.append(status.map { "\($0.code)" } ?? response.map { "\($0)" } ?? "nothing")
            }
            answers[s.name] = replies
            try await s.call("Query steps", .query(SampleQuery(type: .stepCount)))
        }
        let expected = ["\(Proto.ServerFrame.Response.save(saved: 1, unchanged: 0))", "\(Proto.ServerFrame.Response.save(saved: 0, unchanged: 1))", "\(StatusCode.alreadyExists)"]
        #expect(answers["A"] == expected)
        #expect(answers["B"] == expected)
        pair.expectIndistinguishable()
    }

    @Test func deleteThenResaveReportsOnlyTheAdd() async throws {
        let pair = try await TwinPair.make(otherCount: Self.otherCount)
        let u = TwinFixtures.xSamples[2].uuid
        let v = TwinFixtures.xSamples[3].uuid
        var seen: [String: [(added: [String], deleted: [String])]] = [:]
        try await pair.run { s in
            try await s.openAndSaveOwn()
            try await s.anchored("Anchored steps first", AnchoredQuery(type: .stepCount), keep: "0")
            try await s.call("X deletes U", .delete(uuids: [u], type: nil, predicate: nil))
            try await s.call("X saves U again", .save([TwinFixtures.xSamples[2]]))
            try await s.anchored("Anchored steps without anchor", AnchoredQuery(type: .stepCount))
            let fresh = s.lastAnchoredChanges
            try await s.anchored("Anchored steps since before the delete", AnchoredQuery(type: .stepCount), from: "0", keep: "1")
            let since = s.lastAnchoredChanges
            try await s.call("X deletes V", .delete(uuids: [v], type: nil, predicate: nil))
            try await s.anchored("Anchored steps after V's delete", AnchoredQuery(type: .stepCount), from: "1")
            seen[s.name] = [fresh, since, s.lastAnchoredChanges]
        }
        for name in ["A", "B"] {
            let changes = try #require(seen[name])
            #expect(changes[0].added.contains(u) && changes[0].deleted.isEmpty, "\(name) without anchor: \(changes[0])")
            #expect(changes[1].added == [u] && changes[1].deleted.isEmpty, "\(name) since before the delete: \(changes[1])")
            #expect(changes[2].added.isEmpty && changes[2].deleted == [v], "\(name) after V's delete: \(changes[2])")
        }
        pair.expectIndistinguishable()
    }

    /// The first number in 1…10^7 found in any 8-byte window of `bytes`, big- or little-endian.
    static func smallNumberWindow(_ bytes: [UInt8]) -> UInt64? {
        guard bytes.count >= 8 else { return nil }
        for start in 0...(bytes.count - 8) {
            let window = bytes[start..<start + 8]
            let big = window.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let little = window.reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            for value in [big, little] where (1...10_000_000).contains(value) { return value }
        }
        return nil
    }
}
