import BrokerModel
import BrokerPolicy
import BrokerStore
import Testing

@Suite("BrokerStore sample saves")
struct SampleSaveTests {
    typealias F = Fixture

    @Test func saveIsIdempotentForTheSameContent() throws {
        try F.withStore { store, _ throws in
            let batch = [
                F.steps(1, F.base, F.base + F.minute, count: 12),
                F.steps(2, F.base + F.minute, F.base + 2 * F.minute, count: 0, metadata: ["device": "watch"]),
            ]
            let first = try store.saveSamples(batch, sourceAppID: F.app, now: 100)
            #expect(first.saved == 2)
            #expect(first.unchanged == 0)
            #expect(first.savedSamples == batch.map { F.stored($0, by: F.app, at: 100) })
            #expect(try store.currentSequence() == 2)

            // A retry (and a batch mixing old and new) changes nothing that was there.
            let retry = try store.saveSamples(batch, sourceAppID: F.app, now: 200)
            #expect(retry.saved == 0)
            #expect(retry.unchanged == 2)
            #expect(retry.savedSamples.isEmpty)
            #expect(try store.currentSequence() == 2)

            let third = F.steps(3, F.base, F.base, count: 1)
            let mixed = try store.saveSamples([batch[1], third], sourceAppID: F.app, now: 300)
            #expect((mixed.saved, mixed.unchanged) == (1, 1))
            #expect(mixed.savedSamples == [F.stored(third, by: F.app, at: 300)])

            // Stored creation times are the first save's.
            #expect(try F.readAll(store) == [
                F.stored(batch[0], by: F.app, at: 100), F.stored(third, by: F.app, at: 300), F.stored(batch[1], by: F.app, at: 100),
            ])
        }
    }

    @Test func metadataOrderDoesNotChangeContent() throws {
        try F.withStore { store, _ throws in
            var forward: [String: String] = [:]
            var backward: [String: String] = [:]
            let keys = (0..<40).map { "key-\($0)-\(String(repeating: "x", count: $0 % 7))" }
            for key in keys { forward[key] = "v" + key }
            for key in keys.reversed() { backward[key] = "v" + key }
            _ = try store.saveSamples([F.steps(1, F.base, F.base, metadata: forward)], sourceAppID: F.app, now: 1)
            let again = try store.saveSamples([F.steps(1, F.base, F.base, metadata: backward)], sourceAppID: F.app, now: 2)
            #expect(again.unchanged == 1)
        }
    }

    @Test func sameUUIDWithOtherContentIsAlreadyExistsNamingTheIndex() throws {
        try F.withStore { store, _ throws in
            let original = F.steps(1, F.base, F.base + F.minute, count: 5, metadata: ["a": "b"])
            _ = try store.saveSamples([original], sourceAppID: F.app, now: 1)

            var changedValue = original
            changedValue.value = .quantity(Quantity(6, "count"))
            var changedEnd = original
            changedEnd.endMicros += 1
            var changedMetadata = original
            changedMetadata.metadata = ["a": "c"]
            var changedType = original
            changedType.type = .flightsClimbed
            var changedKind = original
            changedKind.value = .category(5)
            for variant in [changedValue, changedEnd, changedMetadata, changedType, changedKind] {
                let error = #expect(throws: BrokerError.self) {
                    try store.saveSamples([F.steps(2, F.base, F.base), F.steps(3, F.base, F.base), variant], sourceAppID: F.app, now: 2)
                }
                #expect(error?.code == .alreadyExists)
                #expect(error?.message.hasPrefix("samples[2]: ") == true)
            }

            // Nothing of the failed batches was written: no samples, no sequence numbers, no log rows.
            #expect(try F.readAll(store).map(\.uuid) == [F.uuid(1)])
            #expect(try store.currentSequence() == 1)
            #expect(try store.accessLog(appID: nil, limit: 0).count == 1)

            // Another app's uuid namespace is its own: the same uuid, with this content or any
            // other, is a new sample there, and a retry of it is unchanged.
            #expect(try store.saveSamples([original], sourceAppID: F.other, now: 3).saved == 1)
            #expect(try store.saveSamples([changedValue], sourceAppID: "com.example.third", now: 3).saved == 1)
            #expect(try store.saveSamples([original], sourceAppID: F.other, now: 4).unchanged == 1)
            #expect(try F.readAll(store).map(\.sourceAppID).sorted() == [F.app, "com.example.third", F.other].sorted())
        }
    }

    @Test func aConflictLateInABatchRollsBackTheWholeBatch() throws {
        try F.withStore { store, _ throws in
            _ = try store.saveSamples([F.steps(500, F.base, F.base, count: 1)], sourceAppID: F.app, now: 1)
            var batch = (0..<300).map { F.steps($0, F.base + Int64($0), F.base + Int64($0) + F.minute) }
            batch.append(F.steps(500, F.base, F.base, count: 2))
            let error = #expect(throws: BrokerError.self) {
                try store.saveSamples(batch, sourceAppID: F.app, now: 2)
            }
            #expect(error?.code == .alreadyExists)
            #expect(error?.message.hasPrefix("samples[300]: ") == true)
            #expect(try F.readAll(store).map(\.uuid) == [F.uuid(500)])
            #expect(try store.currentSequence() == 1)
            #expect(try store.exportPage(type: nil, appID: nil, afterSequence: 0, pageSize: 1_000).samples.count == 1)

            // The same batch without the conflict goes through whole.
            batch.removeLast()
            #expect(try store.saveSamples(batch, sourceAppID: F.app, now: 3).saved == 300)
            #expect(try store.currentSequence() == 301)
        }
    }

    @Test func valuesTheStoreCannotKeepAreInvalidArgumentNamingTheIndex() throws {
        try F.withStore { store, _ throws in
            let backwards = F.steps(1, F.base, F.base - 1)
            var nan = F.steps(2, F.base, F.base)
            nan.value = .quantity(Quantity(.nan, "count"))
            let kilojoules = Sample(uuid: F.uuid(3), type: .workout, startMicros: F.base, endMicros: F.base + F.hour,
                                    value: .workout(WorkoutDetails(activityType: "running", durationMicros: F.hour,
                                                                   totalEnergy: Quantity(100, "kJ"))))
            var empty = F.steps(4, F.base, F.base)
            empty.uuid = ""
            for bad in [backwards, nan, kilojoules, empty] {
                let error = #expect(throws: BrokerError.self) {
                    try store.saveSamples([F.steps(9, F.base, F.base), bad], sourceAppID: F.app, now: 1)
                }
                #expect(error?.code == .invalidArgument)
                #expect(error?.message.hasPrefix("samples[1]: ") == true)
            }
            #expect(try store.currentSequence() == 0)
        }
    }

    @Test func everyValueKindAndMetadataRoundTrips() throws {
        try F.withStore { store, _ throws in
            let metadata = [
                "HKDevice": "Apple Watch",
                "ключ": "värde 🫀 — 心拍",
                "quote\"and\\slash": "control\u{0}\u{1}\u{1f}\n\r\t end",
                "": "",
                "e\u{301}": "combining",
                "emoji 👩‍👩‍👧": "\u{10FFFF}\u{FFFD}",
                "{\"json\":[1,2]}": "\\u0041 is not unescaped",
            ]
            let samples = [
                Sample(uuid: F.uuid(1), type: .heartRate, startMicros: F.base, endMicros: F.base,
                       value: .quantity(Quantity(72.125, "count/min")), metadata: metadata),
                Sample(uuid: F.uuid(2), type: .bodyMass, startMicros: -F.hour, endMicros: 0,
                       value: .quantity(Quantity(1e-300, "kg"))),
                Sample(uuid: F.uuid(3), type: .distanceWalkingRunning, startMicros: F.base, endMicros: F.base + 1,
                       value: .quantity(Quantity(1.7976931348623157e308, "m"))),
                Sample(uuid: F.uuid(4), type: .sleepAnalysis, startMicros: F.base, endMicros: F.base + 8 * F.hour,
                       value: .category(3), metadata: ["stage": "deep"]),
                Sample(uuid: F.uuid(5), type: .mindfulSession, startMicros: .min, endMicros: .max,
                       value: .category(.max)),
                Sample(uuid: F.uuid(6), type: .workout, startMicros: F.base, endMicros: F.base + F.hour,
                       value: .workout(WorkoutDetails(activityType: "running", durationMicros: F.hour - 5 * F.minute,
                                                      totalEnergy: Quantity(512.5, "kcal"), totalDistance: Quantity(10_000.25, "m")))),
                Sample(uuid: F.uuid(7), type: .workout, startMicros: F.base, endMicros: F.base + F.hour,
                       value: .workout(WorkoutDetails(activityType: "yoga", durationMicros: 0))),
                Sample(uuid: F.uuid(8), type: .workout, startMicros: F.base, endMicros: F.base,
                       value: .workout(WorkoutDetails(activityType: "", durationMicros: 1, totalDistance: Quantity(0, "m")))),
            ]
            let outcome = try store.saveSamples(samples, sourceAppID: F.app, now: 42)
            #expect(outcome.saved == samples.count)
            let expected = samples.map { F.stored($0, by: F.app, at: 42) }
            let exported = try store.exportPage(type: nil, appID: nil, afterSequence: 0, pageSize: 100)
            #expect(exported.samples == expected)
            #expect(exported.lastSequence == Int64(samples.count))
            // Metadata strings come back byte for byte, not just canonically equal.
            let heart = try #require(exported.samples.first)
            #expect(heart.metadata.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
                    == metadata.keys.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) })
            for (key, value) in metadata {
                #expect(heart.metadata[key].map { Array($0.utf8) } == Array(value.utf8))
            }
            for type in Set(expected.map(\.type)) {
                // Within a type the fixtures are already in (start, uuid) order.
                #expect(try F.readAll(store, type: type) == expected.filter { $0.type == type })
            }
            // And saving them again is a no-op: the stored form has the same canonical content.
            #expect(try store.saveSamples(samples, sourceAppID: F.app, now: 43).unchanged == samples.count)
        }
    }

    @Test func negativeZeroIsStoredAsZero() throws {
        try F.withStore { store, _ throws in
            _ = try store.saveSamples([F.steps(1, F.base, F.base, count: -0.0)], sourceAppID: F.app, now: 1)
            #expect(try store.saveSamples([F.steps(1, F.base, F.base, count: 0)], sourceAppID: F.app, now: 2).unchanged == 1)
            let value = try #require(F.readAll(store).first?.value)
            guard case .quantity(let quantity) = value else { Issue.record("not a quantity"); return }
            #expect(quantity.value == 0 && quantity.value.sign == .plus)
        }
    }

    @Test func samplesSequenceAndLogSurviveReopening() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let samples = (0..<5).map { F.steps($0, F.base + Int64($0) * F.hour, F.base + Int64($0) * F.hour + F.minute) }
        do {
            let store = try BrokerStore(dataDirectory: directory.path)
            _ = try store.saveSamples(samples, sourceAppID: F.app, now: 10)
            _ = try store.deleteSamples(uuids: [F.uuid(2)], appID: F.app, now: 20)
            store.close()
        }
        let store = try BrokerStore(dataDirectory: directory.path)
        defer { store.close() }
        var expected = samples.map { F.stored($0, by: F.app, at: 10) }
        expected.remove(at: 2)
        #expect(try F.readAll(store) == expected)
        #expect(try store.currentSequence() == 6)
        let changes = try store.changes(type: .stepCount, predicate: .all, scope: .from(.min), appID: F.app,
                                        afterSequence: 5, throughSequence: 6, pageSize: 10)
        #expect(changes.deleted.map(\.uuid) == [F.uuid(2)])
        #expect(try store.accessLog(appID: F.app, limit: 0).map(\.operation) == ["delete", "write"])
        // Sequence numbers continue after the reopen.
        _ = try store.saveSamples([F.steps(9, F.base, F.base)], sourceAppID: F.app, now: 30)
        #expect(try store.currentSequence() == 7)
    }
}
