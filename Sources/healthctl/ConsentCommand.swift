import BrokerModel
import BrokerPolicy
import BrokerSupport
import CommandLineSupport
import Foundation
import HealthBrokerClient

/// `healthctl consent [--policy FILE] [--once]`: a consent agent, interactive or driven by a policy.
enum ConsentCommand {
    /// Why an agent stopped.
    enum Ending: Equatable, Sendable {
        /// It was done: input ended, or `--once` answered its prompt.
        case finished
        /// The broker closed the prompt watch.
        case watchClosed
    }

    /// Runs the agent the options ask for, until it is done or interrupted (a policy agent also stops when the broker goes away).
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        if context.json {
            throw ArgumentError(.unexpectedValue, "consent prints text only; --json is not supported", command: command.commandName)
        }
        let once = command.flag("once")
        let ending: Ending
        if let path = command.string("policy") {
            let policy = try loadPolicy(path, command: command.commandName)
            ending = try await context.withAdmin { admin throws(BrokerError) in
                try await PolicyAgent(policy: policy, once: once).run(admin)
            }
        } else {
            let echo = isatty(STDIN_FILENO) == 0
            let socket = context.adminSocket
            ending = try await context.withAdmin { admin throws(BrokerError) in
                try await InteractiveAgent(once: once, echoInput: echo).run(admin) { () async throws(BrokerError) in
                    try await BrokerAdmin.connect(socketPath: socket)
                }
            }
        }
        if ending == .watchClosed {
            throw CommandFailure(["the broker closed the prompt watch", "is healthbrokerd stopping? socket: \(context.adminSocket)"])
        }
    }

    /// Reads and parses a consent policy file; any problem is a usage error naming the file.
    static func loadPolicy(_ path: String, command: String) throws(ArgumentError) -> ConsentPolicy {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ArgumentError(.invalidValue, "cannot read the consent policy \(path)", command: command)
        }
        do throws(BrokerError) {
            return try ConsentPolicy(jsonData: Array(data), now: Microseconds.now())
        } catch {
            let prefix = "consent policy: "
            let reason = error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
            throw ArgumentError(.invalidValue, "consent policy \(path): \(reason)", command: command)
        }
    }
}
