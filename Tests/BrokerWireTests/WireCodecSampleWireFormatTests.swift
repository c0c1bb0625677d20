import BrokerModel
import Testing
@testable import BrokerWire

/// Exact bytes for the sample methods, written by hand from the .proto.
@Suite("WireCodec wire format: samples")
struct WireCodecSampleWireFormatTests {
    /// A double's 8 little-endian bytes (a fixed64 field's value).
    private static func fixed64(_ value: Double) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value.bitPattern >> (8 * $0)) }
    }

    @Test func saveOfAQuantitySampleWithOneMetadataEntryEncodesAsTheProtoSays() throws {
        // Call { call_id: 1, save (50) { samples { uuid: "u", type: "t", start_us: 1, end_us: 2,
        //   quantity (10) { value: 1.5, unit: "m" }, metadata (20) { key: "k", value: "v" } } } }
        let sample = Sample(
            uuid: "u", type: ObjectType("t"), startMicros: 1, endMicros: 2, value: .quantity(Quantity(1.5, "m")),
            metadata: ["k": "v"])
        let frame = ClientFrame.call(Call(callID: 1, request: .save([sample])))
        let quantity: [UInt8] = [0x09] + Self.fixed64(1.5) + [0x12, 0x01, 0x6D]
        #expect(quantity == [0x09, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF8, 0x3F, 0x12, 0x01, 0x6D])
        let entry: [UInt8] = [0x0A, 0x01, 0x6B, 0x12, 0x01, 0x76]
        let encoded: [UInt8] = [0x0A, 0x01, 0x75, 0x12, 0x01, 0x74, 0x18, 0x01, 0x20, 0x02]
            + [0x52, UInt8(quantity.count)] + quantity + [0xA2, 0x01, UInt8(entry.count)] + entry
        let save: [UInt8] = [0x0A, UInt8(encoded.count)] + encoded
        let call: [UInt8] = [0x08, 0x01, 0x92, 0x03, UInt8(save.count)] + save
        let bytes: [UInt8] = [0x0A, UInt8(call.count)] + call
        #expect(payload(of: frame) == bytes)
        #expect(try WireCodec.decodeClientFrame(bytes[...]) == frame)
    }

    @Test func readFieldsAndCategoryValuesEncodeAsTheProtoSays() throws {
        // StreamItem samples (52) { samples { uuid: "c", category_value (11): 4, source_app_id (21): "a",
        //   created_us (22): 9 } }
        let sample = Sample(
            uuid: "c", type: ObjectType(""), startMicros: 0, endMicros: 0, value: .category(4), sourceAppID: "a",
            createdMicros: 9)
        let encoded: [UInt8] = [0x0A, 0x01, 0x63, 0x58, 0x04, 0xAA, 0x01, 0x01, 0x61, 0xB0, 0x01, 0x09]
        let page: [UInt8] = [0x0A, UInt8(encoded.count)] + encoded
        let item: [UInt8] = [0xA2, 0x03, UInt8(page.count)] + page
        let frame = ServerFrame(callID: 1, response: .streamItem(.samples([sample])))
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, UInt8(item.count)] + item
        #expect(payload(of: frame) == bytes)
        #expect(try WireCodec.decodeServerFrame(bytes[...]) == frame)
    }

    @Test func workoutWithoutEnergySendsNoEnergySubMessage() throws {
        // samples { uuid: "w", workout (12) { activity_type: "r", duration_us: 3,
        //   total_distance (4) { value: 1.0, unit: "m" } } }
        let sample = Sample(
            uuid: "w", type: ObjectType(""), startMicros: 0, endMicros: 0,
            value: .workout(WorkoutDetails(activityType: "r", durationMicros: 3, totalDistance: Quantity(1, "m"))))
        let distance: [UInt8] = [0x09] + Self.fixed64(1) + [0x12, 0x01, 0x6D]
        let workout: [UInt8] = [0x0A, 0x01, 0x72, 0x10, 0x03, 0x22, UInt8(distance.count)] + distance
        let encoded: [UInt8] = [0x0A, 0x01, 0x77, 0x62, UInt8(workout.count)] + workout
        let page: [UInt8] = [0x0A, UInt8(encoded.count)] + encoded
        let item: [UInt8] = [0xA2, 0x03, UInt8(page.count)] + page
        let frame = ServerFrame(callID: 1, response: .streamItem(.samples([sample])))
        let bytes: [UInt8] = [0x08, 0x01, 0x1A, UInt8(item.count)] + item
        #expect(payload(of: frame) == bytes)
        #expect(try WireCodec.decodeServerFrame(bytes[...]) == frame)
    }

    @Test func metadataIsSentSortedByKeyAndTheLastDuplicateWinsOnDecode() throws {
        // samples { uuid: "m", category_value: 1, metadata { "a": "1" }, metadata { "b": "2" } }
        let sample = Sample(
            uuid: "m", type: ObjectType(""), startMicros: 0, endMicros: 0, value: .category(1), metadata: ["b": "2", "a": "1"])
        let a: [UInt8] = [0xA2, 0x01, 0x06, 0x0A, 0x01, 0x61, 0x12, 0x01, 0x31]
        let b: [UInt8] = [0xA2, 0x01, 0x06, 0x0A, 0x01, 0x62, 0x12, 0x01, 0x32]
        let head: [UInt8] = [0x0A, 0x01, 0x6D, 0x58, 0x01]
        func frameBytes(_ encoded: [UInt8]) -> [UInt8] {
            let page: [UInt8] = [0x0A, UInt8(encoded.count)] + encoded
            let item: [UInt8] = [0xA2, 0x03, UInt8(page.count)] + page
            return [0x08, 0x01, 0x1A, UInt8(item.count)] + item
        }
        #expect(payload(of: ServerFrame(callID: 1, response: .streamItem(.samples([sample])))) == frameBytes(head + a + b))

        // metadata { "b": "2" }, { "a": "1" }, { "b": "3" }
        let b3: [UInt8] = [0xA2, 0x01, 0x06, 0x0A, 0x01, 0x62, 0x12, 0x01, 0x33]
        let decoded = try WireCodec.decodeServerFrame(frameBytes(head + b + a + b3)[...])
        var expected = sample
        expected.metadata = ["a": "1", "b": "3"]
        #expect(decoded.callID == 1)
        #expect(try modelItem(frameBytes(head + b + a + b3)[...]) == .samples([expected]))
    }

    @Test func deletePredicateSendsHasStartAndOptionsAndNoEnd() throws {
        // Call { call_id: 1, delete (51) { uuids: "a", type: "t",
        //   predicate { has_start: true, start_us: 5, options: 3 } } }
        let frame = ClientFrame.call(Call(
            callID: 1,
            request: .delete(
                uuids: ["a"], type: ObjectType("t"),
                predicate: SamplePredicate(startMicros: 5, options: [.strictStartDate, .strictEndDate]))))
        let predicate: [UInt8] = [0x08, 0x01, 0x10, 0x05, 0x28, 0x03]
        let delete: [UInt8] = [0x0A, 0x01, 0x61, 0x12, 0x01, 0x74, 0x1A, UInt8(predicate.count)] + predicate
        let call: [UInt8] = [0x08, 0x01, 0x9A, 0x03, UInt8(delete.count)] + delete
        let bytes: [UInt8] = [0x0A, UInt8(call.count)] + call
        #expect(payload(of: frame) == bytes)
        #expect(try WireCodec.decodeClientFrame(bytes[...]) == frame)

        // A zero start is still a bound: has_start alone carries it. Unknown option bits are kept.
        let zero: [UInt8] = [0x08, 0x01, 0x18, 0x01, 0x20, 0x07, 0x28, 0x84, 0x80, 0x80, 0x80, 0x08]
        let zeroDelete: [UInt8] = [0x1A, UInt8(zero.count)] + zero
        let zeroCall: [UInt8] = [0x08, 0x01, 0x9A, 0x03, UInt8(zeroDelete.count)] + zeroDelete
        let zeroFrame = ClientFrame.call(Call(
            callID: 1,
            request: .delete(
                uuids: [], type: nil,
                predicate: SamplePredicate(
                    startMicros: 0, endMicros: 7, options: SamplePredicate.Options(rawValue: 0x8000_0004)))))
        #expect(payload(of: zeroFrame) == [0x0A, UInt8(zeroCall.count)] + zeroCall)
        #expect(try WireCodec.decodeClientFrame(([0x0A, UInt8(zeroCall.count)] + zeroCall)[...]) == zeroFrame)
    }

    @Test func queryAlwaysSendsPredicateAndSortAndDecodesTheirAbsenceAsDefaults() throws {
        // Call { call_id: 1, query (52) { type: "t", predicate: {}, sort: {} } }
        func callBytes(_ query: [UInt8]) -> [UInt8] {
            let call: [UInt8] = [0x08, 0x01, 0xA2, 0x03, UInt8(query.count)] + query
            return [0x0A, UInt8(call.count)] + call
        }
        let frame = ClientFrame.call(Call(callID: 1, request: .query(SampleQuery(type: ObjectType("t")))))
        #expect(payload(of: frame) == callBytes([0x0A, 0x01, 0x74, 0x12, 0x00, 0x22, 0x00]))
        // query { type: "t" }
        // As the broker maps a decoded query (SampleQuery(proto:)).
        func query(_ bytes: [UInt8]) throws -> SampleQuery? {
            guard case .call(let call) = try WireCodec.decodeClientFrame(bytes[...]), case .query(let query)? = call.request else { return nil }
            return SampleQuery(proto: query)
        }
        #expect(try query(callBytes([0x0A, 0x01, 0x74])) == SampleQuery(type: ObjectType("t")))
        // query { type: "t", sort { key: 7, descending: true } }: an unknown key sorts by start date.
        let unknownKey = callBytes([0x0A, 0x01, 0x74, 0x22, 0x04, 0x08, 0x07, 0x10, 0x01])
        #expect(try query(unknownKey) == SampleQuery(type: ObjectType("t"), sort: SampleSort(descending: true)))
    }

    @Test func unknownStatisticsIntervalDecodesAsNone() throws {
        // Call { call_id: 1, statistics (54) { type: "t", options: 1, interval: 9 } }
        let statistics: [UInt8] = [0x0A, 0x01, 0x74, 0x18, 0x01, 0x20, 0x09]
        let call: [UInt8] = [0x08, 0x01, 0xB2, 0x03, UInt8(statistics.count)] + statistics
        let bytes: [UInt8] = [0x0A, UInt8(call.count)] + call
        guard case .call(let decoded) = try WireCodec.decodeClientFrame(bytes[...]), case .statistics(let query)? = decoded.request else {
            Issue.record("not a Statistics call")
            return
        }
        #expect(StatisticsQuery(proto: query) == StatisticsQuery(type: ObjectType("t"), predicate: .all, options: .sum))
    }

    @Test func statisticsBucketSendsHasSumAndSum() throws {
        // ServerFrame { call_id: 1, statistics (54) { unit: "u",
        //   buckets { start_us: 1, end_us: 2, sample_count: 3, has_sum: true, sum: 2.0 } } }
        let bucket: [UInt8] = [0x08, 0x01, 0x10, 0x02, 0x18, 0x03, 0x20, 0x01, 0x29] + Self.fixed64(2)
        let statistics: [UInt8] = [0x0A, 0x01, 0x75, 0x12, UInt8(bucket.count)] + bucket
        let frame = ServerFrame(
            callID: 1,
            response: .statistics(StatisticsResult(
                unit: "u", buckets: [StatisticsBucket(startMicros: 1, endMicros: 2, sampleCount: 3, sum: 2)])))
        let bytes: [UInt8] = [0x08, 0x01, 0xB2, 0x03, UInt8(statistics.count)] + statistics
        #expect(payload(of: frame) == bytes)
        #expect(try WireCodec.decodeServerFrame(bytes[...]) == frame)
    }

    @Test func anchoredPageAndObserveEventEncodeAsTheProtoSays() throws {
        // stream_item { anchored_page (53) { deleted_uuids: "d", deleted_uuids: "e", new_anchor: 00 FF,
        // done: true, deleted_source_app_ids (5): "s", deleted_source_app_ids: "" } }
        let page: [UInt8] = [
            0x12, 0x01, 0x64, 0x12, 0x01, 0x65, 0x1A, 0x02, 0x00, 0xFF, 0x20, 0x01, 0x2A, 0x01, 0x73, 0x2A, 0x00,
        ]
        let pageItem: [UInt8] = [0xAA, 0x03, UInt8(page.count)] + page
        let pageFrame = ServerFrame(
            callID: 2,
            response: .streamItem(.anchoredPage(AnchoredPage(
                deletedUUIDs: ["d", "e"], deletedSourceAppIDs: ["s", ""], newAnchor: [0x00, 0xFF], done: true))))
        let pageBytes: [UInt8] = [0x08, 0x02, 0x1A, UInt8(pageItem.count)] + pageItem
        #expect(payload(of: pageFrame) == pageBytes)
        #expect(try WireCodec.decodeServerFrame(pageBytes[...]) == pageFrame)

        // stream_item { observed (55) { type: "t", changed_us: 5 } }
        let observed = ServerFrame(callID: 3, response: .streamItem(.observed(type: ObjectType("t"), changedMicros: 5)))
        let observedBytes: [UInt8] = [0x08, 0x03, 0x1A, 0x08, 0xBA, 0x03, 0x05, 0x0A, 0x01, 0x74, 0x10, 0x05]
        #expect(payload(of: observed) == observedBytes)
        #expect(try WireCodec.decodeServerFrame(observedBytes[...]) == observed)
        #expect(!observed.endsCall)
    }

    @Test func adminDataToolsUseTheirFields() {
        // Call { call_id: 1, admin_export (151) { app_id: "a" } }, admin_access_log (152) { limit: 5 }
        #expect(payload(of: .call(Call(callID: 1, request: .adminExport(type: nil, appID: "a"))))
            == [0x0A, 0x08, 0x08, 0x01, 0xBA, 0x09, 0x03, 0x12, 0x01, 0x61])
        #expect(payload(of: .call(Call(callID: 1, request: .adminAccessLog(appID: nil, limit: 5))))
            == [0x0A, 0x07, 0x08, 0x01, 0xC2, 0x09, 0x02, 0x10, 0x05])
        // ServerFrame { call_id: 1, admin_import (150) { saved: 2, unchanged: 1 } }, save (50), delete (51)
        #expect(payload(of: ServerFrame(callID: 1, response: .adminImport(saved: 2, unchanged: 1)))
            == [0x08, 0x01, 0xB2, 0x09, 0x04, 0x08, 0x02, 0x10, 0x01])
        #expect(payload(of: ServerFrame(callID: 1, response: .save(saved: 2, unchanged: 1)))
            == [0x08, 0x01, 0x92, 0x03, 0x04, 0x08, 0x02, 0x10, 0x01])
        #expect(payload(of: ServerFrame(callID: 1, response: .delete(deleted: 0))) == [0x08, 0x01, 0x9A, 0x03, 0x00])
    }
}
