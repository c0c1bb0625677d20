import BrokerModel

/// The error lines of a failed import: where it went wrong, and what was committed before.
enum ImportFailureText {
    /// A line that could not be parsed: `FILE:LINE: message`, then what was imported before its batch.
    static func badLine(file: String, _ error: SampleFileError, batchFirstLine: Int, imported: Int) -> CommandFailure {
        CommandFailure(["\(file):\(error.line): \(error.message)", committed(imported: imported, beforeLine: batchFirstLine)])
    }

    /// A batch the broker refused: the line of the sample it named (else the batch's lines), then what was imported before.
    static func refusedBatch(file: String, _ failure: BatchFailure, imported: Int) -> CommandFailure {
        let batch = failure.batch
        let place: String
        if let index = failure.sampleIndex, let line = batch.line(ofSampleAt: index) {
            place = "\(file):\(line)"
        } else if let line = batch.line(mentionedIn: failure.error.message) {
            place = "\(file):\(line)"
        } else {
            place = "\(file):\(batch.firstLine)-\(batch.lines.last ?? batch.firstLine)"
        }
        let error = failure.error
        let redundant = error.domain == .none || error.domain.description.uppercased() == error.code.description
        let described = redundant ? "\(error.code)" : "\(error.code) (\(error.domain))"
        return CommandFailure([
            "\(place): \(described): \(failure.messageWithoutIndex)",
            committed(imported: imported, beforeLine: batch.firstLine),
        ])
    }

    /// A generated batch the broker refused (demo-data): the sample it named, then what was imported before.
    static func refusedGenerated(_ failure: BatchFailure, imported: Int) -> CommandFailure {
        var lines = ["the broker refused a batch of \(failure.batch.samples.count) generated samples: \(failure.error)"]
        if let index = failure.sampleIndex, failure.batch.samples.indices.contains(index) {
            lines.append("the sample it named: \(SampleLineWriter.line(for: failure.batch.samples[index]))")
        }
        lines.append("\(imported) samples imported before it (nothing of that batch)")
        if failure.error.code == .alreadyExists {
            lines.append("these UUIDs were stored before with other values (by another version of the generator?): "
                + "use another --seed, or remove the app and its samples first")
        }
        return CommandFailure(lines)
    }

    /// `1000 samples imported before line 1001 (nothing from line 1001 on was sent)`.
    static func committed(imported: Int, beforeLine line: Int) -> String {
        "\(imported) sample\(imported == 1 ? "" : "s") imported before line \(line) (nothing from line \(line) on was sent)"
    }
}
