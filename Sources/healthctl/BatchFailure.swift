import BrokerModel
import Foundation

/// A batch the broker refused (or that never got an answer); nothing of it was stored.
struct BatchFailure: Error {
    /// The batch.
    var batch: ImportBatch
    /// What the broker said.
    var error: BrokerError

    /// The index the broker's message names (`samples[17]: …`), if any.
    var sampleIndex: Int? {
        Self.sampleIndex(in: error.message)
    }

    /// The `N` of the first `samples[N]` in `message`.
    static func sampleIndex(in message: String) -> Int? {
        guard let opening = message.range(of: "samples[") else { return nil }
        let digits = message[opening.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, message[opening.upperBound...].dropFirst(digits.count).first == "]" else { return nil }
        return Int(digits)
    }

    /// The broker's message without its `samples[N]: ` prefix (the caller names the line instead).
    var messageWithoutIndex: String {
        guard let index = sampleIndex else { return error.message }
        let prefix = "samples[\(index)]: "
        return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
    }
}
