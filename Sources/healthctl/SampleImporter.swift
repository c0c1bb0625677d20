import BrokerModel
import HealthBrokerClient

/// Sends batches to the broker as one source app, with calls in flight while the next batch is prepared.
///
/// With `maxInFlight` 1 (file imports) a batch is sent only once the one before it was committed,
/// so a failure leaves exactly the earlier batches stored. Generated data may keep two in flight,
/// letting the broker decode one batch while it stores the other.
final class SampleImporter {
    /// What has been accepted so far.
    private(set) var tally = ImportTally()
    /// The progress line.
    let progress: ProgressLine
    private let admin: BrokerAdmin
    private let appID: String
    /// Whether each sample goes in as its own `sourceAppID` (`import --keep-sources`) rather than `appID`.
    private let keepSources: Bool
    private let maxInFlight: Int
    private let started = ContinuousClock.now
    private var inFlight: [(batch: ImportBatch, call: Task<SaveResult, any Error>)] = []
    /// The id every call of this run sends, so the access log shows the run as one row per app and type.
    let batchID: String = SampleImporter.randomBatchID()

    /// 32 random hex digits.
    static func randomBatchID() -> String {
        var generator = SystemRandomNumberGenerator()
        var text = ""
        for _ in 0..<2 {
            let word = generator.next() as UInt64
            let hex = String(word, radix: 16)
            text += String(repeating: "0", count: 16 - hex.count) + hex
        }
        return text
    }

    /// An importer that stores samples as saved by `appID` (with `keepSources`: by the app each
    /// sample names, `appID` for those that name none), with up to `maxInFlight` calls outstanding.
    init(admin: BrokerAdmin, appID: String, keepSources: Bool = false, maxInFlight: Int = 1, progress: ProgressLine = ProgressLine()) {
        self.admin = admin
        self.appID = appID
        self.keepSources = keepSources
        self.maxInFlight = max(1, maxInFlight)
        self.progress = progress
    }

    /// Sends `batch` without waiting for its answer, once fewer than `maxInFlight` calls are outstanding.
    func submit(_ batch: ImportBatch) async throws(BatchFailure) {
        while inFlight.count >= maxInFlight { try await awaitOldest() }
        guard !batch.samples.isEmpty else {
            tally.imported += batch.repeats
            tally.alreadyPresent += batch.repeats
            return
        }
        if keepSources, let source = batch.sourceAppID {
            // One source's batch whose samples name no source: sent as it is (no copy per sample).
            let admin = self.admin
            let batchID = self.batchID
            let appID = source.isEmpty ? self.appID : source
            inFlight.append((batch, Task { try await admin.importSamples(batch.samples, as: appID, batchID: batchID) }))
            return
        }
        for (appID, part) in split(batch) {
            while inFlight.count >= maxInFlight { try await awaitOldest() }
            let admin = self.admin
            let batchID = self.batchID
            // The broker records the call's app as the source; a sample's own field is not sent.
            let samples = part.samples.map { sample in
                var sample = sample
                sample.sourceAppID = ""
                return sample
            }
            inFlight.append((part, Task { try await admin.importSamples(samples, as: appID, batchID: batchID) }))
        }
    }

    /// The batch as one call per source app, in the order each app first appears (one call
    /// unless `keepSources`); the batch's repeats count with the first part.
    private func split(_ batch: ImportBatch) -> [(appID: String, batch: ImportBatch)] {
        guard keepSources else { return [(appID, batch)] }
        // One source (every sample names the same app): no split.
        if let first = batch.samples.first?.sourceAppID, batch.samples.allSatisfy({ $0.sourceAppID == first }) {
            return [(first.isEmpty ? appID : first, batch)]
        }
        var parts: [(appID: String, batch: ImportBatch)] = []
        var index: [String: Int] = [:]
        for (position, sample) in batch.samples.enumerated() {
            let source = sample.sourceAppID.isEmpty ? appID : sample.sourceAppID
            let slot: Int
            if let known = index[source] {
                slot = known
            } else {
                slot = parts.count
                index[source] = slot
                parts.append((source, ImportBatch(firstLine: batch.firstLine, repeats: parts.isEmpty ? batch.repeats : 0)))
            }
            parts[slot].batch.samples.append(sample)
            if let line = batch.line(ofSampleAt: position) { parts[slot].batch.lines.append(line) }
        }
        return parts
    }

    /// Waits for every call in flight and counts their answers; the first failure is thrown.
    func drain() async throws(BatchFailure) {
        while !inFlight.isEmpty { try await awaitOldest() }
    }

    /// Waits for the last batch and prints the summary line.
    func finish() async throws(BatchFailure) {
        try await drain()
        progress.finish(tally.summary(seconds: elapsedSeconds))
    }

    /// Seconds since the importer was made.
    var elapsedSeconds: Double {
        let (seconds, attoseconds) = started.duration(to: .now).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Waits for the oldest call and counts its answer; on failure, the later calls are left to finish on their own.
    private func awaitOldest() async throws(BatchFailure) {
        let (batch, call) = inFlight.removeFirst()
        let result: SaveResult
        do {
            result = try await call.value
        } catch let error as BrokerError {
            inFlight.removeAll()
            throw BatchFailure(batch: batch, error: error)
        } catch {
            inFlight.removeAll()
            throw BatchFailure(batch: batch, error: .internal("\(error)"))
        }
        tally.imported += result.saved + result.unchanged + batch.repeats
        tally.alreadyPresent += result.unchanged + batch.repeats
        progress.update(tally.progressLine(seconds: elapsedSeconds))
    }
}
