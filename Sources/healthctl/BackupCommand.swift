import BrokerModel
import CommandLineSupport
import Foundation
import HealthBrokerClient

/// `healthctl backup FILE`: the broker writes a consistent copy of its whole store to FILE.
enum BackupCommand {
    /// Asks for the backup and prints where it went and how large it is.
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        let file = try GrantsCommands.required(command, "FILE")
        // The broker opens the path, from its own working directory: make a relative one ours.
        let path = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        let admin = try await context.connectAdmin()
        defer { admin.close() }
        let backup: (path: String, bytes: Int64, pages: Int64)
        do {
            backup = try await admin.backup(to: path)
        } catch {
            throw CommandFailure(calling: error, socket: context.adminSocket)
        }
        if context.json {
            Console.output(JSONOutput.encode(BackupJSON(path: backup.path, bytes: backup.bytes, pages: backup.pages)))
        } else {
            Console.output("backed up \(backup.pages) pages (\(backup.bytes) bytes) to \(backup.path)")
        }
    }
}
