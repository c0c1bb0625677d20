import BrokerSupport
import CommandLineSupport

extension HealthctlSpec {
    /// `healthctl call METHOD [JSON] [--app ID --token T] [--socket PATH] [--compact]`.
    static let call = CommandSpec(
        "call",
        summary: "Call any method by name with a JSON request and print the reply as JSON (like grpcurl).",
        discussion: """
            Every method of the .proto is callable here as soon as the broker serves it, a new admin \
            method included: no command of its own is needed ('healthctl describe' lists them). The \
            request is protobuf's canonical JSON of the method's request message ('healthctl describe \
            METHOD' shows it): lowerCamelCase or .proto field names, 64-bit integers as strings or \
            numbers, bytes as base64, enums by name. JSON is the text itself, @FILE for a file's \
            contents, or - for standard input; none means {}. Admin methods go to the admin socket; app \
            methods are served on the app socket only and are refused without --app and --token (a \
            Hello opens the session there first); Ping and PingStream use the app socket when --app is \
            given. A unary reply prints as one JSON object (indented unless --compact); a stream prints \
            each item as one JSON line. A broker error prints as 'healthctl: CODE (domain): message' \
            with exit status 1; an unknown method (the message lists the methods) or bad JSON (the \
            message names where, as a JSON path) exits with 64.
              healthctl call AdminListApps '{}'
              healthctl call AdminStoreInfo
              healthctl call EarliestPermittedSampleDate --app com.example.steps --token "$TOKEN"
              healthctl call PingStream '{"count": 3}'
            """,
        options: [
            .option("app", value: "APP_ID", help: "The app to open the session as (app methods)."),
            .option("token", value: "TOKEN", help: "The app's token (prefer the variable: arguments show in ps).",
                    environment: "HEALTHBROKER_APP_TOKEN"),
            .option("socket", value: "PATH", help: "The daemon's app socket.",
                    default: DefaultPaths.appSocket, environment: "HEALTHBROKER_APP_SOCKET"),
            .option("timeout", value: "SECONDS", help: "The call's deadline at the broker (default: none)."),
            .flag("compact", help: "Print a unary reply on one line."),
        ],
        positionals: [
            PositionalSpec("METHOD", help: "The method's name in the .proto (AdminListApps; any case)."),
            PositionalSpec("JSON", help: "The request: JSON text, @FILE or - (default: {}).", optional: true),
        ]
    )

    /// `healthctl describe [NAME]`.
    static let describe = CommandSpec(
        "describe",
        summary: "List the methods, or show a method's request and response or a message's fields.",
        discussion: """
            Without NAME: every method with its service, socket, unary or stream, and request → response. \
            With a method name: its request and response messages; with a message or enum name: its \
            fields or values, in .proto syntax with the .proto's comments. Names match in any case.
            """,
        positionals: [PositionalSpec("NAME", help: "A method, message or enum name.", optional: true)]
    )
}
