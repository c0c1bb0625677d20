import BrokerModel
import BrokerStore
import Testing

/// Saves write `chunkSizes` rows per INSERT and fall back to smaller chunks, then one row at a time, for a chunk that
/// holds a uuid already stored (or repeated); the outcome must be what row-by-row saving gives.
@Suite("BrokerStore chunked sample saves")
struct SampleChunkedSaveTests {
    typealias F = Fixture

    /// The seq of every stored sample, in seq order (one export page per sample).
    static func sequences(_ store: BrokerStore) throws -> [Int64] {
        var sequences: [Int64] = []
        var after: Int64 = 0
        while true {
            let page = try store.exportPage(type: nil, appID: nil, afterSequence: after, pageSize: 1)
            guard !page.samples.isEmpty else { return sequences }
            sequences.append(page.lastSequence)
            after = page.lastSequence
        }
    }

    static func batch(_ numbers: Range<Int>) -> [Sample] {
        numbers.map { F.steps($0, F.base + Int64($0) * F.minute, F.base + Int64($0 + 1) * F.minute, count: Double($0)) }
    }

    @Test(arguments: [1, 49, 50, 51, 100, 149, 199, 200, 201, 249, 250, 251, 449, 1_000, 1_049])
    func batchesOfAnySizeStoreEverySampleWithConsecutiveSequences(count: Int) throws {
        try F.withStore { store, _ throws in
            let samples = Self.batch(0..<count)
            let outcome = try store.saveSamples(samples, sourceAppID: F.app, now: 7)
            #expect(outcome.saved == count)
            #expect(outcome.savedSamples == samples.map { F.stored($0, by: F.app, at: 7) })
            #expect(try F.readAll(store) == samples.map { F.stored($0, by: F.app, at: 7) })
            #expect(try Self.sequences(store) == Array(1...Int64(count)))
            #expect(try store.currentSequence() == Int64(count))
        }
    }

    @Test func storedAndRepeatedUUIDsInsideChunksAreUnchangedAndLeaveNoSequenceGaps() throws {
        try F.withStore { store, _ throws in
            var samples = Self.batch(0..<230)
            // Two samples of the batch are stored already, with the same content.
            _ = try store.saveSamples([samples[60], samples[175]], sourceAppID: F.app, now: 1)
            // One is repeated inside its own chunk (indexes 100–149).
            samples[120] = samples[110]
            let outcome = try store.saveSamples(samples, sourceAppID: F.app, now: 2)
            #expect(outcome.saved == 227)
            #expect(outcome.unchanged == 3)
            let expected = samples.enumerated()
                .filter { ![60, 175, 120].contains($0.offset) }
                .map { F.stored($0.element, by: F.app, at: 2) }
            #expect(outcome.savedSamples == expected, "saved in batch order, the skipped ones left out")
            #expect(try Self.sequences(store) == Array(1...229), "2 earlier saves, then 227 with no gaps")
            #expect(try store.currentSequence() == 229)
        }
    }

    /// Every row's uuid (16 bytes, or text when not canonical), unit and metadata of its own length
    /// come back as saved, in 200-row, 50-row and row-by-row inserts alike (the bindings of a
    /// multi-row INSERT are per row: none may leak into the next).
    @Test func eachRowsUUIDUnitAndMetadataComeBackAsSavedWhateverTheirLengths() throws {
        try F.withStore { store, _ throws in
            let long = String(repeating: "ü", count: 600)
            let samples = (0..<263).map { n in
                var sample = F.steps(n, F.base + Int64(n) * F.minute, F.base + Int64(n + 1) * F.minute, count: Double(n),
                                     metadata: n % 2 == 0 ? ["note": String(repeating: "x", count: n % 37), "big": n % 10 == 0 ? long : ""] : [:])
                if n % 7 == 0 { sample.uuid = "legacy-\(n)" }
                return sample
            }
            // Row 5 stored first: its 200-row chunk falls back to 50-row chunks, its own 50 rows go in
            // row by row; rows 200-262 (63) are a 50-row chunk and 13 single rows.
            _ = try store.saveSamples([samples[5]], sourceAppID: F.app, now: 1)
            let outcome = try store.saveSamples(samples, sourceAppID: F.app, now: 2)
            #expect(outcome.saved == 262)
            let read = try F.readAll(store)
            let expected = samples.enumerated().map { F.stored($0.element, by: F.app, at: $0.offset == 5 ? 1 : 2) }
            #expect(read.count == expected.count)
            #expect(Dictionary(uniqueKeysWithValues: read.map { ($0.uuid, $0) }) == Dictionary(uniqueKeysWithValues: expected.map { ($0.uuid, $0) }))
        }
    }

    @Test func aStoredUUIDInsideA200RowChunkSendsOnlyItsOwn50RowsRowByRow() throws {
        try F.withStore { store, _ throws in
            let samples = Self.batch(0..<475)
            // Index 260: in the second 200-row chunk (200–399) and the 50-row chunk 250–299.
            _ = try store.saveSamples([samples[260]], sourceAppID: F.app, now: 1)
            let outcome = try store.saveSamples(samples, sourceAppID: F.app, now: 2)
            #expect(outcome.saved == 474)
            #expect(outcome.unchanged == 1)
            #expect(outcome.savedIndexes == Array(0..<260) + Array(261..<475))
            #expect(try Self.sequences(store) == Array(1...475), "1 earlier save, then 474 with no gaps")
            #expect(Set(try F.readAll(store).map(\.uuid)) == Set(samples.map(\.uuid)))
        }
    }

    @Test func aChangedSampleInsideAChunkIsAlreadyExistsNamingItsIndexAndWritesNothing() throws {
        try F.withStore { store, _ throws in
            let samples = Self.batch(0..<160)
            var earlier = samples[77]
            earlier.value = .quantity(Quantity(1_234, "count"))
            _ = try store.saveSamples([earlier], sourceAppID: F.app, now: 1)
            let error = #expect(throws: BrokerError.self) {
                try store.saveSamples(samples, sourceAppID: F.app, now: 2)
            }
            #expect(error?.code == .alreadyExists)
            #expect(error?.message.hasPrefix("samples[77]: ") == true)
            #expect(try F.readAll(store).map(\.uuid) == [F.uuid(77)])
            #expect(try store.currentSequence() == 1)
        }
    }

    @Test func aChunkAfterAFallbackChunkIsWrittenWhole() throws {
        try F.withStore { store, _ throws in
            let samples = Self.batch(0..<150)
            var changed = samples[10]
            changed.value = .quantity(Quantity(1_000, "count"))
            _ = try store.saveSamples([changed], sourceAppID: F.app, now: 1)
            // Index 10 is stored by this app with other content: the whole batch fails, naming it.
            let error = #expect(throws: BrokerError.self) {
                try store.saveSamples(samples, sourceAppID: F.app, now: 2)
            }
            #expect(error?.message.hasPrefix("samples[10]: ") == true)
            // Without it, every later chunk goes in and the seqs follow on.
            let rest = Array(samples[11...])
            #expect(try store.saveSamples(rest, sourceAppID: F.app, now: 3).saved == 139)
            #expect(try Self.sequences(store) == Array(1...140))
            // Another app's sample under the same uuid is another sample: its batch goes in whole.
            #expect(try store.saveSamples(samples, sourceAppID: F.other, now: 4).saved == 150)
        }
    }
}
