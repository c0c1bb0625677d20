import BrokerModel
import BrokerStore
import Testing

@Suite("Group commit")
struct GroupCommitTests {
    private typealias F = Fixture

    @Test func eachBatchOfAGroupGetsItsOwnResultAndAFailedOneChangesNothing() throws {
        try F.withStore { store, _ in
            _ = try store.saveSamples([F.steps(1, F.base, F.base + F.minute, count: 5)], sourceAppID: F.app, now: 1)
            let before = try store.currentSequence()
            let first = [F.steps(2, F.base, F.base + F.minute), F.steps(3, F.base, F.base + F.minute)]
            // Uuid 1 with other content: this batch fails as a whole, even its new sample 4.
            let conflicting = [F.steps(4, F.base, F.base + F.minute), F.steps(1, F.base, F.base + F.minute, count: 99)]
            let third = [F.steps(5, F.base, F.base + F.minute), F.steps(1, F.base, F.base + F.minute, count: 5)]
            let results = try store.saveSampleGroups([
                SaveRequest(samples: first, sourceAppID: F.app),
                SaveRequest(samples: conflicting, sourceAppID: F.app),
                SaveRequest(samples: [], sourceAppID: F.app),
                SaveRequest(samples: third, sourceAppID: F.app),
                SaveRequest(samples: [F.steps(6, F.base, F.base - 1)], sourceAppID: F.app),
            ], now: 2)
            #expect(results.count == 5)
            #expect(try results[0].get().saved == 2)
            #expect(throws: BrokerError.self) { try results[1].get() }
            if case .failure(let error) = results[1] { #expect(error.code == .alreadyExists) }
            #expect(try results[2].get().saved == 0)
            let last = try results[3].get()
            #expect(last.saved == 1 && last.unchanged == 1)
            if case .failure(let error) = results[4] { #expect(error.code == .invalidArgument) } else { Issue.record("start after end was saved") }
            let stored = try F.readAll(store).map(\.uuid).sorted()
            #expect(stored == [1, 2, 3, 5].map(F.uuid))
            // The sequence numbers the three new samples without a gap for the rolled-back one.
            #expect(try store.currentSequence() == before + 3)
            let written = try store.accessLog(appID: F.app, limit: 0).filter { $0.operation == "write" }.map(\.sampleCount)
            #expect(written.sorted() == [1, 1, 2], "one write row per successful batch, none for the failed one")
        }
    }

    @Test func aGroupOfOneBehavesLikeSaveSamples() throws {
        try F.withStore { store, _ in
            let results = try store.saveSampleGroups([SaveRequest(samples: [F.steps(1, F.base, F.base + F.minute)], sourceAppID: F.app)], now: 1)
            #expect(try results[0].get().saved == 1)
            #expect(throws: BrokerError.self) {
                try store.saveSamples([F.steps(1, F.base, F.base + F.minute, count: 2)], sourceAppID: F.app, now: 2)
            }
            #expect(try store.currentSequence() == 1)
        }
    }
}
