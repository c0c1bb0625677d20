import BrokerModel
import CommandLineSupport
import HealthBrokerClient

/// `healthctl export`: every stored sample (of a type, of an app) as JSON lines.
enum ExportCommand {
    /// Streams the samples out page by page; with --output, prints a summary line when done.
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        let type = try command.string("type").map { text throws(ArgumentError) in
            try TypeArgument.resolve(text, command: command.commandName)
        }
        let appID = command.string("app")
        let writer = try SampleWriter(path: command.string("output"))
        let admin = try await context.connectAdmin()
        defer { admin.close() }
        let started = ContinuousClock.now
        var count = 0
        do {
            for try await sample in admin.exportSamples(type: type, appID: appID) {
                try writer.write(line: SampleLineWriter.line(for: sample))
                count += 1
            }
        } catch let error as BrokerError {
            try? writer.close()
            throw CommandFailure(calling: error, socket: context.adminSocket)
        }
        try writer.close()
        if !writer.isStandardOutput {
            let (seconds, attoseconds) = started.duration(to: .now).components
            let elapsed = Double(seconds) + Double(attoseconds) / 1e18
            Console.output("exported \(count) samples to \(writer.path) in \(ImportTally.seconds(elapsed)) s")
        }
    }
}
