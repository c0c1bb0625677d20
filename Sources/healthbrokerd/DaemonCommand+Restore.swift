import BrokerModel
import BrokerStore
import CommandLineSupport

extension DaemonCommand {
    /// `healthbrokerd --restore FILE`: puts a backup in place as the data directory's database and
    /// returns (the process then exits 0) instead of serving.
    ///
    /// It does not go on to serve: a restore is an operator's one-off step, and a daemon that
    /// started by itself would do so outside the service manager that normally runs it. The
    /// directory's lock must be free, so a running broker makes this fail with FAILED_PRECONDITION.
    static func restore(_ file: String, command: ParsedCommand) throws {
        let directory = try command.requiredString("data-dir")
        let outcome = try BrokerStore.restore(from: file, dataDirectory: directory, now: StoreBackup.currentSeconds())
        var line = "restored \(file) into \(directory) (schema version \(outcome.schemaVersion)"
        line += outcome.schemaVersion < BrokerSchema.migrations.latestVersion
            ? "; the next start migrates it to \(BrokerSchema.migrations.latestVersion) after backing it up)" : ")"
        if let aside = outcome.setAsidePath { line += "; the previous database is now \(aside)" }
        print(line)
    }
}
