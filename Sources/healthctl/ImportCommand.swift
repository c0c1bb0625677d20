import BrokerModel
import BrokerPolicy
import CommandLineSupport
import Foundation
import HealthBrokerClient

/// `healthctl import FILE --app APP_ID`: JSON lines or CSV into the store, batch by batch.
enum ImportCommand {
    /// Parses each batch completely, then sends it; stops at the first bad line or refused batch.
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        let path = try GrantsCommands.required(command, "FILE")
        if try fileFormat(command, path: path) == .appleHealth {
            guard command.string("app") == nil, path != "-" else {
                throw ArgumentError(
                    .invalidValue, "--format apple-health reads FILE (export.zip or export.xml) and imports each of its sources as an app of its own: give no --app, and a file, not '-'",
                    command: command.commandName)
            }
            try await AppleHealthImport.run(path: path, batchSize: try batchSize(command, appleHealth: true), context: context)
            return
        }
        let keepSources = command.flag("keep-sources")
        let appID = keepSources ? command.string("app") : try command.requiredString("app")
        let batchSize = try batchSize(command, appleHealth: false)
        let format = try fileFormat(command, path: path)
        if keepSources { try checkKeepSources(command, path: path, format: format) }
        let reader = SampleFileReader(lines: try LineReader(path: path), format: format)
        let admin = try await context.connectAdmin()
        defer { admin.close() }
        if keepSources { try await checkSourcesRegistered(path: path, fallback: appID, admin: admin, context: context) }
        let importer = SampleImporter(admin: admin, appID: appID ?? "", keepSources: keepSources)
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

    /// Samples per call: --batch, else 1000 for lines and `AppleHealthImport.defaultBatchSize` for an export.
    static func batchSize(_ command: ParsedCommand, appleHealth: Bool) throws(ArgumentError) -> Int {
        try command.int("batch", in: 1...SampleValidator.maxBatch) ?? (appleHealth ? AppleHealthImport.defaultBatchSize : 1_000)
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

    /// --keep-sources reads the file twice (every source is checked before anything is sent), and
    /// only JSON lines name sources.
    static func checkKeepSources(_ command: ParsedCommand, path: String, format: SampleFileFormat) throws(ArgumentError) {
        guard format == .jsonl else {
            throw ArgumentError(.invalidValue, "--keep-sources needs JSON lines: CSV has no source column", command: command.commandName)
        }
        guard path != "-" else {
            throw ArgumentError(
                .invalidValue, "--keep-sources reads FILE twice (to check every source app first): give a file, not '-'",
                command: command.commandName)
        }
    }

    /// Refuses the import before anything is sent when a source the file names is not registered,
    /// listing every such app, or when a line names none and there is no --app for it.
    ///
    /// Registering them here instead would create apps (with tokens nobody holds) from a file's
    /// contents; the person should decide that, with 'healthctl apps add'.
    static func checkSourcesRegistered(path: String, fallback: String?, admin: BrokerAdmin, context: CommandContext) async throws {
        let lines = try LineReader(path: path)
        var sources: Set<String> = []
        var unnamed: Int?
        let decoder = JSONDecoder()
        while let line = lines.next() {
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            // A line that does not parse is reported, with its number, by the import itself.
            guard let decoded = try? decoder.decode(JSONSampleLine.self, from: Data(line.utf8)) else { continue }
            if let source = decoded.source, !source.isEmpty {
                sources.insert(source)
            } else if fallback == nil, unnamed == nil {
                unnamed = lines.lineNumber
            }
        }
        if let unnamed {
            throw CommandFailure(["\(path):\(unnamed): no \"source\" to keep", "give --app APP_ID for the lines that name no source"])
        }
        let registered: Set<String>
        do {
            registered = Set(try await admin.listApps().map(\.appID))
        } catch {
            throw CommandFailure(calling: error, socket: context.adminSocket)
        }
        let missing = sources.union(fallback.map { [$0] } ?? []).subtracting(registered).sorted()
        guard missing.isEmpty else {
            throw CommandFailure([
                "\(path) names source apps that are not registered: \(missing.joined(separator: ", "))",
                "nothing was imported; register them first (healthctl apps add APP_ID --name NAME), then import again",
            ])
        }
    }

    /// `--format`, else the format the file's extension implies; a usage error when neither says.
    static func fileFormat(_ command: ParsedCommand, path: String) throws(ArgumentError) -> SampleFileFormat {
        if let format = try command.choice("format", as: SampleFileFormat.self) { return format }
        if let format = SampleFileFormat.inferred(fromPath: path) { return format }
        throw ArgumentError(
            .invalidValue, "cannot tell the format of '\(path)' from its name: use .jsonl, .json, .csv, .zip or .xml, or give --format",
            command: command.commandName)
    }
}
