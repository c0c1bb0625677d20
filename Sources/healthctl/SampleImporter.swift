import BrokerCore
import HealthBrokerClient

/// Sends batches to the broker as one source app, one call in flight while the next batch is prepared.
final class SampleImporter {
    /// What has been accepted so far.
    private(set) var tally = ImportTally()
    /// The progress line.
    let progress: ProgressLine
    private let admin: BrokerAdmin
    private let appID: String
    private let started = ContinuousClock.now
    private var inFlight: (batch: ImportBatch, call: Task<SaveResult, any Error>)?

    /// An importer that stores samples as saved by `appID`.
    init(admin: BrokerAdmin, appID: String, progress: ProgressLine = ProgressLine()) {
        self.admin = admin
        self.appID = appID
        self.progress = progress
    }

    /// Waits for the batch in flight, then sends `batch` without waiting for its answer.
    func submit(_ batch: ImportBatch) async throws(BatchFailure) {
        try await drain()
        guard !batch.samples.isEmpty else {
            tally.imported += batch.repeats
            tally.alreadyPresent += batch.repeats
            return
        }
        let admin = self.admin
        let appID = self.appID
        let samples = batch.samples
        inFlight = (batch, Task { try await admin.importSamples(samples, as: appID) })
    }

    /// Waits for the batch in flight, if any, and counts its answer.
    func drain() async throws(BatchFailure) {
        guard let (batch, call) = inFlight else { return }
        inFlight = nil
        let result: SaveResult
        do {
            result = try await call.value
        } catch let error as BrokerError {
            throw BatchFailure(batch: batch, error: error)
        } catch {
            throw BatchFailure(batch: batch, error: .internal("\(error)"))
        }
        tally.imported += result.saved + result.unchanged + batch.repeats
        tally.alreadyPresent += result.unchanged + batch.repeats
        progress.update(tally.progressLine(seconds: elapsedSeconds))
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
}
