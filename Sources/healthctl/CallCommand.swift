#if canImport(Glibc)
import Glibc
#endif
import BrokerModel
import BrokerWire
import CommandLineSupport

/// `healthctl call METHOD [JSON]`: one call by name, the request from JSON, the reply as JSON.
enum CallCommand {
    /// The request's call id (after Hello's, on the app socket).
    private static let callID: UInt64 = 2
    /// Stream items granted back at a time; the broker starts with its default window of 64.
    private static let creditBatch: UInt32 = 32

    /// Runs the call; bad input is an `ArgumentError` (exit 64), a broker error a `CommandFailure` (exit 1).
    static func run(_ command: ParsedCommand, context: CommandContext) throws {
        let name = command.positional("METHOD") ?? ""
        guard let method = method(named: name) else {
            throw ArgumentError(.invalidValue, "unknown method '\(name)' ('healthctl describe' lists them)", command: "healthctl call")
        }
        let text = try requestText(command.positional("JSON"))
        let request: Proto.Call.Request
        do {
            request = try method.request(json: ProtoJSON.parse(text))
        } catch {
            throw ArgumentError(.invalidValue, "bad \(method.name) request JSON: \(error)", command: "healthctl call")
        }
        var call = Proto.Call()
        call.callID = callID
        call.request = request
        if let timeout = command.string("timeout") {
            guard let seconds = Double(timeout), seconds > 0, seconds < 1e9 else {
                throw ArgumentError(.invalidValue, "--timeout wants a positive number of seconds, not '\(timeout)'", command: "healthctl call")
            }
            call.timeoutMicros = Int64(seconds * 1e6)
        }
        let app = command.string("app")
        let useApp = method.socket == .app || (method.socket == .both && app != nil)
        let path = useApp ? try command.requiredString("socket") : context.adminSocket
        let compact = command.flag("compact")
        let token = command.string("token")
        if useApp, app == nil || token == nil {
            throw ArgumentError(.missingOption, "\(method.name) is an app method: give --app and --token", command: "healthctl call")
        }
        let socket: WireSocket
        do {
            socket = try WireSocket(path: path)
        } catch {
            throw CommandFailure(connecting: error, socket: path)
        }
        do throws(BrokerError) {
            if useApp, let app, let token { try hello(socket, app: app, token: token) }
            try socket.send(frame(.call(call)))
            if method.isServerStreaming {
                try readStream(socket)
            } else {
                Console.output(try readUnary(socket).text(pretty: !compact))
            }
        } catch {
            throw CommandFailure([error.description])
        }
    }

    /// The method named `name` in the .proto, in any case.
    static func method(named name: String) -> ProtoMethod? {
        ProtoMethod.allCases.first { $0.name == name } ?? ProtoMethod.allCases.first { $0.name.lowercased() == name.lowercased() }
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

    /// Opens the app session: Hello as `app` with `token` (call id 1).
    private static func hello(_ socket: WireSocket, app: String, token: String) throws(BrokerError) {
        var hello = Proto.HelloRequest()
        hello.appID = app
        hello.appToken = token
        hello.protocolVersion = 1
        var call = Proto.Call()
        call.callID = 1
        call.request = .hello(hello)
        try socket.send(frame(.call(call)))
        let reply = try socket.receive()
        try check(reply)
    }

    /// Reads frames until the call's reply: its response as JSON, or its error thrown.
    private static func readUnary(_ socket: WireSocket) throws(BrokerError) -> ProtoJSON {
        while true {
            let reply = try socket.receive()
            try check(reply)
            guard reply.callID == callID else { continue }
            return reply.response?.valueJSON ?? .object([])
        }
    }

    /// Prints each stream item as one JSON line until the final status; an error status is thrown.
    private static func readStream(_ socket: WireSocket) throws(BrokerError) {
        var taken: UInt32 = 0
        while true {
            let reply = try socket.receive()
            try check(reply)
            guard reply.callID == callID else { continue }
            guard case .streamItem(let item)? = reply.response else { return }  // the final OK status
            Console.output((item.item?.valueJSON ?? .object([])).text(pretty: false))
            taken += 1
            if taken == creditBatch {
                var credit = Proto.Credit()
                credit.callID = callID
                credit.items = taken
                try socket.send(frame(.credit(credit)))
                taken = 0
            }
        }
    }

    /// Throws the status a frame carries when it is not OK (a connection-level one too).
    private static func check(_ reply: Proto.ServerFrame) throws(BrokerError) {
        guard let status = reply.status, status.code != .ok else { return }
        throw BrokerError(
            code: StatusCode(wireValue: status.code.rawValue), domain: DomainCode(wireValue: status.domain.rawValue),
            message: status.message)
    }

    private static func frame(_ kind: Proto.ClientFrame.Kind) -> Proto.ClientFrame {
        var frame = Proto.ClientFrame()
        frame.kind = kind
        return frame
    }
}
