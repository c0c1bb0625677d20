import BrokerWire
import Foundation
@testable import HealthBrokerClient
import Testing

/// The twins comparison for correlation types: X (read-denied in store A, among other apps'
/// blood pressure readings; alone in store B) syncs and observes `.bloodPressure`, and cannot
/// tell the stores apart, while its anchor stays byte-identical as the other apps save and delete.
@Suite("Twin correlations", .serialized)
struct TwinCorrelationTests {
    static let members: [ObjectType] = [.bloodPressureSystolic, .bloodPressureDiastolic]

    /// Reading `number` of the app tagged `tag` at `start`, one minute long, with fixed uuids.
    static func reading(_ tag: UInt32, _ number: Int, _ start: Int64, _ systolic: Double, _ diastolic: Double) -> Sample {
        let end = start + TwinFixtures.minute
        return Sample(uuid: TwinFixtures.uuid(tag, 3 * number), type: .bloodPressure, startMicros: start, endMicros: end, value: .correlation([
            TwinFixtures.quantity(TwinFixtures.uuid(tag, 3 * number + 1), .bloodPressureSystolic, start, end, systolic, "mmHg"),
            TwinFixtures.quantity(TwinFixtures.uuid(tag, 3 * number + 2), .bloodPressureDiastolic, start, end, diastolic, "mmHg"),
        ]))
    }

    /// X's own readings.
    static let xReadings = (0..<3).map { reading(0xa000_0010, $0, base + Int64($0) * 5 * hour, 120 + Double($0), 80 + Double($0)) }

    /// 40 readings of other app `app` (0-based) of generation `generation`, spread over a day around X's.
    static func readings(app: Int, generation: Int) -> [Sample] {
        let tag: UInt32 = 0xb100_0000 + UInt32(app) << 8 + UInt32(generation)
        var readings: [Sample] = []
        for number in 0..<40 {
            let start: Int64 = base - hour + Int64(number) * 37 * TwinFixtures.minute + Int64(app) * TwinFixtures.minute
            let systolic = 110 + Double(number % 40), diastolic = 70 + Double(number % 25)
            readings.append(reading(tag, number, start, systolic, diastolic))
        }
        return readings
    }

    /// The other apps' readings around X's (generation `generation`), and a quarter of the previous generation deleted.
    static func othersAct(_ s: TwinStore, generation: Int) async throws {
        try await s.others { stores in
            for (app, store) in stores.enumerated() {
                let readings = { (generation: Int) -> [Sample] in Self.readings(app: app, generation: generation) }
                if generation == 0 {
                    try await store.requestAuthorization(toShare: Set(members), read: Set(members), timeout: .seconds(10))
                }
                _ = try await store.save(readings(generation))
                if generation > 0 {
                    _ = try await store.delete(readings(generation - 1).enumerated().filter { $0.offset % 4 == 1 }.map(\.element.uuid))
                }
            }
        }
    }

    @Test func correlationAnchorsAndObserversRevealNothingOfOtherApps() async throws {
        let pair = try await TwinPair.make(otherCount: 30)
        try await pair.run(Self.script)
        for store in [pair.a, pair.b] {
            #expect(store.anchor("1") == store.anchor("0"), "\(store.name): \(TwinTranscript.hex(store.anchor("0"))) became \(TwinTranscript.hex(store.anchor("1")))")
            #expect(store.anchor("3") == store.anchor("2"), "\(store.name)")
            #expect(store.anchor("2") != store.anchor("1"), "\(store.name): X's own deletion moves the anchor")
        }
        #expect(pair.a.lastReply.status?.code == .ok, "A: \(TwinTranscript.describe(pair.a.transcript.entries.last))")
        pair.expectIndistinguishable()
    }

    /// The comparison can fail: where X may read the other apps' readings, it sees them.
    @Test func theCorrelationScriptTellsAFullReaderAmongOthersFromOneAlone() async throws {
        let pair = try await TwinPair.make(aKind: .fullWithOthers, otherCount: 30)
        try await pair.run(Self.script)
        #expect(pair.firstDifference != nil)
    }

    /// X's calls, the same on either store; the other apps act only where they exist.
    static func script(_ s: TwinStore) async throws {
        try await Self.othersAct(s, generation: 0)
        try await s.openAndSaveOwn()
        try await s.call("RequestAuthorization blood pressure", .requestAuthorization(share: Self.members, read: Self.members))
        try await s.call("Save X's readings", .save(Self.xReadings))
        try await s.anchored("Anchored blood pressure first", AnchoredQuery(type: .bloodPressure), keep: "0")
        try await s.anchored("Anchored blood pressure limit 1", AnchoredQuery(type: .bloodPressure, limit: 1), keep: "l0")
        try await s.anchored("Anchored blood pressure window", AnchoredQuery(type: .bloodPressure, predicate: windowed(.bloodPressure)))
        try await s.startObserve([.bloodPressure])
        try await Self.othersAct(s, generation: 1)
        try await s.observed("Observe while other apps acted", expectEvent: false)
        try await s.anchored("Anchored blood pressure after other apps acted", AnchoredQuery(type: .bloodPressure), from: "0", keep: "1")
        try await s.anchored("Anchored blood pressure limit 1 again", AnchoredQuery(type: .bloodPressure, limit: 1), from: "l0")
        try await s.call("X deletes a reading", .delete(uuids: [Self.xReadings[0].uuid], type: nil, predicate: nil))
        try await s.observed("Observe after X deleted a reading", expectEvent: true)
        try await Self.othersAct(s, generation: 2)
        try await s.anchored("Anchored blood pressure after X deleted", AnchoredQuery(type: .bloodPressure), from: "1", keep: "2")
        try await s.anchored("Anchored blood pressure quiet", AnchoredQuery(type: .bloodPressure), from: "2", keep: "3")
        try await s.restart(["--tombstone-retention-days", "0"])
        try await s.anchored("Anchored blood pressure after pruning", AnchoredQuery(type: .bloodPressure), from: "3")
    }
}
