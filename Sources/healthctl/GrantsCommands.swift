import BrokerPolicy
import CommandLineSupport
import HealthBrokerClient

/// `healthctl grants|grants set|revoke|explain`: what an app was granted, setting it, forgetting it,
/// and why it sees what it sees.
enum GrantsCommands {
    /// Prints an app's grants, or with `--type` one type's grants across apps, as a table or a JSON array.
    static func grants(_ command: ParsedCommand, context: CommandContext) async throws {
        if let typeText = command.string("type") {
            guard command.positional("APP_ID") == nil else {
                throw ArgumentError(.unexpectedArgument, "give either APP_ID or --type TYPE, not both", command: command.commandName)
            }
            try await typeGrants(TypeArgument.resolve(typeText, command: command.commandName), context: context)
            return
        }
        guard let appID = command.positional("APP_ID") else {
            throw ArgumentError(.missingArgument, "missing APP_ID (or --type TYPE)", command: command.commandName)
        }
        let grants = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.grants(for: appID)
        }
        Console.output(context.json ? JSONOutput.grants(grants) : TextOutput.grantTable(appID: appID, grants: grants, time: context.time))
    }

    /// Prints one type's grant in every registered app that has one, by app id.
    ///
    /// There is no admin call for this: it lists the apps and asks for each one's grants, so an app
    /// removed in between (NOT_FOUND) is skipped rather than failing the listing.
    static func typeGrants(_ type: ObjectType, context: CommandContext) async throws {
        let rows = try await context.withAdmin { admin throws(BrokerError) -> [(appID: String, grant: Grant)] in
            var rows: [(appID: String, grant: Grant)] = []
            for app in try await admin.listApps().sorted(by: { $0.appID < $1.appID }) {
                do throws(BrokerError) {
                    if let grant = try await admin.grants(for: app.appID).first(where: { $0.type == type }) {
                        rows.append((app.appID, grant))
                    }
                } catch {
                    if error.code == .notFound { continue }
                    throw error
                }
            }
            return rows
        }
        Console.output(context.json ? JSONOutput.typeGrants(rows) : TextOutput.typeGrantTable(type: type, rows: rows, time: context.time))
    }

    /// Sets an app's decision for one type directly and prints the grant as recorded.
    static func set(_ command: ParsedCommand, context: CommandContext) async throws {
        guard command.string("type") == nil else {
            throw ArgumentError(.unexpectedArgument, "--type belongs to 'grants --type TYPE'; 'grants set' names its TYPE as an argument", command: command.commandName)
        }
        let appID = try required(command, "APP_ID")
        let type = try TypeArgument.resolve(try required(command, "TYPE"), command: command.commandName)
        let read = try readDecision(command)
        let share = try command.value("share", expected: "allow or deny") { text -> ShareDecision? in
            switch text.lowercased() {
            case "allow": .allow
            case "deny": .deny
            default: nil
            }
        }
        guard share != nil || read != nil else {
            throw ArgumentError(.missingArgument, "nothing to set: give READ (full, deny or from DATE) and/or --share allow|deny", command: command.commandName)
        }
        let grant = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.setGrant(appID: appID, type: type, share: share, read: read)
        }
        Console.output(context.json ? JSONOutput.grantSet(appID: appID, grant: grant) : TextOutput.grantSet(appID: appID, grant: grant, time: context.time))
    }

    /// Denies one type to every app allowed to read or write it (the page's "Turn off for all apps")
    /// and prints the grants as recorded.
    ///
    /// As for `grants --type` there is no admin call for all apps at once: it lists the apps and sets
    /// each allowed one's grant; an app removed in between (NOT_FOUND) is skipped.
    static func turnOff(_ command: ParsedCommand, context: CommandContext) async throws {
        let type = try TypeArgument.resolve(try required(command, "TYPE"), command: command.commandName)
        let rows = try await context.withAdmin { admin throws(BrokerError) -> [(appID: String, grant: Grant)] in
            var rows: [(appID: String, grant: Grant)] = []
            for app in try await admin.listApps().sorted(by: { $0.appID < $1.appID }) {
                do throws(BrokerError) {
                    guard let grant = try await admin.grants(for: app.appID).first(where: { $0.type == type }),
                          allows(grant) else { continue }
                    let set = try await admin.setGrant(
                        appID: app.appID, type: type, share: grant.share == nil ? nil : .deny, read: grant.read == nil ? nil : .deny)
                    rows.append((app.appID, set))
                } catch {
                    if error.code == .notFound { continue }
                    throw error
                }
            }
            return rows
        }
        Console.output(context.json ? JSONOutput.typeGrants(rows) : TextOutput.turnedOff(type: type, rows: rows, time: context.time))
    }

    /// Whether `grant` lets its app read (full or from a date) or write the type.
    static func allows(_ grant: Grant) -> Bool {
        switch grant.read {
        case .full?, .limited?: return true
        case .deny?, nil: return grant.share == .allow
        }
    }

    /// The READ and DATE arguments of `grants set`: `full`, `deny`, `from DATE`, or neither (nil).
    static func readDecision(_ command: ParsedCommand) throws(ArgumentError) -> ReadDecision? {
        let name = command.commandName
        let date = command.positional("DATE")
        switch command.positional("READ")?.lowercased() {
        case nil:
            return nil
        case "full", "deny":
            if let date {
                throw ArgumentError(.unexpectedArgument, "unexpected argument '\(date)': only 'from' takes a DATE", command: name)
            }
            return command.positional("READ")?.lowercased() == "full" ? .full : .deny
        case "from":
            guard let date else {
                throw ArgumentError(.missingArgument, "'from' needs a DATE (YYYY-MM-DD, midnight in your time zone)", command: name)
            }
            // A day is local midnight, as the consent agent and the page take it; an instant is exact.
            guard let micros = date.utf8.count == 10 ? LocalTime.midnight(ofDate: date) : ISODate.parse(date) else {
                throw ArgumentError(.invalidValue, "invalid DATE '\(date)': expected YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ", command: name)
            }
            return .limited(fromMicros: micros)
        case let other?:
            throw ArgumentError(.invalidValue, "invalid READ '\(other)': expected full, deny or from DATE", command: name)
        }
    }

    /// Revokes an app's grants for the named types (none: all) and prints how many went.
    static func revoke(_ command: ParsedCommand, context: CommandContext) async throws {
        let appID = try required(command, "APP_ID")
        let types = try TypeArgument.resolveAll(command.positionals("TYPE"), command: command.commandName)
        let revoked = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.revoke(appID: appID, types: types)
        }
        Console.output(
            context.json
                ? JSONOutput.revocation(appID: appID, types: types, revoked: revoked)
                : TextOutput.revocation(appID: appID, types: types, revoked: revoked))
    }

    /// Prints the broker's explanation of one app's access to one type, with the grant's fields.
    static func explain(_ command: ParsedCommand, context: CommandContext) async throws {
        let appID = try required(command, "APP_ID")
        let type = try TypeArgument.resolve(try required(command, "TYPE"), command: command.commandName)
        let explanation = try await context.withAdmin { admin throws(BrokerError) in
            try await admin.explain(appID: appID, type: type)
        }
        Console.output(
            context.json
                ? JSONOutput.explanation(appID: appID, type: type, explanation)
                : TextOutput.explanation(appID: appID, type: type, explanation, time: context.time))
    }

    /// The positional argument `name`; the parser already requires it, so absence is a usage error only in theory.
    static func required(_ command: ParsedCommand, _ name: String) throws(ArgumentError) -> String {
        guard let value = command.positional(name) else {
            throw ArgumentError(.missingArgument, "missing required argument '\(name)'", command: command.commandName)
        }
        return value
    }
}
