import BrokerModel
import BrokerHTTPTransport
import BrokerTransport
import CommandLineSupport
import Foundation
import HealthBrokerClient

/// `healthctl ui [--port N] [--open]`: serves the page on 127.0.0.1 until interrupted.
///
/// The HTTP server runs on an event loop of its own thread (libh2o on libuv); the prompt watch and
/// the page's admin calls run as tasks and hand their results to the loop.
enum UICommand {
    /// The address the page listens on: loopback only.
    static let host = "127.0.0.1"

    static func run(_ command: ParsedCommand, context: CommandContext) async throws {
        if context.json {
            throw ArgumentError(.unexpectedValue, "ui prints its address only; --json is not supported", command: command.commandName)
        }
        let port = UInt16(try command.int("port", in: 0...65_535) ?? 0)
        // A browser closing a tab closes its connections; a write h2o makes to one after that must
        // fail with EPIPE, not end the process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // Fail now, plainly, when no broker is listening, rather than serving a page that cannot work.
        try await context.withAdmin { admin throws(BrokerError) in _ = try await admin.brokerInfo() }
        let socket = context.adminSocket
        let secret = UIGate.newSecret()
        let (loop, hub, gate) = try await startServer(port: port, secret: secret, socket: socket)
        let feed = UIPromptFeed(socket: socket, loop: loop, hub: hub)
        Console.output(gate.pageURL)
        if command.flag("open") { openInBrowser(gate.pageURL) }
        // Runs until the process is interrupted (SIGINT/SIGTERM end it: nothing is left to save).
        await feed.run()
    }

    /// Starts the loop thread with the server on it; returns once it listens (or throws why not).
    private static func startServer(port: UInt16, secret: String, socket: String) async throws -> (EventLoop, UIEventHub, UIGate) {
        let link = UIAdminLink(socket: socket)
        return try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                let loop: EventLoop
                do {
                    loop = try EventLoop()
                } catch {
                    continuation.resume(throwing: CommandFailure(["cannot start an event loop: \(error)"]))
                    return
                }
                let hub = UIEventHub(loop: loop)
                let started: (HTTPServer, UIGate)
                do throws(BrokerError) {
                    var routing: UIServer?
                    let server = try HTTPServer(loop: loop, host: host, port: port) { request in routing?.handle(request) }
                    let gate = UIGate(secret: secret, port: server.port)
                    let api = UIAPI(link: link) { loop.execute { hub.changed() } }
                    routing = UIServer(loop: loop, gate: gate, hub: hub, api: api)
                    started = (server, gate)
                } catch {
                    continuation.resume(throwing: CommandFailure(["cannot listen on \(host):\(port): \(error.message)"]))
                    return
                }
                hub.start()
                continuation.resume(returning: (loop, hub, started.1))
                withExtendedLifetime(started.0) { loop.run() }
            }
            thread.name = "healthctl-ui-loop"
            thread.start()
        }
    }

    /// Opens `url` with xdg-open; a failure is reported, not fatal (the address is printed anyway).
    private static func openInBrowser(_ url: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url]
        do {
            try process.run()
        } catch {
            Console.error("healthctl ui: could not run xdg-open (\(error)); open the address above yourself")
        }
    }
}
