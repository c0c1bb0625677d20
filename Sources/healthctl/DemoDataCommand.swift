import BrokerModel
import BrokerPolicy
import CommandLineSupport
import HealthBrokerClient

/// `healthctl demo-data --app APP_ID`: generates a history and imports it (or writes it as JSON lines).
enum DemoDataCommand {
    /// Generates day by day; imports in batches with a progress line, or writes lines to --output.
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        let appID = try command.requiredString("app")
        let days = try command.int("days", in: 1...3_650) ?? 90
        let seed = try command.value("seed", expected: "a whole number from 0 to \(UInt64.max)") { UInt64($0) } ?? 1
        let batchSize = try command.int("batch", in: 1...SampleValidator.maxBatch) ?? 1_000
        let end = try command.value("end", expected: "YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ") { ISODate.parse($0) }
            ?? DemoDataRange.now()
        let range = DemoDataRange(end: end, days: days)
        let generator = DemoDataGenerator(seed: seed, sourceAppID: appID)
        if let output = command.string("output") {
            try write(generator, range: range, to: output)
        } else {
            try await importSamples(generator, range: range, appID: appID, batchSize: batchSize, context: context)
        }
    }

    /// Writes the samples as JSON lines to `path` (`-`: standard output).
    static func write(_ generator: DemoDataGenerator, range: DemoDataRange, to path: String) throws(CommandFailure) {
        let writer = try SampleWriter(path: path)
        var count = 0
        for day in range.days {
            for sample in generator.samples(day: day, from: range.start, to: range.end) {
                try writer.write(line: SampleLineWriter.line(for: sample))
                count += 1
            }
        }
        try writer.close()
        if !writer.isStandardOutput { Console.output("wrote \(count) samples (\(range.description)) to \(path)") }
    }

    /// Imports the samples as `appID`, two batches in flight while the next is generated.
    static func importSamples(
        _ generator: DemoDataGenerator, range: DemoDataRange, appID: String, batchSize: Int, context: CommandContext
    ) async throws(CommandFailure) {
        let admin = try await context.connectAdmin()
        defer { admin.close() }
        let importer = SampleImporter(admin: admin, appID: appID, maxInFlight: 2)
        importer.progress.update("generating \(range.description) as \(appID)…")
        do throws(BatchFailure) {
            var pending: [Sample] = []
            for day in range.days {
                pending += generator.samples(day: day, from: range.start, to: range.end)
                while pending.count >= batchSize {
                    try await importer.submit(ImportBatch(samples: Array(pending.prefix(batchSize))))
                    pending.removeFirst(batchSize)
                }
            }
            if !pending.isEmpty { try await importer.submit(ImportBatch(samples: pending)) }
            try await importer.finish()
        } catch {
            importer.progress.interrupt()
            var failure = ImportFailureText.refusedGenerated(error, imported: importer.tally.imported)
            if error.error.code == .unavailable {
                failure.lines += CommandFailure(calling: error.error, socket: context.adminSocket).lines.dropFirst()
            }
            throw failure
        }
    }
}
