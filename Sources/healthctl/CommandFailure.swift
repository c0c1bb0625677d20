import BrokerModel

/// A broker error turned into the lines `healthctl` prints on standard error (exit status 1).
struct CommandFailure: Error, Equatable {
    /// The explanation, one line each; the first is the error itself, the rest are hints.
    var lines: [String]

    /// A failure explained by `lines` (the first is the error, the rest are hints).
    init(_ lines: [String]) {
        self.lines = lines
    }

    /// A failure to open the admin connection at `socket`.
    init(connecting error: BrokerError, socket: String) {
        switch error.code {
        case .unavailable:
            lines = ["cannot reach the broker: \(error.message)", "is healthbrokerd running? socket: \(socket)"]
        case .permissionDenied:
            lines = [
                error.message,
                "the admin socket admits only the daemon's user (and its --admin-uid); socket: \(socket)",
            ]
        default:
            lines = [error.description]
        }
    }

    /// A call that failed on an open admin connection at `socket`.
    init(calling error: BrokerError, socket: String) {
        lines = [error.description]
        if error.code == .unavailable && error.domain != .brokerShuttingDown {
            lines.append("is healthbrokerd running? socket: \(socket)")
        }
    }

    /// The lines prefixed with `program: `, newline-terminated.
    func report(program: String) -> String {
        lines.map { "\(program): \($0)\n" }.joined()
    }
}
