import BrokerModel

/// Samples parsed from consecutive lines, sent in one all-or-nothing call.
struct ImportBatch: Equatable {
    /// The samples to send.
    var samples: [Sample] = []
    /// The line each sample came from (same order); empty for generated samples.
    var lines: [Int] = []
    /// The first line the batch covers (blank and skipped lines included).
    var firstLine = 0
    /// Lines that repeated a sample already in the batch (same UUID, same content): counted as already present.
    var repeats = 0
    /// The app every sample of the batch goes in as, when the batch is one source's (an Apple Health
    /// export's): its samples then name no source of their own and are sent as they are, without a
    /// copy per sample. Nil: each sample's own `sourceAppID` says (`import --keep-sources`).
    var sourceAppID: String?

    /// The line of the sample at `index`, when the samples came from lines.
    func line(ofSampleAt index: Int) -> Int? {
        lines.indices.contains(index) ? lines[index] : nil
    }

    /// The line of the sample whose UUID `message` mentions (case-insensitively), if any.
    func line(mentionedIn message: String) -> Int? {
        let lowered = message.lowercased()
        guard let index = samples.firstIndex(where: { lowered.contains($0.uuid.lowercased()) }) else { return nil }
        return line(ofSampleAt: index)
    }
}
