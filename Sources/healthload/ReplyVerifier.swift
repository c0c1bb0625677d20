import BrokerWire
import HealthBrokerClient

/// Checks replies in full (`--verify`): each frame is decoded by the codec and must hold what its
/// operation should get. Costs client CPU, so it is off by default.
struct ReplyVerifier: Sendable {
    /// What a Ping must echo.
    var payloadBytes: Int
    /// Samples a Query must stream in all.
    var querySamples: Int
    /// Samples a Save must report saved or unchanged.
    var saveBatch: Int

    /// The samples in a Query stream item, or nil when the item is not a page of samples.
    func samples(inItem frame: ServerFrame, operation: LoadOperation) -> Int? {
        guard operation == .query, case .streamItem(.samples(let samples)) = frame.response else { return nil }
        return samples.count
    }

    /// Whether the frame that ended an OK call holds the right answer; `streamedSamples` is what the
    /// call's stream items held.
    func isValidEnd(_ frame: ServerFrame, operation: LoadOperation, streamedSamples: Int) -> Bool {
        switch (operation, frame.response) {
        case (.ping, .ping(let reply)?): reply.payload.count == payloadBytes
        case (.easd, .earliestAuthorizedSampleDate(let dates)?): !dates.isEmpty
        case (.status, .authorizationStatus(let status)?): status == .sharingAuthorized
        case (.save, .save(let saved, let unchanged)?): Int(saved + unchanged) == saveBatch
        case (.query, nil): frame.status?.code == .ok && streamedSamples == querySamples
        case (.reqstatus, .requestStatus(let status)?): status == .unnecessary
        case (.custom, _): frame.status == nil || frame.status?.code == .ok
        default: false
        }
    }
}
