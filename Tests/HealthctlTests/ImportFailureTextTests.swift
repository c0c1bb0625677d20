import BrokerModel
@testable import healthctl
import Testing

@Suite struct ImportFailureTextTests {
    static func batch() -> ImportBatch {
        let samples = (0..<3).map { index in
            Sample(uuid: "00000000-0000-4000-8000-00000000000\(index)", type: .stepCount, startMicros: 0, endMicros: 0,
                   value: .quantity(Quantity(1, "count")))
        }
        return ImportBatch(samples: samples, lines: [1001, 1003, 1004], firstLine: 1001)
    }

    @Test func aBadLineSaysWhatWasCommitted() {
        let failure = ImportFailureText.badLine(
            file: "steps.jsonl", SampleFileError(line: 1234, message: "unknown type 'stepz'"), batchFirstLine: 1001, imported: 1000)
        #expect(failure.lines == [
            "steps.jsonl:1234: unknown type 'stepz'",
            "1000 samples imported before line 1001 (nothing from line 1001 on was sent)",
        ])
    }

    @Test func aRefusedBatchNamesTheLineOfTheIndexedSample() {
        let error = BrokerError.invalidArgument("samples[1]: starts before the earliest permitted date 2000-01-01T00:00:00Z")
        let failure = ImportFailureText.refusedBatch(file: "f.jsonl", BatchFailure(batch: Self.batch(), error: error), imported: 1000)
        #expect(failure.lines == [
            "f.jsonl:1003: INVALID_ARGUMENT: starts before the earliest permitted date 2000-01-01T00:00:00Z",
            "1000 samples imported before line 1001 (nothing from line 1001 on was sent)",
        ])
    }

    @Test func aRefusedBatchNamesTheLineOfTheMentionedUUID() {
        let error = BrokerError.alreadyExists("uuid 00000000-0000-4000-8000-000000000002 is stored with other content")
        let failure = ImportFailureText.refusedBatch(file: "f.jsonl", BatchFailure(batch: Self.batch(), error: error), imported: 0)
        #expect(failure.lines.first == "f.jsonl:1004: ALREADY_EXISTS: uuid 00000000-0000-4000-8000-000000000002 is stored with other content")
        #expect(failure.lines.last == "0 samples imported before line 1001 (nothing from line 1001 on was sent)")
    }

    @Test func otherwiseTheWholeBatchIsNamed() {
        let failure = ImportFailureText.refusedBatch(
            file: "f.jsonl", BatchFailure(batch: Self.batch(), error: .databaseInaccessible("disk full")), imported: 1)
        #expect(failure.lines.first?.hasPrefix("f.jsonl:1001-1004: UNAVAILABLE (database_inaccessible): disk full") == true)
        #expect(failure.lines.last == "1 sample imported before line 1001 (nothing from line 1001 on was sent)")
    }

    @Test func sampleIndexesAreFoundInMessages() {
        #expect(BatchFailure.sampleIndex(in: "samples[17]: bad") == 17)
        #expect(BatchFailure.sampleIndex(in: "oops in samples[3]") == 3)
        #expect(BatchFailure.sampleIndex(in: "samples[x]") == nil)
        #expect(BatchFailure.sampleIndex(in: "samples[12") == nil)
        #expect(BatchFailure.sampleIndex(in: "nothing") == nil)
    }

    @Test func tallyLines() {
        let tally = ImportTally(imported: 1200, alreadyPresent: 200)
        #expect(tally.summary(seconds: 1.44) == "imported 1200 samples (200 already present) in 1.4 s (833/s)")
        #expect(tally.progressLine(seconds: 2) == "imported 1200 samples (200 already present), 600/s")
        #expect(ImportTally().summary(seconds: 0) == "imported 0 samples (0 already present) in 0.0 s (0/s)")
    }
}
