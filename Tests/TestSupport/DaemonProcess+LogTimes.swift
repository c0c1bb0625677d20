public import Foundation

extension DaemonProcess {
    /// When the daemon logged its first line containing `text`, from the line's `ts=` field; nil
    /// when no such line (or no timestamp) is there yet.
    ///
    /// For a duration measured by the daemon itself (a drain, a timeout): the test task's own
    /// clock also counts the time it sat behind the parallel suite's CPU-bound tests.
    public func loggedAt(_ text: String) -> Date? {
        guard let line = log().split(separator: "\n").first(where: { $0.contains(text) }),
            let field = line.split(separator: " ").first(where: { $0.hasPrefix("ts=") })
        else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: String(field.dropFirst(3)))
    }
}
