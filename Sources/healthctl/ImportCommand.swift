import BrokerModel
import BrokerPolicy
import CommandLineSupport
import HealthBrokerClient

/// `healthctl import FILE --app APP_ID`: JSON lines or CSV into the store, batch by batch.
enum ImportCommand {
    /// Parses each batch completely, then sends it; stops at the first bad line or refused batch.
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        let path = try GrantsCommands.required(command, "FILE")
        let appID = try command.requiredString("app")
        let batchSize = try command.int("batch", in: 1...SampleValidator.maxBatch) ?? 1_000
        let format = try fileFormat(command, path: path)
        let reader = SampleFileReader(lines: try LineReader(path: path), format: format)
        let admin = try await context.connectAdmin()
        defer { admin.close() }
        let importer = SampleImporter(admin: admin, appID: appID)
        let badLine: SampleFileError?
        do {
            badLine = try await importAll(reader, into: importer, batchSize: batchSize)
        } catch {
            importer.progress.interrupt()
            var failure = ImportFailureText.refusedBatch(file: path, error, imported: importer.tally.imported)
            if error.error.code == .unavailable {
                failure.lines += CommandFailure(calling: error.error, socket: context.adminSocket).lines.dropFirst()
            }
            throw failure
        }
        if let badLine {
            importer.progress.interrupt()
            throw ImportFailureText.badLine(
                file: path, badLine, batchFirstLine: reader.batchFirstLine, imported: importer.tally.imported)
        }
    }

    /// Sends every batch; returns the first bad line (after the batch before it was answered), or nil when all went in.
    static func importAll(_ reader: SampleFileReader, into importer: SampleImporter, batchSize: Int) async throws(BatchFailure) -> SampleFileError? {
        while true {
            let batch: ImportBatch?
            do throws(SampleFileError) {
                batch = try reader.nextBatch(size: batchSize)
            } catch {
                try await importer.drain()
                return error
            }
            guard let batch else { break }
            try await importer.submit(batch)
        }
        try await importer.finish()
        return nil
    }

    /// `--format`, else the format the file's extension implies; a usage error when neither says.
    static func fileFormat(_ command: ParsedCommand, path: String) throws(ArgumentError) -> SampleFileFormat {
        if let format = try command.choice("format", as: SampleFileFormat.self) { return format }
        if let format = SampleFileFormat.inferred(fromPath: path) { return format }
        throw ArgumentError(
            .invalidValue, "cannot tell the format of '\(path)' from its name: use .jsonl, .json or .csv, or give --format",
            command: command.commandName)
    }
}
