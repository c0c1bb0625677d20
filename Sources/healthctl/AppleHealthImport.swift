import BrokerModel
import BrokerPolicy
import CommandLineSupport
import Foundation
import HealthBrokerClient

/// `healthctl import --format apple-health FILE`: an Apple Health export.zip or export.xml, streamed.
enum AppleHealthImport {
    /// Streams the export into the broker, each `sourceName` as an app of its own, then prints the summary.
    static func run(path: String, batchSize: Int, context: CommandContext) async throws {
        let input = try AppleHealthInput(path: path)
        if ProcessInfo.processInfo.environment[parseOnlyVariable] == "1" {
            return await parseOnly(input, path: path, batchSize: batchSize)
        }
        let admin = try await context.connectAdmin()
        defer { admin.close() }
        var registered: Set<String>
        do {
            registered = Set(try await admin.listApps().map(\.appID))
        } catch {
            throw CommandFailure(calling: error, socket: context.adminSocket)
        }
        let feed = AppleHealthFeed(input: input, batchSize: batchSize)
        let importer = SampleImporter(admin: admin, appID: "", keepSources: true, maxInFlight: 2)
        var sources: [AppleHealthSourceName] = []
        var counts = AppleHealthCounts()
        var failure: String?
        do {
            for await item in feed.items {
                switch item {
                case .chunk(let chunk):
                    feed.took()
                    for source in chunk.newSources {
                        sources.append(source)
                        guard !registered.contains(source.appID) else { continue }
                        try await register(source, admin: admin, context: context)
                        registered.insert(source.appID)
                    }
                    try await importer.submit(chunk.batch)
                case .end(let finalCounts, let error):
                    counts = finalCounts
                    failure = error
                }
            }
            try await importer.drain()
        } catch let error as BatchFailure {
            importer.progress.interrupt()
            throw CommandFailure([
                "\(path): the broker refused a batch: \(error.error.code): \(error.error.message)",
                "\(importer.tally.imported) samples were imported before it; importing the export again adds only what is missing",
            ])
        }
        for (type, value) in counts.characteristics {
            do {
                try await admin.setCharacteristic(ObjectType(type), value: value)
            } catch {
                counts.invalid[type, default: (0, error.message)].count += 1
            }
        }
        importer.progress.finish(importer.tally.summary(seconds: importer.elapsedSeconds))
        Console.output(summary(counts, tally: importer.tally, sources: sources))
        if let failure {
            throw CommandFailure(["\(path): \(failure)", "the records before it were imported; a fixed export can be imported again (nothing is stored twice)"])
        }
    }

    /// Samples per call unless --batch says: the most one call may carry. Bigger calls cost the
    /// broker less per sample (fewer transactions and checkpoints, index pages written fewer times:
    /// 10,000 rather than 5,000 took its CPU per record from 13-15 µs to 10-11 µs, SCENARIOS.md),
    /// and memory stays bounded (`AppleHealthParser` keeps at most four batches' worth across
    /// sources, the feed two ahead, two calls in flight).
    static let defaultBatchSize = SampleValidator.maxBatch

    /// The environment variable that makes the import read and check the export without sending
    /// anything (no broker needed): the benchmark's measure of the reading side alone.
    static let parseOnlyVariable = "HEALTHCTL_IMPORT_PARSE_ONLY"

    /// Reads the whole export as the import would, drops the batches, and prints what was read and how fast.
    static func parseOnly(_ input: AppleHealthInput, path: String, batchSize: Int) async {
        let started = ContinuousClock.now
        let feed = AppleHealthFeed(input: input, batchSize: batchSize)
        var samples = 0
        var counts = AppleHealthCounts()
        var failure: String?
        for await item in feed.items {
            switch item {
            case .chunk(let chunk):
                feed.took()
                samples += chunk.batch.samples.count
            case .end(let finalCounts, let error):
                counts = finalCounts
                failure = error
            }
        }
        let (seconds, attoseconds) = started.duration(to: .now).components
        let elapsed = Double(seconds) + Double(attoseconds) / 1e18
        Console.output("parsed \(counts.records) records into \(samples) samples in \(String(format: "%.2f", elapsed)) s (\(Int(Double(counts.records) / max(elapsed, 1e-9))) records/s), nothing sent\(failure.map { ": \(path): \($0)" } ?? "")")
    }

    /// Registers a source as an app named after it, which may not ask for anything (no usage texts);
    /// its token is thrown away: it exists so Sources shows the phone, watch or app by name.
    static func register(_ source: AppleHealthSourceName, admin: BrokerAdmin, context: CommandContext) async throws {
        do {
            _ = try await admin.addApp(AppRegistration(appID: source.appID, name: AppleHealthSource.displayName(for: source.name)))
        } catch where error.code == .alreadyExists {
            return
        } catch {
            throw CommandFailure(calling: error, socket: context.adminSocket)
        }
    }

    /// The lines after the importer's own: what was read, per source, and what was not imported, by type.
    static func summary(_ counts: AppleHealthCounts, tally: ImportTally, sources: [AppleHealthSourceName]) -> String {
        var lines = [
            "read \(counts.records) records (\(counts.workouts) workouts; \(counts.correlations) correlations, kept as correlations of their member records)",
            "new: \(tally.imported - tally.alreadyPresent), duplicates: \(tally.alreadyPresent) (already stored, or repeated in the export as correlation members are), "
                + "not imported: \(counts.unknownTotal + counts.invalidTotal) (\(counts.unknownTotal) of unknown types, \(counts.invalidTotal) refused)",
        ]
        if !sources.isEmpty {
            lines.append("sources:")
            let rows = sources.map { ["  " + $0.name, $0.appID, String(counts.perSource[$0.name, default: 0])] }
            lines.append(TableFormatter.render(header: ["  SOURCE", "APP ID", "SAMPLES"], rows: rows))
        }
        if !counts.characteristics.isEmpty {
            lines.append("characteristics: " + counts.characteristics.map { "\(TypeArgument.alias(of: ObjectType($0.type))) \($0.value)" }.joined(separator: ", "))
        }
        if !counts.unknownTypes.isEmpty {
            lines.append("types the broker does not know (not imported):")
            for (type, count) in counts.unknownTypes.sorted(by: { $0.key < $1.key }) { lines.append("  \(type): \(count)") }
        }
        if !counts.invalid.isEmpty {
            lines.append("records the broker's rules refuse (not imported):")
            for (type, entry) in counts.invalid.sorted(by: { $0.key < $1.key }) { lines.append("  \(type): \(entry.count) (first: \(entry.reason))") }
        }
        if !counts.skippedElements.isEmpty {
            lines.append("elements not read:")
            for (name, count) in counts.skippedElements.sorted(by: { $0.key < $1.key }) { lines.append("  \(name): \(count)") }
        }
        return lines.joined(separator: "\n")
    }
}
