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
    func samples(inItem frame: Proto.ServerFrame, operation: LoadOperation) -> Int? {
        if operation == .anchored, case .streamItem(let item)? = frame.response, case .anchoredPage(let page)? = item.item,
           (try? AnchoredPage(proto: page)) != nil {
            return page.added.count
        }
        guard operation == .query, case .streamItem(let item)? = frame.response, case .samples(let page)? = item.item,
              (try? Sample.samples(proto: page.samples)) != nil
        else { return nil }
        return page.samples.count
    }

    /// Whether the frame that ended an OK call holds the right answer; `streamedSamples` is what the
    /// call's stream items held.
    func isValidEnd(_ frame: Proto.ServerFrame, operation: LoadOperation, streamedSamples: Int) -> Bool {
        switch (operation, frame.response) {
        case (.ping, .ping(let reply)?): reply.payload.count == payloadBytes
        case (.easd, .earliestAuthorizedSampleDate(let dates)?): !TypeDates(proto: dates).isEmpty
        case (.status, .authorizationStatus(let answer)?): AuthorizationStatus(rawValue: answer.status.rawValue) == .sharingAuthorized
        case (.save, .save(let saved)?): Int(saved.saved + saved.unchanged) == saveBatch
        case (.query, nil), (.anchored, nil): frame.status?.code == .ok && streamedSamples == querySamples
        case (.reqstatus, .requestStatus(let answer)?): RequestStatus(rawValue: answer.status.rawValue) == .unnecessary
        case (.custom, _): frame.status == nil || frame.status?.code == .ok
        default: false
        }
    }
}
