/// Whether X got the same answer from both arms of a call (the replies half of the question).
struct PrivacyCheck: Codable, Sendable {
    /// "privacy-check" (a JSON line's kind).
    var kind = "privacy-check"
    /// The call kind.
    var call: String
    /// True when the normalised answers match, anchors' sequence numbers included.
    var same: Bool
    /// The first arm's status ("OK", "NOT_FOUND/no_data", …).
    var statusA: String
    /// The second arm's status.
    var statusB: String
    /// Samples, buckets or deleted uuids each arm listed.
    var itemsA: Int
    /// The second arm's items.
    var itemsB: Int
    /// The sequence number in each arm's new anchor (anchored queries with a plain anchor only).
    var anchorSequenceA: Int64?
    /// The second arm's anchor sequence.
    var anchorSequenceB: Int64?

    /// Compares two answers of `call`.
    init(_ call: PrivacyCall, _ first: PrivacyReply, _ second: PrivacyReply) {
        self.call = call.rawValue
        same = first.text == second.text && first.anchorSequence == second.anchorSequence
        (statusA, statusB) = (first.status, second.status)
        (itemsA, itemsB) = (first.items, second.items)
        (anchorSequenceA, anchorSequenceB) = (first.anchorSequence, second.anchorSequence)
    }

    /// A short account: statuses, items, anchors.
    var summary: String {
        let names = PrivacyCall(rawValue: call)?.armNames ?? ("A", "B")
        var text = "\(names.0): \(statusA), \(itemsA) items; \(names.1): \(statusB), \(itemsB) items"
        if let anchorSequenceA, let anchorSequenceB {
            text += "; anchor sequence \(anchorSequenceA) vs \(anchorSequenceB)"
        }
        return text
    }
}
