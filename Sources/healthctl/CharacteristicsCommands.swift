import BrokerModel
import CommandLineSupport
import HealthBrokerClient

/// `healthctl characteristics set|clear`.
enum CharacteristicsCommands {
    /// Stores a characteristic value.
    static func set(_ command: ParsedCommand, context: CommandContext) async throws {
        let type = try characteristicType(command)
        let value = try GrantsCommands.required(command, "VALUE")
        try await store(type, value: value, context: context)
    }

    /// Clears a characteristic value.
    static func clear(_ command: ParsedCommand, context: CommandContext) async throws {
        try await store(try characteristicType(command), value: nil, context: context)
    }

    /// The TYPE argument, which must name a characteristic type.
    static func characteristicType(_ command: ParsedCommand) throws(ArgumentError) -> ObjectType {
        let text = try GrantsCommands.required(command, "TYPE")
        let type = try TypeArgument.resolve(text, command: command.commandName)
        guard TypeCatalogue.descriptor(for: type)?.isCharacteristic == true else {
            let names = TypeCatalogue.all.filter(\.isCharacteristic).map { TypeArgument.alias(of: $0.type) }
            throw ArgumentError(
                .invalidValue, "'\(text)' is not a characteristic type (characteristics: \(names.joined(separator: ", ")))",
                command: command.commandName)
        }
        return type
    }

    private static func store(_ type: ObjectType, value: String?, context: CommandContext) async throws {
        try await context.withAdmin { admin throws(BrokerError) in
            try await admin.setCharacteristic(type, value: value)
        }
        Console.output(
            context.json ? JSONOutput.characteristic(type, value: value) : TextOutput.characteristic(type, value: value))
    }
}
