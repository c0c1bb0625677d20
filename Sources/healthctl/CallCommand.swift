#if canImport(Glibc)
import Glibc
#endif
import BrokerModel
import BrokerWire
import CommandLineSupport
import HealthBrokerClient

/// `healthctl call METHOD [JSON]`: one call by name, the request from JSON, the reply as JSON.
///
/// It goes through the client library's connection (`BrokerAdmin`'s, or `HealthStore`'s for an app
/// method) at its `package` level, which carries the generated request and response as they are:
/// nothing is mapped to model values (which would drop or refuse what the model cannot hold, and a
/// caller by hand wants to see it), and no generated type reaches the client's public API.
enum CallCommand {
    /// Stream items the broker may send ahead of the printing (its default window).
    private static let streamWindow: UInt32 = 64

    /// Runs the call; bad input is an `ArgumentError` (exit 64), a broker error a `CommandFailure` (exit 1).
    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        let name = command.positional("METHOD") ?? ""
        guard let method = method(named: name) else {
            throw ArgumentError(.invalidValue, unknownMethodMessage(name), command: "healthctl call")
        }
        let text = try requestText(command.positional("JSON"))
        let request: Proto.Call.Request
        do {
            request = try method.request(json: ProtoJSON.parse(text))
        } catch {
            throw ArgumentError(.invalidValue, "bad \(method.name) request JSON: \(error)", command: "healthctl call")
        }
        var timeout: Duration?
        if let text = command.string("timeout") {
            guard let seconds = Double(text), seconds > 0, seconds < 1e9 else {
                throw ArgumentError(.invalidValue, "--timeout wants a positive number of seconds, not '\(text)'", command: "healthctl call")
            }
            timeout = .microseconds(Int64(seconds * 1e6))
        }
        let app = command.string("app")
        let useApp = method.socket == .app || (method.socket == .both && app != nil)
        let compact = command.flag("compact")
        let token = command.string("token")
        if useApp, app == nil || token == nil {
            throw ArgumentError(
                .missingOption, "\(method.name) is an app method (served on the app socket only): give --app and --token",
                command: "healthctl call")
        }
        let connection: BrokerConnection
        let close: () -> Void
        if useApp, let app, let token {
            let path = try command.requiredString("socket")
            do {
                let store = try await HealthStore.connect(socketPath: path, appID: app, appToken: token)
                (connection, close) = (store.connection, store.close)
            } catch {
                // A refused Hello (wrong token, unknown app) is the broker's answer, not a missing broker.
                throw error.code == .unavailable ? CommandFailure(connecting: error, socket: path) : CommandFailure([error.description])
            }
        } else {
            let admin = try await context.connectAdmin()
            (connection, close) = (admin.connection, admin.close)
        }
        defer { close() }
        do throws(BrokerError) {
            if method.isServerStreaming {
                try await connection.rawStream(request, timeout: timeout, window: streamWindow) { item in
                    Console.output((item.item?.valueJSON ?? .object([])).text(pretty: false))
                }
            } else {
                let response = try await connection.unary(request, timeout: timeout)
                Console.output(response.valueJSON.text(pretty: !compact))
            }
        } catch {
            throw CommandFailure([error.description])
        }
    }

    /// The method named `name` in the .proto, in any case.
    static func method(named name: String) -> ProtoMethod? {
        ProtoMethod.allCases.first { $0.name == name } ?? ProtoMethod.allCases.first { $0.name.lowercased() == name.lowercased() }
    }

    /// Names the methods there are, by socket, after saying `name` is none of them.
    static func unknownMethodMessage(_ name: String) -> String {
        func names(_ socket: MethodSocket) -> String {
            ProtoMethod.allCases.filter { $0.socket == socket }.map(\.name).joined(separator: " ")
        }
        return """
            unknown method '\(name)'; the admin socket serves: \(names(.admin)); the app socket \
            (--app, --token): \(names(.app)); either: \(names(.both)) ('healthctl describe METHOD' shows one)
            """
    }

    /// The JSON text `argument` stands for: itself, a file's contents (`@FILE`), standard input (`-`); none is `{}`.
    static func requestText(_ argument: String?) throws(ArgumentError) -> String {
        guard let argument else { return "{}" }
        if argument == "-" {
            var lines: [String] = []
            while let line = readLine(strippingNewline: false) { lines.append(line) }
            return lines.joined()
        }
        guard argument.hasPrefix("@") else { return argument }
        let path = String(argument.dropFirst())
        guard let file = fopen(path, "r") else {
            throw ArgumentError(.invalidValue, "cannot read \(path): \(String(cString: strerror(errno)))", command: "healthctl call")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw ArgumentError(.invalidValue, "\(path) is not UTF-8 text", command: "healthctl call")
        }
        return text
    }
}
